"""Graded handouts (`make handout GRADED=1`, tools/handout.py --graded): no listing of any
write-it's answer (tests/test_answers_after.py names each), in code or in stored output, no
stored output of a cell that runs the student's function; every exercise kept. The practice
handout keeps the answers after the exercise. Both carry nbgrader's answer ids."""
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_answers_after import ANSWERS, listed

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")


def build(out: Path, *flags: str) -> dict:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "handout.py"),
                           str(ROOT / "notebooks"), str(out), *flags],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {name: nbformat.read(str(out / name), as_version=4) for name in NOTEBOOKS}


@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    out = tmp_path_factory.mktemp("handouts")
    return build(out / "practice"), build(out / "graded", "--graded")


def code(nb) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def calls(nb) -> list[str]:
    return [name for cell in code(nb) for line in cell.source.splitlines()
            if not line.lstrip().startswith("#") for name in CHECK_CALL.findall(line)]


def text_of(outputs) -> str:
    return "\n".join(str(out.get("text", "")) + "".join(map(str, out.get("data", {}).values()))
                     for out in outputs)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_graded_handouts_list_no_answer_in_code_or_output(handouts, name):
    """No listing of a write-it's answer anywhere in the code; none in a stored output after
    the exercise (before it, tests/test_answers_after.py already allows none)."""
    _, graded = handouts
    cells = code(graded[name])
    for checker in sorted(set(calls(graded[name])) & set(ANSWERS)):
        answers = ANSWERS[checker][0]
        stub = next(i for i, cell in enumerate(cells) if f"{checker}(" in cell.source)
        for number, cell in enumerate(cells, 1):
            shown = [answer for answer in answers if listed(cell.source, answer)]
            assert not shown, f"{name} code cell {number} lists {shown}"
            printed = text_of(cell.get("outputs", [])) if number > stub + 1 else ""
            defined = [answer for answer in answers if re.search(
                rf"^\s*def {re.escape(answer.rsplit('.', 1)[-1])}\(", printed, re.MULTILINE)]
            assert not defined, f"{name} code cell {number} stores the code of {defined}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_stored_output_of_the_students_function(handouts, name):
    _, graded = handouts
    nb = graded[name]
    theirs, exercise_cells = set(), set()
    for index, cell in enumerate(code(nb)):
        if CHECK_CALL.search(cell.source):
            exercise_cells.add(index)
            theirs |= set(re.findall(r"^def (my_\w+)\(", cell.source, re.MULTILINE))
    for index, cell in enumerate(code(nb)):
        if index not in exercise_cells and any(re.search(rf"\b{f}\b", cell.source)
                                               for f in theirs):
            assert not cell.outputs, f"{name} code cell {index + 1} keeps the solution's run"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_graded_handouts_keep_every_exercise(handouts, name):
    practice, graded = handouts
    assert calls(graded[name]) == calls(practice[name])
    assert all(c.cell_type == "code" and c.source.strip() or c.cell_type != "code"
               for c in graded[name].cells)


def test_the_practice_handout_keeps_the_answers_after(handouts):
    practice, graded = handouts
    sources = "\n".join(cell.source for cell in code(practice["02_minimax_and_negamax.ipynb"]))
    assert listed(sources, "minimax") and listed(sources, "negamax")
    assert sum(listed(cell.source, "minimax") for nb in graded.values()
               for cell in code(nb)) == 0


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_both_handouts_carry_the_nbgrader_releases_answer_ids(handouts, name):
    """Every exercise cell of the practice and the graded handout carries the id of its
    answer cell in the nbgrader export, so a copy of either handed in to nbgrader autogrades
    (tests/test_export.py runs one through autograde)."""
    from ttt_lib.teach import export
    course = nbformat.read(str(ROOT / "notebooks" / name), as_version=4)
    release = export.nbgrader_notebook(course, 1)
    answers = [cell.metadata["nbgrader"] for cell in release.cells
               if cell.metadata.get("nbgrader", {}).get("solution")]
    for handout in handouts:
        marked = [cell for cell in handout[name].cells if "nbgrader" in cell.metadata]
        assert [cell.metadata["nbgrader"] for cell in marked] == answers
        assert all(CHECK_CALL.search(cell.source) for cell in marked)
