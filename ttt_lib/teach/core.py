"""The machinery every notebook's exercises share: showing real code, and reporting answers.

``show_source(obj)`` shows the code of a function or class exactly as ``ttt_lib`` runs it, so a
notebook never carries a second copy that could drift from the package. Checkers report through
``verdict`` and ``unanswered``; IPython is imported inside ``show_source`` and only when a
notebook kernel is running.

Answers are judged leniently: numbers by value (``8.0`` counts as ``8``, but ``True`` and
``"8"`` are no numbers) and words without regard to case or surrounding spaces. ``plain``
normalizes an answer that way, and ``ttt_lib.teach`` applies it to every checker it exports
(``lenient``); ``same_words`` and ``word_in`` compare words. A checker whose answer is a
function the student writes is marked ``@write_it``.
"""
from __future__ import annotations

import functools
import inspect
import math
import numbers
import sys
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["show_source", "source_text", "verdict", "unanswered", "is_int", "as_cells",
           "plain", "lenient", "same_words", "word_in", "write_it"]


# ------------------------------------------------------------------------- showing the code

def source_text(obj) -> str:
    """The source of ``obj``, dedented, under a comment naming its file (relative to the
    package's parent directory, so the text is the same on every machine)."""
    source = textwrap.dedent(inspect.getsource(obj))
    return f"# {_where(obj)}\n{source}"


def _where(obj) -> str:
    # a checked entry point (ttt_lib.checks) is shown as the algorithm it wraps
    path = Path(inspect.getsourcefile(inspect.unwrap(obj))).resolve()
    package_parent = Path(__file__).resolve().parents[2]
    try:
        return path.relative_to(package_parent).as_posix()
    except ValueError:  # code from outside ttt_lib: name its module instead of a local path
        return inspect.getmodule(obj).__name__


def _markdown_block(text: str) -> str:
    fence = "```"
    while fence in text:  # a fence longer than any run of backticks in the code
        fence += "`"
    return f"{fence}python\n{text.rstrip()}\n{fence}"


def _in_notebook() -> bool:
    if "IPython" not in sys.modules:  # a plain interpreter never imported IPython
        return False
    from IPython import get_ipython
    return get_ipython() is not None


def show_source(obj) -> None:
    """Show the real code of ``obj`` (a function, class or method of ``ttt_lib``).

    In a notebook the code appears as a syntax-highlighted block (with plain text beside it
    for consoles and diffs); elsewhere it is printed.
    """
    text = source_text(obj)
    if _in_notebook():
        from IPython.display import display
        display({"text/markdown": _markdown_block(text), "text/plain": text}, raw=True)
    else:
        print(text, end="")


# ------------------------------------------------------------------------ reporting results

def verdict(correct: bool, right: str, hint: str) -> None:
    """Print ``Right: <right>`` or ``Not yet: <hint>``: the one line every checker ends with."""
    print(f"Right: {right}" if correct else f"Not yet: {hint}")


def unanswered(answer, hint: str) -> bool:
    """Report a missing answer (``None``, as handed out) with the exercise's first hint."""
    if answer is None:
        print(f"Not yet: replace None with your answer. Hint: {hint}")
        return True
    return False


def is_int(value) -> bool:
    """Whether ``value`` is an int (not a bool). Checkers exported by ``ttt_lib.teach`` see
    answers through ``plain``, so a student's ``8.0`` arrives here as ``8``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value) -> int | None:
    """``value`` as an int when it is a whole number by value (numpy's too), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if math.isfinite(number) and number.is_integer() else None


def as_cells(answer):
    """Cell numbers from a list, tuple, set or range of ints; None if it is something else."""
    if isinstance(answer, (list, tuple, set, frozenset, range)) and all(map(is_int, answer)):
        return list(answer)
    return None


# ----------------------------------------------------------------- lenient answers, write-its

def plain(answer):
    """``answer`` with its numbers by value: a whole float (``8.0``, numpy's ``int64(8)``)
    becomes the int ``8``, inside lists, tuples and sets too; text loses surrounding spaces.
    Anything else (bools, other floats, functions) comes back as it was."""
    whole = _whole(answer)
    if whole is not None and not isinstance(answer, int):
        return whole
    if isinstance(answer, str):
        return answer.strip()
    if type(answer) in (list, tuple, set, frozenset):
        return type(answer)(plain(item) for item in answer)
    return answer


def lenient(checker: Callable) -> Callable:
    """``checker`` judging ``plain(answer)``: ``check(8.0)`` is judged as ``check(8)``."""
    @functools.wraps(checker)
    def judged_plainly(answer) -> None:
        return checker(plain(answer))
    return judged_plainly


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def same_words(answer, expected: str) -> bool:
    """Whether ``answer`` is the text ``expected``, ignoring case and extra spaces."""
    return isinstance(answer, str) and _words(answer) == _words(expected)


def word_in(answer, choices: Iterable[str]) -> str | None:
    """The choice ``answer`` names (ignoring case and extra spaces), or None."""
    return next((choice for choice in choices if same_words(answer, choice)), None)


def write_it(checker: Callable) -> Callable:
    """Mark ``checker`` as judging a function the student writes (a write-it exercise):
    ``tests/test_teach.py`` then requires its ``WRITE_IT`` catalogue entry."""
    checker.write_it = True
    return checker
