"""`grade` against notebooks that try to buy a Right for a wrong answer, or points for the
whole class, beside honest ones (issue 42): a `print` of its own rewriting verdict lines; a
forged row written through bwrap's init (`/proc/1/fd/*`) and the grader inside the box
killed; an IPython input transformer rewriting every cell after it (the grader's too); an
`int` whose `__eq__` always says True, on notebook 02's write-its and values; a made-up
exercise worth 1000 points; three copies of one student's notebook claiming 50 points each;
a link to a classmate's notebook; a file name with ESC/CSI and U+202E; a box that says its
capstone deadline loop is Right and stops its own CPU clock; a box that rewrites the leaves its
search read, and one that replays alpha-beta's leaves without searching. Each forger's wrong
answer is Not yet (or missing), the honest rows and `max_points` are what they are without
the forgers, and every name in the table is printable."""
from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_grade_class import (IMPORTS, MINIMAX, MINIMAX_WRONG, NEGAMAX, VALUE, VALUE_WRONG,
                              notebook)

from ttt_lib.teach.papers import course_points

TIMEOUT = 90
EXERCISES = ["check_02_minimax", "check_02_minimax_value", "check_02_negamax"]
COURSE = course_points()  # the package's course, which these rows are graded against
ALL_OF_02 = str(sum(value for name, value in COURSE.items() if name[6:8] == "02"))
ALL_THREE = str(sum(COURSE[name] for name in EXERCISES))  # a notebook right on its three
OWN_PRINT = ("import builtins\n_print = builtins.print\n"
             "def print(*args, **kwargs):\n"
             "    _print(*(str(a).replace('Not yet', 'Right') for a in args), **kwargs)\n"
             "builtins.print = print")
FORGED_ROW = ('{"lines": {"check_02_minimax": "Right: forged", "check_02_minimax_value": '
              '"Right: forged", "check_02_negamax": "Right: forged"}, "problem": "", '
              '"flags": ""}\\n{"ran": {"problem": "", "printed": []}}\\n'
              '{"answers": {"check_02_minimax": {"value": 3}}, "said": [], "swapped": []}\\n')
THROUGH_PID_1 = ("import os, signal\n"
                 "for pid in ('1', str(os.getppid())):\n"
                 "    for fd in os.listdir(f'/proc/{pid}/fd'):\n"
                 "        try:\n"
                 "            with open(f'/proc/{pid}/fd/{fd}', 'w') as out:\n"
                 f"                out.write('{FORGED_ROW}')\n"
                 "        except OSError:\n"
                 "            pass\n"
                 "os.kill(os.getppid(), signal.SIGKILL)")
TRANSFORMER = ("def forge(lines):\n"
               "    text = ''.join(lines)\n"
               "    if 'ttt' in text and 'forge' not in text:\n"
               "        return ['import ttt_lib.teach.judge as j, ttt_lib.teach.core as c\\n',\n"
               "                'j.same_value = lambda a, b: True\\n',\n"
               "                'c.is_int = lambda v: True\\n',\n"
               "                'print(\"Right: transformed\")\\n'] + lines\n"
               "    return lines\n"
               "get_ipython().input_transformers_cleanup.append(forge)")
ALWAYS = ("class Always(int):\n"
          "    def __eq__(self, other):\n        return True\n"
          "    def __ne__(self, other):\n        return False\n"
          "    __hash__ = int.__hash__\n")
ALWAYS_VALUE = ALWAYS + "check_02_minimax_value(Always(0))"
ALWAYS_MINIMAX = "def my_minimax(state):\n    return Always(0)\n\ncheck_02_minimax(my_minimax)"
ALWAYS_NEGAMAX = "def my_negamax(state):\n    return Always(0)\n\ncheck_02_negamax(my_negamax)"
BONUS = "def check_10_bonus(answer):\n    print('Right: a bonus')\n\ncheck_10_bonus(1)"
ODD_NAME = "\x1b[2J\x1b[31mzed\u202egnp.ipynb"  # clears a terminal, turns its text around


def grade(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", "grade", *map(str, args)],
                          capture_output=True, text=True, timeout=900)


def add_cell(path, source: str, at: int = 2, points: int | None = None) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell
    nb = nbformat.read(str(path), as_version=4)
    metadata = {"ttt": {"points": points}} if points is not None else {}
    nb.cells.insert(at, new_code_cell(source, metadata=metadata))
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def forged(tmp_path_factory):
    """The class graded with the forgers, and the honest two alone: (rows, canvas, stdout)
    of each."""
    root = tmp_path_factory.mktemp("forgers")
    honest, folder = root / "honest", root / "class"
    for place in (honest, folder):
        notebook(place / "alice" / "hw.ipynb", VALUE, MINIMAX, NEGAMAX)
        notebook(place / "bob" / "hw.ipynb", VALUE, MINIMAX_WRONG, NEGAMAX)
    notebook(folder / "printer.ipynb", VALUE_WRONG, MINIMAX_WRONG, MINIMAX_WRONG.replace(
        "minimax", "negamax"))
    add_cell(folder / "printer.ipynb", OWN_PRINT)
    notebook(folder / "pid1.ipynb", VALUE_WRONG, MINIMAX_WRONG, NEGAMAX)
    add_cell(folder / "pid1.ipynb", THROUGH_PID_1, at=5)
    notebook(folder / "transformer.ipynb", VALUE_WRONG, MINIMAX_WRONG, NEGAMAX)
    add_cell(folder / "transformer.ipynb", TRANSFORMER)
    notebook(folder / ODD_NAME, ALWAYS_VALUE, ALWAYS_MINIMAX, ALWAYS_NEGAMAX)
    notebook(folder / "bonus.ipynb", VALUE_WRONG, MINIMAX_WRONG, NEGAMAX)
    add_cell(folder / "bonus.ipynb", BONUS, points=1000)
    for copy in "abc":  # the value only (quick), each cell claiming 50 points
        copy = folder / "mallory" / f"{copy}.ipynb"
        notebook(copy, VALUE, "", "", points={name: 50 for name in EXERCISES})
    (folder / "eve").mkdir()
    os.symlink("../alice/hw.ipynb", folder / "eve" / "hw.ipynb")
    runs = []
    for place in (folder, honest):
        table, canvas = root / f"{place.name}.csv", root / f"{place.name}-canvas.csv"
        done = grade(place, "--csv", table, "--canvas", canvas, "--jobs", 2,
                     "--timeout", TIMEOUT)
        assert done.returncode == 0, done.stderr
        runs.append(tuple(list(csv.reader(open(path, newline="", encoding="utf-8")))
                          for path in (table, canvas)) + (done.stdout,))
    return runs


def rows_by_file(rows) -> dict:
    return {row[1]: dict(zip(rows[0], row)) for row in rows[1:]}


FORGERS = ["printer.ipynb", "pid1.ipynb", "transformer.ipynb", "bonus.ipynb", "mallory/a.ipynb",
           "eve/hw.ipynb"]


@pytest.mark.slow
def test_no_forger_buys_a_right_for_a_wrong_answer(forged):
    rows = rows_by_file(forged[0][0])
    wrong = {"printer.ipynb": EXERCISES, "pid1.ipynb": EXERCISES[:2],
             "transformer.ipynb": EXERCISES[:2], "bonus.ipynb": EXERCISES[:2],
             }
    for file, exercises in wrong.items():
        for name in exercises:
            assert rows[file][name] in ("Not yet", "missing"), (file, name, rows[file])
    assert rows["pid1.ipynb"]["problem"].startswith("no result")  # its forged row: unread
    assert rows["transformer.ipynb"]["check_02_negamax"] == "Right"  # its own right answer


@pytest.mark.slow
def test_an_int_whose_eq_always_says_true_is_not_yet(forged):
    rows = forged[0][0]
    (odd,) = [dict(zip(rows[0], row)) for row in rows[1:] if "zed" in row[1]]
    assert [odd[name] for name in EXERCISES] == ["Not yet"] * 3
    assert odd["points"] == "0"


@pytest.mark.slow
def test_names_are_printable_in_the_table(forged):
    rows, _, out = forged[0]
    (odd,) = [row for row in rows[1:] if "zed" in row[1]]
    assert odd[1] == "\\x1b[2J\\x1b[31mzed\\u202egnp.ipynb"
    assert odd[0] == "\\x1b[2J\\x1b[31mzed\\u202egnp"
    assert all(text.isprintable() for row in rows for text in row)


@pytest.mark.slow
def test_a_made_up_exercise_is_ignored_and_flagged(forged):
    rows = forged[0][0]
    assert "check_10_bonus" not in rows[0]
    bonus = rows_by_file(rows)["bonus.ipynb"]
    assert "ignores check_10_bonus (not in the course)" in bonus["flags"]
    assert (bonus["points"], bonus["max_points"]) == (str(COURSE["check_02_negamax"]),
                                                      ALL_OF_02)


@pytest.mark.slow
def test_honest_rows_and_max_points_are_unchanged(forged):
    (rows, canvas, _), (honest_rows, honest_canvas, _) = forged
    for file, row in rows_by_file(honest_rows).items():  # feedback: each run's fresh cases
        assert {**rows_by_file(rows)[file], "feedback": ""} == {**row, "feedback": ""}
    assert rows_by_file(honest_rows)["alice/hw.ipynb"]["points"] == ALL_THREE
    assert {row["max_points"] for file, row in rows_by_file(rows).items()
            if file != "eve/hw.ipynb"} == {ALL_OF_02}  # the link is no notebook 02 of eve's
    assert canvas[1] == honest_canvas[1] == ["Points Possible", "", "", "", "", ALL_OF_02]


@pytest.mark.slow
def test_one_students_copies_are_one_student(forged):
    rows, canvas, _ = forged[0]
    mallory = [row for file, row in rows_by_file(rows).items() if file.startswith("mallory/")]
    assert len(mallory) == 3
    assert all("one of 3 notebooks of mallory" in row["flags"] for row in mallory)
    assert all(row["check_02_minimax_value points"] == "1" for row in mallory)  # not 50
    (total,) = [row[-1] for row in canvas[2:] if row[0] == "mallory"]
    assert total == "1"  # the value once, never summed over the copies


@pytest.mark.slow
def test_a_link_to_a_classmate_is_not_the_linkers_work(forged):
    rows, canvas, _ = forged[0]
    eve = rows_by_file(rows)["eve/hw.ipynb"]
    assert [eve[name] for name in EXERCISES] == ["missing"] * 3 and eve["points"] == "0"
    assert eve["problem"] == "not graded: it is a link to alice/hw.ipynb, not this " \
                             "student's work"
    assert [row[-1] for row in canvas[2:] if row[0] == "eve"] == ["0"]


# ------------------------------------------- the write-its once judged in their box (issue 42)

WRITE_ITS = ["check_04_transposition", "check_04_ordering", "check_05_deadline",
             "check_07_backpropagate", "check_07_mcts", "check_08_agent"]
LIARS = ALWAYS + ("class Yes(list):\n"
                  "    def __eq__(self, other):\n        return True\n"
                  "    def __contains__(self, item):\n        return True\n")
LYING_ANSWERS = (
    "def table(state, alpha, beta, t):\n    return Always(0)\n\ncheck_04_transposition(table)",
    "def order(state):\n    return Yes()\n\ncheck_04_ordering(order)",
    "def deadline(state, seconds):\n    return Always(-1)\n\ncheck_05_deadline(deadline)",
    "def backprop(path, x):\n    for node in path:\n        node.visits = Always(0)\n"
    "        node.wins = Always(0)\n\ncheck_07_backpropagate(backprop)",
    "def uct(state, playouts, rng):\n    return Always(-1)\n\ncheck_07_mcts(uct)",
    "class Liar:\n    def choose(self, state):\n        return Always(-1)\n\ncheck_08_agent(Liar)")
DELEGATING_ANSWERS = (
    "from ttt_lib.agents import make_agent\ncheck_08_agent(make_agent('greedy').choose)",
    "from ttt_lib.search.monte_carlo import MCTSTree\n"
    "def uct(state, playouts, rng):\n    tree = MCTSTree(state, rng=rng)\n"
    "    for _ in range(playouts):\n        tree.iterate()\n    return tree.best_move()\n\n"
    "check_07_mcts(uct)",
    "from ttt_lib.search import negamax\n"
    "def table(state, alpha, beta, t):\n    return negamax(state)\n\n"
    "check_04_transposition(table)")


# Issue 42's last two: the capstone's deadline loop once judged in its box on the box's own
# clock, and the leaves a tree search read once reported by the box. A forger that makes its
# box say "Right" and stops its CPU clock, one that rewrites the leaves its box reports, one
# that replays alpha-beta's leaves without searching (it reads the tree behind the state).
PRUNED = ("def pruned(state, alpha, beta, read, path=()):\n"
          "    if state.is_terminal():\n"
          "        read.append((path, state.key()))\n"
          "        return state.utility()\n"
          "    best = -float('inf') if state.to_move == 1 else float('inf')\n"
          "    for move in state.moves():\n"
          "        value = pruned(state.play(move), alpha, beta, read, path + (move,))\n"
          "        if state.to_move == 1:\n"
          "            best = max(best, value)\n            alpha = max(alpha, best)\n"
          "        else:\n"
          "            best = min(best, value)\n            beta = min(beta, best)\n"
          "        if alpha >= beta:\n            break\n"
          "    return best\n")
CLOCK_STOPPED = (
    "import time\nimport ttt_lib.teach.answering as answering\n"
    "from ttt_lib.teach import check_12_deadline\n"
    "answering._judge_here = lambda *args: 'Right: judged in my box'\n"
    "time.process_time = lambda: 0.0  # the box's own clock, stopped\n"
    "def spin_move(state, seconds):  # three times its budget, on a clock not stopped\n"
    "    end = time.thread_time() + 3 * seconds + 0.1\n"
    "    while time.thread_time() < end:\n        pass\n"
    "    return state.moves()[0]\n\n"
    "check_12_deadline(spin_move)")
VISITS_REWRITTEN = PRUNED + (
    "import ttt_lib.teach.answering as answering\n"
    "from ttt_lib.teach import check_03_alphabeta\n"
    "from ttt_lib.teach.wire import decode, decode_state, encode\n"
    "def every_leaf(state, alpha, beta):  # minimax: reads every leaf\n"
    "    if state.is_terminal():\n        return state.utility()\n"
    "    values = [every_leaf(state.play(m), alpha, beta) for m in state.moves()]\n"
    "    return max(values) if state.to_move == 1 else min(values)\n"
    "asked = answering._ask\n"
    "def forged(name, args, box, method=None, drive=None):  # reports alpha-beta's leaves\n"
    "    reply = asked(name, args, box, method, drive)\n"
    "    if name == 'check_03_alphabeta' and isinstance(reply, dict) and 'visits' in reply:\n"
    "        read = []\n"
    "        pruned(decode_state(args[0]['state']), decode(args[1]['value']),\n"
    "               decode(args[2]['value']), read)\n"
    "        reply['visits'] = {'leaves': encode([key for _, key in read]), 'expanded': []}\n"
    "    return reply\n"
    "answering._ask = forged\n\n"
    "check_03_alphabeta(every_leaf)")
REPLAYED = PRUNED + (
    "from ttt_lib.teach import check_03_alphabeta\n"
    "def replay(state, alpha, beta):  # alpha-beta run on the tree behind the state, then\n"
    "    read = []                    # its leaves read again in order, searching nothing\n"
    "    value = pruned(state.state, alpha, beta, read)\n"
    "    for path, _ in read:\n"
    "        node = state\n"
    "        for move in path:\n            node = node.play(move)\n"
    "        node.utility()\n"
    "    return value\n\n"
    "check_03_alphabeta(replay)")
BUNDLE_SWAPPED = (
    "import ttt_lib.teach.nb12 as nb12\n"
    "from ttt_lib.teach import check_12_agent\n"
    "def weak(state):  # the agent the notebook shows\n"
    "    return state.moves()[0]\n"
    "OTHER = nb12.bundle(weak).replace('state.moves()[0]',  # made before the checker asks\n"
    "                                  'state.moves()[len(state.moves()) // 2]')\n"
    "nb12.bundled_source = lambda agent: OTHER  # the box sends another agent\n\n"
    "check_12_agent(weak)")
FIRST_COLUMN = ("from ttt_lib.teach import check_12_agent\n"
                "def first_column(state):  # its own code, bundled as it is: the ladder judges\n"
                "    return state.moves()[0]\n\n"
                "check_12_agent(first_column)")
HONEST_DEADLINE = (Path(__file__).with_name("capstone_solution.py").read_text()
                   + "\n\nfrom ttt_lib.teach import check_12_deadline\n"
                   "check_12_deadline(best_move)")


def write_it_notebook(path, *sources: str) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    imports = f"from ttt_lib.teach import {', '.join(WRITE_ITS)}"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=[new_code_cell(imports)]
                                + [new_code_cell(source) for source in sources]), str(path))


@pytest.fixture(scope="module")
def write_its(tmp_path_factory):
    """Two notebooks graded (no box: the grader's judging is what is tried): one that
    prints, transforms and answers with objects whose `==` lies on the six write-its that
    were judged in their box, one that delegates them to the library."""
    from ttt_lib.teach.grade import grade_folder
    folder = tmp_path_factory.mktemp("write-its")
    write_it_notebook(folder / "liar.ipynb", OWN_PRINT, TRANSFORMER, LIARS, *LYING_ANSWERS,
                      CLOCK_STOPPED, VISITS_REWRITTEN, BUNDLE_SWAPPED)
    write_it_notebook(folder / "delegator.ipynb", *DELEGATING_ANSWERS, REPLAYED,
                      HONEST_DEADLINE, FIRST_COLUMN)
    return {graded.file: graded for graded in grade_folder(folder, timeout=TIMEOUT, jobs=2)}


def test_forged_write_its_are_not_yet_and_judged_in_the_grader(write_its):
    liar = write_its["liar.ipynb"]
    assert liar.problem == "", liar.problem
    assert {name: liar.status(name) for name in WRITE_ITS} == dict.fromkeys(WRITE_ITS,
                                                                            "Not yet"), liar.lines
    assert "judged in its box" not in liar.flags, liar.flags


def test_the_deadline_loop_is_timed_by_the_boxs_cpu_read_from_outside(write_its):
    """Its box says Right and its clock is stopped: the grader judges it, on the CPU time
    it reads itself (an unboxed run's: its processes in /proc), and finds the overrun; the
    course's deadline loop, graded beside it, stays Right."""
    line = write_its["liar.ipynb"].lines["check_12_deadline"]
    assert line.startswith("Not yet:") and "s of CPU time" in line, line
    assert write_its["delegator.ipynb"].status("check_12_deadline") == "Right", \
        write_its["delegator.ipynb"].lines["check_12_deadline"]


def test_the_capstone_agent_played_is_the_one_the_notebook_defines(write_its):
    """A box that sends other code for the agent than the notebook's cells define is Not yet
    before any game; an agent sent as its cells define it is judged by the ladder."""
    swapped = write_its["liar.ipynb"].lines["check_12_agent"]
    assert swapped == ("Not yet: the box sent code for weak that is not in your notebook's "
                       "cells."), swapped
    own = write_its["delegator.ipynb"].lines["check_12_agent"]
    assert own.startswith("Not yet:") and " against " in own and "below half" in own, own


def test_the_leaves_a_search_read_are_observed_in_the_grader(write_its):
    """Minimax whose box reports alpha-beta's leaves is Not yet for the leaves the grader
    saw it read; a replay of alpha-beta's leaves through the tree behind the state finds no
    tree there (the state is a stand-in of the grader's)."""
    rewritten = write_its["liar.ipynb"].lines["check_03_alphabeta"]
    assert rewritten.startswith("Not yet:") and rewritten.endswith(  # minimax's hint
        "does a node's loop stop once alpha >= beta?"), rewritten
    replayed = write_its["delegator.ipynb"].lines["check_03_alphabeta"]
    assert replayed.startswith("Not yet:") and "AttributeError" in replayed, replayed


def test_delegated_write_its_name_the_library_function(write_its):
    delegator = write_its["delegator.ipynb"]
    assert {name: delegator.status(name) for name in
            ("check_08_agent", "check_07_mcts", "check_04_transposition")} == dict.fromkeys(
        ("check_08_agent", "check_07_mcts", "check_04_transposition"), "Not yet")
    assert "GreedyAgent" in delegator.delegated["check_08_agent"]
    assert delegator.delegated["check_07_mcts"].startswith("MCTSTree")
    assert delegator.delegated["check_04_transposition"] == "negamax"
    assert "judged in its box" not in delegator.flags
