"""Who handed in what: a class folder's files matched to students, and what they left alone.

A file's student comes from its place in the folder, read before any grading:
- Canvas's "Download Submissions" names, ``name_userid_subid_file.ipynb`` and
  ``name_LATE_userid_subid_file.ipynb``: the student is Canvas's user id (``ID`` in its
  gradebook), the late ones flagged;
- Gradescope's "Export Submissions" folders, ``submission_NNN/``, with the export's
  ``submission_metadata.yml`` naming each submission's submitter (name, sid, email);
- else the file's first folder (``alice/hw.ipynb``), else its name without ``.ipynb``.
A roster (``read_roster``) then gives each its row: by the file's path or name, or by the
student found above (Canvas's ``ID``, the roster's ``student``, ``SIS User ID`` or
``SIS Login ID``). With a roster, a file it does not name is listed (``off_roster``), never
given an empty ID. Canvas's own gradebook export is a roster as it is.

The course's side (``course_cells``): its exercises in the course's order (notebook by
notebook, cell by cell) and each exercise cell as handed out, so a submission whose cell is
still the handout's stub is "not attempted" (``untouched``), not "Not yet".
"""
from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..safetext import printable, read_regular
from .papers import COURSE, MAX_BYTES, exercise_calls, notebooks_in, student_of

__all__ = ["CANVAS_NAME", "Course", "Who", "course_cells", "delegated_to", "off_roster",
           "read_roster", "untouched", "who_handed_in"]

CANVAS_NAME = re.compile(r"^(?P<name>[^_/]+)_(?P<late>LATE_)?(?P<user>\d+)_(?P<sub>\d+)_"
                         r"(?P<file>[^/]+\.ipynb)$")
GRADESCOPE_FOLDER = re.compile(r"^submission_(\d+)$")
GRADESCOPE_METADATA = "submission_metadata.yml"
# the verdict line of a write-it whose function called the library it must write (the one
# field this module reads of a verdict: asking.py and session.py write it)
DELEGATED = re.compile(r"^Not yet: your function calls ttt_lib's ([\w.]+)")


@dataclass
class Who:
    """A file's student as the folder tells it: ``student`` (the key a roster is matched
    on and the table shows), a display ``name``, and whether Canvas marked it late."""

    student: str
    name: str = ""
    late: bool = False
    canvas: str = ""  # Canvas's user id, from its download name
    entry: dict = field(default_factory=dict)  # its roster row, when a roster names it


# ------------------------------------------------------------------------ names to students

def who_handed_in(name: str, gradescope: dict[str, dict[str, str]] | None = None) -> Who:
    """The student of the file ``name`` (its path in the class folder): Canvas's download
    name, Gradescope's submission folder (``gradescope``: ``gradescope_submitters``), its
    first folder, or its file name."""
    parts = name.split("/")
    canvas = CANVAS_NAME.match(parts[-1])
    if canvas:
        return Who(canvas["user"], canvas["name"], bool(canvas["late"]), canvas["user"])
    for part in parts[:-1]:
        found = GRADESCOPE_FOLDER.match(part)
        if found:
            person = (gradescope or {}).get(part, {})
            return Who(person.get("sid") or person.get("email") or part, person.get("name", ""))
    return Who(student_of(name))


def gradescope_submitters(folder: Path) -> dict[str, dict[str, str]]:
    """{``submission_NNN``: its first submitter's name, sid and email} from Gradescope's
    ``submission_metadata.yml`` in ``folder`` or one level down ({} when there is none)."""
    paths = [folder / GRADESCOPE_METADATA, *sorted(folder.glob(f"*/{GRADESCOPE_METADATA}"))]
    found: dict[str, dict[str, str]] = {}
    for path in paths:
        try:
            text = read_regular(path, folder, 16 << 20).decode("utf-8", "replace")
        except (OSError, ValueError):
            continue
        found.update(_submitters(text))
    return found


def _submitters(text: str) -> dict[str, dict[str, str]]:
    """Gradescope's YAML read line by line (``:submission_1:`` then ``:name:``, ``:sid:``,
    ``:email:`` of its first submitter), without a YAML library."""
    found: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        top = re.match(r"^:?(submission_\d+):\s*$", line)
        if top:
            current = found.setdefault(top.group(1), {})
            continue
        field_ = re.match(r"^\s*-?\s*:?(name|sid|email):\s*['\"]?(.*?)['\"]?\s*$", line)
        if current is not None and field_ and field_.group(1) not in current:
            current[field_.group(1)] = field_.group(2)[:200]
    return found


# ---------------------------------------------------------------------------- the roster

CANVAS_ROSTER = {"Student": "name", "ID": "id", "SIS User ID": "student",
                 "SIS Login ID": "sis_login_id", "Section": "section"}


def read_roster(path: str) -> list[dict[str, str]]:
    """A roster's rows: ours (columns ``student`` and, if you like, ``file``, ``name``,
    ``id``, ``sis_login_id``, ``section``) or Canvas's gradebook export as it is (``Student,
    ID, SIS User ID, SIS Login ID, Section``; its Points Possible row skipped). A roster with
    neither's columns, or naming a file or a student twice, raises ``ValueError``."""
    with open(path, newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.DictReader(stream))
    columns = set(rows[0]) if rows else set()
    if {"Student", "ID"} <= columns:
        rows = [{ours: (row.get(theirs) or "").strip() for theirs, ours in
                 CANVAS_ROSTER.items()} for row in rows
                if (row.get("ID") or "").strip() and "Points Possible" not in row["Student"]]
        for row in rows:
            row["student"] = row["student"] or row["id"]
    elif "student" not in columns:
        raise ValueError(f"{path}: a roster needs the column student (and file if you like), "
                         "or Canvas's columns Student and ID")
    entries, seen = [], set()
    for row in rows:
        entry = {key: (value or "").strip() for key, value in row.items() if key}
        keys = {("file", entry.get("file", "")), ("student", entry.get("student", ""))}
        if not entry.get("student") or keys & seen:
            raise ValueError(f"{path}: each row needs a student, and names a file and a "
                             f"student once: {entry.get('file', '')!r} {entry.get('student')!r}")
        seen |= {key for key in keys if key[1]}
        entries.append(entry)
    return entries


def roster_row(who: Who, file: str, roster: list[dict[str, str]]) -> dict[str, str] | None:
    """The roster row of the file ``file`` whose folder says ``who``: by the file's path or
    name, else by Canvas's ID, the student, SIS User ID or SIS Login ID."""
    base = file.rsplit("/", 1)[-1]
    for entry in roster:
        if entry.get("file") and entry["file"] in (file, base):
            return entry
    for key in ("id", "student", "sis_login_id"):
        for entry in roster:
            if entry.get(key) and entry[key] == who.student:
                return entry
    return None


def students(files: list[str], roster: list[dict[str, str]] | None,
             gradescope: dict[str, dict[str, str]] | None = None) -> dict[str, Who]:
    """{file: its student} for the class folder's ``files``, each matched to ``roster`` when
    there is one (a file it does not name keeps the folder's word, and no entry)."""
    found = {}
    for file in files:
        who = who_handed_in(file, gradescope)
        entry = roster_row(who, file, roster) if roster is not None else None
        if entry:
            who = Who(entry["student"], entry.get("name") or who.name, who.late,
                      entry.get("id") or who.canvas, entry)
        found[file] = who
    return found


def off_roster(people: dict[str, Who], roster: list[dict[str, str]] | None) -> list[str]:
    """The files no roster row names (none without a roster)."""
    return [] if roster is None else [file for file, who in people.items() if not who.entry]


# ---------------------------------------------------------------------------- the course

@dataclass
class Course:
    """The course's exercises in its order, and each one's cells as handed out."""

    order: list[str]
    stubs: dict[str, set[str]]  # exercise -> its exercise cells' code, normalized


def course_cells(course: Path | None = None) -> Course:
    """The exercises of the instructor's notebooks in ``course`` (default: the package's)
    in the course's order, and their exercise cells as handed out (cells tagged
    ``solution`` are answers, not handouts)."""
    folder = COURSE if course is None else course
    order: list[str] = []
    stubs: dict[str, set[str]] = {}
    for path in notebooks_in(folder) if folder.is_dir() else []:
        try:
            data = read_regular(path, folder, MAX_BYTES)
        except ValueError:  # an unreadable notebook of the course adds nothing
            continue
        for source, tags in _cells(data):
            calls = exercise_calls(source)
            order += [name for name in calls if name not in order]
            if "solution" not in tags:
                for name in calls:
                    stubs.setdefault(name, set()).add(_normal(source))
    return Course(order, stubs)


def _cells(data: bytes) -> list[tuple[str, list]]:
    """(source, tags) of a notebook's code cells; none when it is not a readable notebook
    (the grader says why elsewhere)."""
    try:
        cells = json.loads(data.decode("utf-8")).get("cells")
    except (ValueError, AttributeError, RecursionError):
        return []
    found = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        tags = (cell.get("metadata") or {}).get("tags") if isinstance(
            cell.get("metadata"), dict) else []
        if isinstance(source, str):
            found.append((source, tags if isinstance(tags, list) else []))
    return found


def _normal(source: str) -> str:
    """A cell's code compared without trailing spaces and blank lines."""
    return "\n".join(line.rstrip() for line in source.strip().splitlines() if line.strip())


def untouched(data: bytes, course: Course) -> set[str]:
    """The exercises whose cell in the notebook ``data`` is still the handout's stub, as
    the course hands it out (not attempted)."""
    found = set()
    for source, _ in _cells(data):
        for name in exercise_calls(source):
            if _normal(source) in course.stubs.get(name, ()):
                found.add(name)
    return found


def delegated_to(line: str) -> str:
    """What a verdict line says the student's function called instead of writing it
    ('' when it says nothing of the kind)."""
    found = DELEGATED.match(line or "")
    return printable(found.group(1)) if found else ""
