"""The course as a three-week unit: the core path, the optional notebooks, what each assumes,
how long each takes and which exercises suit homework.

The times are estimates made from the notebooks themselves (their words, code cells and
exercises, read from the files beside notebook 00), never typed in:

    minutes = words / READING_WORDS_PER_MINUTE + code cells * MINUTES_PER_CODE_CELL
              + short exercises * MINUTES_PER_SHORT_EXERCISE + write-its * MINUTES_PER_WRITE_IT

A write-it exercise (the student writes a function) suits homework; a short answer (a value,
a cell, a word) suits class.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ASSUMES", "MINUTES_PER_CODE_CELL", "MINUTES_PER_SHORT_EXERCISE",
           "MINUTES_PER_WRITE_IT", "READING_WORDS_PER_MINUTE", "UNIT_WEEKS", "NotebookPlan",
           "plan_markdown", "unit_plan"]

READING_WORDS_PER_MINUTE = 120  # technical prose read with care, below everyday reading speed
MINUTES_PER_CODE_CELL = 1  # run it, read what it prints or draws
MINUTES_PER_SHORT_EXERCISE = 5
MINUTES_PER_WRITE_IT = 20

# The core path, a week at a time; every other notebook is optional. Each week's notebooks come
# after everything they build on (tests/test_plan.py checks it against the course map).
UNIT_WEEKS = (
    (1, ("01", "02", "03")),  # boards, minimax and negamax, alpha-beta
    (2, ("04", "05", "07")),  # making search fast, depth limits, Monte Carlo and UCT
    (3, ("08", "09")),  # agents and a class tournament, chance
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

    @property
    def minutes(self) -> int:
        """The estimated time to work through the notebook, exercises included."""
        return round(self.words / READING_WORDS_PER_MINUTE
                     + self.code_cells * MINUTES_PER_CODE_CELL
                     + len(self.short_exercises) * MINUTES_PER_SHORT_EXERCISE
                     + len(self.write_its) * MINUTES_PER_WRITE_IT)


def _week(number: str) -> int | None:
    return next((week for week, numbers in UNIT_WEEKS if number in numbers), None)


def _is_write_it(name: str) -> bool:
    from .. import teach
    return bool(getattr(getattr(teach, name, None), "write_it", False))


def read_plan(path: Path) -> NotebookPlan:
    """What notebook ``path`` asks of a student: words, code cells, exercises (solution
    cells left out, as in the handouts)."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    student = [cell for cell in cells if "solution" not in cell["metadata"].get("tags", [])]
    text = ["".join(cell["source"]) for cell in student]
    prose = [t for cell, t in zip(student, text) if cell["cell_type"] == "markdown"
             and "navigation" not in cell["metadata"].get("tags", [])]
    code = [t for cell, t in zip(student, text) if cell["cell_type"] == "code"]
    checkers = sorted({name for source in code for name in _CHECK_CALL.findall(source)})
    title = prose[0].splitlines()[0].split("·", 1)[-1].strip() if prose else path.stem
    number = Path(path).name[:2]
    return NotebookPlan(number, title, _week(number), sum(len(t.split()) for t in prose),
                        len(code), tuple(n for n in checkers if not _is_write_it(n)),
                        tuple(n for n in checkers if _is_write_it(n)))


def unit_plan(folder: Path | str = ".") -> list[NotebookPlan]:
    """The plan of every course notebook in ``folder`` (notebook 00 left out), in order."""
    paths = sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))
    return [read_plan(path) for path in paths if not path.name.startswith("00")]


def _assumes(number: str) -> str:
    what, where = ASSUMES.get(number, ("", None))
    return f"[{what}]({where})" if where else what


def plan_markdown(plans: list[NotebookPlan]) -> str:
    """The plan as a Markdown table: one row per notebook, core weeks first."""
    rows = ["| Notebook | Week | Minutes | Class (short answers) | Homework (write-its) "
            "| Assumes |", "| --- | --- | --- | --- | --- | --- |"]
    order = sorted(plans, key=lambda plan: (plan.week is None, plan.week or 0, plan.number))
    for plan in order:
        rows.append(f"| {plan.number} · {plan.title} | {plan.week or 'optional'} "
                    f"| {plan.minutes} | {len(plan.short_exercises)} | {len(plan.write_its)} "
                    f"| {_assumes(plan.number)} |")
    return "\n".join(rows)
