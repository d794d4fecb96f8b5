"""`grade` on a class as Canvas hands it over: students from folders, Canvas's download names
(late ones too) and Canvas's own gradebook export as the roster; a resubmission, a link and
files off the roster flagged, never summed; columns in the course's order; not attempted
apart from Not yet; the delegated flag and the feedback column; fresh cases that catch a
function fitted to the notebook's cases; --keep-going past a stray error; the same CSV with
two jobs as with one; Canvas's gradebook file. The class is graded once (a module fixture),
its notebooks a few cells each; names, rosters and Canvas's rows are also tested without a
kernel."""
import csv
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from ttt_lib import TreeNode, teach
from ttt_lib.search import minimax
from ttt_lib.teach import classfolder, gradebook
from ttt_lib.teach.grade import Graded

IMPORTS = ("from ttt_lib import TreeNode\n"
           "from ttt_lib.search import minimax\n"
           "from ttt_lib.teach import (TREE_02_VALUE, check_02_minimax, check_02_minimax_value,\n"
           "                          check_02_negamax)")
VALUE = "answer = minimax(TreeNode(TREE_02_VALUE))\ncheck_02_minimax_value(answer)"
VALUE_WRONG = "answer = 12\ncheck_02_minimax_value(answer)"
MINIMAX = ("def my_minimax(state):\n    if state.is_terminal():\n        return state.utility()\n"
           "    values = [my_minimax(state.play(m)) for m in state.moves()]\n"
           "    return max(values) if state.to_move == 1 else min(values)\n\n"
           "check_02_minimax(my_minimax)")
MINIMAX_WRONG = ("def my_minimax(state):\n    if state.is_terminal():\n"
                 "        return state.utility()\n"
                 "    return max(my_minimax(state.play(m)) for m in state.moves())\n\n"
                 "check_02_minimax(my_minimax)")
NEGAMAX = ("def my_negamax(state):\n    if state.is_terminal():\n"
           "        return state.to_move * state.utility()\n"
           "    return max(-my_negamax(state.play(m)) for m in state.moves())\n\n"
           "check_02_negamax(my_negamax)")
STUB = "def my_{0}(state):\n    raise NotImplementedError  # your code here\n\ncheck_02_{0}(my_{0})"
POINTS = {"check_02_minimax": 2, "check_02_negamax": 2, "check_02_minimax_value": 1}
SEED = 4242  # the grading's case-seed offset: fixed here, so both runs judge the same cases
TIMEOUT = 120


def shape(state):
    """A state's whole subtree as nested tuples: the key of a lookup table."""
    if state.is_terminal():
        return state.utility()
    return (state.to_move, tuple(shape(state.play(move)) for move in state.moves()))


def recorded_table() -> dict:
    """What ``check_02_minimax`` shows in the notebook, recorded by running it once: the
    value of each case it calls the function on."""
    table = {}

    def recorder(state):
        table[shape(state)] = minimax_plain(state)
        return table[shape(state)]
    assert teach.check_02_minimax(recorder).right
    return table


def minimax_plain(state):
    if state.is_terminal():
        return state.utility()
    values = [minimax_plain(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def hard_coded(table: dict) -> str:
    """A student's my_minimax that looks the notebook's cases up and returns 0 otherwise."""
    return ("def shape(state):\n    if state.is_terminal():\n        return state.utility()\n"
            "    return (state.to_move, tuple(shape(state.play(m)) for m in state.moves()))\n\n"
            f"TABLE = {table!r}\n\n"
            "def my_minimax(state):\n    return TABLE.get(shape(state), 0)\n\n"
            "check_02_minimax(my_minimax)")


def notebook(path, value: str, mini: str, nega: str, points: dict | None = None) -> None:
    """A minimal copy of notebook 02's exercises, each cell with its points metadata."""
    points = {**POINTS, **(points or {})}
    cells = [new_markdown_cell("# 02, a student's copy"), new_code_cell(IMPORTS)]
    for source, name in ((value, "check_02_minimax_value"), (mini, "check_02_minimax"),
                         (nega, "check_02_negamax")):
        cells.append(new_code_cell(source, metadata={"ttt": {"points": points[name]}}))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=cells), str(path))


def grade(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", "grade", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def read(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.reader(stream))


# ------------------------------------------------------------------------------ the course

VALUE_STUB = "answer = None  # your answer\n\ncheck_02_minimax_value(answer)"
DELEGATES = ("from ttt_lib.search import negamax\n\n"
             "def my_negamax(state):\n    return negamax(state)\n\ncheck_02_negamax(my_negamax)")
STRAY = "scratch = 1 / 0  # a stray error in a scratch cell"


def tiny_course(folder) -> None:
    """The instructor's notebook 02 cut to three exercises (``--course``): each student's
    cell as handed out (its points in its metadata), its solution tagged ``solution``."""
    cells = [new_markdown_cell("# 02, three exercises"), new_code_cell(IMPORTS)]
    for stub, solution, name in ((VALUE_STUB, VALUE, "check_02_minimax_value"),
                                 (STUB.format("minimax"), MINIMAX, "check_02_minimax"),
                                 (STUB.format("negamax"), NEGAMAX, "check_02_negamax")):
        cells += [new_code_cell(stub, metadata={"ttt": {"points": POINTS[name]}}),
                  new_code_cell(solution, metadata={"tags": ["solution"]})]
    folder.mkdir(parents=True)
    nbformat.write(new_notebook(cells=cells), str(folder / "02_tiny.ipynb"))


def handed_in(path, *sources) -> None:
    """A student's copy: the imports, then ``sources`` as code cells."""
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [new_markdown_cell("# 02, a student's copy"), new_code_cell(IMPORTS)]
    nbformat.write(new_notebook(cells=cells + [new_code_cell(s) for s in sources]), str(path))


CANVAS_ROSTER = ("Student,ID,SIS User ID,SIS Login ID,Section,ttt-search 02 (1234)\n"
                 "    Points Possible,,,,,5\n"
                 "\"Alice, A.\",9001,s-1001,alice,A,\n"
                 "Bob B.,9002,s-1002,bob,A,\n"
                 "Carol C.,9003,s-1003,carol,B,\n"
                 "Dave D.,9004,s-1004,dave,B,\n"
                 "Ivan I.,9009,s-1009,ivan,B,\n")
CAROL = "carolc_LATE_9003_703_02_tiny.ipynb"  # Canvas's download names
DAVE, DAVE_AGAIN = "daved_9004_704_02_tiny.ipynb", "daved_LATE_9004_705_02_tiny-1.ipynb"


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    """A class as Canvas hands it over, graded against a three-exercise course: folders
    (alice; bob, whose minimax looks the notebook's cases up and whose negamax calls the
    library's), Canvas's download names (dave twice, the second late), a link (grace), a
    file off the roster with a stray error (heidi); Canvas's own gradebook export as the
    roster. Plus a second folder (bob and heidi again) for the runs with other options."""
    root = tmp_path_factory.mktemp("school")
    tiny_course(root / "course")
    folder = root / "class"
    handed_in(folder / "alice" / "hw.ipynb", VALUE, MINIMAX, NEGAMAX)
    handed_in(folder / "bob" / "hw.ipynb", VALUE, hard_coded(recorded_table()), DELEGATES)
    handed_in(folder / DAVE, VALUE, STUB.format("minimax"), STUB.format("negamax"))
    handed_in(folder / DAVE_AGAIN, VALUE, STUB.format("minimax"), NEGAMAX)  # a resubmission
    (folder / "grace.ipynb").symlink_to(folder / "alice" / "hw.ipynb")
    handed_in(folder / "heidi.ipynb", VALUE, STRAY, MINIMAX, NEGAMAX)
    again = root / "again"
    again.mkdir()
    for name in ("bob/hw.ipynb", "heidi.ipynb"):
        (again / name.replace("/", "_")).write_bytes((folder / name).read_bytes())
    roster = root / "roster.csv"
    roster.write_text(CANVAS_ROSTER, encoding="utf-8")
    return root, folder, roster


@pytest.fixture(scope="module")
def graded(school):
    """The class graded once (two jobs): (rows, Canvas rows, stdout, stderr)."""
    root, folder, roster = school
    done = grade(folder, "--csv", root / "table.csv", "--jobs", 2, "--roster", roster,
                 "--canvas", root / "canvas.csv", "--case-seed", SEED, "--timeout", TIMEOUT,
                 "--course", root / "course")
    assert done.returncode == 0, done.stderr
    return read(root / "table.csv"), read(root / "canvas.csv"), done.stdout, done.stderr


@pytest.fixture(scope="module")
def again(school):
    """Bob and heidi graded again, on the notebook's own cases and past errors
    (``--keep-going``), with one job and with two: [rows with 1, rows with 2]."""
    root, _, _ = school
    tables = []
    for jobs in (1, 2):
        done = grade(root / "again", "--jobs", jobs, "--case-seed", 0, "--keep-going",
                     "--timeout", TIMEOUT, "--course", root / "course")
        assert done.returncode == 0, done.stderr
        tables.append(list(csv.reader(done.stdout.splitlines())))
    return tables


def by_file(rows) -> dict:
    head = rows[0]
    return {row[1]: dict(zip(head, row)) for row in rows[1:]}


@pytest.mark.slow
def test_students_from_folders_canvas_names_and_canvas_roster(graded):
    rows, _, _, _ = graded
    assert rows[0] == ["student", "file", "check_02_minimax_value", "check_02_minimax",
                       "check_02_negamax", "right", "check_02_minimax_value points",
                       "check_02_minimax points", "check_02_negamax points", "points",
                       "max_points", "delegated", "feedback", "problem", "flags"]
    assert [row[:2] for row in rows[1:]] == [
        ["s-1001", "alice/hw.ipynb"], ["s-1002", "bob/hw.ipynb"],
        ["s-1004", DAVE], ["s-1004", DAVE_AGAIN], ["grace", "grace.ipynb"],
        ["heidi", "heidi.ipynb"]]


@pytest.mark.slow
def test_flags_late_duplicates_links_and_files_off_the_roster(graded):
    rows, _, _, stderr = graded
    flags = {file: row["flags"] for file, row in by_file(rows).items()}
    assert "late (Canvas)" in flags[DAVE_AGAIN] and "late" not in flags[DAVE]
    assert all("one of 2 notebooks of s-1004" in flags[name] for name in (DAVE, DAVE_AGAIN))
    assert "a link to another file" in flags["grace.ipynb"]
    assert "not on the roster" in flags["grace.ipynb"] and "not on the roster" in flags[
        "heidi.ipynb"]
    assert not any("roster" in flags[name] for name in ("alice/hw.ipynb", DAVE))
    assert ("not on the roster (2, left out of Canvas's file): grace.ipynb, heidi.ipynb"
            in stderr)
    assert ("on the roster, nothing handed in (2): Carol C. (s-1003), Ivan I. (s-1009)"
            in stderr)


@pytest.mark.slow
def test_points_statuses_not_attempted_delegated_and_feedback(graded):
    rows = by_file(graded[0])
    exercises = ["check_02_minimax_value", "check_02_minimax", "check_02_negamax"]
    statuses = {file: [row[name] for name in exercises] + [row["points"], row["max_points"]]
                for file, row in rows.items()}
    assert statuses == {  # max_points: every exercise of the course's notebook 02
        "alice/hw.ipynb": ["Right", "Right", "Right", "5", "5"],
        "bob/hw.ipynb": ["Right", "Not yet", "Not yet", "1", "5"],  # fresh cases: Not yet
        DAVE: ["Right", "not attempted", "not attempted", "1", "5"],
        DAVE_AGAIN: ["Right", "not attempted", "Right", "3", "5"],
        "grace.ipynb": ["missing", "missing", "missing", "0", "0"],
        "heidi.ipynb": ["Right", "missing", "missing", "1", "5"]}  # stopped at the error
    assert rows["bob/hw.ipynb"]["delegated"] == "check_02_negamax (negamax)"
    assert all(row["delegated"] == "" for file, row in rows.items() if file != "bob/hw.ipynb")
    feedback = rows["bob/hw.ipynb"]["feedback"].split(" | ")
    assert [part.split(":")[0] for part in feedback] == ["check_02_minimax",
                                                         "check_02_negamax"]
    assert "calls ttt_lib's negamax" in feedback[1]
    assert rows[DAVE]["feedback"] == "" and rows["alice/hw.ipynb"]["feedback"] == ""
    assert rows["heidi.ipynb"]["problem"].startswith("code cell 3 raised ZeroDivisionError")


@pytest.mark.slow
def test_canvas_file_best_of_each_students_notebooks_and_the_courses_points(graded):
    _, canvas, stdout, _ = graded
    assert canvas[:2] == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                           "ttt-search 02"], ["Points Possible", "", "", "", "", "5"]]
    assert canvas[2:] == [["Alice, A.", "9001", "s-1001", "alice", "A", "5"],
                          ["Bob B.", "9002", "s-1002", "bob", "A", "1"],
                          ["Dave D.", "9004", "s-1004", "dave", "B", "3"]]  # 1 + 3 is no sum
    assert "3 not attempted" in stdout


@pytest.mark.slow
def test_keep_going_grades_each_exercise_past_a_stray_error(again, graded):
    heidi = by_file(again[0])["heidi.ipynb"]
    assert [heidi[name] for name in ("check_02_minimax_value", "check_02_minimax",
                                     "check_02_negamax")] == ["Right"] * 3
    assert heidi["points"] == "5"
    assert heidi["problem"] == ("code cell 3 raised ZeroDivisionError: division by zero; "
                                "the cells after it ran too")
    assert by_file(graded[0])["heidi.ipynb"]["points"] == "1"  # the default stops there


@pytest.mark.slow
def test_fresh_cases_catch_the_function_fitted_to_the_notebooks_cases(again, graded):
    assert by_file(graded[0])["bob/hw.ipynb"]["check_02_minimax"] == "Not yet"
    assert by_file(again[0])["bob_hw.ipynb"]["check_02_minimax"] == "Right"  # the notebook's


@pytest.mark.slow
def test_two_jobs_give_the_same_table_as_one(again):
    assert again[0] == again[1] and len(again[0]) == 3


def test_the_lookup_table_is_right_on_the_notebooks_cases_only():
    table = recorded_table()
    assert len(table) == 64  # 60 random trees and 6 positions, as the issue measured
    namespace = {}
    exec(hard_coded(table).replace("check_02_minimax(my_minimax)", ""), namespace)
    assert teach.check_02_minimax(namespace["my_minimax"]).right
    try:
        teach.core.fresh_cases(SEED)
        assert not teach.check_02_minimax(namespace["my_minimax"]).right
        assert teach.check_02_minimax(minimax_plain).right
    finally:
        teach.core.fresh_cases(0)
    assert minimax(TreeNode(teach.TREE_02_VALUE)) == minimax_plain(TreeNode(teach.TREE_02_VALUE))


@pytest.mark.parametrize("args, words", [
    (["CLASS", "--jobs", "0"], "--jobs must be a whole number from 1 to 64"),
    (["CLASS", "--jobs", "two"], "--jobs must be a whole number"),
    (["CLASS", "--case-seed", "-1"], "--case-seed must be a whole number"),
    (["CLASS", "--roster", "NOPE.csv"], "is not a file"),
    (["CLASS", "--roster", "BAD.csv"], "a roster needs the column student"),
    (["CLASS", "--roster", "TWICE.csv"], "names a file and a student once"),
    (["CLASS", "--canvas", "/no/such/folder/canvas.csv"], "its folder does not exist"),
])
def test_bad_grading_arguments_exit_2_with_one_line(tmp_path, args, words):
    (tmp_path / "CLASS").mkdir()
    nbformat.write(new_notebook(cells=[new_code_cell("1")]), str(tmp_path / "CLASS" / "a.ipynb"))
    (tmp_path / "BAD.csv").write_text("name,id\nx,1\n", encoding="utf-8")
    (tmp_path / "TWICE.csv").write_text("file,student\na.ipynb,1\na.ipynb,2\n", encoding="utf-8")
    args = [str(tmp_path / a) if a.isupper() or a.endswith(".csv") and "/" not in a else a
            for a in args]
    done = grade(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


# ------------------------------------------------------------------- without a kernel

def test_canvas_and_gradescope_download_names(tmp_path):
    assert classfolder.who_handed_in("smithjane_LATE_12345_678_02_minimax.ipynb") == \
        classfolder.Who("12345", "smithjane", True, "12345")
    assert classfolder.who_handed_in("smithjane_12345_679_02_minimax-1.ipynb").student == \
        "12345"
    assert classfolder.who_handed_in("alice/02_minimax (1).ipynb").student == "alice"
    assert classfolder.who_handed_in("02_minimax_and_negamax.ipynb").student == \
        "02_minimax_and_negamax"  # no Canvas name: the file's own
    (tmp_path / "submission_111").mkdir()
    (tmp_path / "submission_metadata.yml").write_text(
        ":submission_111:\n  :submitters:\n  - :name: Jane Smith\n    :sid: '4711'\n"
        "    :email: jane@example.edu\n  :created_at: 2024-05-01\n"
        ":submission_222:\n  :submitters:\n  - :name: Al Lone\n    :email: al@example.edu\n",
        encoding="utf-8")
    people = classfolder.gradescope_submitters(tmp_path)
    assert people == {"submission_111": {"name": "Jane Smith", "sid": "4711",
                                         "email": "jane@example.edu"},
                      "submission_222": {"name": "Al Lone", "email": "al@example.edu"}}
    assert classfolder.who_handed_in("submission_111/02.ipynb", people) == \
        classfolder.Who("4711", "Jane Smith")
    assert classfolder.who_handed_in("submission_222/x/02.ipynb", people).student == \
        "al@example.edu"


def test_rosters_ours_and_canvas_match_files_and_list_the_rest(tmp_path):
    ours = tmp_path / "ours.csv"
    ours.write_text("file,student,name\nerin.ipynb,s-5,Erin\n,s-6,Frank\n", encoding="utf-8")
    canvas = tmp_path / "canvas.csv"
    canvas.write_text(CANVAS_ROSTER, encoding="utf-8")
    files = ["erin.ipynb", "s-6/hw.ipynb", "zed.ipynb", CAROL, "alice/hw.ipynb"]
    people = classfolder.students(files, classfolder.read_roster(str(ours)))
    assert [people[f].student for f in files] == ["s-5", "s-6", "zed", "9003", "alice"]
    assert classfolder.off_roster(people, [{}]) == ["zed.ipynb", CAROL, "alice/hw.ipynb"]
    people = classfolder.students(files, classfolder.read_roster(str(canvas)))
    assert [people[f].student for f in files] == ["erin", "s-6", "zed", "s-1003", "s-1001"]
    assert [people[f].entry.get("id") for f in files] == [None, None, None, "9003", "9001"]
    assert classfolder.off_roster(people, [{}]) == ["erin.ipynb", "s-6/hw.ipynb", "zed.ipynb"]
    assert classfolder.off_roster(people, None) == []


def test_canvas_rows_count_each_exercise_once_and_leave_out_files_off_the_roster():
    points = {"check_02_minimax_value": 1, "check_02_minimax": 2, "check_02_negamax": 2,
              "check_03_alphabeta": 3}
    right = "Right: yes"
    first = Graded("a_9_1_02.ipynb", {"check_02_minimax_value": right},
                   ["check_02_minimax_value", "check_02_minimax"])
    second = Graded("a_9_2_02-1.ipynb", {"check_02_minimax_value": right,
                                        "check_02_negamax": right},
                    ["check_02_minimax_value", "check_02_negamax"])
    stray = Graded("zed.ipynb", {name: right for name in points}, list(points))
    people = {one.file: classfolder.who_handed_in(one.file) for one in (first, second, stray)}
    rows = gradebook.canvas_rows([first, second, stray], points, "hw", people)
    assert rows[1][-1] == "8" and rows[2:] == [["a", "9", "", "", "", "3"],
                                               ["zed", "", "zed", "", "", "8"]]
    roster = [{"student": "s-9", "id": "9", "name": "A"}]
    people = classfolder.students(list(people), roster)
    rows = gradebook.canvas_rows([first, second, stray], points, "hw", people, roster)
    assert rows[2:] == [["A", "9", "s-9", "", "", "3"]]  # zed is listed, not imported
    assert rows[1][-1] == "8"  # the course's points of notebooks 02 and 03, as handed in


def test_not_attempted_is_the_handouts_stub_untouched(tmp_path):
    tiny_course(tmp_path / "course")
    course = classfolder.course_cells(tmp_path / "course")
    assert course.order == ["check_02_minimax_value", "check_02_minimax", "check_02_negamax"]
    handed_in(tmp_path / "x.ipynb", VALUE_STUB + "\n", STUB.format("minimax").replace(
        "# your code here", "return 0"), STUB.format("negamax") + "  ")
    left = classfolder.untouched((tmp_path / "x.ipynb").read_bytes(), course)
    assert left == {"check_02_minimax_value", "check_02_negamax"}  # minimax was edited
    one = Graded("x.ipynb", {"check_02_minimax_value": "Not yet: replace None with ...",
                             "check_02_minimax": "Not yet: it returns 0",
                             "check_02_negamax": "Not yet: NotImplementedError"},
                 course.order)
    (head, row) = gradebook.table([one], None, course.order, {"x.ipynb": left})
    assert row[2:5] == ["not attempted", "Not yet", "not attempted"]
    assert row[head.index("feedback")] == "check_02_minimax: it returns 0"


def test_the_delegated_flag_reads_the_verdict_line():
    assert classfolder.delegated_to("Not yet: your function calls ttt_lib's minimax; write "
                                    "the search yourself.") == "minimax"
    assert classfolder.delegated_to("Not yet: AlphaBeta.search") == ""
    assert classfolder.delegated_to("Right: your function calls ttt_lib's x") == ""
