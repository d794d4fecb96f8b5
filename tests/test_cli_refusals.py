"""Bad command lines: each exits with status 2 and exactly one line on stderr, before any
work (no game played, no model trained, no notebook graded, no file written).

The commands run in-process (``main``), each under an alarm: a command that started its work
instead of refusing would run for many seconds (a training run, a tournament, a grading)
and is stopped at 5 s. A few run as real processes, as a user types them.
"""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ttt_lib.cli import main

PROC = "/proc/ttt-lib-refusal"  # a place no one can create a file in, not even root
HUGE = "9" * 5000  # more digits than Python turns into an int


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, str]:
    """Folders and files for the bad paths: an empty folder, a file, a folder of student
    work that is all broken, a folder of notebooks."""
    root = tmp_path_factory.mktemp("refusals")
    (root / "empty").mkdir()
    (root / "file.txt").write_text("not a folder\n")
    broken = root / "broken"
    broken.mkdir()
    (broken / "a.ipynb").write_text('{"cells": 5}')
    (broken / "b.ipynb").write_text("{not json")
    (broken / "c.py").write_bytes(b"\xff\xfe not python")
    notebooks = root / "notebooks"
    notebooks.mkdir()
    (notebooks / "n.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, '
                                       '"nbformat_minor": 5}')
    (root / "picture.png").mkdir()  # a folder with a file's name
    return {"dir": str(root / "empty"), "file": str(root / "file.txt"),
            "missing": str(root / "no" / "such" / "folder"), "broken": str(broken),
            "notebooks": str(notebooks), "png_dir": str(root / "picture.png"),
            "under_file": str(root / "file.txt" / "out.json"), "root": str(root)}


CLASS = ["tournament", "--agents-from", "{broken}", "--agents", "random,heuristic",
         "--no-isolation", "--games", "1"]
TRAIN = ["train", "qtable", "--seed", "1", "--games", "200000"]
GRADE = ["grade", "{notebooks}", "--no-isolation"]

BAD = [
    # the command itself
    [], ["nonsense"], ["--version-of-nothing"], ["selfplay", "--bogus"], ["count", "extra"],
    ["bench", "--bogus"],
    # selfplay: names, openers, numbers
    ["selfplay", "--x", "nobody"], ["selfplay", "--o", ""], ["selfplay", "--x", "random\nevil"],
    ["selfplay", "--first", "Z"], ["selfplay", "--seed", "x"], ["selfplay", "--seed", "1.5"],
    ["selfplay", "--seed", HUGE], ["selfplay", "--x", "mcts(playouts=3)"],
    # solve: sizes and the JSON path
    ["solve"], ["solve", "--json", "{dir}"], ["solve", "--json", PROC + ".json"],
    ["solve", "--json", "{missing}/table.json"], ["solve", "--json", "{under_file}"],
    ["solve", "--json", "{missing}/with\nnewline.json"],
    ["solve", "--mnk", "3", "3"], ["solve", "--mnk", "0", "3", "3"],
    ["solve", "--mnk", "100", "100", "3"], ["solve", "--mnk", "3", "3", "4"],
    ["solve", "--mnk", "a", "3", "3"], ["solve", "--mnk", HUGE, "3", "3"],
    ["solve", "--mnk", "-3", "3", "3"], ["solve", "--connect4", "7"],
    ["solve", "--connect4", "7", "6", "4", "4"], ["solve", "--connect4", "0", "6"],
    ["solve", "--connect4", "100", "100"], ["solve", "--connect4", "7", "6", "9"],
    ["solve", "--mnk", "3", "3", "3", "--connect4", "4", "4"],
    ["solve", "--mnk", "3", "3", "3", "--json", "{dir}"],
    ["solve", "--connect4", "4", "4", "--json", PROC + ".json"],
    # nodes
    ["nodes", "--opener", "O"], ["nodes", "--opener", "Z"], ["nodes", "--json", "x"],
    # tournament: names and numbers
    ["tournament"], ["tournament", "--agents", ""], ["tournament", "--agents", ",,"],
    ["tournament", "--agents", "random,nobody"], ["tournament", "--agents", "random,random"],
    ["tournament", "--agents", "random", "--games", "0"],
    ["tournament", "--agents", "random", "--games", "-5"],
    ["tournament", "--agents", "random", "--games", "1000001"],
    ["tournament", "--agents", "random", "--games", HUGE],
    ["tournament", "--agents", "random", "--games", "x"],
    ["tournament", "--agents", "random", "--games", "1e3"],
    ["tournament", "--agents", "random", "--seed", "x"],
    ["tournament", "--agents", "random", "--csv", "out.csv"],
    ["tournament", "--agents", "random", "--workers", "2"],
    ["tournament", "--agents", "random", "--executor", "processes"],
    ["tournament", "--agents", "random", "--no-isolation"],
    ["tournament", "--agents", "random", "--executor", "gpu"],
    # the class tournament: folders, paths, limits
    ["tournament", "--agents-from", "{missing}", "--agents", "random,heuristic"],
    ["tournament", "--agents-from", "{file}", "--agents", "random,heuristic"],
    ["tournament", "--agents-from", "{dir}", "--no-isolation"],
    ["tournament", "--agents-from", "{broken}", "--agents", "random", "--no-isolation"],
    CLASS + ["--csv", "{dir}"], CLASS + ["--csv", PROC + ".csv"],
    CLASS + ["--csv", "{missing}/table.csv"], CLASS + ["--csv", "{under_file}"],
    CLASS + ["--plot", "table.txt"], CLASS + ["--plot", "{png_dir}"],
    CLASS + ["--plot", PROC + ".png"], CLASS + ["--plot", "{missing}/table.svg"],
    CLASS + ["--games", "0"], CLASS + ["--executor", "processes", "--workers", "0"],
    CLASS + ["--move-time", "0"], CLASS + ["--move-time", "nan"],
    CLASS + ["--move-time", "x"], CLASS + ["--memory", "1"], CLASS + ["--scheduler", "x"],
    CLASS + ["--agents", "random,nobody"],
    # train: kinds, numbers and the files it writes (refused before any training)
    ["train"], ["train", "qtable"], ["train", "nothing", "--seed", "1"],
    ["train", "qtable", "--seed", "x"],
    ["train", "qtable", "--seed", "1", "--games", "10000001"],  # 0 is fine: the untrained baseline
    ["train", "qtable", "--seed", "1", "--games", "-1"],
    ["train", "qtable", "--seed", "1", "--games", str(10 ** 12)],
    ["train", "qtable", "--seed", "1", "--games", "x"],
    TRAIN + ["--policy", "{dir}"], TRAIN + ["--policy", PROC + ".json"],
    TRAIN + ["--policy", "{missing}/policy.json"], TRAIN + ["--policy", "{under_file}"],
    TRAIN + ["--save", "{dir}"], TRAIN + ["--save", PROC + ".json"],
    ["train", "td", "--seed", "1", "--save", "{missing}/model.json"],
    ["train", "zero", "--seed", "1", "--policy", PROC + ".json"],
    ["train", "qnet", "--seed", "1", "--policy", "{notebooks}/ok.json", "--save", "{dir}"],
    # chance: the slip probability
    ["chance"], ["chance", "--slip", "x"], ["chance", "--slip", "2"],
    ["chance", "--slip", "-1/4"], ["chance", "--slip", "nan"], ["chance", "--slip", "1/0"],
    ["chance", "--slip", ""], ["chance", "--slip", HUGE],
    # grade: the folder, the time limit, the CSV path (refused before any notebook runs)
    ["grade"], ["grade", "{missing}"], ["grade", "{file}"], ["grade", "{dir}"],
    GRADE + ["--timeout", "0"], GRADE + ["--timeout", "x"], GRADE + ["--timeout", "nan"],
    GRADE + ["--timeout", "inf"], GRADE + ["--timeout", "-5"], GRADE + ["--csv", "{dir}"],
    GRADE + ["--csv", PROC + ".csv"], GRADE + ["--csv", "{missing}/grades.csv"],
    GRADE + ["--csv", "{under_file}"],
    # grade: jobs, the case seed, the roster, the Canvas file
    GRADE + ["--jobs", "0"], GRADE + ["--jobs", "x"], GRADE + ["--jobs", HUGE],
    GRADE + ["--case-seed", "-1"], GRADE + ["--case-seed", "1.5"], GRADE + ["--roster", "{dir}"],
    GRADE + ["--roster", "{missing}/roster.csv"], GRADE + ["--roster", "{file}"],
    GRADE + ["--canvas", "{dir}"], GRADE + ["--canvas", PROC + ".csv"],
    # export: the kind, the output, the notebooks
    ["export"], ["export", "nbgrader"], ["export", "otter", "{root}/out"],
    ["export", "nbgrader", "{dir}"], ["export", "gradescope", "{root}/out.tar"],
    ["export", "nbgrader", "{missing}/out"], ["export", "nbgrader", "{root}/out", "--only", "x"],
    ["export", "nbgrader", "{root}/out", "--only", "99"],
    ["export", "nbgrader", "{root}/out", "--notebooks", "{missing}"],
]


class TookTooLong(Exception):
    pass


def _alarm(signum, frame):
    raise TookTooLong


def refused(argv: list[str], capsys) -> tuple[int, str, str]:
    """``main(argv)`` under a 5-second alarm: (status, stdout, stderr)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(5)
    try:
        status = main(argv)
    except TookTooLong:
        pytest.fail(f"{argv} started its work instead of refusing")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_there_are_at_least_eighty_bad_command_lines():
    assert len(BAD) >= 80 and len({tuple(argv) for argv in BAD}) == len(BAD)


@pytest.mark.parametrize("argv", BAD, ids=lambda argv: " ".join(argv)[:60])
def test_a_bad_command_line_exits_2_with_one_line_before_any_work(argv, places, capsys,
                                                                  monkeypatch):
    monkeypatch.chdir(places["root"])
    before = sorted(Path(places["root"]).rglob("*"))
    status, out, err = refused([part.format(**places) for part in argv], capsys)
    assert status == 2
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert "error" in err
    assert not out.strip(), out  # no table, no progress: nothing was done
    assert sorted(Path(places["root"]).rglob("*")) == before  # no file written


@pytest.mark.parametrize("argv", [
    ["train", "qtable", "--seed", "1", "--policy", PROC + ".json"],
    ["grade", "{notebooks}", "--no-isolation", "--csv", "{dir}"],
    ["solve", "--json", "{missing}/table.json"],
    CLASS + ["--csv", PROC + ".csv"],
])
def test_real_processes_refuse_the_same_way(argv, places):
    done = subprocess.run([sys.executable, "-m", "ttt_lib", *[a.format(**places) for a in argv]],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("python -m ttt_lib: error:")
