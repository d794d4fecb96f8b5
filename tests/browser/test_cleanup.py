"""Stopping the suite leaves nothing behind: pytest, sent SIGTERM in the middle of the
JupyterLab widget test, ends the server, its kernel and chromium before it exits."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _processes import command_line, end, with_marker

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
WIDGET_TEST = "tests/browser/test_widgets_browser.py"
START = 150  # seconds for the inner run to have JupyterLab, a kernel and chromium running


def running(marker: str) -> dict[str, list[int]]:
    """The inner run's processes by kind: JupyterLab, kernels, chromium."""
    kinds = {"jupyterlab": [], "kernel": [], "chromium": []}
    for pid in with_marker(marker):
        line = command_line(pid)
        if "ipykernel" in line:
            kinds["kernel"].append(pid)
        elif "jupyter-lab" in line or "jupyter lab" in line:
            kinds["jupyterlab"].append(pid)
        elif "chrom" in line:
            kinds["chromium"].append(pid)
    return kinds


def test_sigterm_mid_test_leaves_no_server_kernel_or_browser(chromium_launch):
    marker = f"TTT_TEST_RUN={secrets.token_hex(8)}"
    env = {**os.environ, marker.split("=")[0]: marker.split("=")[1]}
    inner = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              WIDGET_TEST], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START
        while not all(running(marker).values()):
            assert inner.poll() is None, inner.stdout.read().decode(errors="replace")
            assert time.monotonic() < deadline, f"not all started: {running(marker)}"
            time.sleep(0.5)
        before = running(marker)
        inner.send_signal(signal.SIGTERM)
        inner.wait(timeout=60)
        time.sleep(1)
        left = {kind: [command_line(pid)[:120] for pid in pids]
                for kind, pids in running(marker).items() if pids}
        assert not left, f"left running after SIGTERM: {left} (before: {before})"
        assert not with_marker(marker), [command_line(pid)[:120] for pid in with_marker(marker)]
        assert inner.returncode != 0  # interrupted, not passed
    finally:
        end(with_marker(marker) + ([inner.pid] if inner.poll() is None else []))
