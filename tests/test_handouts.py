"""The handouts `make handout` writes: every course notebook without its solution cells runs top
to bottom, every exercise in it says `Not yet:`, and each write-it exercise keeps its stub.

One run serves all: tools/handout.py on notebooks/, then the grader (ttt_lib.teach.grade, what
`python -m ttt_lib grade` runs) on the handout folder, which executes every notebook once, each
in the bubblewrap box the command line uses (so a cell that needs processes, which cannot start
inside it, must be tagged and must leave no later cell depending on it)."""
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from ttt_lib import teach
from ttt_lib.classroom import jail
from ttt_lib.teach import grade

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
STUB_OUTPUT = "Not yet: write the function (it still raises NotImplementedError)."

pytestmark = [pytest.mark.slow, pytest.mark.runs_notebooks]


# Each handout's tests form one group (pytest-xdist), so the notebooks are graded side by side
# on the workers, each handout once.
HANDOUTS = [pytest.param(name, marks=pytest.mark.xdist_group(f"handout {name}"))
            for name in NOTEBOOKS]


class Grading:
    """Each handout graded when a test first asks for it (``grading[name]``), once; the
    time limit is per notebook, not one for the whole course."""

    def __init__(self, folder: Path) -> None:
        self.papers = {paper.name: paper for paper in map(
            lambda path: grade.read_paper(path, folder), grade.notebooks_in(folder))}
        self.graded: dict = {}

    def __getitem__(self, name: str):
        if name not in self.graded:
            self.graded[name] = grade.grade_in_box(self.papers[name], 600, jail.box_command)
        return self.graded[name]

    def close(self) -> None:
        self.graded.clear()


@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    """(the handout folder, its Grading)."""
    out = tmp_path_factory.mktemp("handout")
    made = subprocess.run([sys.executable, str(ROOT / "tools" / "handout.py"),
                           str(ROOT / "notebooks"), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    grading = Grading(out)
    yield out, grading
    grading.close()


def read(path: Path):
    return nbformat.read(str(path), as_version=4)


def code_cells(nb) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def is_solution(cell) -> bool:
    return "solution" in cell.metadata.get("tags", [])


@pytest.mark.parametrize("name", HANDOUTS)
def test_handout_runs_top_to_bottom(handouts, name):
    _, graded = handouts
    assert graded[name].problem == "", graded[name].problem


@pytest.mark.parametrize("name", HANDOUTS)
def test_every_exercise_in_a_handout_says_not_yet(handouts, name):
    folder, graded = handouts
    one = graded[name]
    assert one.exercises, f"{name} has no exercise (a check_NN_... call)"
    for exercise in one.exercises:
        assert one.status(exercise) == "Not yet", (exercise, one.lines.get(exercise))


@pytest.mark.parametrize("name", HANDOUTS)
def test_write_it_stubs_stay_and_say_write_the_function(handouts, name):
    """Each write-it exercise the course solves in a `solution` cell keeps, in the handout, a
    cell calling the same checker on a stub that raises NotImplementedError; run, it prints
    the stub's verdict."""
    folder, graded = handouts
    course, handout = read(ROOT / "notebooks" / name), read(folder / name)
    solved = {call for cell in code_cells(course) if is_solution(cell)
              for call in grade.exercise_calls(cell.source)}
    stubs = {call for cell in code_cells(handout) if "raise NotImplementedError" in cell.source
             for call in grade.exercise_calls(cell.source)}
    write_its = {call for call in solved if getattr(getattr(teach, call, None), "write_it", 0)}
    assert write_its <= stubs, f"write-it exercises without their stub: {write_its - stubs}"
    for exercise in stubs:
        assert graded[name].lines.get(exercise) == STUB_OUTPUT, exercise


@pytest.mark.parametrize("name", HANDOUTS)
def test_every_solved_exercise_keeps_its_student_cell(handouts, name):
    folder, _ = handouts
    course, handout = read(ROOT / "notebooks" / name), read(folder / name)
    solved = {call for cell in code_cells(course) if is_solution(cell)
              for call in grade.exercise_calls(cell.source)}
    asked = {call for cell in code_cells(handout) for call in grade.exercise_calls(cell.source)}
    assert solved <= asked, f"solved only in solution cells: {sorted(solved - asked)}"
    assert not any(is_solution(cell) for cell in handout.cells)


def test_no_handout_lists_an_answer_before_its_exercise(handouts):
    """Read as a student reads the file (every cell counts): no solution cell, and no
    write-it answer named before its exercise (test_answers_after.py's judgement)."""
    from test_lite_site import answers_before_exercises, solution_cells

    folder, _ = handouts
    for name in NOTEBOOKS:
        assert solution_cells(folder / name) == 0, name
        assert answers_before_exercises(folder / name) == [], name
