"""Write (or check) the README's table of the three-week unit and each exercise's points, from
the notebooks themselves.

    python tools/unit_plan.py [--check]

The table between the README's ``<!-- unit-plan -->`` and ``<!-- /unit-plan -->`` markers is
``ttt_lib.teach.plan.plan_markdown`` of the notebooks in ``notebooks/``, the same table notebook
00 computes. Each exercise cell of every course notebook (a code cell, not tagged ``solution``,
calling a checker) gets the points ``ttt_lib.teach.plan.sized_points`` gives it from the
measured size of its solution, in its metadata (``{"ttt": {"points": N}}``, what the grader
reads); nothing else of a notebook changes (its sources, outputs and cell ids stay), and
``python tools/points.py`` then writes the points into the headings. With ``--check`` nothing
is written: the exit status is 1 when the README's table is out of date (a notebook gained
words, cells or exercises) or a stored point value differs from the computed one. Bad
arguments exit with status 2.
"""
from __future__ import annotations

import sys

from course import (NOTEBOOKS, ROOT, UsageError, course_notebooks, main, parser, read, tags,
                    write_if_changed)

QUESTION_POINTS = 1  # as ttt_lib.teach.plan.QUESTION_POINTS (an exercise the plan does not know)

README = ROOT / "README.md"
START, END = "<!-- unit-plan -->", "<!-- /unit-plan -->"


def with_table(text: str, table: str) -> str:
    """``text`` with the block between the markers replaced by ``table``."""
    before, found, rest = text.partition(START)
    _, ended, after = rest.partition(END)
    if not (found and ended):
        raise UsageError(f"{README.name} has no {START} ... {END} block")
    return f"{before}{START}\n{table}\n{END}{after}"


def exercise_cells(nb) -> list[tuple[int, list[str]]]:
    """(index, the checkers it calls) of each exercise cell of ``nb``: a code cell, not
    tagged ``solution``, calling a checker (as ``ttt_lib.teach.export.exercises_of``)."""
    from ttt_lib.teach.papers import exercise_calls
    return [(index, exercise_calls(cell.source)) for index, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and "solution" not in tags(cell)
            and exercise_calls(cell.source)]


def stale_points(nb, points: dict[str, int]) -> list[tuple[int, object, int]]:
    """(cell index, stored points, computed points) of each exercise cell of ``nb`` whose
    metadata do not hold the points ``points`` gives (the most of the checkers it calls)."""
    stale = []
    for index, calls in exercise_cells(nb):
        wanted = max(points.get(name, QUESTION_POINTS) for name in calls)
        stored = nb.cells[index].metadata.get("ttt", {}).get("points")
        if stored != wanted or isinstance(stored, bool):
            stale.append((index, stored, wanted))
    return stale


def store_points(nb, points: dict[str, int]) -> int:
    """Write the computed points into the metadata of ``nb``'s stale exercise cells (only
    ``ttt.points`` changes); return how many changed."""
    stale = stale_points(nb, points)
    for index, _, wanted in stale:
        metadata = nb.cells[index].metadata
        metadata["ttt"] = {**metadata.get("ttt", {}), "points": wanted}
    return len(stale)


def run(argv: list[str]) -> int:
    args = parser("unit_plan.py", "Write or check the README's table of the unit and each "
                                  "exercise's points.")
    args.add_argument("--check", action="store_true",
                      help="only report a stale table or stale points")
    options = args.parse_args(argv)
    from ttt_lib.teach.plan import plan_markdown, read_plan, sized_points, unit_plan
    stale = 0
    for path in course_notebooks(NOTEBOOKS):
        nb = read(path)
        for index, stored, wanted in stale_points(nb, sized_points(read_plan(path))):
            stale += 1
            if options.check:
                print(f"{path.name} cell {index}: stores {stored!r} points, its size gives "
                      f"{wanted} (python tools/unit_plan.py stores them)")
        if not options.check and store_points(nb, sized_points(read_plan(path))):
            write_if_changed(nb, path)
            print(f"points stored in {path.name}")
    text = README.read_text(encoding="utf-8")
    wanted = with_table(text, plan_markdown(unit_plan(NOTEBOOKS)))
    if wanted == text:
        return 1 if options.check and stale else 0
    if options.check:
        print(f"{README.name}: the unit plan's table is out of date "
              f"(python tools/unit_plan.py rewrites it)")
        return 1
    README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
