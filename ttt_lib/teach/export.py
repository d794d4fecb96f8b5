"""The course for the graders instructors already run: ``python -m ttt_lib export KIND OUT``.

``nbgrader OUT``: an nbgrader course folder, ``OUT/nbgrader_config.py`` and
``OUT/source/NN_topic/NN_topic.ipynb`` for each notebook with exercises. Each exercise becomes
two cells. Its answer cell (nbgrader's ``solution: true``) holds the student's cell as handed
out (as comments: nbgrader's stub follows) and, between ``### BEGIN SOLUTION`` and ``### END
SOLUTION``, the course's solution cell (the cell tagged ``solution`` right after it), its
checker calls left out. Its test cell (read-only, ``grade: true``, the exercise's points from
its metadata) asserts the checker's verdict, ``check_NN_what(answer, strict=True)``, and a
write-it's again, in a hidden test that nbgrader keeps out of the students' copy, on fresh
cases (an offset drawn at export, see ``core.fresh_cases``). Other cells tagged ``solution``
are left out, as the handouts leave them. nbgrader's ``generate_assignment`` then makes the
students' copy; its ``autograde`` runs the test cells, so outputs a student edited count for
nothing. The handouts students work on (``tools/handout.py``: the course site, Binder and
Colab serve them) carry the same ids on their exercise cells (``with_nbgrader_ids``), and
``nbgrader_config.py`` has nbgrader add each missing test cell back from the release, so a
handout's copy autogrades like the release's. A submission with no nbgrader cell id at all
(an older handout, a notebook of the student's own) would score 0 in silence: the config
stops ``autograde`` on it, saying why.
"""
from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

from .grade import CHECK_CALL, DEFAULT_POINTS, fresh_seed, points_in

__all__ = ["answer_id", "answer_metadata", "command", "course_notebooks", "export",
           "exercise_points", "nbgrader_notebook", "with_nbgrader_ids"]

NOTEBOOK_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
SCHEMA = 3  # nbgrader's cell metadata schema
CONFIG = '''\
# nbgrader's settings for the ttt-search course (python -m ttt_lib export nbgrader)
from nbgrader.preprocessors import (CheckCellMetadata, ClearOutput, DeduplicateIds,
                                    NbGraderPreprocessor, OverwriteCells, OverwriteKernelspec)

c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = "ttt-search"
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}


class RefuseCopiesWithoutIds(NbGraderPreprocessor):
    """A submission none of whose cells carries nbgrader's ids is not a copy of this course
    (a handout made before the handouts carried them, a notebook of the student's own):
    nbgrader would give it 0 without a word, so autograde stops on it and says why."""

    def preprocess(self, nb, resources):
        if not any("nbgrader" in cell.get("metadata", {}) for cell in nb.cells):
            raise ValueError(
                "ttt-search: this submission is not nbgrader's release copy: none of its "
                "cells carries nbgrader's ids (an old handout, or a notebook of the student's "
                "own?), so nbgrader would score it 0. Have the student copy their answers into "
                "the release or a new handout, or grade it with python -m ttt_lib grade, "
                "which reads the checker calls.")
        return nb, resources


# nbgrader 0.9's own list, this check first
c.Autograde.sanitize_preprocessors = [RefuseCopiesWithoutIds, ClearOutput, DeduplicateIds,
                                      OverwriteKernelspec, OverwriteCells, CheckCellMetadata]

# A handout's copy (tools/handout.py: the course site's, Binder's, Colab's) carries the answer
# cells' ids but not the test cells, which would show the checker twice: nbgrader adds each
# test cell back after its answer, from this course's gradebook, and says so in a comment.
c.OverwriteCells.add_missing_cells = True
c.OverwriteCells.missing_cell_notification = (
    "ttt-search: this test cell, {cell_id}, comes from the release; the student's copy "
    "(a handout) has none, which is expected.\\n\\n")
'''


def course_notebooks() -> Path:
    """The course's notebooks in a checkout of the repository (``notebooks/``)."""
    return Path(__file__).resolve().parents[2] / "notebooks"


def _tags(cell) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def _calls(cell) -> list[str]:
    return [name for line in cell.source.splitlines() if not line.lstrip().startswith("#")
            for name in CHECK_CALL.findall(line)]


def exercises_of(nb) -> list[tuple[int, int | None]]:
    """(exercise cell, its solution cell or None) by index: an exercise is a code cell not
    tagged ``solution`` that calls a checker; its solution is the next cell, if tagged so."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "solution" not in _tags(cell) and _calls(cell):
            after = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
            found.append((index, index + 1 if after is not None
                          and "solution" in _tags(after) else None))
    return found


def exercise_points(nb) -> dict[str, int]:
    """{checker: points} of a notebook's exercises (1 where a cell's metadata give none)."""
    found = {}
    for index, _ in exercises_of(nb):
        points = points_in(nb.cells[index].get("metadata"))
        for name in _calls(nb.cells[index]):
            found[name] = DEFAULT_POINTS if points is None else points
    return found


def _check_calls(source: str) -> tuple[str, list[str]]:
    """``source`` without its top-level checker calls, and those calls' texts."""
    tree = ast.parse(source)
    lines, calls = source.splitlines(), []
    for node in reversed(tree.body):
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and CHECK_CALL.match(call.func.id + "("):
            calls.insert(0, ast.get_source_segment(source, call))
            del lines[node.lineno - 1:node.end_lineno]
    return "\n".join(lines).strip("\n"), calls


def _strict(call: str) -> str:
    """A checker call asserting its verdict: ``check(x)`` -> ``check(x, strict=True)``."""
    return call[:-1].rstrip() + ", strict=True)"


def _meta(grade_id: str, **fields) -> dict:
    base = {"grade": False, "solution": False, "locked": False, "task": False}
    return {**base, **fields, "grade_id": grade_id, "schema_version": SCHEMA}


def answer_id(exercise) -> str:
    """The nbgrader id of an exercise's answer cell: its first checker's name and ``_answer``
    (its test cell's id is the checker's name)."""
    return f"{_calls(exercise)[0]}_answer"


def answer_metadata(exercise) -> dict:
    """nbgrader's metadata of an exercise's answer cell, the same in the release and in a
    handout (``with_nbgrader_ids``)."""
    return _meta(answer_id(exercise), solution=True)


def with_nbgrader_ids(nb):
    """``nb`` (a handout: solution cells already removed) with each exercise cell marked as
    nbgrader's answer cell of the release, so a handout's copy handed in autogrades: nbgrader
    adds the test cells back from its gradebook (``add_missing_cells`` in the config)."""
    for index, _ in exercises_of(nb):
        nb.cells[index].metadata["nbgrader"] = answer_metadata(nb.cells[index])
    return nb


def _answer_cell(exercise, solution):
    given, _ = _check_calls(exercise.source)
    answer, _ = _check_calls(solution.source) if solution is not None else ("", [])
    cell = copy.deepcopy(exercise)
    shown = "\n".join(f"# {line}".rstrip() for line in given.splitlines())  # the skeleton
    cell.source = "\n".join(part for part in [shown, "### BEGIN SOLUTION", answer,
                                              "### END SOLUTION"] if part)
    cell.outputs, cell.execution_count = [], None
    cell.metadata["nbgrader"] = answer_metadata(exercise)
    return cell


def _test_cell(exercise, points: int, offset: int):
    """The exercise's autograded test: its checker calls asserting; a write-it's again, in a
    hidden test, on fresh cases."""
    from nbformat.v4 import new_code_cell

    from .. import teach
    _, calls = _check_calls(exercise.source)
    visible = [_strict(call) for call in calls]
    hidden = ["### BEGIN HIDDEN TESTS", "from ttt_lib.teach import core as _ttt_core",
              f"_ttt_core.fresh_cases({offset})  # cases the notebook never showed",
              "try:", *(f"    {line}" for line in visible), "finally:",
              "    _ttt_core.fresh_cases(0)", "### END HIDDEN TESTS"]
    drawn = any(getattr(getattr(teach, name, None), "write_it", False) for name in
                _calls(exercise))
    cell = new_code_cell("\n".join(visible + (hidden if drawn else [])))
    cell.metadata["nbgrader"] = _meta(_calls(exercise)[0], grade=True, locked=True,
                                      points=points)
    return cell


def nbgrader_notebook(nb, offset: int):
    """The nbgrader source version of a course notebook (a new notebook)."""
    nb = copy.deepcopy(nb)
    pairs = dict(exercises_of(nb))
    solutions = {index for index in pairs.values() if index is not None}
    points = exercise_points(nb)
    cells = []
    for index, cell in enumerate(nb.cells):
        if index in pairs:
            solution = nb.cells[pairs[index]] if pairs[index] is not None else None
            cells += [_answer_cell(cell, solution),
                      _test_cell(cell, points[_calls(cell)[0]], offset)]
        elif index not in solutions and "solution" not in _tags(cell):
            cells.append(cell)
    nb.cells = cells
    return nb


def export_nbgrader(folder: Path, out: Path, numbers: list[str] | None) -> str:
    """Write the nbgrader course folder ``out``; say what it holds."""
    import nbformat
    made = []
    offset = fresh_seed()
    for path in _chosen(folder, numbers):
        nb = nbformat.read(str(path), as_version=4)
        if not exercises_of(nb):
            continue
        place = out / "source" / path.stem
        place.mkdir(parents=True)
        nbformat.write(nbgrader_notebook(nb, offset), str(place / path.name))
        made.append(path.stem)
    (out / "nbgrader_config.py").write_text(CONFIG, encoding="utf-8")
    return f"{len(made)} assignment{'s' * (len(made) != 1)} in source/ ({', '.join(made)})"


def _chosen(folder: Path, numbers: list[str] | None) -> list[Path]:
    paths = sorted(p for p in folder.glob("*.ipynb") if NOTEBOOK_NAME.match(p.name))
    chosen = [p for p in paths if numbers is None or p.name[:2] in numbers]
    missing = sorted(set(numbers or []) - {p.name[:2] for p in chosen})
    if missing:
        raise ValueError(f"no notebook numbered {', '.join(missing)} in {folder}")
    return chosen


def export(kind: str, folder: Path, out: Path, numbers: list[str] | None = None,
           keep_going: bool = False) -> str:
    """Export the notebooks of ``folder`` (those numbered ``numbers``, or all) for ``kind``;
    ``keep_going``: Gradescope's run goes past a cell that raised (nbgrader's always does)."""
    import nbformat
    if kind == "nbgrader":
        return export_nbgrader(folder, out, numbers)
    from .classfolder import course_cells
    from .export_gradescope import export_gradescope
    points = {}
    for path in _chosen(folder, numbers):
        points.update(exercise_points(nbformat.read(str(path), as_version=4)))
    return export_gradescope(points, out, course_cells(folder), keep_going)


def command(kind: str, out: str, notebooks: str | None, only: str | None, stream,
            keep_going: bool = False) -> int:
    """The ``export`` command: arguments checked (``ValueError`` naming a bad one), then
    the export, and one line saying what was written."""
    if keep_going and kind != "gradescope":
        raise ValueError("--keep-going is for gradescope (nbgrader runs every test cell)")
    numbers = None
    if only is not None:
        numbers = [part.strip() for part in only.split(",")]
        if not all(len(n) == 2 and n.isdigit() for n in numbers):
            raise ValueError(f"--only takes notebook numbers such as 02,03, not {only}")
    folder = Path(notebooks) if notebooks else course_notebooks()
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of the course's notebooks")
    target = Path(out)
    if target.exists() or target.is_symlink():
        raise ValueError(f"{out} exists already: name a new one")
    if not target.resolve().parent.is_dir():
        raise ValueError(f"cannot write {out}: its folder does not exist")
    if kind == "gradescope" and target.suffix != ".zip":
        raise ValueError(f"the Gradescope autograder is a .zip file, not {out}")
    _chosen(folder, numbers)  # every number named is there, before anything is written
    print(f"wrote {out}: {export(kind, folder, target, numbers, keep_going)}", file=stream)
    return 0
