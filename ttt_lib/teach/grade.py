"""Grading a class's notebooks: run each one, judge each exercise again, one row each.

``python -m ttt_lib grade FOLDER [--csv FILE] [--timeout SECONDS]`` runs every ``.ipynb`` in
FOLDER (subfolders too, one per student if you like) top to bottom in a fresh kernel, with a
time limit for the whole notebook. An exercise is a cell calling a checker ``check_NN_what(...)``.
Its verdict is never read from printed text: the genuine checkers note the last answer each
was given (``teach.core.ANSWERS``), and after the run the grader judges those answers again,
in the same kernel, with checkers it reloads from the package's files (so a checker the
notebook redefined or patched does not count; the time limit applies again to this). The table
has one row per notebook: the file, then every exercise seen in the folder (``Right``, ``Not
yet`` or ``missing``), the number right, the problem that stopped the run early, if any (a code
cell that raised, numbered as Jupyter counts code cells: the verdicts reached before it still
count; the time limit; a file that is not a notebook), and ``flags``: a notebook that
redefines a checker (its exercise is then Not yet) or prints verdict lines no checker printed.

Each notebook runs in a box of its own (``confine``: the command line passes the class
tournament's bubblewrap jail, ``classroom.jail.box_command``): a copy of the notebook in an
empty home, its own processes, no network, the package read-only. Inside, ``python -m
ttt_lib.teach.grade --one FILE`` executes the copy with nbclient and prints its row as JSON;
out here the box gets a wall-clock limit and is killed with everything in it. So a notebook
that kills or stops its kernel or its grader, forks, deletes files or patches the package
costs at most its own row, and the submissions folder is never writable from a kernel. The
columns are known before any notebook runs (the checkers its cells call), so the CSV is
written and flushed row by row: stopping the run loses nothing already graded.
With ``confine=None`` (``--no-isolation``) the same runs happen without a box: a notebook can
then do anything you can. nbformat and nbclient are imported only when grading.
"""
from __future__ import annotations

import ast
import csv
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

from ..safetext import Unreadable, csv_cell, printable, read_regular, shorten
from .kernel import printed_lines, run

__all__ = ["Graded", "cell_verdicts", "exercise_calls", "grade_folder", "grade_notebook",
           "notebooks_in", "read_paper", "summary", "table", "write_table"]

TIMEOUT = 300.0  # seconds per notebook, unless told otherwise
GRACE = 20.0  # the box's limit: twice the notebook's time (its run, then the judging) and
#               this, to start and stop a kernel
RESULT_BYTES = 1 << 20  # a longer answer from a box is no answer
MAX_BYTES = 64 << 20  # a longer file is not graded
Confine = Callable[[list[str], str], list[str]]  # (argv, home folder) -> the boxed command
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # a call, not a def
VERDICT = re.compile(r"^(Right|Not yet):")
CHECKER_NAME = re.compile(r"check_\d\d_\w+")


@dataclass
class Graded:
    """One notebook's grading: each exercise's verdict line, and why the run stopped early."""

    file: str
    lines: dict[str, str] = field(default_factory=dict)  # exercise -> 'Right: ...' line
    exercises: list[str] = field(default_factory=list)   # the exercises its cells call
    problem: str = ""                                    # '' when it ran to the end
    flags: str = ""                                      # '' when nothing looks forged

    def status(self, exercise: str) -> str:
        """'Right', 'Not yet' or 'missing' (never checked, or the run stopped before it)."""
        found = VERDICT.match(self.lines.get(exercise, ""))
        return found.group(1) if found else "missing"


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


def grade_notebook(path: Path, timeout: float = TIMEOUT, name: str | None = None) -> Graded:
    """Run the notebook at ``path`` (its stored outputs cleared first), judge its answers
    again and flag what looks forged; a file that is not a notebook gets its problem."""
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
    graded.problem, found = run(nb, path.parent, timeout, graded.exercises)
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


def read_paper(path: Path, folder: Path) -> Paper:
    """The file's bytes and exercises; a FIFO, a device, a folder, a link out of ``folder``,
    a file too long or malformed JSON of any shape gets its problem instead (never an
    exception, never a hang)."""
    paper = Paper(path, path.relative_to(folder).as_posix())
    try:
        paper.data = _read_regular(path, folder)
        paper.exercises = sorted({call for source in _code_sources(paper.data)
                                  for call in exercise_calls(source)})
    except ValueError as error:
        paper.problem = str(error)
    return paper


def _read_regular(path: Path, folder: Path) -> bytes:
    try:
        return read_regular(path, folder, MAX_BYTES)
    except Unreadable as error:
        raise ValueError(f"not graded: it {error}") from None


def _code_sources(data: bytes) -> list[str]:
    """The code cells' sources of a notebook's JSON, checked for shape at every level."""
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
        sources += [source] if cell["cell_type"] == "code" else []
    return sources


# ------------------------------------------------------------------ one notebook in its box

def grade_in_box(paper: Paper, timeout: float, confine: Confine | None) -> Graded:
    """Run ``paper``'s copy in a box of its own (no box with ``confine=None``), within
    twice ``timeout`` (the run, then the judging) and ``GRACE`` seconds of wall-clock time,
    and read its row."""
    graded = Graded(paper.name, exercises=list(paper.exercises), problem=paper.problem)
    if paper.problem:
        return graded
    home = tempfile.mkdtemp(prefix="ttt-grade-")
    copy = Path(home) / "submission.ipynb"
    copy.write_bytes(paper.data)
    argv = [sys.executable, "-I", "-m", "ttt_lib.teach.grade", "--one", copy.name,
            "--timeout", repr(timeout)]
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


def grade_inside(name: str, timeout: float) -> None:
    """Inside the box: grade the copy ``name`` and print its row as one JSON line. The
    standard streams go to /dev/null first (the kernel inherits those, not our answer)."""
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.environ["HOME"] = os.environ["TMPDIR"] = os.getcwd()
    graded = grade_notebook(Path(name).resolve(), timeout)
    answer.write(json.dumps({"lines": graded.lines, "problem": graded.problem,
                             "flags": graded.flags}) + "\n")
    answer.close()


# ---------------------------------------------------------------------------- the class

def grade_each(papers: list[Paper], timeout: float, confine: Confine | None, progress=None,
               jobs: int = 1) -> Iterator[Graded]:
    """Each paper graded, as it finishes (in order with one job); ``progress`` (a text
    stream) gets a line per notebook."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    def run(number: int, paper: Paper) -> Graded:
        if progress is not None:
            print(f"grading {number}/{len(papers)}: {_clean(paper.name)}", file=progress,
                  flush=True)
        return grade_in_box(paper, timeout, confine)

    if jobs == 1:
        yield from (run(number, paper) for number, paper in enumerate(papers, 1))
        return
    with ThreadPoolExecutor(jobs) as pool:  # the boxes do the work; a thread only waits
        futures = [pool.submit(run, number, paper) for number, paper in enumerate(papers, 1)]
        try:
            yield from (future.result() for future in as_completed(futures))
        finally:
            for future in futures:
                future.cancel()


def grade_folder(folder: Path, timeout: float = TIMEOUT, progress=None, jobs: int = 1,
                 confine: Confine | None = None) -> list[Graded]:
    """Grade every notebook in ``folder``, ``jobs`` at a time, each in a process of its own
    on a copy; boxed by ``confine`` (for students' work: ``classroom.jail.box_command``, as
    the command line does), unboxed by default (the course's own notebooks). The rows keep
    the folder's order."""
    papers = [read_paper(path, folder) for path in notebooks_in(folder)]
    order = {paper.name: i for i, paper in enumerate(papers)}
    graded = list(grade_each(papers, timeout, confine, progress, jobs))
    return sorted(graded, key=lambda one: order[one.file])


# ---------------------------------------------------------------------------- the table

def header(exercises: list[str]) -> list[str]:
    return ["file", *exercises, "right", "problem", "flags"]


def row(one: Graded, exercises: list[str]) -> list[str]:
    """A notebook's cells, each safe in a spreadsheet (``=1+2`` as a name is not a formula)."""
    statuses = [one.status(name) for name in exercises]
    return [csv_cell(one.file), *statuses, str(statuses.count("Right")),
            csv_cell(one.problem), csv_cell(one.flags)]


def table(graded: list[Graded]) -> list[list[str]]:
    """The header, then one row per notebook: file, each exercise's status, right, problem,
    flags."""
    exercises = sorted({name for one in graded for name in [*one.exercises, *one.lines]})
    return [header(exercises)] + [row(one, exercises) for one in graded]


def write_table(rows: list[list[str]], stream) -> None:
    csv.writer(stream, lineterminator="\n").writerows(rows)


def summary(graded: list[Graded], isolated: bool = True) -> str:
    """One line: notebooks graded, how many ran to the end, and the verdicts."""
    rows = table(graded)[1:]
    statuses = [status for row in rows for status in row[1:-3]]
    stopped = sum(1 for one in graded if one.problem)
    return (f"graded {len(graded)} notebook{'s' * (len(graded) != 1)}"
            f"{'' if isolated else ' (not isolated)'}: "
            f"{len(graded) - stopped} ran to the end, {stopped} stopped early; "
            f"{statuses.count('Right')} Right, {statuses.count('Not yet')} Not yet, "
            f"{statuses.count('missing')} missing")


def main(folder: str, csv_path: str | None, timeout: float, out=None,
         confine: Confine | None = None) -> int:
    """The ``grade`` command (arguments already checked): the CSV to ``csv_path`` (or to
    ``out`` when None, the summary then going to stderr), a row written and flushed as each
    notebook is graded, progress on stderr; Ctrl-C stops it with status 130, the rows
    written so far kept."""
    out = sys.stdout if out is None else out
    papers = [read_paper(path, Path(folder)) for path in notebooks_in(Path(folder))]
    exercises = sorted({name for paper in papers for name in paper.exercises})
    stream = out if csv_path is None else open(csv_path, "w", newline="", encoding="utf-8")
    writer, graded = csv.writer(stream, lineterminator="\n"), []
    try:
        writer.writerow(header(exercises))
        stream.flush()
        for one in grade_each(papers, timeout, confine, progress=sys.stderr):
            writer.writerow(row(one, exercises))
            stream.flush()
            graded.append(one)
    except KeyboardInterrupt:  # the running box is killed on the way out
        print(f"grading stopped (Ctrl-C): {len(graded)} rows kept", file=sys.stderr)
        return 130
    finally:
        if stream is not out:
            stream.close()
    where = sys.stderr if csv_path is None else out
    print(summary(graded, confine is not None) + ("" if csv_path is None else
                                                  f"; the table is in {csv_path}"), file=where)
    return 0


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.teach.grade")
    parser.add_argument("--one", required=True, metavar="FILE", help="grade this copy")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    arguments = parser.parse_args()
    grade_inside(arguments.one, arguments.timeout)
