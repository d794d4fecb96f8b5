"""The class tournament: loading a folder of student agents in sandboxes, containing the ones
that fail (raise, hang, cheat, hog memory, do not compile), the same table on every executor,
and a leaderboard checked against independent counts and an independent rating fit."""
from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import pytest

from ttt_lib.arena import play_pairs
from ttt_lib.classroom import (EXAMPLE_AGENTS, ClassroomError, Limits, bradley_terry,
                               class_tournament, load_folder, open_executor, score_interval)
from ttt_lib.classroom.leaderboard import leaderboard
from ttt_lib.classroom.runner import entrants, ordered_pairs
from ttt_lib.classroom.worker import WALL_FACTOR, WALL_GRACE

LIMITS = Limits(move_time=0.8, memory_mb=96)  # a margin for a busy machine
SECRET = "replayed"  # the same games on every executor
GOOD = (EXAMPLE_AGENTS / "good.py").read_text()
BROKEN = {  # file -> the reason each of its games is lost
    "raises.py": ("def choose(state):\n    return 1 // 0\n", "raised ZeroDivisionError"),
    "loops.py": ("def choose(state):\n    while True:\n        pass\n", "exceeded 0.8 s"),
    "illegal.py": ("def choose(state):\n    return 9\n", "illegal move 9"),
    "quits.py": ("import os\ndef choose(state):\n    os._exit(3)\n", "crashed while moving"),
    "hog.py": ("def choose(state):\n    hoard = []\n    while True:\n"  # 10 MB at a time
               "        hoard.append(bytearray(10 ** 7))\n", "exceeded the memory limit"),
}
LEFT_OUT = {  # file -> (source, the reason it is left out)
    "typo.py": ("def choose(state)\n    return 0\n", "does not compile: expected ':' (line 1)"),
    "none.py": ("x = 1\n", "defines no agent (no Agent subclass and no choose function)"),
    "two.py": ("def choose(state):\n    return state.moves()[0]\n" + GOOD,
               "defines 2 agents (class Good, function choose); one is wanted"),
    "fails.py": ("import no_such_module_here\n",
                 "raised ModuleNotFoundError when loaded: No module named "
                 "'no_such_module_here'"),
}


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def notebook(*cells: tuple[str, list[str]]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {"tags": tags},
                                  "source": source, "outputs": [], "execution_count": None}
                                 for source, tags in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.fixture(scope="module")
def broken_folder(tmp_path_factory) -> Path:
    files = {"good.py": GOOD, **{name: src for name, (src, _) in BROKEN.items()},
             "typo.py": LEFT_OUT["typo.py"][0]}
    return write(tmp_path_factory.mktemp("class") / "agents", files)


@pytest.fixture(scope="module")
def serial(broken_folder):
    roster = load_folder(broken_folder, LIMITS)
    start = time.perf_counter()
    result = class_tournament(["random"], roster, games=2, seed=7, limits=LIMITS,
                              secret=SECRET)
    return result, time.perf_counter() - start


# --------------------------------------------------------------------------------- loading

def test_loading_lists_every_file_left_out_with_its_reason(tmp_path):
    folder = write(tmp_path / "class", {
        "good.py": GOOD, "weak.py": "def choose(state):\n    return state.moves()[0]\n",
        **{name: src for name, (src, _) in LEFT_OUT.items()},
        "nb_agent.ipynb": notebook(("def choose(state):\n    return state.moves()[-1]", ["agent"]),
                                   ("raise SystemExit('not run')", [])),
        "nb_untagged.ipynb": notebook(("def choose(state):\n    return 0", [])),
        "random.py": "def choose(state):\n    return state.moves()[0]\n",
        "notes.txt": "not an agent"})
    (tmp_path / "outside.py").write_text("def choose(state):\n    return 0\n")
    (folder / "linked.py").symlink_to(tmp_path / "outside.py")
    roster = load_folder(folder, LIMITS)
    assert [e.label for e in roster.entrants] == ["good", "nb_agent", "weak"]
    expected = {name: why for name, (_, why) in LEFT_OUT.items()}
    expected.update({"linked.py": "points outside the folder",
                     "nb_untagged.ipynb": "has no code cell tagged 'agent'",
                     "random.py": "is named like the built-in agent 'random'; rename the file"})
    assert dict(roster.rejected) == expected


def test_loading_runs_student_code_only_in_a_sandbox(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = write(tmp_path / "class", {"sneaky.py": (
        "import os\nos.environ['TTT_LOADED'] = '1'\nopen('marker', 'w').close()\n"
        "def choose(state):\n    return state.moves()[0]\n")})
    roster = load_folder(folder, LIMITS)
    assert [e.label for e in roster.entrants] == ["sneaky"]
    assert "TTT_LOADED" not in os.environ
    assert not (tmp_path / "marker").exists() and not (folder / "marker").exists()


def test_a_missing_folder_is_refused():
    with pytest.raises(ClassroomError, match="no folder"):
        load_folder("/no/such/folder")


def test_sandboxes_inherit_no_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("TTT_TEST_SECRET", "hunter2")
    folder = write(tmp_path / "class", {"nosy.py": (
        "import os\ndef choose(state):\n"
        "    return 9 if 'TTT_TEST_SECRET' in os.environ else state.moves()[0]\n")})
    result = class_tournament(["random"], load_folder(folder, LIMITS), games=2, limits=LIMITS)
    assert result.forfeits == ()
    assert sum(r.games for r in result.results) == 4


# ------------------------------------------------------------------------------ containment

def test_every_game_is_accounted_for_and_every_forfeit_has_its_reason(serial):
    result, _ = serial
    labels = ["random", "good", "hog", "illegal", "loops", "quits", "raises"]
    assert list(result.labels) == labels
    assert result.rejected == (("typo.py", LEFT_OUT["typo.py"][1]),)
    assert [(r.x, r.o) for r in result.results] == [(x, o) for x in labels for o in labels
                                                   if x != o]
    assert all(r.games == 2 for r in result.results)
    reasons = {name[:-3]: why for name, (_, why) in BROKEN.items()}
    # A broken agent loses each game at its first move: all its games as X, and as O every
    # game whose X is sound (a broken X forfeits first).
    expected = [(x, o, n, x if x in reasons else o) for x in labels for o in labels
                if x != o and (x in reasons or o in reasons) for n in range(2)]
    assert [(f.x, f.o, f.game, f.agent) for f in result.forfeits] == expected
    for f in result.forfeits:  # a hang: by CPU time, or by the wall-clock backstop
        assert f.reason == reasons[f.agent]
        assert f.side == ("X" if f.agent == f.x else "O")
    for r in result.results:
        if r.x in reasons:
            assert (r.x_wins, r.o_wins, r.draws) == (0, 2, 0)
        elif r.o in reasons:
            assert (r.x_wins, r.o_wins, r.draws) == (2, 0, 0)


def test_the_tournament_finishes_within_its_time_bound(serial):
    result, seconds = serial
    timeouts = sum(f.reason == "exceeded 0.8 s" for f in result.forfeits)
    assert timeouts == 2 * 6 + 2 * 2  # loops: every game as X, as O against the sound two
    # each hang costs at most its wall-clock backstop and a restart; the rest is quick
    assert seconds < timeouts * (WALL_FACTOR * 0.8 + WALL_GRACE) + 30, f"{seconds:.1f} s"


def test_built_in_pairs_give_the_arenas_counts():
    specs = {"random": "random", "perfect": "perfect",
             "mcts(playouts=5)": ("mcts", {"playouts": 5})}
    mine = class_tournament(list(specs.values()), games=3, seed=11)
    pairs = [(specs[r.x], specs[r.o]) for r in mine.results]
    assert mine.table.results == play_pairs(pairs, games=3, seed=11).results


@pytest.mark.parametrize("kind", ["processes", "dask"])
def test_every_executor_gives_the_serial_table(serial, broken_folder, kind):
    roster = load_folder(broken_folder, LIMITS)
    with open_executor(kind, workers=2) as executor:
        result = class_tournament(["random"], roster, games=2, seed=7, limits=LIMITS,
                                  executor=executor, secret=SECRET)
    mine, theirs = result.as_dict(), serial[0].as_dict()
    assert [f for f in mine["forfeits"] if f not in theirs["forfeits"]] == []
    assert mine == theirs


def test_executor_arguments_are_checked():
    with pytest.raises(ClassroomError, match="executor is one of"):
        with open_executor("threads"):
            pass
    with pytest.raises(ClassroomError, match="needs the dask executor"):
        with open_executor("processes", scheduler="tcp://127.0.0.1:1"):
            pass
    with pytest.raises(ClassroomError, match="workers must be between"):
        with open_executor("processes", workers=0):
            pass


# ------------------------------------------------------------------------------ leaderboard

def test_leaderboard_counts_match_the_pair_table(serial):
    result, _ = serial
    board = result.leaderboard()
    for row in board.rows:
        wins = sum(r.x_wins for r in result.results if r.x == row.agent) + sum(
            r.o_wins for r in result.results if r.o == row.agent)
        draws = sum(r.draws for r in result.results if row.agent in (r.x, r.o))
        games = sum(r.games for r in result.results if row.agent in (r.x, r.o))
        assert (row.games, row.points) == (games, wins + draws / 2)
        assert row.as_x.wins + row.as_o.wins == wins
        assert row.low <= row.score <= row.high
    scores = [row.score for row in board.rows]
    assert scores == sorted(scores, reverse=True)
    assert {row.agent for row in board.rows[-5:]} == {"hog", "illegal", "loops", "quits",
                                                      "raises"}


def test_score_interval_is_wilsons_for_win_loss_records():
    from ttt_lib.arena import wilson_interval
    for wins, games in ((0, 5), (3, 10), (10, 10), (7, 40)):
        assert score_interval(wins, games) == pytest.approx(wilson_interval(wins, games))


def test_bradley_terry_matches_a_direct_maximum_likelihood_fit():
    from scipy.optimize import minimize
    from ttt_lib.arena import PairResult
    labels = ["a", "b", "c", "d"]
    results = [PairResult("a", "b", 6, 2, 2), PairResult("b", "a", 1, 5, 4),
               PairResult("a", "c", 9, 0, 1), PairResult("c", "d", 3, 3, 4),
               PairResult("d", "b", 2, 6, 2), PairResult("b", "c", 5, 5, 0)]

    def minus_log_likelihood(theta):  # strengths exp(theta); each also draws a strength-1 foe
        p = dict(zip(labels, map(math.exp, theta)))
        total = sum(0.5 * math.log(p[i] / (p[i] + 1)) + 0.5 * math.log(1 / (p[i] + 1))
                    for i in labels)
        for r in results:
            x_points, o_points = r.x_wins + r.draws / 2, r.o_wins + r.draws / 2
            total += x_points * math.log(p[r.x] / (p[r.x] + p[r.o]))
            total += o_points * math.log(p[r.o] / (p[r.x] + p[r.o]))
        return -total

    fit = minimize(minus_log_likelihood, [0.0] * 4, method="BFGS", options={"gtol": 1e-10})
    expected = [400 * t / math.log(10) for t in fit.x]
    ratings = bradley_terry(labels, results)
    assert [ratings[x] for x in labels] == pytest.approx(expected, abs=1e-3)
    assert bradley_terry(labels, results) == ratings  # deterministic


def test_a_perfect_record_has_a_finite_rating():
    from ttt_lib.arena import PairResult
    board = leaderboard(["a", "b"], [PairResult("a", "b", 10, 0, 0),
                                     PairResult("b", "a", 0, 10, 0)])
    assert [row.agent for row in board.rows] == ["a", "b"]
    assert all(math.isfinite(row.rating) for row in board.rows)
    assert board.rows[0].rating == pytest.approx(-board.rows[1].rating)


def test_entrants_need_two_distinct_names():
    with pytest.raises(ClassroomError, match="at least two"):
        entrants(["random"], None)
    with pytest.raises(ClassroomError, match="named twice"):
        entrants(["random", "random"], None)
    assert len(ordered_pairs(entrants(["random", "perfect", "mcts"], None))) == 6
