"""A class's grades: points, students, the table ``grade`` writes, and Canvas's import.

Each exercise's points are in its code cell's metadata in the instructor's notebooks
(``{"ttt": {"points": 2}}``, 1 when absent; ``tools/points.py`` shows them in the exercise's
heading): the course's, the package's own notebooks or ``--course DIR`` (``papers.py``), never
a submission's. The table has one row per notebook: ``student`` (the notebook's first folder,
or its file name without ``.ipynb``, or what ``--roster`` says), ``file``, each exercise's
status, ``right``, each exercise's points, ``points``, ``max_points`` (every exercise of the
course's notebooks it belongs to), ``problem`` and ``flags``; every text cell is printable
(control and bidi characters escaped) and no formula. ``--canvas FILE`` adds Canvas's
gradebook import: ``Student, ID, SIS User ID, SIS Login ID, Section`` and one assignment
column, each student's points over their notebooks with each exercise counted once.
"""
from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path

from ..safetext import csv_cell, printable
from .grade import DEFAULT_POINTS, TIMEOUT, Confine, Graded, fresh_seed, grade_each
from .papers import course_points, papers_in, student_of

__all__ = ["CANVAS_COLUMNS", "Options", "canvas_rows", "cell", "main", "read_roster",
           "summary", "table", "write_table"]


def read_roster(path: str) -> dict[str, dict[str, str]]:
    """A roster CSV (columns ``file`` and ``student``; ``name``, ``id``, ``sis_login_id``
    and ``section`` for Canvas if you like): {file: its row}. A roster without those
    columns, or naming a file twice, raises ``ValueError``."""
    with open(path, newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.DictReader(stream))
    if not rows or not {"file", "student"} <= set(rows[0]):
        raise ValueError(f"{path}: a roster needs the columns file and student")
    found: dict[str, dict[str, str]] = {}
    for row in rows:
        file, student = (row.get("file") or "").strip(), (row.get("student") or "").strip()
        if not file or not student or file in found:
            raise ValueError(f"{path}: each row needs a file (once) and a student: {file!r}")
        found[file] = {key: (value or "").strip() for key, value in row.items() if key}
    return found


def cell(text: str) -> str:
    """A text cell that cannot lie: printable (ESC, CSI and U+202E escaped) and no formula."""
    return csv_cell(printable(text))


# ---------------------------------------------------------------------------- the table

def header(exercises: list[str]) -> list[str]:
    return ["student", "file", *exercises, "right", *(f"{name} points" for name in exercises),
            "points", "max_points", "problem", "flags"]


def max_points(one: Graded, points: dict[str, int]) -> int:
    """The points a notebook could earn: every exercise of the notebooks it belongs to
    (``check_02_...`` makes it a notebook 02), whether or not its cells still call each."""
    numbers = {name[6:8] for name in [*one.exercises, *one.lines]}
    return sum(value for name, value in points.items() if name[6:8] in numbers)


def row(one: Graded, exercises: list[str], points: dict[str, int] | None = None) -> list[str]:
    """A notebook's cells, each safe in a spreadsheet (``=1+2`` as a name is not a formula)."""
    points = points if points is not None else {name: DEFAULT_POINTS for name in exercises}
    statuses = [one.status(name) for name in exercises]
    scored = [one.scored(name, points) for name in exercises]
    return [cell(one.student or student_of(one.file)), cell(one.file), *statuses,
            str(statuses.count("Right")), *map(str, scored), str(sum(scored)),
            str(max_points(one, points)), cell(one.problem), cell(one.flags)]


def table(graded: list[Graded], points: dict[str, int] | None = None) -> list[list[str]]:
    """The header, then one row per notebook: student, file, each exercise's status,
    right, each exercise's points, points, max_points, problem, flags."""
    exercises = sorted({name for one in graded for name in [*one.exercises, *one.lines]})
    return [header(exercises)] + [row(one, exercises, points) for one in graded]


def write_table(rows: list[list[str]], stream) -> None:
    csv.writer(stream, lineterminator="\n").writerows(rows)


CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def canvas_rows(graded: list[Graded], points: dict[str, int], assignment: str,
                roster: dict[str, dict[str, str]] | None = None) -> list[list[str]]:
    """Canvas's gradebook import: its identity columns, one assignment column (its name,
    ``name (Canvas id)`` to fill an existing one), a Points Possible row, then each
    student's points over their notebooks, each exercise counted once (its best)."""
    people = {entry["student"]: entry for entry in (roster or {}).values()}
    earned: dict[str, dict[str, int]] = {}  # each student's best points per exercise
    numbers: dict[str, set[str]] = {}  # each student's notebooks, by number
    for one in graded:
        student = one.student or student_of(one.file)
        best = earned.setdefault(student, {})
        for name in points:
            best[name] = max(best.get(name, 0), one.scored(name, points))
        numbers.setdefault(student, set()).update(
            name[6:8] for name in [*one.exercises, *one.lines] if name in points)
    most = {student: sum(value for name, value in points.items() if name[6:8] in found)
            for student, found in numbers.items()}
    possible = max(most.values(), default=0)
    rows = [CANVAS_COLUMNS + [assignment], ["Points Possible", "", "", "", "", str(possible)]]
    for student, best in earned.items():
        entry = people.get(student, {})
        rows.append([cell(entry.get("name") or student), cell(entry.get("id", "")),
                     cell(student), cell(entry.get("sis_login_id", "")),
                     cell(entry.get("section", "")), str(sum(best.values()))])
    return rows


def assignment_name(points: dict[str, int]) -> str:
    """The default Canvas column: ``ttt-search`` and the notebooks graded (``ttt-search 02``)."""
    numbers = sorted({name[6:8] for name in points})
    return " ".join(["ttt-search", "+".join(numbers)]) if numbers else "ttt-search"


def summary(graded: list[Graded], isolated: bool = True) -> str:
    """One line: notebooks graded, how many ran to the end, and the verdicts."""
    exercises = sorted({name for one in graded for name in [*one.exercises, *one.lines]})
    statuses = [one.status(name) for one in graded for name in exercises]
    stopped = sum(1 for one in graded if one.problem)
    return (f"graded {len(graded)} notebook{'s' * (len(graded) != 1)}"
            f"{'' if isolated else ' (not isolated)'}: "
            f"{len(graded) - stopped} ran to the end, {stopped} stopped early; "
            f"{statuses.count('Right')} Right, {statuses.count('Not yet')} Not yet, "
            f"{statuses.count('missing')} missing")


@dataclass
class Options:
    """What the ``grade`` command was asked for besides the folder (arguments checked)."""

    csv_path: str | None = None
    timeout: float = TIMEOUT
    jobs: int = 1
    case_seed: int | None = None  # None: a fresh one
    roster: dict[str, dict[str, str]] | None = None
    canvas: str | None = None
    assignment: str | None = None
    course: str | None = None  # the instructor's notebooks (None: the package's)


def main(folder: str, options: Options, out=None, confine: Confine | None = None) -> int:
    """The ``grade`` command (arguments already checked): the CSV to ``options.csv_path``
    (or to ``out`` when None, the summary then going to stderr), a row written and flushed as
    each notebook is graded, in the folder's order, progress on stderr; Ctrl-C stops it with
    status 130, the rows written so far kept. Then the Canvas file, if asked for."""
    out = sys.stdout if out is None else out
    points = course_points(None if options.course is None else Path(options.course))
    papers = papers_in(Path(folder), options.roster, points)
    exercises = sorted({name for paper in papers for name in paper.exercises})
    seed = fresh_seed() if options.case_seed is None else options.case_seed
    csv_path = options.csv_path
    stream = out if csv_path is None else open(csv_path, "w", newline="", encoding="utf-8")
    writer, graded = csv.writer(stream, lineterminator="\n"), []
    try:
        writer.writerow(header(exercises))
        stream.flush()
        for one in grade_each(papers, options.timeout, confine, sys.stderr, options.jobs, seed):
            writer.writerow(row(one, exercises, points))
            stream.flush()
            graded.append(one)
    except KeyboardInterrupt:  # the running boxes are killed on the way out
        print(f"grading stopped (Ctrl-C): {len(graded)} rows kept", file=sys.stderr)
        return 130
    finally:
        if stream is not out:
            stream.close()
    if options.canvas:
        with open(options.canvas, "w", newline="", encoding="utf-8") as canvas:
            write_table(canvas_rows(graded, points, options.assignment or assignment_name(
                {name: points[name] for name in exercises}), options.roster), canvas)
    where = sys.stderr if csv_path is None else out
    print(summary(graded, confine is not None)
          + ("" if csv_path is None else f"; the table is in {csv_path}")
          + f"; fresh cases: --case-seed {seed}", file=where)
    return 0


# ------------------------------------------------------------------ the command's arguments

def options_from(args) -> Options:
    """The ``grade`` command's arguments checked (a bad one raises ``ValueError`` naming it)."""
    from .papers import notebooks_in
    timeout = _number(args.timeout)
    if not 0 < timeout < float("inf"):  # refuses nan too
        raise ValueError(f"--timeout must be a positive number of seconds, not {args.timeout}")
    folder = Path(args.folder)
    if not folder.is_dir():
        raise ValueError(f"{args.folder} is not a folder")
    if not notebooks_in(folder):
        raise ValueError(f"{args.folder} holds no notebooks (.ipynb)")
    for path in (args.csv, args.canvas):
        if path and not Path(path).resolve().parent.is_dir():
            raise ValueError(f"cannot write {path}: its folder does not exist")
    options = Options(args.csv, timeout, whole(args.jobs, "--jobs", 1, 64),
                      roster=_roster(args.roster), canvas=args.canvas,
                      assignment=args.assignment, course=_course(args.course))
    if args.case_seed is not None:
        options.case_seed = whole(args.case_seed, "--case-seed", 0, 1 << 62)
    return options


def _course(path: str | None) -> str | None:
    """The ``--course`` folder, checked: it must hold notebooks that call checkers."""
    if path is None:
        return None
    if not Path(path).is_dir():
        raise ValueError(f"--course {path} is not a folder")
    if not course_points(Path(path)):
        raise ValueError(f"--course {path} holds no notebook calling a checker")
    return path


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def whole(text: str, option: str, least: int, most: int) -> int:
    """``text`` as a whole number from ``least`` to ``most``, or a ``ValueError``."""
    try:
        number = int(text) if len(text) < 30 else None
    except ValueError:
        number = None
    if number is None or not least <= number <= most:
        raise ValueError(f"{option} must be a whole number from {least} to {most}, "
                         f"not {text[:40]}")
    return number


def _roster(path: str | None) -> dict[str, dict[str, str]] | None:
    if path is None:
        return None
    if not Path(path).is_file():
        raise ValueError(f"--roster {path} is not a file")
    try:
        return read_roster(path)
    except UnicodeDecodeError:
        raise ValueError(f"--roster {path} is not UTF-8 text") from None
    except csv.Error as error:
        raise ValueError(f"--roster {path}: {error}") from None
