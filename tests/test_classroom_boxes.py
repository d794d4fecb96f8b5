"""Issue 42, the boxes' side: a class of agents that attack the tournament itself rather than
their opponents. Deep JSON at a move and at load, a forged "bwrap: ..." line written through
the box's init, 300 MB to every descriptor an agent can reach, a seed oracle against
``random``, spinners left in new sessions after a move, and orphans under a subreaper: the
tournament finishes with its table, each attacker forfeits (or is left out) alone, nothing
reaches the instructor's output, the oracle does no better than perfect play, and honest
agents keep the results of a control run without the attackers."""
from __future__ import annotations

import functools
import inspect
import json
import math
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from ttt_lib.arena import derive_seed
from ttt_lib.boards.named import start_position
from ttt_lib.classroom import (EXAMPLE_AGENTS, Entrant, Limits, StudentAgent,
                               class_tournament, load_folder)
from ttt_lib.classroom import cgroups, jail
from ttt_lib.classroom.box import Box
from ttt_lib.classroom.leaderboard import Leaderboard, Record, Row
from ttt_lib.classroom.runner import run_secret

if jail.why_not():
    pytest.skip(f"no bubblewrap box here: {jail.why_not()}", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
GOOD = (EXAMPLE_AGENTS / "good.py").read_text()
SECRET = "a-fixed-secret-for-replay"
FIND_ANSWER_PIPE = (  # the sandbox's answer pipe: its one descriptor open for writing a pipe
    "import fcntl, os\n"
    "def answer_pipes():\n"
    "    for name in os.listdir('/proc/self/fd'):\n"
    "        try:\n"
    "            fd = int(name)\n"
    "            if os.readlink(f'/proc/self/fd/{fd}').startswith('pipe:') and \\\n"
    "                    fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:\n"
    "                yield fd\n"
    "        except (OSError, ValueError):\n"
    "            pass\n")
ATTACKERS = {  # file -> (source, its forfeit reason, or None: left out when loaded)
    "deep_move.py": (FIND_ANSWER_PIPE +
                     "def choose(state):\n"
                     "    for fd in answer_pipes():\n"
                     "        os.write(fd, b'[' * 50000 + b'\\n')\n"
                     "    return state.moves()[0]\n", "sent a malformed answer"),
    "forged_line.py": ("import os\n"
                       "def choose(state):\n"
                       "    for fd in (1, 2):\n"
                       "        try:\n"
                       "            with open(f'/proc/1/fd/{fd}', 'w') as out:\n"
                       "                out.write('bwrap: Creating new namespace failed: forged\\n')\n"
                       "        except OSError:\n"
                       "            pass\n"
                       "    os._exit(1)\n", "crashed while moving"),
    "flood.py": ("import os\n"
                 "def choose(state):\n"
                 "    block = b'x' * (1 << 20)\n"
                 "    for folder in ('/proc/self/fd', '/proc/1/fd'):\n"
                 "        for name in os.listdir(folder):\n"
                 "            try:\n"
                 "                fd = os.open(f'{folder}/{name}', os.O_WRONLY | os.O_NONBLOCK)\n"
                 "            except OSError:\n"
                 "                continue\n"
                 "            try:\n"
                 "                for _ in range(300):\n"  # 300 MB each
                 "                    os.write(fd, block)\n"
                 "            except OSError:\n"
                 "                pass\n"
                 "    return state.moves()[0]\n", "sent a malformed answer (too long)"),
}
SNOOP = ("import os\n"  # looks for the run's secret everywhere its box lets it look
         "def choose(state):\n"
         "    for pid in filter(str.isdigit, os.listdir('/proc')):\n"
         "        for what in ('cmdline', 'environ'):\n"
         "            try:\n"
         f"                if b{SECRET!r} in open(f'/proc/{{pid}}/{{what}}', 'rb').read():\n"
         "                    return 99\n"
         "            except OSError:\n"
         "                pass\n"
         "    return state.moves()[0]\n")
LEFT_OUT = {  # file -> (source, why it is left out)
    "deep_load.py": ("import gc, socket\n"
                     "for thing in gc.get_objects():\n"
                     "    if isinstance(thing, socket.socket):\n"
                     "        thing.send(b'[' * 50000)\n"
                     "def choose(state):\n    return state.moves()[0]\n",
                     "sent a malformed answer when loaded"),
    "forged_load.py": ("import os\n"
                       "for fd in (1, 2):\n"
                       "    with open(f'/proc/1/fd/{fd}', 'w') as out:\n"
                       "        out.write('bwrap: Creating new namespace failed: forged\\n')\n"
                       "os._exit(1)\n",  # its stderr's reader is closed once it is ready
                       "raised BrokenPipeError when loaded: [Errno 32] Broken pipe"),
}


def own_groups() -> list[str]:
    """This process's tournament boxes' groups still on the machine (not those of
    ``box_command``'s boxes, removed later: another test's notebooks, under xdist)."""
    base, _, why = cgroups._layout()
    if why:
        return []
    later = {group.name for group in jail._spent}
    return [name for name in os.listdir(base)
            if name.startswith(f"box-{os.getpid()}-") and name not in later]


def command(folder: Path, where: Path, *extra: str) -> tuple[int, str, str]:
    """The tournament command in a process of its own, its output in files (so anything a
    box wrote through an inherited descriptor would show there, and on the disk)."""
    out, err = where / "out.txt", where / "err.txt"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        status = subprocess.run(
            [sys.executable, "-m", "ttt_lib", "tournament", "--agents-from", str(folder),
             "--agents", "random", "--games", "1", "--seed", "3", "--move-time", "0.5",
             "--memory", "128", "--secret", SECRET, "--json", *extra],
            stdout=stdout, stderr=stderr, timeout=600, cwd=where,
            env={**os.environ, "PYTHONPATH": str(ROOT)}).returncode
    return status, out.read_text(errors="replace"), err.read_text(errors="replace")


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    root = tmp_path_factory.mktemp("boxes")
    folder, control = root / "class", root / "control"
    for where, files in ((folder, {"good.py": GOOD, "snoop.py": SNOOP,
                                   **{n: s for n, (s, _) in ATTACKERS.items()},
                                   **{n: s for n, (s, _) in LEFT_OUT.items()}}),
                         (control, {"good.py": GOOD})):
        where.mkdir()
        for name, text in files.items():
            (where / name).write_text(text)
    runs = []
    for name, where, executor in (("attacked", folder, ["--executor", "processes"]),
                                  ("control", control, [])):
        out = root / f"out-{name}"
        out.mkdir()
        runs.append(command(where, out, "--csv", str(out / "board.csv"), *executor))
    return runs


def test_the_tournament_finishes_with_its_table(attacked):
    (status, out, err), _ = attacked
    assert status == 0, err
    result = json.loads(out)
    assert set(result["agents"]) == {"random", "good", "snoop",
                                     *(n[:-3] for n in ATTACKERS)}
    assert {row["file"]: row["reason"] for row in result["rejected"]} == \
        {name: why for name, (_, why) in LEFT_OUT.items()}
    assert result["secret"] == SECRET


def test_each_attacker_forfeits_alone_with_its_reason(attacked):
    result = json.loads(attacked[0][1])
    for name, (_, reason) in ATTACKERS.items():
        assert {f["reason"] for f in result["forfeits"] if f["agent"] == name[:-3]} == \
            {reason}, name
    # the snoop never found the secret (it is on the command line of the instructor's run)
    assert {f["agent"] for f in result["forfeits"]} == {n[:-3] for n in ATTACKERS}


def test_honest_agents_keep_the_control_runs_results(attacked):
    (_, out, _), (status, control, err) = attacked
    assert status == 0, err
    honest = {"random", "good"}
    mine = [r for r in json.loads(out)["results"] if {r["x"], r["o"]} <= honest]
    assert mine == json.loads(control)["results"]


def test_nothing_a_box_writes_reaches_the_instructor(attacked):
    (_, out, err), _ = attacked
    assert "namespace failed" not in out + err and "bwrap:" not in err
    assert len(out) < 20_000 and len(err) < 5_000  # 300 MB went nowhere of ours


# ------------------------------------------------------------------------------ secrets

ORACLE = """
import copy, functools
from ttt_lib.arena import derive_seed
from ttt_lib.boards.named import start_position
from ttt_lib.player import Agent

KEY, GAMES = {key}, {games}
LINES = {lines}
{solver}

def outcome(state, twin):
    # O's outcome with random (X) played by its twin: 1 win, 0 draw, -1 loss
    if state.is_terminal():
        return -((state.utility() > 0) - (state.utility() < 0))
    if state.to_move == 1:
        twin = copy.deepcopy(twin)
        return outcome(state.play(twin.choose(state)), twin)
    return max(outcome(state.play(move), twin) for move in state.moves())


class Oracle(Agent):
    # Knows derive_seed and believes the run's key is KEY: finds its game by its own seed,
    # then foresees random's every move; without a match it plays perfectly (a uniformly
    # random optimal move, as the built-in perfect).

    def __init__(self, seed=0):
        super().__init__(seed=seed)
        self.twin, self.before = None, None
        for n in range(GAMES):
            game = derive_seed(KEY, "random", "oracle", n)
            if derive_seed(game, "O") == seed:
                self.twin = make_agent("random", seed=derive_seed(game, "X"))

    def choose(self, state):
        if self.twin is None or state.to_move != -1:
            board, mover = state.to_text().replace("/", ""), "XO"[state.to_move == -1]
            other = "O" if mover == "X" else "X"
            after = lambda i: board[:i] + mover + board[i + 1:]
            best = max(-value(after(i), other) for i in state.moves())
            return self.rng.choice([i for i in state.moves() if -value(after(i), other) == best])
        before = start_position("tictactoe") if self.before is None else self.before
        self.twin.choose(before)  # random's last move, so the twin's generator keeps step
        move = max(state.moves(), key=lambda m: outcome(state.play(m), self.twin))
        self.before = state.play(move)
        return move


from ttt_lib.agents import make_agent
value("." * 9, "X")  # solved once, in the zygote
"""


def oracle_wins(tmp_path: Path, key: int, games: int) -> int:
    """The oracle's wins as O against random in a class tournament (seed 3, ``SECRET``)."""
    folder = tmp_path / f"oracle-{key}"
    folder.mkdir()
    solver = inspect.getsource(winner) + "\n\n" + inspect.getsource(value)
    (folder / "oracle.py").write_text(ORACLE.format(key=key, games=games, lines=LINES,
                                                    solver=solver))
    result = class_tournament(["random"], load_folder(folder), games=games, seed=3,
                              secret=SECRET)
    assert result.forfeits == ()
    return result.table.pair("random", "oracle").o_wins


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board: str) -> str | None:
    return next((board[a] for a, b, c in LINES if board[a] != "." and
                 board[a] == board[b] == board[c]), None)


@functools.cache
def value(board: str, mover: str) -> int:
    """The game's value for ``mover``: 1, 0 or -1 (an independent little negamax)."""
    if winner(board) or "." not in board:
        return 0 if not winner(board) else (1 if winner(board) == mover else -1)
    other = "O" if mover == "X" else "X"
    return max(-value(board[:i] + mover + board[i + 1:], other)
               for i, c in enumerate(board) if c == ".")


@functools.cache
def o_wins(board: str = "." * 9, mover: str = "X") -> Fraction:
    """The chance O wins, X playing uniformly at random and O uniformly among its optimal
    moves (as the built-in ``perfect``)."""
    if winner(board) or "." not in board:
        return Fraction(winner(board) == "O")
    other = "O" if mover == "X" else "X"
    children = {i: board[:i] + mover + board[i + 1:] for i, c in enumerate(board) if c == "."}
    if mover == "O":
        best = max(-value(child, other) for child in children.values())
        children = {i: c for i, c in children.items() if -value(c, other) == best}
    return sum((o_wins(child, other) for child in children.values()), Fraction(0)) / \
        len(children)


def test_a_seed_oracle_does_no_better_than_perfect_play(tmp_path):
    games, rate = 30, float(o_wins())  # perfect play wins about 4 games in 5 as O
    bound = games * rate + 2 * math.sqrt(games * rate * (1 - rate))
    oracle = oracle_wins(tmp_path, 3, games)  # it knows the seed, not the secret
    assert oracle <= bound, (oracle, bound)
    # the check can fail: told the run's key, the same oracle wins every game
    assert oracle_wins(tmp_path, derive_seed(3, SECRET), games) == games > bound


def test_the_secret_is_fresh_unless_given_and_never_on_a_box_command_line():
    assert run_secret(None, True) != run_secret(None, True)
    assert run_secret(None, False) == "" and run_secret("abc", True) == "abc"
    assert all(SECRET not in part for part in jail.module_command("m", "--zygote", "3"))


def test_a_fresh_secret_is_printed_and_replays_the_run(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "good.py").write_text(GOOD)
    (folder / "lucky.py").write_text("import random\n"
                                     "def choose(state):\n"
                                     "    return random.choice(state.moves())\n")
    roster = load_folder(folder)
    first = class_tournament(["random"], roster, games=4, seed=2)
    assert len(first.secret) == 32 and f"--secret {first.secret}" in first.format()
    again = class_tournament(["random"], roster, games=4, seed=2, secret=first.secret)
    assert again.as_dict() == first.as_dict()
    other = class_tournament(["random"], roster, games=4, seed=2)  # a new secret: new games
    assert other.secret != first.secret


# ------------------------------------------------------- frozen off move, orphans per game

SPINNER = """
import os
def choose(state):
    for _ in range(16 if len(state.moves()) >= 8 else 0):  # at its first move of a game
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    return state.moves()[0]
"""
SUBREAPER = """
import ctypes, os, time
ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans come to the zygote
def choose(state):
    if len(state.moves()) >= 8:  # its first move of a game: nothing of the last game lives
        alive = [p for p in os.listdir('/proc') if p.isdigit()]
        if len(alive) > 4:  # init, zygote, this sandbox (and the listing's own process)
            return 99
    for _ in range(10):
        child = os.fork()
        if child == 0:
            if os.fork() == 0:
                os.setsid()
                time.sleep(600)
            os._exit(0)
        os.waitpid(child, 0)  # its grandchild is an orphan now, the zygote's
    return state.moves()[0]
"""
LIMITS = Limits(move_time=1.0, memory_mb=128)
needs_cgroups = pytest.mark.skipif(bool(cgroups.why_not()), reason="no cgroups here")


def student(name: str, source: str) -> StudentAgent:
    return StudentAgent(Entrant(name, filename=f"{name}.py", source=source),
                        Limits(move_time=2.0, memory_mb=128))


@needs_cgroups
def test_a_box_off_move_uses_no_cpu_and_a_new_game_ends_its_orphans():
    agent = student(f"spinner{os.getpid()}", SPINNER)
    try:
        agent.new_game(1)
        agent.choose(start_position("tictactoe"))
        box = agent.sandbox.box
        assert len(box.group.pids()) == 4 + 16  # bwrap, init, zygote, sandbox, spinners
        before = box.cpu_seconds()
        time.sleep(0.5)
        assert box.cpu_seconds() - before < 0.02  # frozen: sixteen spinners, no CPU
        box.thaw()  # the check can fail: thawed, they spin
        time.sleep(0.5)
        assert box.cpu_seconds() - before > 0.05
        box.freeze()
        agent.new_game(2)  # what the last game left running is gone
        assert len(box.group.pids()) == 4
    finally:
        agent.close()
        Box.close_all()
    assert own_groups() == []


FORK_BOMB = """
import os, time
def choose(state):
    born = 0
    try:
        while born < 500:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            born += 1
    except OSError:  # the box's process limit
        pass
    return state.moves()[0] if born < 100 else 99
"""
HOARDERS = """
import os, time
def choose(state):
    for _ in range(4):  # each well within its own RLIMIT_AS, together past the box's memory
        if os.fork() == 0:
            hoard = bytearray(60 << 20)
            for i in range(0, len(hoard), 4096):
                hoard[i] = 1
            time.sleep(60)
    time.sleep(1.5)
    return state.moves()[0]
"""


@needs_cgroups
def test_a_box_holds_its_process_count_and_its_memory_together():
    for name, source in (("bomb", FORK_BOMB), ("hoarders", HOARDERS)):
        agent = student(f"{name}{os.getpid()}", source)
        try:
            agent.new_game(1)
            assert agent.choose(start_position("tictactoe")) == 0  # 99: the bomb went off
            box = agent.sandbox.box
            assert len(box.group.pids()) <= 64
            if name == "hoarders":
                assert box.oom_kills() >= 1  # 4 x 60 MB > 128 MB + the slack of the box
        finally:
            agent.close()
            Box.close_all()
    assert own_groups() == []


@needs_cgroups
def test_spinners_and_subreapers_cost_only_themselves(tmp_path):
    """An honest agent using about 0.1 s of CPU a move keeps its control results beside a
    spinner; the subreaper's orphans never outlive their game."""
    honest = ("import time\nfrom ttt_lib.agents import make_agent\n"
              "from ttt_lib.boards.named import start_position\n"
              "make_agent('perfect').choose(start_position('tictactoe'))\n"
              "def choose(state):\n"
              "    start = time.process_time()\n"
              "    while time.process_time() - start < 0.1:\n"
              "        pass\n"
              "    return make_agent('perfect', seed=len(state.moves())).choose(state)\n")
    tame = "def choose(state):\n    return state.moves()[0]\n"
    results = []
    for name, spin, reap in (("attacked", SPINNER, SUBREAPER), ("control", tame, tame)):
        folder = tmp_path / name
        folder.mkdir()
        for file, text in (("honest.py", honest), ("spinner.py", spin), ("reaper.py", reap)):
            (folder / file).write_text(text)
        results.append(class_tournament([], load_folder(folder, LIMITS), games=1,
                                        seed=5, limits=LIMITS, secret=SECRET))
    attacked, control = results
    assert attacked.forfeits == control.forfeits == ()
    assert attacked.results == control.results
    assert own_groups() == []


# ---------------------------------------------------------------------- names that cannot lie

def test_names_are_escaped_in_the_table_and_the_csv(tmp_path):
    liar = "\u202egood\x1b[2J"
    row = Row(liar, 2, 1.0, 0.1, 0.9, Record(1, 0, 0), Record(0, 0, 1), 0.0)
    board = Leaderboard((row,))
    for text in (board.csv(), board.format()):
        assert "\u202e" not in text and "\x1b" not in text
        assert "\\u202egood\\x1b[2J" in text
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / f"{liar}.py").write_text(GOOD)
    result = class_tournament(["random"], load_folder(folder), games=1, secret=SECRET)
    text = result.format()
    assert "\u202e" not in text and "\x1b" not in text
    assert "\\u202egood\\x1b[2J" in text.split("Seeds:")[0].split("rates with")[1]


def test_without_cgroups_the_table_says_so(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "good.py").write_text(GOOD)
    done = subprocess.run(
        [sys.executable, "-m", "ttt_lib", "tournament", "--agents-from", str(folder),
         "--agents", "random", "--games", "1", "--move-time", "1"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), cgroups.VARIABLE: "/proc/no-cgroup"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Leaderboard, no per-box cgroups (cannot make cgroups "
                                  "under /proc/no-cgroup")
    assert "good" in done.stdout and "Forfeits" not in done.stdout


def test_the_graders_clock_reads_a_boxs_cpu_from_outside(tmp_path):
    """What times a boxed call in the grader (``cpuclock.box_clock``): the box's cgroup where
    it has one, else its processes in /proc; the box spins 0.4 s of CPU, then sleeps."""
    from ttt_lib.classroom import cpuclock
    code = ("import sys, time\nend = time.process_time() + 0.4\n"
            "while time.process_time() < end:\n    pass\n"
            "print('spun', flush=True)\ntime.sleep(30)")
    command = jail.box_command([sys.executable, "-I", "-c", code], str(tmp_path))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env=jail.environment(), start_new_session=True, text=True)
    try:
        assert process.stdout.readline() == "spun\n"
        clock = cpuclock.box_clock(process.pid)
        used = clock()
        assert 0.35 < used < 2.0, used
        assert 0.35 < cpuclock.tree_seconds(process.pid) < 2.0  # the fallback agrees
        assert (cpuclock.group_folder(process.pid) is not None) == (not cgroups.why_not())
        time.sleep(0.3)
        assert clock() - used < 0.1  # asleep: no CPU
    finally:
        os.killpg(process.pid, 9)
        process.wait()
    assert cpuclock.tree_seconds(process.pid) == 0.0  # gone
