"""`python -m ttt_lib export`: the course for nbgrader and for Gradescope, each run for real on
notebook 02's five exercises (a small course whose points are the course's 02's). nbgrader:
three students, right (full points), wrong (partial, the hints in the output) and forged
(wrong code, outputs edited to say Right: nothing), and two copies of the handout
(tools/handout.py's, as the site, Binder and Colab serve it), right and wrong, which autograde
to the release's points, and a copy without ids, which autograde refuses. Gradescope: right,
forged, and a mixed notebook (one exercise left as handed out, one wrong, a stray error, one
write-it that calls the library, two right after the error) graded by a zip that stops at the
error (grade's default) and by one exported with --keep-going."""
import copy
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_output

from ttt_lib.teach import export
from ttt_lib.teach.plan import read_plan, sized_points

ROOT = Path(__file__).resolve().parent.parent
NAME = "02_minimax_and_negamax"
COURSE = ROOT / "notebooks" / f"{NAME}.ipynb"
COURSE_POINTS = sized_points(read_plan(COURSE))  # the course's 02, by its measured sizes
WRONG = {  # the write-its' wrong answers: every level takes the largest; no negation
    "check_02_minimax": "def my_minimax(state):\n    if state.is_terminal():\n"
                        "        return state.utility()\n"
                        "    return max(my_minimax(state.play(m)) for m in state.moves())",
    "check_02_negamax": "def my_negamax(state):\n    if state.is_terminal():\n"
                        "        return state.to_move * state.utility()\n"
                        "    return max(my_negamax(state.play(m)) for m in state.moves())"}
FORGED = "Right: (typed into the output by hand)\n"
BIN = Path(sys.executable).parent


IMPORTS = ("from ttt_lib import BitBoard, TreeNode\n"
           "from ttt_lib.search import best_moves, minimax, negamax\n"
           "from ttt_lib.teach import (BOARD_02_BEST, TREE_02_VALUE, check_02_best_moves,\n"
           "    check_02_minimax, check_02_minimax_value, check_02_negamax,\n"
           "    check_02_negamax_value)")
RIGHT = {  # each exercise's student cell as handed out, and the course's solution
    "check_02_minimax_value": "answer = minimax(TreeNode(TREE_02_VALUE))",
    "check_02_minimax": "def my_minimax(state):\n    if state.is_terminal():\n"
                        "        return state.utility()\n"
                        "    values = [my_minimax(state.play(m)) for m in state.moves()]\n"
                        "    return max(values) if state.to_move == 1 else min(values)",
    "check_02_negamax": "def my_negamax(state):\n    if state.is_terminal():\n"
                        "        return state.to_move * state.utility()\n"
                        "    return max(-my_negamax(state.play(m)) for m in state.moves())",
    "check_02_negamax_value": "answer = negamax(TreeNode(TREE_02_VALUE, labels=True).play(2))",
    "check_02_best_moves": "answer = best_moves(BitBoard.from_text(BOARD_02_BEST))"}
ARGUMENT = {"check_02_minimax": "my_minimax", "check_02_negamax": "my_negamax"}
POINTS = {name: COURSE_POINTS[name] for name in RIGHT}  # small_course's: the course's 02's
TOTAL = sum(POINTS.values())
WRONG_SCORE = TOTAL - sum(POINTS[name] for name in WRONG)  # the write-its wrong, the rest right


def small_course(wrong: dict | None = None):
    """Notebook 02's five exercises in the course's shape (a heading, the student's cell with
    its points, the solution cell tagged ``solution``), small enough to run many times;
    ``wrong`` replaces solutions."""
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
    cells = [new_markdown_cell("# 02 · Minimax and negamax, its exercises"),
             new_code_cell(IMPORTS)]
    for number, (name, solution) in enumerate(RIGHT.items(), 1):
        argument = ARGUMENT.get(name, "answer")
        stub = (f"def {argument}(state):\n    raise NotImplementedError  # your code here"
                if name in ARGUMENT else "answer = None  # your answer")
        cells += [new_markdown_cell(f"**Exercise {number}.** ..."),
                  new_code_cell(f"{stub}\n\n{name}({argument})",
                                metadata={"ttt": {"points": POINTS[name]}}),
                  new_code_cell(f"{(wrong or {}).get(name, solution)}\n\n{name}({argument})",
                                metadata={"tags": ["solution"]})]
    return new_notebook(cells=cells)


def run(*args, cwd=None, env=None):
    done = subprocess.run([*map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=500)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def ttt(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def course_points() -> dict:
    return export.exercise_points(nbformat.read(str(COURSE), as_version=4))


def test_the_points_are_the_notebooks_metadata():
    assert course_points() == COURSE_POINTS
    assert set(POINTS) < set(COURSE_POINTS) and set(COURSE_POINTS.values()) > {1}


# ------------------------------------------------------------------------------- nbgrader

def grade_id(cell) -> str:
    return cell.metadata.get("nbgrader", {}).get("grade_id", "")


def answered(release, source, wrong: dict, forged: bool = False):
    """A student's copy of the released notebook: the source's solution in each answer
    cell, except ``wrong``'s; ``forged`` types 'Right' into the test cells' outputs."""
    nb = copy.deepcopy(release)
    solutions = {grade_id(cell): cell.source for cell in source.cells if grade_id(cell)}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            exercise = grade_id(cell).removesuffix("_answer")
            cell.source = wrong.get(exercise) or solutions[grade_id(cell)].replace(
                "### BEGIN SOLUTION\n", "").replace("### END SOLUTION", "")
        if forged and meta.get("grade"):
            cell.outputs = [new_output("stream", name="stdout", text=FORGED)]
    return nb


def handout_answered(handout, wrong: dict):
    """A student's copy of the handout (tools/handout.py's, as the site, Binder and Colab
    serve it): each exercise's stub replaced by the course's solution, ``wrong``'s instead
    of theirs; the checker calls left as handed out."""
    nb = copy.deepcopy(handout)
    for cell in nb.cells:
        exercise = grade_id(cell).removesuffix("_answer")
        if exercise in RIGHT:
            stub, call = cell.source.split("\n\n", 1)
            cell.source = f"{wrong.get(exercise, RIGHT[exercise])}\n\n{call}"
    return nb


@pytest.fixture(scope="module")
def nbgrader_course(tmp_path_factory):
    """The course exported, its assignment generated, three students of the release and two
    of the handout autograded: the folder."""
    pytest.importorskip("nbgrader", reason="the grading extra (make setup installs it)")
    work = tmp_path_factory.mktemp("nbgrader")
    (work / "notebooks").mkdir()
    nbformat.write(small_course(), str(work / "notebooks" / f"{NAME}.ipynb"))
    out = work / "course"
    done = ttt("export", "nbgrader", out, "--notebooks", work / "notebooks")
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "HOME": str(out.parent)}  # nbgrader runs alembic from PATH
    run(BIN / "nbgrader", "generate_assignment", NAME, cwd=out, env=env)
    release = nbformat.read(str(out / "release" / NAME / f"{NAME}.ipynb"), as_version=4)
    source = nbformat.read(str(out / "source" / NAME / f"{NAME}.ipynb"), as_version=4)
    wrong_all = {grade_id(c).removesuffix("_answer"): "answer = 99" for c in release.cells
                 if c.metadata.get("nbgrader", {}).get("solution")} | WRONG
    run(sys.executable, ROOT / "tools" / "handout.py", work / "notebooks", work / "handouts")
    handout = nbformat.read(str(work / "handouts" / f"{NAME}.ipynb"), as_version=4)
    for student, nb in (("right", answered(release, source, {})),
                        ("wrong", answered(release, source, WRONG)),
                        ("forged", answered(release, source, wrong_all, forged=True)),
                        ("handout-right", handout_answered(handout, {})),
                        ("handout-wrong", handout_answered(handout, WRONG))):
        place = out / "submitted" / student / NAME
        place.mkdir(parents=True)
        nbformat.write(nb, str(place / f"{NAME}.ipynb"))
    run(BIN / "nbgrader", "autograde", NAME, "--create", cwd=out, env=env)
    return out


def test_the_nbgrader_source_carries_nbgrader_metadata_and_markers(tmp_path):
    out = tmp_path / "course"
    assert ttt("export", "nbgrader", out, "--only", "02").returncode == 0
    assert (out / "nbgrader_config.py").is_file()
    nb = nbformat.read(str(out / "source" / NAME / f"{NAME}.ipynb"), as_version=4)
    answers = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert len(answers) == len(tests) == len(COURSE_POINTS)
    assert all("### BEGIN SOLUTION\n" in c.source and c.source.endswith("### END SOLUTION")
               for c in answers)
    assert {grade_id(c): c.metadata.nbgrader["points"] for c in tests} == COURSE_POINTS
    assert all(c.metadata.nbgrader["locked"] and c.metadata.nbgrader["schema_version"] == 3
               for c in tests)
    assert all(f"{grade_id(c)}(" in c.source and "strict=True)" in c.source for c in tests)
    assert not any("solution" in c.metadata.get("tags", []) for c in nb.cells)


@pytest.mark.slow
def test_nbgrader_autograde_scores_from_its_gradebook(nbgrader_course):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{nbgrader_course / 'gradebook.db'}") as book:
        scores = {student: (book.find_submission(NAME, student).score,
                            book.find_submission(NAME, student).max_score)
                  for student in ("right", "wrong", "forged", "handout-right",
                                  "handout-wrong")}
        wrong = {name: book.find_grade(name, NAME, NAME, "wrong").score for name in POINTS}
        handout = {name: book.find_grade(name, NAME, NAME, "handout-wrong").score
                   for name in POINTS}
    assert scores == {"right": (TOTAL, TOTAL), "wrong": (WRONG_SCORE, TOTAL),
                      "forged": (0, TOTAL), "handout-right": (TOTAL, TOTAL),
                      "handout-wrong": (WRONG_SCORE, TOTAL)}
    assert wrong == handout == {**POINTS, "check_02_minimax": 0, "check_02_negamax": 0}


@pytest.mark.slow
def test_the_handouts_exercise_cells_carry_the_releases_answer_ids(nbgrader_course):
    """The ids a handout's exercise cells carry are the release's answer cells' ids, so
    nbgrader finds them; the autograded handout copy has each test cell added back, its
    comment saying why."""
    release = nbformat.read(str(nbgrader_course / "release" / NAME / f"{NAME}.ipynb"),
                            as_version=4)
    handout = nbformat.read(str(nbgrader_course.parent / "handouts" / f"{NAME}.ipynb"),
                            as_version=4)
    answers = [grade_id(c) for c in release.cells if c.metadata.get("nbgrader", {}).get(
        "solution")]
    assert [grade_id(c) for c in handout.cells if grade_id(c)] == answers
    assert not any(c.metadata.get("nbgrader", {}).get("grade") for c in handout.cells)
    graded = nbformat.read(str(nbgrader_course / "autograded" / "handout-right" / NAME
                               / f"{NAME}.ipynb"), as_version=4)
    tests = [c for c in graded.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert [grade_id(c) for c in tests] == [a.removesuffix("_answer") for a in answers]
    assert all("comes from the release" in c.source for c in tests)
    ids = [grade_id(c) for c in graded.cells if grade_id(c)]
    assert ids == [i for a in answers for i in (a, a.removesuffix("_answer"))]  # in place


@pytest.mark.slow
def test_nbgrader_shows_the_hints_of_the_wrong_answers(nbgrader_course):
    nb = nbformat.read(str(nbgrader_course / "autograded" / "wrong" / NAME / f"{NAME}.ipynb"),
                       as_version=4)
    errors = {grade_id(c): out for c in nb.cells for out in c.get("outputs", [])
              if out.output_type == "error"}
    assert set(errors) >= {"check_02_minimax", "check_02_negamax"}
    assert errors["check_02_minimax"].ename == "AssertionError"
    assert "Every level takes the largest value" in errors["check_02_minimax"].evalue
    assert "The negation is missing" in errors["check_02_negamax"].evalue


# ----------------------------------------------------------------------------- Gradescope

def handed_in(wrong: dict, forged: bool = False):
    """Notebook 02's exercises as a student hands them in: the solutions, ``wrong``'s
    instead of theirs; ``forged``: no solutions, 'Right' typed into every checker's output."""
    nb = small_course(wrong)
    if forged:
        nb.cells = [cell for cell in nb.cells if "solution" not in cell.metadata.get("tags", [])]
        for cell in nb.cells:
            if cell.cell_type == "code" and "check_02_" in cell.source and "(" in cell.source:
                cell.outputs = [new_output("stream", name="stdout", text=FORGED)]
    return nb


SCRATCH = "1 / 0  # a stray error in a scratch cell"
DELEGATES = "def my_negamax(state):\n    return negamax(state)"  # the library does the work


def mixed():
    """A student's notebook 02 as a real one looks: each answer typed into its exercise cell
    (no solution cells); minimax_value left as handed out, minimax wrong, a scratch cell
    raising before negamax, whose function calls the library's, then two right answers."""
    nb = small_course()
    cells, answers = [], {**RIGHT, **WRONG, "check_02_negamax": DELEGATES}
    for cell in nb.cells:
        if "solution" in cell.metadata.get("tags", []):
            continue
        name = next((name for name in RIGHT if f"{name}(" in cell.source), None)
        if name == "check_02_negamax":
            cells.append(nbformat.v4.new_code_cell(SCRATCH))
        if name and name != "check_02_minimax_value":
            cell.source = f"{answers[name]}\n\n{name}({ARGUMENT.get(name, 'answer')})"
        cells.append(cell)
    nb.cells = cells
    return nb


@pytest.fixture(scope="module")
def gradescope_results(tmp_path_factory):
    """The autograder zip built (as grade stops at an error, and with --keep-going) and run,
    as Gradescope would, for each student: {student: results.json}."""
    work = tmp_path_factory.mktemp("gradescope")
    (work / "notebooks").mkdir()  # the small course: the students hand in its five exercises
    nbformat.write(small_course(), str(work / "notebooks" / f"{NAME}.ipynb"))
    for zipped, more in (("stops.zip", []), ("keeps.zip", ["--keep-going"])):
        done = ttt("export", "gradescope", work / zipped, "--notebooks", work / "notebooks",
                   *more)
        assert done.returncode == 0, done.stderr
    found = {}
    for student, nb, zipped in (("right", handed_in({}), "stops.zip"),
                                ("forged", handed_in({}, forged=True), "stops.zip"),
                                ("mixed", mixed(), "stops.zip"),
                                ("mixed-keeps", mixed(), "keeps.zip")):
        root = work / student
        with zipfile.ZipFile(work / zipped) as archive:
            archive.extractall(root / "source")
        (root / "submission").mkdir()
        nbformat.write(nb, str(root / "submission" / f"{NAME}.ipynb"))
        env = {**os.environ, "TTT_AUTOGRADER_ROOT": str(root), "TTT_PYTHON": sys.executable}
        run("bash", root / "source" / "run_autograder", cwd=root, env=env)
        found[student] = json.loads((root / "results" / "results.json").read_text())
    return work, found


def test_the_gradescope_zip_holds_what_gradescope_runs(tmp_path):
    out = tmp_path / "autograder.zip"
    assert ttt("export", "gradescope", out, "--only", "02").returncode == 0
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
        assert {"setup.sh", "run_autograder", "points.json", "course.json",
                "package/pyproject.toml", "package/ttt_lib/__init__.py",
                "package/ttt_lib/teach/grade.py"} <= names
        assert json.loads(archive.read("points.json")) == COURSE_POINTS
        handed_out = json.loads(archive.read("course.json"))
        assert handed_out["order"] == list(course_points())  # the notebook's order
        assert set(handed_out["stubs"]) == set(COURSE_POINTS)
        command = archive.read("run_autograder").decode().splitlines()[-1]
        assert command.endswith('--root "$root"')  # stops at an error, as grade by default
        assert archive.getinfo("run_autograder").external_attr >> 16 & 0o111
        assert "-m pip install" in archive.read("setup.sh").decode()
    assert not any("__pycache__" in name for name in names)


def named(result: dict) -> dict:
    return {test["name"]: test for test in result["tests"]}


@pytest.mark.slow
def test_gradescope_results(gradescope_results):
    _, found = gradescope_results
    for student, result in found.items():
        assert [test["name"] for test in result["tests"]] == list(RIGHT)  # the course's order
        assert all(test["max_score"] == POINTS[test["name"]] for test in result["tests"])
        assert result["score"] == sum(test["score"] for test in result["tests"])
        for test in result["tests"]:  # Gradescope's status; grade's status first in the output
            assert test["status"] == ("passed" if test["score"] else "failed")
            assert test["output"].startswith(f"{test['tags'][0]}: ")
    assert found["right"]["score"] == TOTAL and found["forged"]["score"] == 0
    assert all(test["tags"] == ["Right"] for test in found["right"]["tests"])
    assert {test["tags"][0] for test in found["forged"]["tests"]} <= {"Not yet", "not attempted"}


@pytest.mark.slow
def test_gradescope_says_not_attempted_delegated_and_stops_as_grade_does(gradescope_results):
    """By default the run stops at the stray error: the exercises after it are missing (as
    grade's default); with --keep-going each is graded past it, and the two right ones
    count. The stub left as handed out is 'not attempted', never 'Not yet'."""
    _, found = gradescope_results
    stops, keeps = named(found["mixed"]), named(found["mixed-keeps"])
    for tests in (stops, keeps):
        assert tests["check_02_minimax_value"]["tags"] == ["not attempted"]
        assert tests["check_02_minimax_value"]["output"].startswith(
            "not attempted: the cell is still the handout's stub")
        assert tests["check_02_minimax"]["tags"] == ["Not yet"]
        assert "Every level takes the largest value" in tests["check_02_minimax"]["output"]
    assert found["mixed"]["score"] == 0
    after = ["check_02_negamax", "check_02_negamax_value", "check_02_best_moves"]
    assert [stops[name]["tags"] for name in after] == [["missing"]] * 3
    assert "raised ZeroDivisionError" in stops["check_02_best_moves"]["output"]
    assert keeps["check_02_negamax"]["tags"] == ["Not yet", "delegated"]
    assert keeps["check_02_negamax"]["output"].endswith(
        "\ndelegated: check_02_negamax (negamax)")
    assert found["mixed-keeps"]["score"] == POINTS["check_02_negamax_value"] + POINTS[
        "check_02_best_moves"] > 0
    assert "the cells after it ran too" in found["mixed-keeps"]["output"]


@pytest.mark.parametrize("args, words", [
    (["export", "moodle", "OUT"], "invalid choice"),
    (["export", "gradescope", "OUT.tar"], "is a .zip file"),
    (["export", "nbgrader", "OUT", "--only", "2"], "--only takes notebook numbers"),
    (["export", "nbgrader", "OUT", "--keep-going"], "--keep-going is for gradescope"),
    (["export", "nbgrader", "OUT", "--only", "77"], "no notebook numbered 77"),
    (["export", "nbgrader", "HERE"], "exists already"),
    (["export", "nbgrader", "/no/such/folder/out"], "its folder does not exist"),
    (["export", "nbgrader", "OUT", "--notebooks", "/no/such/folder"], "is not a folder"),
])
def test_bad_export_arguments_exit_2_with_one_line(tmp_path, args, words):
    (tmp_path / "HERE").mkdir()
    args = [str(tmp_path / a) if a.startswith(("OUT", "HERE")) else a for a in args]
    done = ttt(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not (tmp_path / "OUT").exists()


def test_an_exercise_never_judged_says_why():
    """A notebook that calls a checker but stopped before it is not 'missing' a call."""
    from ttt_lib.teach.export_gradescope import results
    from ttt_lib.teach.grade import Graded
    stopped = Graded("02.ipynb", lines={"check_02_minimax": "Right: yes"},
                     exercises=["check_02_minimax", "check_02_best_moves"],
                     problem="code cell 7 raised NameError: name 'x' is not defined")
    tests = {test["name"]: test for test in results([stopped], {
        "check_02_minimax": 2, "check_02_best_moves": 1, "check_02_negamax": 2})["tests"]}
    assert tests["check_02_minimax"]["score"] == 2
    assert tests["check_02_best_moves"]["output"] == (
        "missing: 02.ipynb calls check_02_best_moves, but its run stopped before that "
        "checker gave a verdict: code cell 7 raised NameError: name 'x' is not defined")
    assert tests["check_02_negamax"]["output"] == "missing: no cell calls check_02_negamax"
    assert tests["check_02_best_moves"]["score"] == tests["check_02_negamax"]["score"] == 0
    assert [tests[name]["status"] for name in tests] == ["failed", "passed", "failed"]


def test_results_carry_grades_statuses_and_the_delegation_flag():
    """results.json says what grade's table says: not attempted (the stub untouched, even
    with a checker's Not yet), Not yet with the delegation flag, Right; in the course's order."""
    from ttt_lib.teach.export_gradescope import results
    from ttt_lib.teach.grade import Graded
    one = Graded("02.ipynb", lines={
        "check_02_minimax": "Not yet: NotImplementedError in my_minimax",
        "check_02_negamax": "Not yet: your function calls ttt_lib's negamax; write it",
        "check_02_best_moves": "Right: yes"},
        exercises=["check_02_minimax", "check_02_negamax", "check_02_best_moves"])
    found = results([one], {"check_02_minimax": 2, "check_02_negamax": 2,
                            "check_02_best_moves": 1}, {"02.ipynb": {"check_02_minimax"}},
                    ["check_02_negamax", "check_02_minimax", "check_02_best_moves"])
    tests = named(found)
    assert list(tests) == ["check_02_negamax", "check_02_minimax", "check_02_best_moves"]
    assert tests["check_02_minimax"]["tags"] == ["not attempted"]
    assert tests["check_02_minimax"]["output"] == (
        "not attempted: the cell is still the handout's stub\n"
        "Not yet: NotImplementedError in my_minimax")
    assert tests["check_02_negamax"]["tags"] == ["Not yet", "delegated"]
    assert tests["check_02_negamax"]["output"].endswith("\ndelegated: check_02_negamax (negamax)")
    assert tests["check_02_best_moves"]["tags"] == ["Right"] and found["score"] == 1
    assert [test["status"] for test in tests.values()] == ["failed", "failed", "passed"]


def test_setup_sh_makes_a_venv_of_its_own_and_installs_what_grading_needs(tmp_path):
    out = tmp_path / "autograder.zip"
    assert ttt("export", "gradescope", out, "--only", "02").returncode == 0
    with zipfile.ZipFile(out) as archive:
        setup = archive.read("setup.sh").decode()
        run_autograder = archive.read("run_autograder").decode()
    assert "/autograder/source" not in setup and "--break-system-packages" not in setup
    assert 'python3 -m venv "$root/venv"' in setup
    assert '"$here/package[autograde]"' in setup
    assert '"${TTT_PYTHON:-$root/venv/bin/python}"' in run_autograder


@pytest.mark.slow
def test_nbgrader_refuses_a_copy_without_ids_and_says_why(nbgrader_course):
    """A copy without any nbgrader id (an old handout, a notebook of the student's own)
    handed in: autograde stops on it, naming the cause, instead of scoring it 0 in
    silence (the course of the fixture, this one student autograded)."""
    out = nbgrader_course
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "HOME": str(out.parent)}
    without_ids = small_course()
    without_ids.cells = [cell for cell in without_ids.cells
                         if "solution" not in cell.metadata.get("tags", [])]
    place = out / "submitted" / "no-ids" / NAME
    place.mkdir(parents=True)
    nbformat.write(without_ids, str(place / f"{NAME}.ipynb"))
    done = subprocess.run([str(BIN / "nbgrader"), "autograde", NAME, "--create", "--student",
                           "no-ids"], cwd=out, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode != 0
    assert "not nbgrader's release copy" in done.stderr + done.stdout
    assert not (out / "autograded" / "no-ids").exists()


def test_a_students_best_notebook_speaks_for_each_exercise():
    """Of a submission's notebooks, the one that did best on an exercise gives its test:
    Right, else Not yet, else not attempted, else missing (each counted once)."""
    from ttt_lib.teach.export_gradescope import results
    from ttt_lib.teach.grade import Graded
    stub = Graded("a.ipynb", lines={"check_02_minimax": "Not yet: NotImplementedError",
                                    "check_02_negamax": "Not yet: NotImplementedError"},
                  exercises=["check_02_minimax", "check_02_negamax"])
    tried = Graded("b.ipynb", lines={"check_02_minimax": "Not yet: the negation",
                                     "check_02_negamax": "Right: yes"},
                   exercises=["check_02_minimax", "check_02_negamax"])
    left = {"a.ipynb": {"check_02_minimax", "check_02_negamax"}}
    tests = named(results([stub, tried], {"check_02_minimax": 2, "check_02_negamax": 2}, left))
    assert tests["check_02_minimax"]["output"] == "Not yet: the negation"
    assert tests["check_02_negamax"]["tags"] == ["Right"] and tests["check_02_negamax"][
        "score"] == 2
    alone = named(results([stub], {"check_02_minimax": 2}, left))
    assert alone["check_02_minimax"]["tags"] == ["not attempted"]
