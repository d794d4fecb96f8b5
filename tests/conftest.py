"""Fixtures shared by every test, and the suite's guarantee that nothing outlives it: whatever
a test started (servers, kernels, browsers, sandboxes) is ended when pytest ends, is stopped
with Ctrl-C, or is sent SIGTERM."""
import os
import signal
import sys
import threading

import pytest

from _processes import end_descendants

from ttt_lib import BitBoard, ListBoard
from ttt_lib.game import reachable

SLOW_LIMIT = 600  # seconds for a test marked slow that names no limit of its own
SIGTERM_GRACE = 30  # seconds pytest may take to report after SIGTERM before it is ended


def _on_sigterm(signum, frame):
    """End every process the run started, then stop pytest as ``pytest.exit`` does
    (fixtures torn down, the reason reported); a watchdog ends pytest if that part hangs."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_descendants(grace=2)
    watchdog = threading.Timer(SIGTERM_GRACE, os._exit, (128 + signal.SIGTERM,))
    watchdog.daemon = True
    watchdog.start()
    pytest.exit("pytest was sent SIGTERM", returncode=128 + signal.SIGTERM)


def pytest_configure(config):
    if sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)


def pytest_collection_modifyitems(config, items):
    """A test marked slow may take up to SLOW_LIMIT; the rest keep the suite's limit."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_LIMIT))


def pytest_unconfigure(config):
    if sys.platform.startswith("linux"):
        end_descendants(grace=2)


@pytest.fixture(scope="session")
def all_bitboards():
    """The 5,478 reachable positions (X opens), as BitBoards, breadth-first."""
    return list(reachable(BitBoard()).values())


@pytest.fixture(scope="session")
def all_listboards():
    """The same positions found by searching with the list board."""
    return list(reachable(ListBoard()).values())
