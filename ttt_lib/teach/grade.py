"""Grading a class's notebooks: run each one, read each exercise's verdict, one row each.

``python -m ttt_lib grade FOLDER [--csv FILE] [--timeout SECONDS]`` runs every ``.ipynb`` in
FOLDER (subfolders too, one per student if you like) top to bottom in a fresh kernel, with a
time limit for the whole notebook. An exercise is a cell calling a checker ``check_NN_what(...)``;
its verdict is the line the checker printed, ``Right: ...`` or ``Not yet: ...`` (when one
exercise is checked in several cells, the last call wins). The table has one row per notebook:
the file, then every exercise seen in the folder (``Right``, ``Not yet`` or ``missing``), the
number right, and the problem that stopped the run early, if any: a cell that raised (the
verdicts reached before it still count), the time limit, or a file that is not a notebook.

The student's code runs with your rights, as in any notebook grader: grade untrusted work in a
container or a throwaway account. nbformat and nbclient are imported only when grading.
"""
from __future__ import annotations

import csv
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Graded", "cell_verdicts", "exercise_calls", "grade_folder", "grade_notebook",
           "notebooks_in", "summary", "table", "write_table"]

TIMEOUT = 300.0  # seconds per notebook, unless told otherwise
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # a call, not a def
VERDICT = re.compile(r"^(Right|Not yet):")


@dataclass
class Graded:
    """One notebook's grading: each exercise's verdict line, and why the run stopped early."""

    file: str
    lines: dict[str, str] = field(default_factory=dict)  # exercise -> 'Right: ...' line
    exercises: list[str] = field(default_factory=list)   # the exercises its cells call
    problem: str = ""                                    # '' when it ran to the end

    def status(self, exercise: str) -> str:
        """'Right', 'Not yet' or 'missing' (never checked, or the run stopped before it)."""
        found = VERDICT.match(self.lines.get(exercise, ""))
        return found.group(1) if found else "missing"


# ------------------------------------------------------------------------- reading verdicts

def exercise_calls(source: str) -> list[str]:
    """The checkers a cell's code calls, in order (commented-out lines do not count)."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    return CHECK_CALL.findall(code)


def _printed_lines(cell) -> list[str]:
    text = "".join(out.get("text", "") for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream" and out.get("name") == "stdout")
    return text.splitlines()


def cell_verdicts(cell) -> dict[str, str]:
    """{exercise: verdict line} of one executed code cell: its checker calls matched in order
    with the lines it printed that start with ``Right:`` or ``Not yet:``."""
    calls = exercise_calls(cell.source)
    verdicts = [line for line in _printed_lines(cell) if VERDICT.match(line)]
    return dict(zip(calls, verdicts))


# ------------------------------------------------------------------------ running a notebook

def _run(nb, folder: Path, timeout: float) -> str:
    """Execute ``nb`` in place in a fresh kernel; '' if it ran to the end, else the problem."""
    from nbclient import NotebookClient

    deadline = time.monotonic() + timeout
    client = NotebookClient(nb, kernel_name="python3", record_timing=False,
                            shutdown_kernel="immediate",
                            timeout_func=lambda cell: max(1, int(deadline - time.monotonic())),
                            resources={"metadata": {"path": str(folder)}})
    try:
        client.execute(stderr=subprocess.DEVNULL)  # the kernel's own log; cells' output is kept
    except Exception as error:
        # On Ctrl-C nbclient shuts the kernel down itself and notes it in this attribute;
        # the run then fails with whatever that caused: stop grading instead
        if getattr(client, "_async_cleanup_kernel_future", None) is not None:
            raise KeyboardInterrupt from None
        return _problem(error, nb, timeout)
    return ""


def _problem(error: Exception, nb, timeout: float) -> str:
    from nbclient.exceptions import CellExecutionError, CellTimeoutError
    if isinstance(error, CellTimeoutError):
        return f"stopped after the time limit ({timeout:g} s)"
    if isinstance(error, CellExecutionError):
        number = next((i for i, cell in enumerate(nb.cells, 1) if _raised(cell)), "?")
        return f"cell {number} raised {error.ename}: {_first_line(error.evalue)}"
    return f"could not run: {type(error).__name__}: {_first_line(str(error))}"  # a dead kernel


def _first_line(text: str, most: int = 200) -> str:
    line = (text or "").strip().split("\n", 1)[0]
    return line if len(line) <= most else line[:most - 3] + "..."


def _raised(cell) -> bool:
    return any(out.get("output_type") == "error" for out in cell.get("outputs", []))


def grade_notebook(path: Path, timeout: float = TIMEOUT, name: str | None = None) -> Graded:
    """Run the notebook at ``path`` (its stored outputs cleared first) and collect its
    verdicts; a file that is not a notebook gets its problem instead."""
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
    graded.problem = _run(nb, path.parent, timeout)
    for cell in code:
        graded.lines.update(cell_verdicts(cell))  # later cells overwrite: the last call wins
    return graded


def notebooks_in(folder: Path) -> list[Path]:
    """Every ``.ipynb`` under ``folder``, in name order (hidden folders such as
    ``.ipynb_checkpoints`` skipped)."""
    return sorted(path for path in folder.rglob("*.ipynb")
                  if not any(part.startswith(".") for part in path.relative_to(folder).parts))


def grade_folder(folder: Path, timeout: float = TIMEOUT, progress=None,
                 jobs: int = 1) -> list[Graded]:
    """Grade every notebook in ``folder``, ``jobs`` at a time (each in a kernel of its own);
    ``progress`` (a text stream) gets a line per notebook. The rows keep the folder's order."""
    from concurrent.futures import ThreadPoolExecutor

    paths = notebooks_in(folder)

    def one(numbered: tuple[int, Path]) -> Graded:
        number, path = numbered
        name = path.relative_to(folder).as_posix()
        if progress is not None:
            print(f"grading {number}/{len(paths)}: {name}", file=progress, flush=True)
        return grade_notebook(path, timeout, name)

    if jobs == 1:
        return [one(numbered) for numbered in enumerate(paths, 1)]
    with ThreadPoolExecutor(jobs) as pool:  # the kernels do the work; a thread only waits
        return list(pool.map(one, enumerate(paths, 1)))


# ---------------------------------------------------------------------------- the table

def table(graded: list[Graded]) -> list[list[str]]:
    """The header, then one row per notebook: file, each exercise's status, right, problem."""
    exercises = sorted({name for one in graded for name in [*one.exercises, *one.lines]})
    rows = [["file", *exercises, "right", "problem"]]
    for one in graded:
        statuses = [one.status(name) for name in exercises]
        rows.append([one.file, *statuses, str(statuses.count("Right")), one.problem])
    return rows


def write_table(rows: list[list[str]], stream) -> None:
    csv.writer(stream, lineterminator="\n").writerows(rows)


def summary(graded: list[Graded]) -> str:
    """One line: notebooks graded, how many ran to the end, and the verdicts."""
    rows = table(graded)[1:]
    statuses = [status for row in rows for status in row[1:-2]]
    stopped = sum(1 for one in graded if one.problem)
    return (f"graded {len(graded)} notebook{'s' * (len(graded) != 1)}: "
            f"{len(graded) - stopped} ran to the end, {stopped} stopped early; "
            f"{statuses.count('Right')} Right, {statuses.count('Not yet')} Not yet, "
            f"{statuses.count('missing')} missing")


def main(folder: str, csv_path: str | None, timeout: float, out=None) -> int:
    """The ``grade`` command (arguments already checked): the CSV to ``csv_path`` (or to
    ``out`` when None, the summary then going to stderr), progress on stderr; Ctrl-C stops
    it with status 130."""
    out = sys.stdout if out is None else out
    try:
        graded = grade_folder(Path(folder), timeout, progress=sys.stderr)
    except KeyboardInterrupt:  # the running kernel is shut down on the way out
        print("grading stopped (Ctrl-C): no table written", file=sys.stderr)
        return 130
    rows = table(graded)
    if csv_path is None:
        write_table(rows, out)
        print(summary(graded), file=sys.stderr)
        return 0
    with open(csv_path, "w", newline="", encoding="utf-8") as stream:
        write_table(rows, stream)
    print(f"{summary(graded)}; the table is in {csv_path}", file=out)
    return 0
