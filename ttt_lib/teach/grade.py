"""Grading a class's notebooks: run each one, judge each exercise again, one row each.

``python -m ttt_lib grade FOLDER [--csv FILE] [--timeout SECONDS] [--jobs N] [--roster CSV]
[--canvas FILE] [--case-seed N]`` runs every ``.ipynb`` in FOLDER (subfolders too, one per
student if you like) top to bottom in a fresh kernel, with a time limit for the whole
notebook. An exercise is a cell calling a checker ``check_NN_what(...)``. Its verdict is never
read from printed text: the genuine checkers note the last answer each was given
(``teach.core.ANSWERS``), and after the run the grader judges those answers again, in the same
kernel, with checkers it reloads from the package's files (so a checker the notebook redefined
or patched does not count; the time limit applies again to this), on **fresh cases**: every
checker's random cases drawn from seeds moved by an offset the notebook never saw
(``core.fresh_cases``), so a function fitted to the cases a student saw fails. The problem
that stopped a run early is kept (a code cell that raised, numbered as Jupyter counts code
cells: the verdicts reached before it still count; the time limit; a file that is not a
notebook), and ``flags``: a notebook that redefines a checker (its exercise is then Not yet)
or prints verdict lines no checker printed. The table, points, students and Canvas's file
are ``gradebook.py``'s.

Each notebook runs in a box of its own (``confine``: the command line passes the class
tournament's bubblewrap jail, ``classroom.jail.box_command``): a copy of the notebook in an
empty home, its own processes, no network, the package read-only. Inside, ``python -m
ttt_lib.teach.grade --one FILE`` executes the copy with nbclient and prints its row as JSON;
out here the box gets a wall-clock limit and is killed with everything in it. So a notebook
that kills or stops its kernel or its grader, forks, deletes files or patches the package
costs at most its own row, and the submissions folder is never writable from a kernel. With
``jobs`` above 1 several boxes run side by side, each on its own copy in its own home; the
rows still come in the folder's order. The columns are known before any notebook runs (the
checkers its cells call), so the CSV is written and flushed row by row: stopping the run
loses nothing already graded.
With ``confine=None`` (``--no-isolation``) the same runs happen without a box: a notebook can
then do anything you can. nbformat and nbclient are imported only when grading.
"""
from __future__ import annotations

import ast
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..safetext import Unreadable, printable, read_regular, shorten
from .kernel import printed_lines, run

__all__ = ["DEFAULT_POINTS", "Graded", "Paper", "cell_verdicts", "exercise_calls", "fresh_seed",
           "grade_each", "grade_folder", "grade_in_box", "grade_notebook", "notebooks_in",
           "papers_in", "read_paper", "student_of"]

TIMEOUT = 300.0  # seconds per notebook, unless told otherwise
GRACE = 20.0  # the box's limit: twice the notebook's time (its run, then the judging) and
#               this, to start and stop a kernel
RESULT_BYTES = 1 << 20  # a longer answer from a box is no answer
MAX_BYTES = 64 << 20  # a longer file is not graded
Confine = Callable[[list[str], str], list[str]]  # (argv, home folder) -> the boxed command
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # a call, not a def
VERDICT = re.compile(r"^(Right|Not yet):")
CHECKER_NAME = re.compile(r"check_\d\d_\w+")
DEFAULT_POINTS = 1  # an exercise whose cell's metadata gives none ({"ttt": {"points": N}})
MOST_POINTS = 1000


@dataclass
class Graded:
    """One notebook's grading: each exercise's verdict line, and why the run stopped early."""

    file: str
    lines: dict[str, str] = field(default_factory=dict)  # exercise -> 'Right: ...' line
    exercises: list[str] = field(default_factory=list)   # the exercises its cells call
    problem: str = ""                                    # '' when it ran to the end
    flags: str = ""                                      # '' when nothing looks forged
    student: str = ""                                    # who handed it in

    def status(self, exercise: str) -> str:
        """'Right', 'Not yet' or 'missing' (never checked, or the run stopped before it)."""
        found = VERDICT.match(self.lines.get(exercise, ""))
        return found.group(1) if found else "missing"

    def hint(self, exercise: str) -> str:
        """The verdict line's text after ``Right:`` / ``Not yet:`` ('' when missing)."""
        line = self.lines.get(exercise, "")
        return line.split(":", 1)[1].strip() if VERDICT.match(line) else ""

    def scored(self, exercise: str, points: dict[str, int]) -> int:
        """The points this notebook earns on ``exercise``: all of them when Right, else 0."""
        return points.get(exercise, DEFAULT_POINTS) if self.status(exercise) == "Right" else 0


# ------------------------------------------------------------------------- reading verdicts

def exercise_calls(source: str) -> list[str]:
    """The checkers a cell's code calls, in order (commented-out lines do not count)."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    return CHECK_CALL.findall(code)


def redefined(source: str) -> set[str]:
    """The checkers a cell's code binds to something of its own: ``def check_...``,
    ``check_... = ...``, an import ``as check_...`` or from elsewhere than ``ttt_lib.teach``."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))  # IPython's magics
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {name for node in ast.walk(tree) for name in _bound(node)
            if CHECKER_NAME.fullmatch(name)}


def _bound(node) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, ast.ImportFrom) and node.module == "ttt_lib.teach" and not node.level:
        return [a.asname for a in node.names if a.asname and a.asname != a.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name for a in node.names]
    return []


def cell_verdicts(cell) -> dict[str, str]:
    """{exercise: verdict line} of one executed code cell: its checker calls matched in order
    with the lines it printed that start with ``Right:`` or ``Not yet:``."""
    calls = exercise_calls(cell.source)
    verdicts = [line for line in printed_lines(cell) if VERDICT.match(line)]
    return dict(zip(calls, verdicts))


def grade_notebook(path: Path, timeout: float = TIMEOUT, name: str | None = None,
                   case_seed: int = 0) -> Graded:
    """Run the notebook at ``path`` (its stored outputs cleared first), judge its answers
    again (on cases drawn with ``case_seed``, see ``core.fresh_cases``) and flag what looks
    forged; a file that is not a notebook gets its problem."""
    import nbformat

    graded = Graded(name or path.name)
    try:
        nb = nbformat.read(str(path), as_version=4)
    except Exception as error:  # bad JSON, not a notebook's structure, unreadable
        graded.problem = f"not a notebook: {type(error).__name__}"
        return graded
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    for cell in code:  # nothing from the student's own run may count
        cell.outputs, cell.execution_count = [], None
    graded.exercises = sorted({call for cell in code for call in exercise_calls(cell.source)})
    graded.problem, found = run(nb, path.parent, timeout, graded.exercises, case_seed)
    _take(graded, found, code)
    return graded


def _take(graded: Graded, found: dict, code: list) -> None:
    """The verdicts judged again, and the flags: checkers redefined (their exercises Not yet
    unless a genuine checker judged them), verdict lines printed that no checker printed."""
    lines = found.get("lines") if isinstance(found.get("lines"), dict) else {}
    graded.lines = {name: line for name, line in lines.items()
                    if isinstance(name, str) and isinstance(line, str)}
    swapped = set(found.get("swapped") or []) & set(graded.exercises)
    swapped |= {name for cell in code for name in redefined(cell.source)}
    for name in sorted(swapped & set(graded.exercises)):
        graded.lines.setdefault(name, "Not yet: the notebook redefines this checker.")
    said = list(found.get("said") or [])
    forged = 0
    for line in (line for cell in code for line in printed_lines(cell) if VERDICT.match(line)):
        if line in said:
            said.remove(line)
        else:
            forged += 1
    flags = [f"redefines {', '.join(sorted(swapped))}"] if swapped else []
    flags += [f"prints {forged} verdict line{'s' * (forged != 1)} no checker printed"] \
        if forged else []
    graded.flags = "; ".join(flags)


def notebooks_in(folder: Path) -> list[Path]:
    """Every ``.ipynb`` under ``folder``, in name order (hidden folders such as
    ``.ipynb_checkpoints`` skipped)."""
    return sorted(path for path in folder.rglob("*.ipynb")
                  if not any(part.startswith(".") for part in path.relative_to(folder).parts))


# --------------------------------------------------------------- reading a submission, safely

@dataclass
class Paper:
    """A submission as read out here: its bytes, the checkers its cells call, or why it is
    not graded."""

    path: Path
    name: str
    data: bytes = b""
    exercises: list[str] = field(default_factory=list)
    problem: str = ""
    points: dict[str, int] = field(default_factory=dict)  # what its cells' metadata say
    student: str = ""


def read_paper(path: Path, folder: Path) -> Paper:
    """The file's bytes and exercises; a FIFO, a device, a folder, a link out of ``folder``,
    a file too long or malformed JSON of any shape gets its problem instead (never an
    exception, never a hang)."""
    paper = Paper(path, path.relative_to(folder).as_posix())
    paper.student = student_of(paper.name)
    try:
        paper.data = _read_regular(path, folder)
        cells = _code_cells(paper.data)
        paper.exercises = sorted({call for source, _ in cells for call in exercise_calls(source)})
        paper.points = {call: points for source, points in cells
                        for call in exercise_calls(source) if points is not None}
    except ValueError as error:
        paper.problem = str(error)
    return paper


def student_of(name: str) -> str:
    """Who handed in the file ``name`` (relative to the class folder): its first folder
    (``alice/02_minimax.ipynb`` is alice's), else the file's name without ``.ipynb``."""
    parts = name.split("/")
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".ipynb")


def points_in(metadata) -> int | None:
    """An exercise cell's points (``{"ttt": {"points": N}}``, a whole number from 0 to
    ``MOST_POINTS``), or None when its metadata give none that is valid."""
    ttt = metadata.get("ttt") if isinstance(metadata, dict) else None
    points = ttt.get("points") if isinstance(ttt, dict) else None
    if isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= MOST_POINTS:
        return points
    return None


def _read_regular(path: Path, folder: Path) -> bytes:
    try:
        return read_regular(path, folder, MAX_BYTES)
    except Unreadable as error:
        raise ValueError(f"not graded: it {error}") from None


def _code_sources(data: bytes) -> list[str]:
    """The code cells' sources of a notebook's JSON, checked for shape at every level."""
    return [source for source, _ in _code_cells(data)]


def _code_cells(data: bytes) -> list[tuple[str, int | None]]:
    """(source, points from its metadata) of each code cell of a notebook's JSON, checked
    for shape at every level."""
    try:
        cells = json.loads(data.decode("utf-8")).get("cells")
    except RecursionError:
        raise ValueError("not a notebook: nested too deeply") from None
    except (ValueError, AttributeError):  # not UTF-8, not JSON, not an object
        raise ValueError("not a notebook: not a JSON object") from None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no list of cells")
    sources = []
    for number, cell in enumerate(cells, 1):
        source = cell.get("source", "") if isinstance(cell, dict) else None
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str) or not isinstance(cell.get("cell_type"), str):
            raise ValueError(f"not a notebook: cell {number} is malformed")
        if cell["cell_type"] == "code":
            sources.append((source, points_in(cell.get("metadata"))))
    return sources


# ------------------------------------------------------------------ one notebook in its box

def grade_in_box(paper: Paper, timeout: float, confine: Confine | None,
                 case_seed: int = 0) -> Graded:
    """Run ``paper``'s copy in a box of its own (no box with ``confine=None``), within
    twice ``timeout`` (the run, then the judging) and ``GRACE`` seconds of wall-clock time,
    its answers judged on cases drawn with ``case_seed``, and read its row."""
    graded = Graded(paper.name, exercises=list(paper.exercises), problem=paper.problem,
                    student=paper.student)
    if paper.problem:
        return graded
    home = tempfile.mkdtemp(prefix="ttt-grade-")
    copy = Path(home) / "submission.ipynb"
    copy.write_bytes(paper.data)
    argv = [sys.executable, "-I", "-m", "ttt_lib.teach.grade", "--one", copy.name,
            "--timeout", repr(timeout), "--case-seed", str(case_seed)]
    command = confine(argv, home) if confine else argv
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, cwd=home, env=_environment(),
                                   start_new_session=True)
        try:
            answer, late = _answer(process, 2 * timeout + GRACE)
        finally:
            _end(process)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return _row(graded, answer, late, timeout)


def _environment() -> dict[str, str]:
    """Nothing inherited (so no secrets); the inside sets HOME to its working folder."""
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "agg", "USER": "student"}


def _answer(process: subprocess.Popen, seconds: float) -> tuple[bytes, bool]:
    """What the box printed (at most ``RESULT_BYTES``) and whether its time ran out."""
    deadline, answer = time.monotonic() + seconds, b""
    while len(answer) <= RESULT_BYTES:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
            return answer, True
        chunk = os.read(process.stdout.fileno(), 1 << 16)
        if not chunk:
            return answer, False
        answer += chunk
    return b"", False


def _end(process: subprocess.Popen) -> None:
    """Kill the box's session (the box and all in it, or the unboxed run's own group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
    process.stdout.close()


def _row(graded: Graded, answer: bytes, late: bool, timeout: float) -> Graded:
    """The box's answer checked for shape: verdict lines for this notebook's exercises."""
    try:
        found = json.loads(answer.decode("utf-8"))
        lines, problem, flags = found["lines"], found["problem"], found["flags"]
    except (ValueError, TypeError, KeyError, RecursionError):
        found, lines, problem, flags = None, {}, "", ""
    if not (isinstance(lines, dict) and isinstance(problem, str) and isinstance(flags, str)):
        found, lines, problem, flags = None, {}, "", ""
    graded.flags = _clean(flags)
    graded.lines = {name: _clean(line) for name, line in lines.items()
                    if name in graded.exercises and isinstance(line, str)}
    if late:
        graded.problem = f"stopped after the time limit ({timeout:g} s)"
    elif found is None:
        graded.problem = "no result: its box ended early (its kernel or grader was stopped)"
    else:
        graded.problem = _clean(problem)
    return graded


def _clean(text: str, most: int = 200) -> str:
    """Printable (control characters escaped) and at most ``most`` characters."""
    return shorten(printable(text), most)


def grade_inside(name: str, timeout: float, case_seed: int = 0) -> None:
    """Inside the box: grade the copy ``name`` and print its row as one JSON line. The
    standard streams go to /dev/null first (the kernel inherits those, not our answer)."""
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.environ["HOME"] = os.environ["TMPDIR"] = os.getcwd()
    graded = grade_notebook(Path(name).resolve(), timeout, case_seed=case_seed)
    answer.write(json.dumps({"lines": graded.lines, "problem": graded.problem,
                             "flags": graded.flags}) + "\n")
    answer.close()


# ---------------------------------------------------------------------------- the class

def fresh_seed() -> int:
    """A case-seed offset no notebook showed (0 is the notebook's own cases)."""
    import secrets
    return 1 + secrets.randbelow(1 << 30)


def grade_each(papers: list[Paper], timeout: float, confine: Confine | None, progress=None,
               jobs: int = 1, case_seed: int = 0) -> Iterator[Graded]:
    """Each paper graded, in the papers' order (``jobs`` boxes at a time, each its own
    copy in its own empty home); ``progress`` (a text stream) gets a line per notebook."""
    from concurrent.futures import ThreadPoolExecutor

    def run(number: int, paper: Paper) -> Graded:
        if progress is not None:
            print(f"grading {number}/{len(papers)}: {_clean(paper.name)}", file=progress,
                  flush=True)
        return grade_in_box(paper, timeout, confine, case_seed)

    if jobs == 1:
        yield from (run(number, paper) for number, paper in enumerate(papers, 1))
        return
    with ThreadPoolExecutor(jobs) as pool:  # the boxes do the work; a thread only waits
        futures = [pool.submit(run, number, paper) for number, paper in enumerate(papers, 1)]
        try:
            yield from (future.result() for future in futures)  # in order, as they finish
        finally:
            for future in futures:
                future.cancel()


def grade_folder(folder: Path, timeout: float = TIMEOUT, progress=None, jobs: int = 1,
                 confine: Confine | None = None, case_seed: int | None = None,
                 roster: dict[str, dict[str, str]] | None = None) -> list[Graded]:
    """Grade every notebook in ``folder``, ``jobs`` at a time, each in a process of its own
    on a copy; boxed by ``confine`` (for students' work: ``classroom.jail.box_command``, as
    the command line does), unboxed by default (the course's own notebooks). Answers are
    judged on cases drawn with ``case_seed`` (a fresh one when None); ``roster`` maps files
    to students. The rows keep the folder's order."""
    papers = papers_in(folder, roster)
    seed = fresh_seed() if case_seed is None else case_seed
    return list(grade_each(papers, timeout, confine, progress, jobs, seed))


def papers_in(folder: Path, roster: dict[str, dict[str, str]] | None = None) -> list[Paper]:
    """Every notebook of ``folder`` read, each with its student (from ``roster`` when it
    names the file by its path in the folder or by its name)."""
    papers = [read_paper(path, folder) for path in notebooks_in(folder)]
    for paper in papers:
        entry = (roster or {}).get(paper.name) or (roster or {}).get(paper.path.name)
        paper.student = entry["student"] if entry else paper.student
    return papers


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.teach.grade")
    parser.add_argument("--one", required=True, metavar="FILE", help="grade this copy")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--case-seed", type=int, default=0)
    arguments = parser.parse_args()
    grade_inside(arguments.one, arguments.timeout, arguments.case_seed)
