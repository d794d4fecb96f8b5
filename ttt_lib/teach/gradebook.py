"""A class's grades: points, students, the table ``grade`` writes, and Canvas's import.

Each exercise's points are in its code cell's metadata in the instructor's notebooks
(``{"ttt": {"points": 2}}``, 1 when absent; ``tools/points.py`` shows them in the exercise's
heading): the course's, the package's own notebooks or ``--course DIR`` (``papers.py``), never
a submission's. Who handed in each file is ``classfolder.py``'s (Canvas's and Gradescope's
download names, folders, ``--roster``, Canvas's own gradebook export as a roster); with a
roster, the files it does not name are listed and left out of Canvas's file. The table has one
row per notebook: ``student``, ``file``, each exercise's status in the course's order
(``Right``, ``Not yet``, ``not attempted``: the handout's stub untouched, ``missing``: never
checked), ``right``, each exercise's points, ``points``, ``max_points`` (every exercise of the
course's notebooks it belongs to), ``delegated`` (each write-it that was Not yet because
its function called the library), ``feedback`` (each Not yet exercise's hint), ``problem``
and ``flags`` (late, off the roster, one of a student's several notebooks, a link, ...);
every text cell is printable (control and bidi characters escaped) and no formula.
``--canvas FILE`` adds Canvas's gradebook import: ``Student, ID, SIS User ID, SIS Login ID,
Section`` and one assignment column, each student's points over their notebooks with each
exercise counted once (its best, never a sum), Points Possible the course's.
"""
from __future__ import annotations

import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..safetext import csv_cell, printable
from .classfolder import (Course, Who, course_cells, delegated_to, gradescope_submitters,
                          off_roster, read_roster, students, untouched)
from .grade import DEFAULT_POINTS, TIMEOUT, Confine, Graded, fresh_seed, grade_each
from .papers import course_points, notebooks_in, papers_in, student_of

__all__ = ["CANVAS_COLUMNS", "Options", "canvas_rows", "cell", "main", "read_roster",
           "summary", "table", "write_table"]

NOT_ATTEMPTED = "not attempted"
RAN_ON = "the cells after it ran too"  # the end of kernel.py's problem with --keep-going


def cell(text: str) -> str:
    """A text cell that cannot lie: printable (ESC, CSI and U+202E escaped) and no formula."""
    return csv_cell(printable(text))


# ---------------------------------------------------------------------------- the table

def header(exercises: list[str]) -> list[str]:
    return ["student", "file", *exercises, "right", *(f"{name} points" for name in exercises),
            "points", "max_points", "delegated", "feedback", "problem", "flags"]


def max_points(one: Graded, points: dict[str, int]) -> int:
    """The points a notebook could earn: every exercise of the notebooks it belongs to
    (``check_02_...`` makes it a notebook 02), whether or not its cells still call each."""
    numbers = {name[6:8] for name in [*one.exercises, *one.lines]}
    return sum(value for name, value in points.items() if name[6:8] in numbers)


def status(one: Graded, exercise: str, left: set[str] = frozenset()) -> str:
    """``one``'s status on ``exercise``; 'not attempted' when its cell is still the
    handout's stub (``left``) and it is not Right."""
    said = one.status(exercise)
    return NOT_ATTEMPTED if exercise in left and said != "Right" else said


def delegated(one: Graded, exercises: list[str]) -> str:
    """The write-its that were Not yet because the student's function called the library:
    ``check_02_minimax (minimax)``, '; ' between them."""
    return "; ".join(f"{name} ({found})" for name in exercises
                     if (found := one.delegated.get(name)
                         or delegated_to(one.lines.get(name, ""))))


def feedback(one: Graded, exercises: list[str], left: set[str] = frozenset()) -> str:
    """Each Not yet exercise's hint (the checker's text after ``Not yet:``), ' | ' between."""
    return " | ".join(f"{name}: {one.hint(name)}" for name in exercises
                      if status(one, name, left) == "Not yet")


def row(one: Graded, exercises: list[str], points: dict[str, int] | None = None,
        left: set[str] = frozenset()) -> list[str]:
    """A notebook's cells, each safe in a spreadsheet (``=1+2`` as a name is not a formula);
    ``left``: its exercises not attempted."""
    points = points if points is not None else {name: DEFAULT_POINTS for name in exercises}
    statuses = [status(one, name, left) for name in exercises]
    scored = [one.scored(name, points) for name in exercises]
    return [cell(one.student or student_of(one.file)), cell(one.file), *statuses,
            str(statuses.count("Right")), *map(str, scored), str(sum(scored)),
            str(max_points(one, points)), cell(delegated(one, exercises)),
            cell(feedback(one, exercises, left)), cell(one.problem), cell(one.flags)]


def in_order(names, order: list[str] | None = None) -> list[str]:
    """``names`` in the course's ``order`` (those it does not know after, by name)."""
    order = order or []
    names = set(names)
    return [name for name in order if name in names] + sorted(names - set(order))


def table(graded: list[Graded], points: dict[str, int] | None = None,
          order: list[str] | None = None,
          left: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The header, then one row per notebook: student, file, each exercise's status (in
    the course's ``order``), right, each exercise's points, points, max_points, delegated,
    feedback, problem, flags; ``left``: {file: its exercises not attempted}."""
    exercises = in_order({name for one in graded for name in [*one.exercises, *one.lines]},
                         order)
    return [header(exercises)] + [row(one, exercises, points, (left or {}).get(one.file, set()))
                                  for one in graded]


def write_table(rows: list[list[str]], stream) -> None:
    csv.writer(stream, lineterminator="\n").writerows(rows)


CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def canvas_rows(graded: list[Graded], points: dict[str, int], assignment: str,
                people: dict[str, Who] | None = None,
                roster: list[dict[str, str]] | None = None) -> list[list[str]]:
    """Canvas's gradebook import: its identity columns, one assignment column (its name,
    ``name (Canvas id)`` to fill an existing one), a Points Possible row (the course's points
    of the notebooks the class handed in), then each student's points over their notebooks,
    each exercise counted once (its best). ``people``: {file: its student}; with a
    ``roster``, students it does not name are left out (``off_roster`` lists them)."""
    people = people or {}
    earned: dict[str, dict[str, int]] = {}  # each student's best points per exercise
    identity: dict[str, Who] = {}
    for one in graded:
        who = people.get(one.file) or Who(one.student or student_of(one.file))
        if roster is not None and not who.entry:
            continue
        identity.setdefault(who.student, who)
        best = earned.setdefault(who.student, {})
        for name in points:
            best[name] = max(best.get(name, 0), one.scored(name, points))
    numbers = {name[6:8] for one in graded for name in [*one.exercises, *one.lines]
               if name in points}
    possible = sum(value for name, value in points.items() if name[6:8] in numbers)
    rows = [CANVAS_COLUMNS + [assignment], ["Points Possible", "", "", "", "", str(possible)]]
    for student, best in earned.items():
        who = identity[student]
        entry = who.entry
        rows.append([cell(entry.get("name") or who.name or student),
                     cell(entry.get("id") or who.canvas),
                     cell(student if entry or not who.canvas else ""),
                     cell(entry.get("sis_login_id", "")), cell(entry.get("section", "")),
                     str(sum(best.values()))])
    return rows


def assignment_name(points: dict[str, int]) -> str:
    """The default Canvas column: ``ttt-search`` and the notebooks graded (``ttt-search 02``)."""
    numbers = sorted({name[6:8] for name in points})
    return " ".join(["ttt-search", "+".join(numbers)]) if numbers else "ttt-search"


def summary(graded: list[Graded], isolated: bool = True,
            left: dict[str, set[str]] | None = None) -> str:
    """One line: notebooks graded, how many ran to the end, and the verdicts."""
    exercises = sorted({name for one in graded for name in [*one.exercises, *one.lines]})
    statuses = [status(one, name, (left or {}).get(one.file, set()))
                for one in graded for name in exercises]
    stopped = sum(1 for one in graded if one.problem and not one.problem.endswith(RAN_ON))
    attempted = (f", {statuses.count(NOT_ATTEMPTED)} not attempted"
                 if NOT_ATTEMPTED in statuses else "")
    return (f"graded {len(graded)} notebook{'s' * (len(graded) != 1)}"
            f"{'' if isolated else ' (not isolated)'}: "
            f"{len(graded) - stopped} ran to the end, {stopped} stopped early; "
            f"{statuses.count('Right')} Right, {statuses.count('Not yet')} Not yet"
            f"{attempted}, {statuses.count('missing')} missing")


@dataclass
class Options:
    """What the ``grade`` command was asked for besides the folder (arguments checked)."""

    csv_path: str | None = None
    timeout: float = TIMEOUT
    jobs: int = 1
    case_seed: int | None = None  # None: a fresh one
    roster: list[dict[str, str]] | None = None
    canvas: str | None = None
    assignment: str | None = None
    course: str | None = None  # the instructor's notebooks (None: the package's)
    keep_going: bool = False  # run every cell past one that raised (nbgrader's way)


@dataclass
class Class:
    """A class folder read before grading: its papers, who handed each in, the files off
    the roster, each paper's exercises not attempted, and the course's order."""

    papers: list
    people: dict[str, Who]
    off: list[str]
    left: dict[str, set[str]] = field(default_factory=dict)
    course: Course | None = None


def read_class(folder: Path, options: Options, points: dict[str, int]) -> Class:
    """The class folder's papers, each with its student (``classfolder.students``) and its
    flags: late (Canvas), not on the roster."""
    course = course_cells(None if options.course is None else Path(options.course))
    files = [path.relative_to(folder).as_posix() for path in notebooks_in(folder)]
    people = students(files, options.roster, gradescope_submitters(folder))
    papers = papers_in(folder, {file: {"student": who.student}
                                for file, who in people.items()}, points)
    off = off_roster(people, options.roster)
    for paper in papers:
        who = people.get(paper.name)
        paper.flags += ["late (Canvas)"] if who and who.late else []
        paper.flags += ["not on the roster"] if paper.name in off else []
    left = {paper.name: untouched(paper.data, course) for paper in papers}
    return Class(papers, people, off, left, course)


def main(folder: str, options: Options, out=None, confine: Confine | None = None) -> int:
    """The ``grade`` command (arguments already checked): the CSV to ``options.csv_path``
    (or to ``out`` when None, the summary then going to stderr), a row written and flushed as
    each notebook is graded, in the folder's order, progress on stderr; Ctrl-C stops it with
    status 130, the rows written so far kept. Then the Canvas file, if asked for."""
    out = sys.stdout if out is None else out
    points = course_points(None if options.course is None else Path(options.course))
    found = read_class(Path(folder), options, points)
    exercises = in_order({name for paper in found.papers for name in paper.exercises},
                         found.course.order)
    seed = fresh_seed() if options.case_seed is None else options.case_seed
    csv_path = options.csv_path
    stream = out if csv_path is None else open(csv_path, "w", newline="", encoding="utf-8")
    writer, graded = csv.writer(stream, lineterminator="\n"), []
    try:
        writer.writerow(header(exercises))
        stream.flush()
        for one in grade_each(found.papers, options.timeout, confine, sys.stderr,
                              options.jobs, seed, options.keep_going):
            writer.writerow(row(one, exercises, points, found.left.get(one.file, set())))
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
                {name: points[name] for name in exercises}), found.people, options.roster),
                canvas)
    where = sys.stderr if csv_path is None else out
    print(summary(graded, confine is not None, found.left)
          + ("" if csv_path is None else f"; the table is in {csv_path}")
          + f"; fresh cases: --case-seed {seed}", file=where)
    if found.off:
        print(f"not on the roster ({len(found.off)}, left out of Canvas's file): "
              + ", ".join(printable(name) for name in found.off), file=sys.stderr)
    absent = absentees(options.roster, found.people)
    if absent:
        print(f"on the roster, nothing handed in ({len(absent)}): " + ", ".join(absent),
              file=sys.stderr)
    return 0


def absentees(roster: list[dict[str, str]] | None, people: dict[str, Who]) -> list[str]:
    """The roster's students no file belongs to: ``name (student)``, printable."""
    present = {who.student for who in people.values()}
    return [printable(f"{entry.get('name') or entry['student']} ({entry['student']})")
            for entry in roster or [] if entry["student"] not in present]


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
                      assignment=args.assignment, course=_course(args.course),
                      keep_going=bool(getattr(args, "keep_going", False)))
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


def _roster(path: str | None) -> list[dict[str, str]] | None:
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
