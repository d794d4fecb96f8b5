"""Each exercise's points shown beside it: the heading says what its cell's metadata give.

    python tools/points.py [--check] [NOTEBOOK ...]     (default: every notebook of the course)

An exercise is a code cell, not tagged ``solution``, that calls a checker ``check_NN_...``;
its points are in its metadata, ``{"ttt": {"points": N}}`` (``ttt_lib.teach.grade`` reads
the same, 1 when absent; ``tools/unit_plan.py`` stores them there, computed from the
measured size of the exercise's solution). Its heading is the ``**Exercise N ...**`` of the nearest markdown
cell above it, written as ``**Exercise 2 (write it, 2 points).**``. Running it again changes
nothing (only markdown is written, so no notebook needs executing again); ``--check`` changes
nothing and exits 1 naming each heading that disagrees. Bad arguments exit 2 with one line.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from course import NOTEBOOKS, UsageError, course_notebooks, main, parser, read, tags, write_if_changed

DEFAULT_POINTS = 1  # as ttt_lib.teach.grade.DEFAULT_POINTS
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # as ttt_lib.teach.grade
HEADING = re.compile(r"\*\*Exercise (\d+)(?: \(([^)]*)\))?")
POINTS_NOTE = re.compile(r"^\d+ points?$")


def points_of(cell) -> int:
    """An exercise cell's points (its metadata's ``ttt.points``, else ``DEFAULT_POINTS``)."""
    points = cell.get("metadata", {}).get("ttt", {}).get("points", DEFAULT_POINTS)
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise UsageError(f"ttt.points must be a whole number, not {points!r}")
    return points


def calls(cell) -> list[str]:
    """The checkers a code cell calls (commented-out lines left out)."""
    return [name for line in cell.source.splitlines() if not line.lstrip().startswith("#")
            for name in CHECK_CALL.findall(line)]


def exercises(nb) -> list[tuple[int, int]]:
    """(heading cell index, exercise cell index) of each exercise of ``nb``."""
    found, heading = [], None
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and HEADING.search(cell.source):
            heading = index
        elif (cell.cell_type == "code" and "solution" not in tags(cell) and calls(cell)
              and heading is not None):
            found.append((heading, index))
    return found


def with_points(text: str, points: int) -> str:
    """``text`` with its first exercise heading saying ``points`` (any old note replaced)."""
    def note(match: re.Match) -> str:
        notes = [part.strip() for part in (match.group(2) or "").split(",") if part.strip()]
        notes = [part for part in notes if not POINTS_NOTE.match(part)]
        notes.append(f"{points} point{'s' * (points != 1)}")
        return f"**Exercise {match.group(1)} ({', '.join(notes)})"
    return HEADING.sub(note, text, count=1)


def mismatches(nb) -> list[str]:
    """The headings of ``nb`` that do not say their exercise's points, as 'cell N: ...'."""
    return [f"cell {heading}: {nb.cells[heading].source.splitlines()[0][:60]}"
            for heading, index in exercises(nb)
            if with_points(nb.cells[heading].source, points_of(nb.cells[index]))
            != nb.cells[heading].source]


def mark(nb) -> None:
    """Write each exercise's points into its heading."""
    for heading, index in exercises(nb):
        cell = nb.cells[heading]
        cell.source = with_points(cell.source, points_of(nb.cells[index]))


def run(argv: list[str]) -> int:
    args = parser("points.py", "Write each exercise's points (cell metadata) into its heading.")
    args.add_argument("notebooks", nargs="*", help="default: every notebook of the course")
    args.add_argument("--check", action="store_true", help="change nothing; exit 1 on a mismatch")
    options = args.parse_args(argv)
    paths = [Path(p) for p in options.notebooks] or course_notebooks(NOTEBOOKS)
    for path in paths:
        if path.suffix != ".ipynb" or not path.is_file():
            raise UsageError(f"{path} is not a notebook")
    wrong = []
    for path in paths:
        nb = read(path)
        if options.check:
            wrong += [f"{path.name} {where}" for where in mismatches(nb)]
            continue
        mark(nb)
        if write_if_changed(nb, path):
            print(f"marked {path.name}")
    for line in wrong:
        print(f"points differ: {line}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(run))
