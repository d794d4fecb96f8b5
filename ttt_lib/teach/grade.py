"""Grading a class's notebooks: each run in its box, each exercise judged out here.

``python -m ttt_lib grade FOLDER [--csv FILE] [--timeout SECONDS] [--jobs N] [--roster CSV]
[--canvas FILE] [--case-seed N] [--course DIR]`` runs every ``.ipynb`` in FOLDER (subfolders
too, one per student if you like) top to bottom in a fresh kernel, in a box of its own, with
a time limit for the whole notebook. An exercise is a cell calling a checker
``check_NN_what(...)`` that the course knows (``papers.course_points``). No verdict is made in
the box, and none is read from printed text: the box is asked, through a socket pair of its
own (never its standard streams), for the answers its genuine checkers were given, and each
exercise is judged here by the package's own checker on **fresh cases** (a seed that lives
only in this process, ``asking``): values as plain data, functions by asking the box for the
student's answer case by case. So nothing a notebook prints, redefines, registers in IPython
or writes elsewhere in its box changes a verdict. The problem that stopped a run early is kept
(a code cell that raised, numbered as Jupyter counts code cells: the verdicts of the answers
given before it still count; the time limit; a file that is not a notebook), and ``flags``:
checkers redefined (their exercises Not yet), verdict lines no checker printed, exercises the
course does not know, links, one student's several notebooks, exercises judged in the box.
The table, points, students and Canvas's file are ``gradebook.py``'s.

The box (``confine``: the command line passes the class tournament's bubblewrap jail,
``classroom.jail.box_command``): a copy of the notebook in an empty home, its own processes,
no network, the package read-only; inside, ``python -m ttt_lib.teach.kernel`` runs it. Out
here the box gets a wall-clock limit and is killed with everything in it. With ``jobs`` above
1 several boxes run side by side; the rows still come in the folder's order, and the CSV is
written and flushed row by row. With ``confine=None`` (``--no-isolation``) the same runs
happen without a box: a notebook can then do anything you can.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..classroom.cpuclock import box_clock
from ..safetext import printable, shorten
from .asking import VERDICT, BoxGone, Conversation, judge_notebook
from .papers import (CHECK_CALL, DEFAULT_POINTS, MOST_POINTS, Paper, course_points,
                     exercise_calls, notebooks_in, package_checkers, papers_in, points_in,
                     read_paper, redefined, student_of, written_definitions)

__all__ = ["CHECK_CALL", "DEFAULT_POINTS", "MOST_POINTS", "Graded", "Paper", "exercise_calls",
           "fresh_seed", "grade_each", "grade_folder", "grade_in_box", "notebooks_in",
           "papers_in", "points_in", "read_paper", "redefined", "student_of"]

TIMEOUT = 300.0  # seconds per notebook, unless told otherwise
GRACE = 20.0  # to start and stop a kernel: the run's word is awaited twice the notebook's
#               time and this (a kernel starts slowly on a loaded machine), the questions the
#               notebook's time and this
Confine = Callable[[list[str], str], list[str]]  # (argv, home folder) -> the boxed command
PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])  # where this ttt_lib is imported from
# the box's command: this package's teach.kernel (not another copy an installation points to)
BOOT = (f"import sys; sys.path.insert(0, {PACKAGE_PARENT!r}); "
        "from ttt_lib.teach.kernel import main; main(sys.argv[1:])")


@dataclass
class Graded:
    """One notebook's grading: each exercise's verdict line, and why the run stopped early."""

    file: str
    lines: dict[str, str] = field(default_factory=dict)  # exercise -> 'Right: ...' line
    exercises: list[str] = field(default_factory=list)   # the exercises its cells call
    problem: str = ""                                    # '' when it ran to the end
    flags: str = ""                                      # '' when nothing looks forged
    student: str = ""                                    # who handed it in
    delegated: dict[str, str] = field(default_factory=dict)  # exercise -> the library
    #                                      function its answer called ('delegated' column)

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


# ------------------------------------------------------------------ one notebook in its box

def grade_in_box(paper: Paper, timeout: float, confine: Confine | None,
                 case_seed: int = 0, checkers: dict | None = None,
                 keep_going: bool = False) -> Graded:
    """Run ``paper``'s copy in a box of its own (no box with ``confine=None``), within
    ``timeout`` for its cells (its word awaited ``2 * timeout + GRACE`` seconds) and
    ``timeout + GRACE`` for the questions; judge its answers here on cases drawn with ``case_seed``, by ``checkers``
    ({exercise: the package's checker}; default: every checker of the package).
    ``keep_going``: every cell runs past one that raised (nbgrader's way)."""
    graded = Graded(paper.name, exercises=list(paper.exercises), problem=paper.problem,
                    student=paper.student, flags="; ".join(paper.flags))
    if paper.problem:
        return graded
    home = tempfile.mkdtemp(prefix="ttt-grade-")
    (Path(home) / "submission.ipynb").write_bytes(paper.data)
    ours, theirs = socket.socketpair()
    argv = [sys.executable, "-I", "-c", BOOT, "--channel", str(theirs.fileno()),
            "--timeout", repr(timeout), "submission.ipynb"] + ["--keep-going"] * keep_going
    command = confine(argv, home) if confine else argv
    try:
        with ours:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       pass_fds=[theirs.fileno()], cwd=home,
                                       env=_environment(), start_new_session=True)
            theirs.close()
            try:
                conversation = Conversation(ours, time.monotonic() + 2 * timeout + GRACE,
                                            box_clock(process.pid))
                conversation.written = written_definitions(paper.data)
                _converse(graded, conversation, timeout, case_seed, checkers, paper)
            finally:
                _end(process)
    finally:
        theirs.close()
        shutil.rmtree(home, ignore_errors=True)
    return graded


def _converse(graded: Graded, conversation: Conversation, timeout: float, case_seed: int,
              checkers: dict | None, paper: Paper) -> None:
    """How the run went (the box's word), then every exercise judged here."""
    try:
        ran = conversation.receive().get("ran")
    except BoxGone:
        ran = None
    if not isinstance(ran, dict) or not isinstance(ran.get("problem"), str):
        late = time.monotonic() >= conversation.deadline
        graded.problem = (f"stopped after the time limit ({timeout:g} s)" if late else
                          "no result: its box ended early (its kernel or grader was stopped)")
        return
    graded.problem = _clean(ran["problem"])
    conversation.deadline = time.monotonic() + timeout + GRACE  # the questions' own time
    lines, said = judge_notebook(conversation, graded.exercises, case_seed,
                                 package_checkers() if checkers is None else checkers)
    graded.lines = {name: _clean(line) for name, line in lines.items()}
    found = said.get("delegated") if isinstance(said.get("delegated"), dict) else {}
    graded.delegated = {name: _clean(called, 80) for name, called in found.items()
                        if name in graded.lines and graded.status(name) == "Not yet"}
    _flag(graded, said, ran.get("printed"), paper)


def _flag(graded: Graded, said: dict, printed, paper: Paper) -> None:
    """Checkers redefined (their exercises Not yet), verdict lines no checker printed,
    exercises judged in the box; after the paper's own flags."""
    swapped = {name for name in said.get("swapped") or [] if isinstance(name, str)}
    swapped = (swapped | set(paper.redefines)) & set(graded.exercises)
    for name in sorted(swapped):
        graded.lines[name] = "Not yet: the notebook redefines this checker."
    spoken = [line for line in said.get("said") or [] if isinstance(line, str)]
    forged = 0
    for line in printed if isinstance(printed, list) else []:
        if line in spoken:
            spoken.remove(line)
        else:
            forged += 1
    flags = [graded.flags] if graded.flags else []
    flags += [f"redefines {', '.join(sorted(swapped))}"] if swapped else []
    flags += [f"prints {forged} verdict line{'s' * (forged != 1)} no checker printed"] \
        if forged else []
    in_box = [name for name in said.get("in_box") or [] if name in graded.lines]
    flags += [f"judged in its box: {', '.join(in_box)}"] if in_box else []
    graded.flags = _clean("; ".join(flags), 400)


def _environment() -> dict[str, str]:
    """Nothing inherited (so no secrets); the inside sets HOME to its working folder."""
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "agg", "USER": "student",
            "PYTHONPATH": PACKAGE_PARENT}  # the kernel imports this package too


def _end(process: subprocess.Popen) -> None:
    """Kill the box's session (the box and all in it, or the unboxed run's own group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _clean(text: str, most: int = 200) -> str:
    """Printable (control and bidi characters escaped) and at most ``most`` characters."""
    return shorten(printable(text), most)


# ---------------------------------------------------------------------------- the class

def fresh_seed() -> int:
    """A case-seed offset no notebook showed (0 is the notebook's own cases)."""
    import secrets
    return 1 + secrets.randbelow(1 << 30)


def grade_each(papers: list[Paper], timeout: float, confine: Confine | None, progress=None,
               jobs: int = 1, case_seed: int = 0, keep_going: bool = False) -> Iterator[Graded]:
    """Each paper graded, in the papers' order (``jobs`` boxes at a time, each its own
    copy in its own empty home); ``progress`` (a text stream) gets a line per notebook."""
    from concurrent.futures import ThreadPoolExecutor
    checkers = package_checkers()

    def run(number: int, paper: Paper) -> Graded:
        if progress is not None:
            print(f"grading {number}/{len(papers)}: {_clean(paper.name)}", file=progress,
                  flush=True)
        return grade_in_box(paper, timeout, confine, case_seed, checkers, keep_going)

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
                 roster: dict[str, dict[str, str]] | None = None,
                 course: Path | None = None) -> list[Graded]:
    """Grade every notebook in ``folder``, ``jobs`` at a time, each in a process of its own
    on a copy; boxed by ``confine`` (for students' work: ``classroom.jail.box_command``, as
    the command line does), unboxed by default (the course's own notebooks). Answers are
    judged on cases drawn with ``case_seed`` (a fresh one when None); ``roster`` maps files
    to students; the exercises are the ``course``'s (``papers.course_points``). The rows
    keep the folder's order."""
    papers = papers_in(folder, roster, course_points(course))
    seed = fresh_seed() if case_seed is None else case_seed
    return list(grade_each(papers, timeout, confine, progress, jobs, seed))
