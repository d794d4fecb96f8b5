"""Each exercise's points: in its cell's metadata, shown in its heading (tools/points.py),
read the same way by the grader."""
import contextlib
import copy
import io
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from ttt_lib.teach import grade

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402  (the tools are scripts in tools/, imported by their plain names)
import points  # noqa: E402

PATHS = course.course_notebooks(ROOT / "notebooks")


def tool(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = course.main(points.run, [str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", PATHS, ids=[p.stem[:2] for p in PATHS])
def test_headings_say_the_points_of_the_metadata(path):
    nb = nbformat.read(str(path), as_version=4)
    assert points.mismatches(nb) == []
    for heading, index in points.exercises(nb):
        cell = nb.cells[index]
        stated = points.points_of(cell)
        assert f"{stated} point" in nb.cells[heading].source
        assert (grade.points_in(cell.metadata) or grade.DEFAULT_POINTS) == stated
        assert grade.exercise_calls(cell.source) == points.calls(cell)


def test_every_exercise_has_a_heading():
    for path in PATHS:
        nb = nbformat.read(str(path), as_version=4)
        exercises = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
                     and "solution" not in course.tags(cell) and points.calls(cell)]
        assert [index for _, index in points.exercises(nb)] == exercises, path.name


@pytest.mark.parametrize("text, value, expected", [
    ("**Exercise 1.** What is it?", 1, "**Exercise 1 (1 point).** What is it?"),
    ("**Exercise 2 (write it).** Write", 2, "**Exercise 2 (write it, 2 points).** Write"),
    ("**Exercise 2 (write it, 2 points).** Write", 3, "**Exercise 2 (write it, 3 points).** Write"),
    ("**Exercise 2 (write it), the capstone.** W", 4,
     "**Exercise 2 (write it, 4 points), the capstone.** W"),
    ("**Exercise 3 (1 point).** In Exercise 1", 0, "**Exercise 3 (0 points).** In Exercise 1"),
])
def test_a_heading_gets_its_points_once(text, value, expected):
    assert points.with_points(text, value) == expected
    assert points.with_points(expected, value) == expected


def test_the_tool_writes_once_and_checks(tmp_path):
    copy = tmp_path / PATHS[2].name
    shutil.copy(PATHS[2], copy)
    nb = nbformat.read(str(copy), as_version=4)
    heading, index = points.exercises(nb)[1]
    nb.cells[index].metadata["ttt"] = {"points": 5}
    course.write_if_changed(nb, copy)
    code, _, err = tool("--check", copy)
    assert code == 1 and err.startswith(f"points differ: {copy.name} cell {heading}:")
    assert tool(copy) == (0, f"marked {copy.name}\n", "")
    assert "(write it, 5 points)" in nbformat.read(str(copy), as_version=4).cells[heading].source
    assert tool(copy) == (0, "", "")  # again: nothing to change
    assert tool("--check", copy) == (0, "", "")


def test_bad_arguments_exit_2(tmp_path):
    code, _, err = tool(tmp_path / "missing.ipynb")
    assert code == 2 and err.count("\n") == 1 and "is not a notebook" in err
    code, _, err = tool("--bogus")
    assert code == 2 and err.count("\n") == 1


# ------------------------------------------------------- points from the measured size

import unit_plan  # noqa: E402

from ttt_lib.teach.plan import (MINUTES_PER_POINT, QUESTION_POINTS, NotebookPlan,  # noqa: E402
                                read_plan, sized_points, write_it_minutes)


@pytest.mark.parametrize("path", PATHS, ids=[p.stem[:2] for p in PATHS])
def test_every_stored_point_value_is_the_one_its_size_gives(path):
    """The points in an exercise cell's metadata are sized_points of its notebook's plan
    (python tools/unit_plan.py stores them): a question 1, a write-it by its minutes."""
    nb = nbformat.read(str(path), as_version=4)
    assert unit_plan.stale_points(nb, sized_points(read_plan(path))) == [], \
        "python tools/unit_plan.py stores the points the sizes give"


def test_the_rule_weighs_a_write_it_by_its_minutes():
    sizes = {"check_99_small": (1, 0), "check_99_mid": (5, 3), "check_99_big": (22, 9)}
    plan = NotebookPlan("99", "t", None, 0, 0, ("check_99_question",), tuple(sizes), sizes)
    points = sized_points(plan)
    assert points["check_99_question"] == QUESTION_POINTS
    for name, size in sizes.items():  # halves up, at least 1, against a plain division
        minutes = write_it_minutes(*size)
        whole, rest = divmod(minutes, MINUTES_PER_POINT)
        assert points[name] == max(1, whole + (2 * rest >= MINUTES_PER_POINT)), name
    assert points["check_99_small"] == 1 and points["check_99_big"] > points["check_99_mid"]
    with pytest.raises(TypeError, match="plan"):
        sized_points({"check_99_mid": 2})


def test_storing_points_changes_only_their_metadata():
    """unit_plan.py writes ttt.points of the stale exercise cells, nothing else: sources,
    outputs, cell ids and other metadata stay (the other notebook tools' merges stay
    line-local)."""
    nb = nbformat.read(str(PATHS[2]), as_version=4)
    points = sized_points(read_plan(PATHS[2]))
    before = copy.deepcopy(nb)
    index, calls = unit_plan.exercise_cells(nb)[1]
    nb.cells[index].metadata["ttt"] = {"points": 99, "other": "kept"}
    assert unit_plan.stale_points(nb, points) == [(index, 99, points[calls[0]])]
    assert unit_plan.store_points(nb, points) == 1
    assert nb.cells[index].metadata["ttt"] == {"points": points[calls[0]], "other": "kept"}
    nb.cells[index].metadata["ttt"].pop("other")
    assert nb == before
    assert unit_plan.store_points(nb, points) == 0


def test_the_readme_states_the_rule_and_its_figures():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    plans = {path.name[:2]: read_plan(path) for path in PATHS}
    shown = {"my_minimax": ("02", "check_02_minimax"), "my_uct": ("07", "check_07_mcts")}
    assert (f"a *write it* exercise one point per {MINUTES_PER_POINT} of its minutes"
            in readme and f"a short answer is worth {QUESTION_POINTS} point" in readme)
    for function, (number, name) in shown.items():
        minutes = plans[number].write_it_minutes(name)
        words = "minutes" if function == "my_minimax" else ""
        said = f"`{function}` ({minutes}{' ' + words if words else ''}) " \
               f"{sized_points(plans[number])[name]}"
        assert said in readme, said
    assert f"`my_agent` {sized_points(plans['12'])['check_12_agent']}" in readme
