"""Students who attack rather than blunder: each agent in its bubblewrap box may kill, stop,
fork, write, connect and print what it likes; the tournament finishes, each forfeits with its
own reason, nothing outside its box changes, no process outlives the run, and the honest
agents' games come out exactly as in a class without the attackers. Also: a folder that
tries to hang or crash the loader, output that tries to lie, and a machine without
bubblewrap (the commands refuse, or run 'not isolated' when told to)."""
from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import ttt_lib
from ttt_lib.classroom import EXAMPLE_AGENTS, Limits, class_tournament, load_folder
from ttt_lib.classroom.leaderboard import Leaderboard, Row, Record
from ttt_lib.safetext import csv_cell, printable, shorten

LIMITS = Limits(move_time=0.4, memory_mb=256)
HONEST = {"good.py": (EXAMPLE_AGENTS / "good.py").read_text(),
          "weak.py": (EXAMPLE_AGENTS / "weak.py").read_text()}
PACKAGE = Path(ttt_lib.__file__).resolve().parent


def hostile(folder: Path, port: int) -> dict[str, tuple[str, str]]:
    """file -> (source, the one reason each of its forfeits must give)."""
    return {
        "kill_siblings.py": (  # every other process it can see: only its own box's
            "import os, signal, time\n"
            "def choose(state):\n"
            "    for name in os.listdir('/proc'):\n"
            "        if name.isdigit() and int(name) != os.getpid():\n"
            "            try:\n"
            "                os.kill(int(name), signal.SIGKILL)\n"
            "            except OSError:\n"
            "                pass\n"
            "    time.sleep(5)\n"
            "    return state.moves()[0]\n", "crashed while moving"),
        "stop_parent.py": (
            "import os, signal\n"
            "def choose(state):\n"
            "    os.kill(os.getppid(), signal.SIGSTOP)\n"
            "    return state.moves()[0]\n", "stopped the process that starts its sandboxes"),
        "kill_tournament.py": (
            "import os, signal\n"
            "def choose(state):\n"
            f"    os.kill({os.getpid()}, signal.SIGKILL)\n"
            "    return state.moves()[0]\n", "raised ProcessLookupError"),
        "fork20.py": (  # twenty children in sessions of their own, then it quits
            "import os, time\n"
            "def choose(state):\n"
            "    for _ in range(20):\n"
            "        if os.fork() == 0:\n"
            "            os.setsid()\n"
            "            time.sleep(600)\n"
            "    os._exit(0)\n", "crashed while moving"),
        "write_outside.py": (
            "def choose(state):\n"
            f"    open({str(folder / 'good.py')!r}, 'w').write('def choose(s):\\n    return 9')\n"
            "    return state.moves()[0]\n", "raised FileNotFoundError"),
        "patch_package.py": (
            "import ttt_lib.classroom.runner as runner\n"
            "def choose(state):\n"
            "    open(runner.__file__, 'a').write('\\n# won every game\\n')\n"
            "    return state.moves()[0]\n", "raised OSError"),
        "phone_home.py": (
            "import socket\n"
            "def choose(state):\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=0.2).close()\n"
            "    return state.moves()[0]\n", "raised ConnectionRefusedError"),
        "ansi.py": (
            "def choose(state):\n"
            "    print('\\x1b[2J\\x1b[H1  ansi  1.00')\n"
            "    raise type('\\x1b[2J\\x1b[Hfake', (Exception,), {})()\n",
            "raised \\x1b[2J\\x1b[Hfake"),
        "slow_init.py": (
            "import time\n"
            "from ttt_lib.player import Agent\n"
            "class SlowInit(Agent):\n"
            "    def __init__(self, seed=0):\n"
            "        super().__init__(seed=seed)\n"
            "        start = time.process_time()\n"  # a second of CPU: past its 0.4 s
            "        while time.process_time() - start < 1.0:\n"
            "            pass\n"
            "    def choose(self, state):\n"
            "        return state.moves()[0]\n", "exceeded 0.4 s when built"),
    }


def checksum(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*"))
            # the byte code other test processes (pytest-xdist's workers) compile meanwhile
            if path.is_file() and "__pycache__" not in path.parts}


def descendants() -> set[int]:
    """The processes below this one (boxes, zygotes, sandboxes and anything they forked)."""
    parents = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                parents[int(name)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
    found, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """The class with its attackers, played once; what changed around it; and the honest
    agents alone, for comparison."""
    root = tmp_path_factory.mktemp("hostile")
    folder, honest = root / "class", root / "honest"
    listener = socket.create_server(("127.0.0.1", 0))
    attackers = hostile(folder, listener.getsockname()[1])
    for where, files in ((folder, {**HONEST, **{n: s for n, (s, _) in attackers.items()}}),
                         (honest, HONEST)):
        where.mkdir()
        for name, text in files.items():
            (where / name).write_text(text)
    before = (checksum(folder), checksum(PACKAGE), descendants())
    result = class_tournament(["random"], load_folder(folder, LIMITS), games=1, seed=3,
                              limits=LIMITS, secret="replayed")
    after = (checksum(folder), checksum(PACKAGE), descendants())
    listener.setblocking(False)
    try:
        listener.accept()
        connected = True
    except BlockingIOError:
        connected = False
    listener.close()
    alone = class_tournament(["random"], load_folder(honest, LIMITS), games=1, seed=3,
                             limits=LIMITS, secret="replayed")
    return result, attackers, before, after, connected, alone


def test_every_attacker_forfeits_with_its_own_reason(attacked):
    result, attackers, *_ = attacked
    assert result.rejected == ()
    assert set(result.labels) == {"random", "good", "weak", *(n[:-3] for n in attackers)}
    for name, (_, reason) in attackers.items():
        reasons = {f.reason for f in result.forfeits if f.agent == name[:-3]}
        assert reasons == {reason}, name
    assert {f.agent for f in result.forfeits} == {name[:-3] for name in attackers}
    assert all(r.games == 1 for r in result.results)


def test_the_honest_agents_games_are_those_of_a_class_without_attackers(attacked):
    result, attackers, *_, alone = attacked
    honest = {"random", "good", "weak"}
    mine = [r for r in result.results if {r.x, r.o} <= honest]
    assert mine == list(alone.results)


def test_nothing_outside_the_boxes_changed_and_nothing_survives(attacked):
    _, _, before, after, connected, _ = attacked
    assert after[0] == before[0]  # the class folder
    assert after[1] == before[1]  # the package
    assert after[2] <= before[2]  # no process left below this one
    assert not connected  # the loopback listener heard nothing


def test_the_printed_table_cannot_be_forged(attacked):
    result, *_ = attacked
    text = result.format()
    assert "\x1b" not in text
    assert "ansi: raised \\x1b[2J\\x1b[Hfake" in text


# ------------------------------------------------------------------------------- loading

def test_loading_never_hangs_or_crashes(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "good.py").write_text(HONEST["good.py"])
    os.mkfifo(folder / "pipe.py")
    (folder / "folder.py").mkdir()
    cells = lambda value: json.dumps({"cells": value, "metadata": {}, "nbformat": 4})
    (folder / "not_objects.ipynb").write_text(cells([1, "two"]))
    (folder / "null_source.ipynb").write_text(cells([{"cell_type": "code", "source": None,
                                                      "metadata": {"tags": ["agent"]}}]))
    (folder / "deep.ipynb").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "list.ipynb").write_text("[1, 2]")
    (folder / "bad_tags.ipynb").write_text(cells([{"cell_type": "code", "source": "x",
                                                   "metadata": {"tags": "agent"}}]))
    roster = load_folder(folder, LIMITS)
    assert [e.label for e in roster.entrants] == ["good"]
    assert dict(roster.rejected) == {
        "pipe.py": "is not a regular file but a FIFO",
        "folder.py": "is not a regular file but a folder",
        "not_objects.ipynb": "is not a readable notebook (cell 1 is malformed)",
        "null_source.ipynb": "is not a readable notebook (cell 1 is malformed)",
        "deep.ipynb": "is not a readable notebook (nested too deeply)",
        "list.ipynb": "is not a readable notebook (no list of cells)",
        "bad_tags.ipynb": "is not a readable notebook (cell 1 is malformed)"}


def test_file_names_and_reasons_are_printed_escaped(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "\x1b[2Jx.py").write_text("x = 1\n")
    text = load_folder(folder, LIMITS).format()
    assert "\x1b" not in text and "left out \\x1b[2Jx.py: defines no agent" in text


# ---------------------------------------------------------------------- output that cannot lie

def test_text_helpers():
    assert printable("a\x1b[2J\n\u202eb\x00") == "a\\x1b[2J\\n\\u202eb\\x00"
    assert printable("é ü 中") == "é ü 中"
    digits = "7" * 4001
    assert shorten(digits, 40) == "7" * 18 + "..." + "7" * 19 and len(shorten(digits, 40)) == 40
    assert shorten("short", 40) == "short"
    assert [csv_cell(t) for t in ("=1+2*3", "+1", "-1", "@SUM(A1)", "plain", "")] == \
        ["'=1+2*3", "'+1", "'-1", "'@SUM(A1)", "plain", ""]


def test_leaderboard_csv_neutralises_formulas():
    row = Row("=HYPERLINK(\"x\")", 2, 1.0, 0.1, 0.9, Record(1, 0, 0), Record(0, 0, 1), 0.0)
    lines = Leaderboard((row,)).csv().splitlines()
    assert lines[1].split(",")[1] == "\"'=HYPERLINK(\"\"x\"\")\""


def test_a_huge_illegal_move_is_shortened(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "huge.py").write_text("def choose(state):\n    return 10 ** 4000\n")
    result = class_tournament(["random"], load_folder(folder, LIMITS), games=1,
                              limits=LIMITS)
    reasons = {f.reason for f in result.forfeits}
    assert reasons == {"illegal move 100000000000000000..." + "0" * 19}


# --------------------------------------------------------------------- without bubblewrap

def cli(*args: str, bwrap: str = "/bin/false") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ttt_lib", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TTT_BWRAP": bwrap})


@pytest.mark.parametrize("bwrap", ["/bin/false", "/no/such/bwrap"])
def test_without_bubblewrap_the_commands_refuse(tmp_path, bwrap):
    (tmp_path / "good.py").write_text(HONEST["good.py"])
    (tmp_path / "one.ipynb").write_text(json.dumps(
        {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    for args in (["tournament", "--agents-from", str(tmp_path), "--agents", "random"],
                 ["grade", str(tmp_path)]):
        done = cli(*args, bwrap=bwrap)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.count("\n") == 1
        assert "bubblewrap" in done.stderr and "--no-isolation" in done.stderr


def test_no_isolation_runs_and_says_so(tmp_path):
    (tmp_path / "good.py").write_text(HONEST["good.py"])
    done = cli("tournament", "--agents-from", str(tmp_path), "--agents", "random",
               "--games", "1", "--move-time", "0.5", "--no-isolation", "--secret", "s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Leaderboard, not isolated (score:")
    boxed = cli("tournament", "--agents-from", str(tmp_path), "--agents", "random",
                "--games", "1", "--move-time", "0.5", "--secret", "s", bwrap="")
    assert boxed.returncode == 0, boxed.stderr
    assert boxed.stdout.startswith("Leaderboard (score:")
    assert boxed.stdout.splitlines()[1:] == done.stdout.splitlines()[1:]


def test_a_file_is_loaded_once_per_student(tmp_path, monkeypatch):
    """The file's top level (here a slow one) runs once, when the folder is loaded: every
    game's sandbox is forked from the box that loaded it."""
    from ttt_lib.classroom.worker import Box
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "slow_start.py").write_text("import time\ntime.sleep(0.5)\n" + HONEST["good.py"])
    started = []
    original = Box.__init__
    monkeypatch.setattr(Box, "__init__",
                        lambda self, *args: (started.append(args[0].label),
                                             original(self, *args))[1])
    result = class_tournament(["random", "perfect"], load_folder(folder, LIMITS), games=10,
                              limits=LIMITS)
    assert result.forfeits == () and sum(r.games for r in result.results) == 60, \
        result.forfeits
    assert started == ["slow_start"]


def test_a_file_that_ends_its_box_when_loaded_is_left_out(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "quits.py").write_text("import os, sys\nprint('boom', file=sys.stderr)\n"
                                     "os._exit(1)\n")
    (folder / "kills_box.py").write_text("import os, signal\nos.kill(1, signal.SIGKILL)\n"
                                         "os.kill(os.getpid(), signal.SIGKILL)\n")
    assert dict(load_folder(folder, LIMITS).rejected) == {
        "quits.py": "crashed when loaded", "kills_box.py": "crashed when loaded"}


def test_a_box_that_cannot_start_stops_the_run_with_its_reason(tmp_path, monkeypatch):
    """A bwrap that runs but cannot start the zygote (here: it refuses its options)."""
    from ttt_lib.classroom import ClassroomError, jail
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\n"
                    "case \"$*\" in *'-c pass'*) exit 0;; esac\n"
                    "echo 'bwrap: Creating new namespace failed: no room' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv(jail.VARIABLE, str(fake))
    (tmp_path / "good.py").write_text(f"# {tmp_path}\n" + HONEST["good.py"])  # a new box
    with pytest.raises(ClassroomError, match="the sandbox could not start: bwrap: Creating"):
        load_folder(tmp_path, LIMITS)


def test_what_lives_under_tmp_is_still_bound_in_the_box(tmp_path, monkeypatch):
    """A clone (its venv, its package) under /tmp: the box's fresh /tmp must not hide it.
    The box sees that bound folder, read-only, and nothing else of the machine's /tmp."""
    from ttt_lib.classroom import jail
    assert str(tmp_path).startswith("/tmp/")  # pytest's tmp_path lives under /tmp here
    bound = tmp_path / "venv"
    bound.mkdir()
    (bound / "marker").write_text("seen from the box\n")
    (tmp_path / "private").write_text("not for the box\n")
    paths = jail.read_only_paths()
    monkeypatch.setattr(jail, "read_only_paths", lambda: [*paths, str(bound)])
    script = (f"cat {bound}/marker; test -e {tmp_path}/private && echo LEAK; "
              f"touch {bound}/written 2>/dev/null && echo WRITABLE; echo done")
    done = subprocess.run(jail.box_command(["/bin/sh", "-c", script]), capture_output=True,
                          text=True, timeout=60)
    assert done.stdout == "seen from the box\ndone\n", done.stderr
    assert not (bound / "written").exists()
