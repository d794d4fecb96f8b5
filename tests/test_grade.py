"""`python -m ttt_lib grade FOLDER`: every notebook run in a fresh kernel, one CSV row each,
whatever the notebook does (right, wrong, raising, hanging, not a notebook at all)."""
import csv
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from ttt_lib.teach import grade
from ttt_lib.teach.papers import course_points

IMPORTS = "from ttt_lib.teach import ALPHA_10, check_10_o_value, check_10_q_update"
# The answer of exercise 1, computed the way a student would (QTable's own update).
O_VALUE = ("from ttt_lib.learn.qtable import QTable\n"
           "o_row, x_row = [0.0] * 9, [0.0] * 9\n"
           "QTable().update([(o_row, 0), (x_row, 4)], 1.0, ALPHA_10)\n"
           "check_10_o_value(o_row[0])")
STUB = ("def my_update(q, reward, next_best, alpha, gamma):\n"
        "    raise NotImplementedError  # your code here\n\n"
        "check_10_q_update(my_update)")
RIGHT = ("def my_update(q, reward, next_best, alpha, gamma):\n"
         "    target = reward if next_best is None else -gamma * next_best\n"
         "    return q + alpha * (target - q)\n\n"
         "check_10_q_update(my_update)")
WRONG = ("def my_update(q, reward, next_best, alpha, gamma):\n"
         "    return q\n\n"
         "check_10_q_update(my_update)")
TIMEOUT = 20  # seconds per notebook: the hanging one uses it all (a margin for a loaded machine)


def classic(rows: list[list[str]]) -> list[list[str]]:
    """The table's file, status, right, problem and flags columns (the points and student
    columns are tests/test_grade_class.py's)."""
    keep = [i for i, name in enumerate(rows[0])
            if name in ("file", "right", "problem", "flags")
            or (name.startswith("check_") and not name.endswith(" points"))]
    return [[row[i] for i in keep] for row in rows]


def notebook(path, *sources, stored=None):
    """A notebook of code cells after a title; ``stored`` fakes the output left in the last
    cell by the student's own run."""
    cells = [new_markdown_cell("# A student's copy")] + [new_code_cell(s) for s in sources]
    if stored:
        cells[-1].outputs = [new_output("stream", name="stdout", text=stored)]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=cells), str(path))


def cli(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", "grade", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class folder, graded once through the command line: (rows by file, stdout)."""
    folder = tmp_path_factory.mktemp("class")
    notebook(folder / "right.ipynb", IMPORTS, O_VALUE, STUB, RIGHT,
             "# check_10_o_value(0)  <- an old attempt, commented out")
    notebook(folder / "wrong.ipynb", IMPORTS, "check_10_o_value(-0.5)", WRONG)
    notebook(folder / "broken.ipynb", IMPORTS, O_VALUE, "1 / 0", RIGHT,
             stored="Right: (stored by the student's run, never executed here)\n")
    # a cell that never ends; the limit is the wall clock's, so it sleeps rather than spin
    # (a spinning loop would only burn a core for the whole limit)
    notebook(folder / "hangs.ipynb", IMPORTS, O_VALUE,
             "import time\nwhile True:\n    time.sleep(0.05)", RIGHT)
    notebook(folder / "alice" / "untouched.ipynb", IMPORTS, "check_10_o_value(None)", STUB)
    notebook(folder / "alice" / ".ipynb_checkpoints" / "untouched.ipynb", "1 / 0")
    (folder / "not_json.ipynb").write_text("{this is not a notebook", encoding="utf-8")
    (folder / "notes.txt").write_text("not a notebook, not graded", encoding="utf-8")
    table = folder / "grades.csv"
    result = cli(folder, "--csv", table, "--timeout", TIMEOUT)
    assert result.returncode == 0, result.stderr
    with open(table, newline="", encoding="utf-8") as stream:
        rows = classic(list(csv.reader(stream)))
    return rows, result


@pytest.mark.slow
def test_one_row_per_notebook_and_a_column_per_exercise(graded):
    rows, _ = graded
    assert rows[0] == ["file", "check_10_q_update", "check_10_o_value", "right", "problem",
                       "flags"]  # the course's order
    assert [row[0] for row in rows[1:]] == ["alice/untouched.ipynb", "broken.ipynb",
                                            "hangs.ipynb", "not_json.ipynb", "right.ipynb",
                                            "wrong.ipynb"]


def by_file(rows) -> dict:
    return {row[0]: row[1:] for row in rows[1:]}


@pytest.mark.slow
def test_right_and_wrong_work_and_the_last_call_wins(graded):
    rows = by_file(graded[0])
    assert rows["right.ipynb"] == ["Right", "Right", "2", "", ""]
    assert rows["wrong.ipynb"] == ["Not yet", "Not yet", "0", "", ""]
    assert rows["alice/untouched.ipynb"] == ["Not yet", "Not yet", "0", "", ""]


@pytest.mark.slow
def test_a_raising_cell_keeps_the_verdicts_before_it(graded):
    q_update, o_value, right, problem, flags = by_file(graded[0])["broken.ipynb"]
    assert (o_value, q_update, right) == ("Right", "missing", "1")  # stored output ignored
    assert problem.startswith("code cell 3 raised ZeroDivisionError")  # as Jupyter counts
    assert flags == ""


@pytest.mark.slow
def test_a_hanging_notebook_is_stopped(graded):
    q_update, o_value, right, problem, _ = by_file(graded[0])["hangs.ipynb"]
    assert (o_value, q_update, right) == ("Right", "missing", "1")
    assert problem == f"stopped after the time limit ({TIMEOUT} s)"


@pytest.mark.slow
def test_a_file_that_is_not_a_notebook_gets_its_row(graded):
    assert by_file(graded[0])["not_json.ipynb"] == ["missing", "missing", "0",
                                                     "not a notebook: not a JSON object", ""]


@pytest.mark.slow
def test_summary_and_progress(graded):
    rows, result = graded
    statuses = [status for row in rows[1:] for status in row[1:3]]
    assert result.stdout.startswith(
        f"graded 6 notebooks: 3 ran to the end, 3 stopped early; "
        f"{statuses.count('Right')} Right, {statuses.count('Not yet')} Not yet, "
        f"{statuses.count('missing')} missing; the table is in ")
    assert result.stderr.count("grading ") == 6


def right_on_q_update(student: str) -> str:
    """The CSV row of a notebook Right on check_10_q_update alone: that exercise's points
    and notebook 10's, the course's."""
    points = course_points()
    earned = points["check_10_q_update"]
    possible = sum(value for name, value in points.items() if name[6:8] == "10")
    return f"{student},{student}.ipynb,Right,1,{earned},{earned},{possible},,,,\n"


@pytest.mark.slow
def test_without_csv_the_table_goes_to_stdout(tmp_path):
    notebook(tmp_path / "one.ipynb", IMPORTS, RIGHT)
    result = cli(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("student,file,check_10_q_update,right,check_10_q_update points,"
                             "points,max_points,delegated,feedback,problem,flags\n"
                             + right_on_q_update("one"))  # the course's points
    assert "graded 1 notebook: 1 ran to the end" in result.stderr


FORGED = [IMPORTS + ", check_09_right_value",
          'print("Right: done")\n' + STUB,  # a verdict printed before the stub
          "def check_10_o_value(answer):\n    print('Right: fooled you')\n\n"
          "check_10_o_value(None)",  # a checker redefined
          "print('Right: check_09_right_value(2)')\n"  # a checker's name inside a string
          "import ttt_lib.teach as teach\n"
          "teach.check_09_right_value = lambda answer: print('Right: patched')\n"
          "teach.check_09_right_value(0)"]


@pytest.mark.slow
def test_a_forged_notebook_is_judged_again_and_flagged(tmp_path):
    notebook(tmp_path / "forged.ipynb", *FORGED)
    notebook(tmp_path / "honest.ipynb", IMPORTS, RIGHT, "print('Right or wrong, I tried')")
    result = cli(tmp_path, "--timeout", TIMEOUT)
    assert result.returncode == 0, result.stderr
    rows = classic(list(csv.reader(result.stdout.splitlines())))
    assert rows[0] == ["file", "check_09_right_value", "check_10_q_update", "check_10_o_value",
                       "right", "problem", "flags"]
    forged, honest = (row[1:] for row in rows[1:])
    assert forged[:4] == ["Not yet", "Not yet", "Not yet", "0"] and forged[4] == ""
    assert "redefines check_09_right_value, check_10_o_value" in forged[5]  # patched too
    assert "prints 4 verdict lines no checker printed" in forged[5]
    assert honest == ["missing", "Right", "missing", "1", "", ""]


def test_redefined_checkers_are_found_in_the_code():
    source = ("from ttt_lib.teach import check_02_a, check_02_b as check_02_c\n"
              "def check_09_v(a):\n    pass\ncheck_01_x = print\nimport os as check_03_y\n"
              "%time check_02_a(1)\ncheck_04_z(check_05_w)")
    assert grade.redefined(source) == {"check_02_c", "check_09_v", "check_01_x", "check_03_y"}


@pytest.mark.parametrize("args", [
    ["/no/such/folder"], ["EMPTY"], ["EMPTY/../README"], ["CLASS", "--timeout", "0"],
    ["CLASS", "--timeout", "-1"], ["CLASS", "--timeout", "soon"], ["CLASS", "--timeout", "nan"],
    ["CLASS", "--csv", "/no/such/folder/grades.csv"], [], ["CLASS", "--no-such-flag"]])
def test_bad_arguments_exit_2_with_one_line(tmp_path, args):
    (tmp_path / "EMPTY").mkdir()
    (tmp_path / "README").write_text("a file, not a folder", encoding="utf-8")
    notebook(tmp_path / "CLASS" / "one.ipynb", "1 / 0")
    args = [str(tmp_path / a) if a.isupper() or a.startswith("EMPTY") else a for a in args]
    result = cli(*args)
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr


# --------------------------------------------------------------- reading verdicts, unit tests

@pytest.mark.parametrize("source, calls", [
    ("check_02_value(answer)", ["check_02_value"]),
    ("teach.check_02_value (answer)\ncheck_03_count(3)", ["check_02_value", "check_03_count"]),
    ("# check_02_value(answer)\nx = 1", []),
    ("def check_02_value(answer):\n    print('Right: fooled you')", []),
    ("mycheck_02_value(1); check_2_value(1); check_02_value", [])])
def test_exercise_calls(source, calls):
    assert grade.exercise_calls(source) == calls


def test_status_of_a_graded_notebook():
    one = grade.Graded("x.ipynb", {"check_01_a": "Right: yes", "check_01_b": "Not yet: no"})
    assert [one.status(e) for e in ("check_01_a", "check_01_b", "check_01_c")] == \
        ["Right", "Not yet", "missing"]
