"""What the grader reads before any box runs: the course's exercises and points (never a
submission's), links and copies, one student's several notebooks, and names that cannot lie
in the table."""
from __future__ import annotations

import os

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from ttt_lib.teach import gradebook, papers
from ttt_lib.teach.grade import Graded


def write(path, *cells):
    """A notebook of code cells, each ``(source, points or None)``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=[
        new_code_cell(source, metadata={} if points is None else {"ttt": {"points": points}})
        for source, points in cells]), str(path))


def test_the_course_gives_exercises_and_points(tmp_path):
    write(tmp_path / "course" / "02.ipynb", ("check_02_minimax(f)", 3),
          ("check_02_minimax(g)  # the solution cell", None), ("check_02_best_moves(x)", None),
          ("check_99_nothing(1)", 5))  # no such checker in the package: not an exercise
    assert papers.course_points(tmp_path / "course") == {"check_02_best_moves": 1,
                                                         "check_02_minimax": 3}


def test_the_packages_course_is_its_notebooks():
    """The package's course: every exercise its notebooks call, worth what the measured size
    of its solution gives (tools/unit_plan.py stores it in the cell's metadata)."""
    from ttt_lib.teach.plan import read_plan, sized_points
    points = papers.course_points()
    sized = {}
    for path in papers.notebooks_in(papers.COURSE):
        sized.update(sized_points(read_plan(path)))
    assert points == {name: sized[name] for name in papers.package_checkers() if name in sized}
    assert points["check_07_mcts"] > points["check_02_minimax"] > points["check_02_best_moves"]


def test_a_made_up_exercise_is_set_apart_and_flagged(tmp_path):
    write(tmp_path / "class" / "a.ipynb", ("check_02_minimax(f)", 50),
          ("check_10_bonus(1)", 1000))
    (paper,) = papers.papers_in(tmp_path / "class", course=papers.course_points())
    assert paper.exercises == ["check_02_minimax"] and paper.unknown == ["check_10_bonus"]
    assert paper.flags == ["ignores check_10_bonus (not in the course)"]


def test_links_and_copies_are_not_the_linkers_work(tmp_path):
    folder = tmp_path / "class"
    write(folder / "alice" / "hw.ipynb", ("check_02_minimax(f)", None))
    (folder / "eve").mkdir()
    os.symlink("../alice/hw.ipynb", folder / "eve" / "hw.ipynb")
    os.symlink("alice", folder / "mallory")  # a linked folder
    os.link(folder / "alice" / "hw.ipynb", folder / "zed.ipynb")  # the same file again
    found = {paper.name: paper for paper in papers.papers_in(folder)}
    assert found["alice/hw.ipynb"].problem == ""
    assert found["eve/hw.ipynb"].problem == ("not graded: it is a link to alice/hw.ipynb, not "
                                             "this student's work")
    assert found["zed.ipynb"].problem == "not graded: it is the same file as alice/hw.ipynb"
    assert found["zed.ipynb"].exercises == []
    assert "mallory/hw.ipynb" not in found or found["mallory/hw.ipynb"].problem


def test_one_students_notebooks_are_flagged_and_counted_once(tmp_path):
    folder = tmp_path / "class"
    for name in "abc":
        write(folder / "mallory" / f"{name}.ipynb", ("check_02_minimax(f)", 50))
    write(folder / "bob.ipynb", ("check_02_minimax(f)", None))
    found = papers.papers_in(folder)
    assert [paper.flags for paper in found] == [[]] + [
        ["one of 3 notebooks of mallory: each exercise counted once"]] * 3
    right = "Right: yes"
    graded = [Graded(paper.name, {"check_02_minimax": right}, ["check_02_minimax"],
                     student=paper.student) for paper in found]
    rows = gradebook.canvas_rows(graded, {"check_02_minimax": 2, "check_02_negamax": 2}, "hw")
    assert rows[1][-1] == "4" and [row[-1] for row in rows[2:]] == ["2", "2"]


def test_names_cannot_lie_in_the_table():
    one = Graded("\x1b[2J\u202eevil.ipynb", problem="=HYPERLINK(1)", flags="\x1b]0;t\x07",
                 student="\x1b[31mred")
    (_, row) = gradebook.table([one])
    assert row[0] == "\\x1b[31mred" and row[1] == "\\x1b[2J\\u202eevil.ipynb"
    assert row[-2] == "'=HYPERLINK(1)" and row[-1] == "\\x1b]0;t\\x07"
    assert all(text.isprintable() for text in row)
