"""Fixtures shared by every test, and the suite's guarantee that nothing outlives it: whatever
a test started (servers, kernels, browsers, sandboxes) is ended when pytest ends, is stopped
with Ctrl-C, or is sent SIGTERM."""
import gc
import json
import os
import resource
import signal
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import settings

from _processes import end_descendants

from ttt_lib import BitBoard, ListBoard
from ttt_lib.game import reachable

SLOW_LIMIT = 600  # seconds for a test marked slow that names no limit of its own
SIGTERM_GRACE = 30  # seconds pytest may take to report after SIGTERM before it is ended
# The suite's budget: no test outside the notebook and browser runs may spend more than this
# many seconds of CPU (its own process and the subprocesses it waited for, set-up included).
# CPU, not wall-clock time, so a busy machine or a parallel run cannot fail an honest test;
# wall-clock times over the same figure are named in the summary too.
BUDGET_SECONDS = 60
# Property tests draw the same examples on every run (the standard: everything random takes a
# seed), and keep no example database between runs; a test's own settings add to these.
settings.register_profile("course", derandomize=True, database=None)
settings.load_profile("course")
GROUPS_FILE = "TTT_TEST_GROUPS"  # the variable naming the file of groups, under pytest-xdist
EXEMPT_MARKERS = ("browser", "pyodide", "lite_all", "runs_notebooks")


def _on_sigterm(signum, frame):
    """End every process the run started, then stop pytest as ``pytest.exit`` does
    (fixtures torn down, the reason reported); a watchdog ends pytest if that part hangs."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_descendants(grace=2)
    watchdog = threading.Timer(SIGTERM_GRACE, os._exit, (128 + signal.SIGTERM,))
    watchdog.daemon = True
    watchdog.start()
    pytest.exit("pytest was sent SIGTERM", returncode=128 + signal.SIGTERM)


def pytest_collection_modifyitems(config, items):
    """A test marked slow may take up to SLOW_LIMIT; the rest keep the suite's limit. Under
    pytest-xdist the groups of tests that must share a worker (``share_a_worker``) go to the
    scheduler (``pytest_xdist_make_scheduler``) through a file."""
    groups, by_fixtures = {}, fixture_groups(items)
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_LIMIT))
        group = share_a_worker(item) or by_fixtures.get(item.nodeid)
        if group:
            groups[item.nodeid] = group
    if os.environ.get(GROUPS_FILE) and getattr(config, "workerinput", {}).get("workerid") == "gw0":
        path = Path(os.environ[GROUPS_FILE])
        path.with_suffix(".part").write_text(json.dumps(groups))
        path.with_suffix(".part").replace(path)  # whole, or not there at all


def pytest_collection_finish(session):
    """The collected tests (thousands, every notebook cell among them) live until the end: they
    are moved out of the garbage collector's sight, so its full passes while a test searches
    do not walk them again and again (about a tenth of the CPU of a worker's searches)."""
    gc.collect()
    gc.freeze()


def pytest_configure(config):
    if sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        # the controller: its workers inherit the environment, and the first one writes here
        os.environ[GROUPS_FILE] = str(Path(tempfile.mkdtemp(prefix="ttt-groups-")) / "groups.json")


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's scope scheduling with the course's groups: each group is one unit of
    work for one worker; every other test is a unit of its own. (pytest-xdist's own loadgroup
    marks node ids, which pytest 9 no longer lets a plugin change.)"""
    from xdist.scheduler import LoadScopeScheduling

    class CourseScheduling(LoadScopeScheduling):
        groups: dict | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:
                path = Path(os.environ[GROUPS_FILE])
                self.groups = json.loads(path.read_text()) if path.exists() else {}
            return self.groups.get(nodeid, nodeid)

    return CourseScheduling(config, log)


def share_a_worker(item) -> str | None:
    """The group of tests ``item`` must run with on one worker, or None when any worker will do
    (or when only a costly fixture ties it to others: ``fixture_groups``).

    The rule, not a list: the cells of one notebook share its kernel and run in order, so a
    notebook is one group; a test that names its own group (``pytest.mark.xdist_group``)
    keeps it.
    """
    path = item.nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        return path
    named = item.get_closest_marker("xdist_group")
    if named:
        return str(named.args[0] if named.args else named.kwargs.get("name", "default"))
    return None


def costly_fixtures(item) -> list[str]:
    """The costly fixtures ``item`` uses, its fixtures' own included."""
    info = getattr(item, "_fixtureinfo", None)
    return sorted(name for name, definitions in (info.name2fixturedefs.items() if info else ())
                  if any(costly(definition) for definition in definitions))


def fixture_groups(items) -> dict[str, str]:
    """Each test that uses a fixture built once per module or class (a folder of graded
    notebooks, a built wheel, a browser) -> its group: its module and every costly fixture of
    that module tied to its own through tests that use both. So a fixture is built once, on
    one worker, for all the tests that need it, whatever else each of them needs (a group per
    combination of fixtures built a deck folder three times). Session fixtures of a conftest
    are cheap by convention; a costly one belongs to its module."""
    parent: dict[tuple, tuple] = {}

    def root(key: tuple) -> tuple:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    uses = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        keys = [(path, name) for name in costly_fixtures(item)]
        if keys:
            uses[item.nodeid] = keys[0]
            for key in keys:
                parent[root(key)] = root(keys[0])
    members: dict[tuple, list[str]] = {}
    for key in list(parent):
        members.setdefault(root(key), []).append(key[1])
    return {nodeid: f"{key[0]}::{'+'.join(sorted(members[root(key)]))}"
            for nodeid, key in uses.items()}


def costly(definition) -> bool:
    """A fixture built once for many tests of one module: module, class or package scope, or
    session scope declared in a test module."""
    return definition.scope in ("class", "module", "package") or (
        definition.scope == "session" and definition.baseid.endswith(".py"))


def pytest_unconfigure(config):
    if sys.platform.startswith("linux"):
        end_descendants(grace=2)


@pytest.fixture(autouse=True)
def serial_tournaments(monkeypatch):
    """A tournament in a test plays its games in the test's own process unless the test hands
    it an executor or sets the threshold itself: the arena's own choice would fork this pytest
    worker (hundreds of MB to copy as the games touch it) for a few seconds of games. The
    same seeds give the same table either way (tests/test_arena.py plays both)."""
    from ttt_lib import arena
    monkeypatch.setattr(arena, "POOL_THRESHOLD_SECONDS", float("inf"))


@pytest.fixture(scope="session")
def all_bitboards():
    """The 5,478 reachable positions (X opens), as BitBoards, breadth-first."""
    return list(reachable(BitBoard()).values())


@pytest.fixture(scope="session")
def all_listboards():
    """The same positions found by searching with the list board."""
    return list(reachable(ListBoard()).values())


# ------------------------------------------------------------------------- the time budget

def _cpu_seconds() -> float:
    """CPU time of this process and of the children it has waited for."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test's CPU seconds, set-up to tear-down, travel with its report (xdist too)."""
    start = _cpu_seconds()
    item.user_properties.append(("cpu_start", start))
    return (yield)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    if call.when == "teardown":
        start = dict(item.user_properties).get("cpu_start", _cpu_seconds())
        item.user_properties.append(("cpu_seconds", round(_cpu_seconds() - start, 2)))


_OVER_BUDGET: list[tuple[str, float, float]] = []  # (test, cpu seconds, wall seconds)
_WALL: dict[str, float] = {}
_TIMES: dict[str, tuple[float, float]] = {}


def budgeted(report) -> bool:
    """Whether the budget applies: not a notebook's cell, not a browser or Pyodide run."""
    path = report.nodeid.split("::", 1)[0]
    return not path.endswith(".ipynb") and not any(
        marker in report.keywords for marker in EXEMPT_MARKERS)


def pytest_runtest_logreport(report):
    _WALL[report.nodeid] = _WALL.get(report.nodeid, 0.0) + report.duration
    if report.when != "teardown":
        return
    if not budgeted(report):
        _TIMES[report.nodeid] = (dict(report.user_properties).get("cpu_seconds", 0.0),
                                 _WALL[report.nodeid])
        return
    cpu = dict(report.user_properties).get("cpu_seconds", 0.0)
    wall = _WALL[report.nodeid]
    _TIMES[report.nodeid] = (cpu, wall)
    if cpu > BUDGET_SECONDS or wall > BUDGET_SECONDS:
        _OVER_BUDGET.append((report.nodeid, cpu, wall))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _OVER_BUDGET:
        return
    terminalreporter.section(f"over the suite's {BUDGET_SECONDS} s budget")
    for nodeid, cpu, wall in sorted(_OVER_BUDGET, key=lambda row: -row[1]):
        verdict = "FAILS the run" if cpu > BUDGET_SECONDS else "wall-clock only"
        terminalreporter.write_line(f"{nodeid}: {cpu:.1f} s CPU, {wall:.1f} s wall ({verdict})")


def pytest_sessionfinish(session, exitstatus):
    times = os.environ.get("TTT_TEST_TIMES")  # a file for every test's CPU and wall seconds
    if times and not hasattr(session.config, "workerinput"):
        with open(times, "w") as out:
            for nodeid, (cpu, wall) in sorted(_TIMES.items(), key=lambda kv: -kv[1][0]):
                out.write(f"{cpu:8.2f} {wall:8.2f} {nodeid}\n")
    if exitstatus == 0 and any(cpu > BUDGET_SECONDS for _, cpu, _ in _OVER_BUDGET):
        session.exitstatus = 1

