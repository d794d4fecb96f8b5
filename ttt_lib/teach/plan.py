"""The course as a three-week unit: the core path, the optional notebooks, what each assumes,
how long each takes and which exercises suit homework.

The times are estimates made from the notebooks themselves (their words, code cells and
exercises, read from the files beside notebook 00), never typed in:

    minutes = words / READING_WORDS_PER_MINUTE + code cells * MINUTES_PER_CODE_CELL
              + code lines / CODE_LINES_PER_MINUTE + output lines / OUTPUT_LINES_PER_MINUTE
              + short exercises * MINUTES_PER_SHORT_EXERCISE + the write-its' minutes

What a student reads besides the prose is counted too, from the stored outputs and the cells
a handout keeps: the *code lines* are the lines of the code cells and of the library listings
the notebook shows (``show_source``), read to follow them; the *output lines* are the lines the
cells print (tables, traces, verdicts), scanned for the figures the prose names. Pictures
count in the minute per code cell.

A write-it is weighed by the size of its worked solution (the cell tagged ``solution`` after
it): its statements (lines of code, the docstring and the checker call left out) and its
branches (each ``if``, conditional expression, loop, comprehension, ``except`` and ``and``/
``or``), which is what a student must write and get right:

    write-it minutes = MINUTES_PER_WRITE_IT + lines * MINUTES_PER_SOLUTION_LINE
                       + branches * MINUTES_PER_BRANCH

(so a 5-line ``my_minimax`` counts 34 minutes, a 22-line ``my_uct`` 97). A write-it with no
solution cell counts as one of ``DEFAULT_SOLUTION`` (lines, branches). A write-it exercise
suits homework; a short answer (a value, a cell, a word) suits class.

Each exercise's points follow from the same measure (``sized_points``): a short answer is
worth ``QUESTION_POINTS``, a write-it one point per ``MINUTES_PER_POINT`` of its minutes,
to the nearest whole point (halves up), at least 1 (so ``my_minimax`` 2, ``my_uct`` 6).
``tools/unit_plan.py`` stores them in the exercise cells' metadata (``{"ttt": {"points":
N}}``), where the grader, the nbgrader and Gradescope exports read them (an instructor's own
``--course`` notebooks keep whatever points their metadata give).
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ASSUMES", "CODE_LINES_PER_MINUTE", "MINUTES_PER_BRANCH", "MINUTES_PER_CODE_CELL",
           "OUTPUT_LINES_PER_MINUTE",
           "MINUTES_PER_SHORT_EXERCISE", "MINUTES_PER_SOLUTION_LINE", "MINUTES_PER_WRITE_IT",
           "MINUTES_PER_POINT", "QUESTION_POINTS", "READING_WORDS_PER_MINUTE", "UNIT_WEEKS",
           "NotebookPlan", "plan_markdown", "read_plan", "sized_points", "solution_size",
           "unit_plan", "write_it_minutes"]

READING_WORDS_PER_MINUTE = 120  # technical prose read with care, below everyday reading speed
MINUTES_PER_CODE_CELL = 1  # run it, look at what it draws
CODE_LINES_PER_MINUTE = 10  # code and listings, read line by line to follow them
OUTPUT_LINES_PER_MINUTE = 20  # printed tables, traces and verdicts, scanned for their figures
MINUTES_PER_SHORT_EXERCISE = 5
MINUTES_PER_WRITE_IT = 10  # read the task, run the checker, read its hint
MINUTES_PER_SOLUTION_LINE = 3  # each statement of the worked solution
MINUTES_PER_BRANCH = 3  # each decision in it, and the case it must handle
DEFAULT_SOLUTION = (8, 3)  # (lines, branches) of a write-it without a solution cell
MINUTES_PER_POINT = 15  # a write-it's points: its minutes / this, halves up, at least 1
QUESTION_POINTS = 1  # a short answer's points

# The core path, a week at a time; every other notebook is optional. Each week's notebooks come
# after everything they build on (tests/test_plan.py checks it against the course map).
UNIT_WEEKS = (
    (1, ("01", "02", "03")),  # boards, minimax and negamax, alpha-beta
    (2, ("04", "05")),  # making search fast (the table with bounds), depth limits (the clock)
    (3, ("07", "08", "09")),  # Monte Carlo and UCT, agents and a class tournament, chance
)

_PYTHON = "https://docs.python.org/3/tutorial/"
# What each notebook assumes beyond the notebooks before it, and where to learn it.
ASSUMES = {
    "01": ("Python functions and lists; bit masks for the bitboard",
           "https://docs.python.org/3/library/stdtypes.html#bitwise-operations-on-integer-types"),
    "02": ("recursion", _PYTHON + "controlflow.html#defining-functions"),
    "03": ("nothing new", None),
    "04": ("dictionaries as caches", _PYTHON + "datastructures.html#dictionaries"),
    "05": ("nothing new", None),
    "06": ("Burnside's lemma (explained there; more in any group-theory primer)",
           "https://en.wikipedia.org/wiki/Burnside%27s_lemma"),
    "07": ("probability and averages; logarithms and square roots in UCB1",
           "https://en.wikipedia.org/wiki/Multi-armed_bandit"),
    "08": ("confidence intervals for a proportion (the Wilson interval)",
           "https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval"),
    "09": ("expected value", "https://en.wikipedia.org/wiki/Expected_value"),
    "10": ("numpy arrays; gradient descent", "https://numpy.org/doc/stable/user/absolute_beginners.html"),
    "11": ("running work in parallel with an executor",
           "https://docs.python.org/3/library/concurrent.futures.html"),
    "12": ("the core path and notebook 11", None),
}
# A notebook that is a project has its own time: the capstone is a week of evenings.
PROJECT_MINUTES = {"12": 5 * 120}
_CHECK_CALL = re.compile(r"(?<!def )(?<![\w.])(check_\d\d_\w+)\s*\(")


@dataclass(frozen=True)
class NotebookPlan:
    """One notebook's place in the unit and what it asks of a student."""

    number: str
    title: str
    week: int | None  # None: optional
    words: int
    code_cells: int
    short_exercises: tuple[str, ...]
    write_its: tuple[str, ...]
    sizes: dict = field(default_factory=dict, compare=False)  # write-it -> (lines, branches)
    code_lines: int = 0  # of the code cells and the library listings they show
    output_lines: int = 0  # printed by the code cells (their stored text outputs)

    def write_it_minutes(self, name: str) -> int:
        """The estimated time of write-it ``name``, from its solution's size."""
        return write_it_minutes(*self.sizes.get(name, DEFAULT_SOLUTION))

    @property
    def minutes(self) -> int:
        """The estimated time to work through the notebook, exercises included (a project's
        own time, ``PROJECT_MINUTES``, where it has one)."""
        if self.number in PROJECT_MINUTES:
            return PROJECT_MINUTES[self.number]
        return round(self.words / READING_WORDS_PER_MINUTE
                     + self.code_cells * MINUTES_PER_CODE_CELL
                     + self.code_lines / CODE_LINES_PER_MINUTE
                     + self.output_lines / OUTPUT_LINES_PER_MINUTE
                     + len(self.short_exercises) * MINUTES_PER_SHORT_EXERCISE
                     + sum(self.write_it_minutes(name) for name in self.write_its))


def write_it_minutes(lines: int, branches: int) -> int:
    """A write-it's estimated minutes for a solution of ``lines`` and ``branches``."""
    return (MINUTES_PER_WRITE_IT + lines * MINUTES_PER_SOLUTION_LINE
            + branches * MINUTES_PER_BRANCH)


def sized_points(plan: NotebookPlan) -> dict[str, int]:
    """{exercise: points} of a notebook's exercises by their measured size: a short answer
    ``QUESTION_POINTS``, a write-it its minutes / ``MINUTES_PER_POINT`` (halves up), at
    least 1."""
    if not isinstance(plan, NotebookPlan):
        raise TypeError(f"plan must be a NotebookPlan, not {type(plan).__name__}")
    points = {name: QUESTION_POINTS for name in plan.short_exercises}
    for name in plan.write_its:
        points[name] = max(1, int(plan.write_it_minutes(name) / MINUTES_PER_POINT + 0.5))
    return points


def solution_size(source: str) -> tuple[int, int]:
    """(statements, branches) of a solution cell's code: the lines holding a statement
    (docstrings and top-level checker calls left out), and each if, conditional expression,
    loop, comprehension, except clause and and/or."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))  # IPython's magics
    tree = ast.parse(code)
    skipped = {id(node.body[0]) for node in ast.walk(tree)
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
               and ast.get_docstring(node) is not None}
    skipped |= {id(node) for node in tree.body if isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and _CHECK_CALL.match(node.value.func.id + "(")}
    lines = {node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.stmt) and id(node) not in skipped}
    branches = sum(isinstance(node, (ast.If, ast.IfExp, ast.For, ast.While, ast.comprehension,
                                     ast.ExceptHandler, ast.BoolOp)) for node in ast.walk(tree))
    return len(lines), branches


def _week(number: str) -> int | None:
    return next((week for week, numbers in UNIT_WEEKS if number in numbers), None)


def _is_write_it(name: str) -> bool:
    from .. import teach
    return bool(getattr(getattr(teach, name, None), "write_it", False))


def read_plan(path: Path) -> NotebookPlan:
    """What notebook ``path`` asks of a student: words, code cells, exercises (solution
    cells left out, as in the handouts)."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    sizes = _solution_sizes(cells)
    student = [cell for cell in cells if "solution" not in cell["metadata"].get("tags", [])]
    text = ["".join(cell["source"]) for cell in student]
    prose = [t for cell, t in zip(student, text) if cell["cell_type"] == "markdown"
             and "navigation" not in cell["metadata"].get("tags", [])]
    code = [t for cell, t in zip(student, text) if cell["cell_type"] == "code"]
    checkers = sorted({name for source in code for name in _CHECK_CALL.findall(source)})
    title = prose[0].splitlines()[0].split("·", 1)[-1].strip() if prose else path.stem
    number = Path(path).name[:2]
    listings, printed = _read_lines([cell for cell in student if cell["cell_type"] == "code"])
    return NotebookPlan(number, title, _week(number), sum(len(t.split()) for t in prose),
                        len(code), tuple(n for n in checkers if not _is_write_it(n)),
                        tuple(n for n in checkers if _is_write_it(n)), sizes,
                        sum(_lines(t) for t in code) + listings, printed)


def _lines(text: str) -> int:
    """The lines of ``text`` that hold something."""
    return sum(1 for line in text.splitlines() if line.strip())


def _read_lines(cells: list[dict]) -> tuple[int, int]:
    """(listing lines, output lines) the code cells' stored outputs show: a ``show_source``
    listing (Markdown, a fenced code block) counts as code; printed text, and a result's text
    when no picture stands for it, as output."""
    listings = printed = 0
    for cell in cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text" in output:
                printed += _lines("".join(output["text"]))
            elif "text/markdown" in data:
                listings += max(0, _lines("".join(data["text/markdown"])) - 2)  # the fences
            elif "text/plain" in data and not any(kind.startswith(("image/", "text/html",
                                                                   "application/"))
                                                  for kind in data):
                printed += _lines("".join(data["text/plain"]))
    return listings, printed


def _solution_sizes(cells: list[dict]) -> dict[str, tuple[int, int]]:
    """{write-it: (lines, branches)} of the solution cells right after write-its' cells."""
    sizes = {}
    for cell, after in zip(cells, cells[1:]):
        if cell["cell_type"] != "code" or "solution" in cell["metadata"].get("tags", []) \
                or "solution" not in after["metadata"].get("tags", []):
            continue
        for name in _CHECK_CALL.findall("".join(cell["source"])):
            if _is_write_it(name):
                sizes[name] = solution_size("".join(after["source"]))
    return sizes


def unit_plan(folder: Path | str = ".") -> list[NotebookPlan]:
    """The plan of every course notebook in ``folder`` (notebook 00 left out), in order."""
    paths = sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))
    return [read_plan(path) for path in paths if not path.name.startswith("00")]


def _assumes(number: str) -> str:
    what, where = ASSUMES.get(number, ("", None))
    return f"[{what}]({where})" if where else what


def _write_its(plan: NotebookPlan) -> str:
    each = ", ".join(str(plan.write_it_minutes(name)) for name in plan.write_its)
    return f"{len(plan.write_its)} ({each})" if plan.write_its else "0"


def plan_markdown(plans: list[NotebookPlan]) -> str:
    """The plan as a Markdown table: one row per notebook, core weeks first."""
    rows = ["| Notebook | Week | Minutes | Class (short answers) | Homework (write-its, "
            "minutes each) | Assumes |", "| --- | --- | --- | --- | --- | --- |"]
    order = sorted(plans, key=lambda plan: (plan.week is None, plan.week or 0, plan.number))
    for plan in order:
        rows.append(f"| {plan.number} · {plan.title} | {plan.week or 'optional'} "
                    f"| {plan.minutes} | {len(plan.short_exercises)} | {_write_its(plan)} "
                    f"| {_assumes(plan.number)} |")
    return "\n".join(rows)
