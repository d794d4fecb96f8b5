"""The machinery every notebook's exercises share: showing real code, and reporting answers.

``show_source(obj)`` shows the code of a function or class exactly as ``ttt_lib`` runs it, so a
notebook never carries a second copy that could drift from the package. Checkers report through
``verdict`` and ``unanswered``; IPython is imported inside ``show_source`` and only when a
notebook kernel is running.

Answers are judged leniently: numbers by value (``8.0`` counts as ``8``, but ``True`` and
``"8"`` are no numbers) and words without regard to case or surrounding spaces. ``plain``
normalizes an answer that way, and ``ttt_lib.teach`` applies it to every checker it exports
(``lenient``); ``same_words`` and ``word_in`` compare words. Values are read by their exact
type (``int``, ``float``, ``Fraction``, ``str``, lists and tuples of them; numpy's scalars by
value), never through an object's own ``__eq__``: an ``int`` subclass is no int here, and
``lenient`` answers it ``Not yet`` (``foreign``). A checker whose answer is a function the
student writes is marked ``@write_it`` (its run is ``session.py``'s).
"""
from __future__ import annotations

import functools
import inspect
import math
import numbers
import sys
import textwrap
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

from .session import Verdict, checked, write_it
from .wire import Opaque

__all__ = ["show_source", "source_text", "verdict", "unanswered", "is_int", "as_cells",
           "plain", "foreign", "lenient", "same_words", "word_in", "write_it", "Verdict", "case_seed",
           "cases_cache", "fresh_cases"]


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
    """Whether ``value`` is an int by its exact type (numpy's integers too; not a bool, not
    a subclass of int, whatever its ``__eq__`` says). Checkers exported by ``ttt_lib.teach``
    see answers through ``plain``, so a student's ``8.0`` arrives here as ``8``."""
    return type(value) is int or (_numpy_scalar(value) and isinstance(value, numbers.Integral))


def _numpy_scalar(value) -> bool:
    """One of numpy's own scalar types (not a student's subclass of one)."""
    kind = type(value)
    return kind.__module__ == "numpy" and getattr(value, "shape", None) == () \
        and kind.__name__ != "bool_" and isinstance(value, numbers.Number)


def _whole(value) -> int | None:
    """``value`` as an int when it is a whole number by value (exact types and numpy's only),
    else None."""
    if not (type(value) in (int, float, Fraction) or _numpy_scalar(value)):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if math.isfinite(number) and number.is_integer() else None


def as_cells(answer):
    """Cell numbers from a list, tuple, set or range of ints; None if it is something else."""
    if type(answer) in (list, tuple, set, frozenset, range) and all(map(is_int, answer)):
        return [int(cell) for cell in answer]
    return None


# ----------------------------------------------------------------- lenient answers, write-its

PLAIN_TYPES = (bool, int, float, Fraction, str, type(None))
_CONTAINERS = (list, tuple, set, frozenset)
_LOOKALIKES = (numbers.Number, str, bytes, list, tuple, set, frozenset, dict, Opaque)


def plain(answer):
    """``answer`` with its numbers by value: a whole float (``8.0``, numpy's ``int64(8)``)
    becomes the int ``8``, other numpy scalars their Python value, inside lists, tuples and
    sets too; text loses surrounding spaces. Anything else (bools, other floats, functions,
    subclasses of plain types) comes back as it was."""
    kind = type(answer)
    if kind in (bool, int):
        return answer
    whole = _whole(answer)
    if whole is not None:
        return whole
    if _numpy_scalar(answer):
        return answer.item()
    if kind is str:
        return answer.strip()
    if kind in _CONTAINERS:
        return kind(plain(item) for item in answer)
    return answer


def foreign(answer, depth: int = 0) -> str | None:
    """The type name of the first value in ``answer`` (itself, or inside its lists, tuples
    and sets) that looks like plain data but is not of a plain type: an ``int`` subclass, a
    ``str`` subclass, a number of some other class. None when there is none (a function is
    no value: None)."""
    kind = type(answer)
    if kind in PLAIN_TYPES or _numpy_scalar(answer) or kind is range:
        return None
    if kind in _CONTAINERS:
        return next((found for found in (foreign(item, depth + 1) for item in answer)
                     if found), None) if depth < 20 else kind.__name__
    if isinstance(answer, Opaque):
        return answer.kind
    return kind.__name__ if isinstance(answer, _LOOKALIKES) else None


def lenient(checker: Callable) -> Callable:
    """``checker`` judging ``plain(answer)`` (``check(8.0)`` is judged as ``check(8)``) through
    ``checked``: its forbidden functions unavailable, its ``Verdict`` printed and returned.
    An answer holding a value of no plain type (``foreign``) is Not yet at once. With
    ``strict=True`` a wrong answer raises ``AssertionError`` carrying its line."""
    @functools.wraps(checker)
    def judged_plainly(answer, *, strict: bool = False) -> Verdict:
        odd = foreign(answer)
        refused = None if odd is None else (
            f"Not yet: a {odd} is no plain value; give an int, a float, a Fraction, a str, "
            "or a list of them.")
        said = checked(checker, plain(answer), refused)
        return said.assert_right() if strict else said
    return judged_plainly


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def same_words(answer, expected: str) -> bool:
    """Whether ``answer`` is the text ``expected``, ignoring case and extra spaces."""
    return isinstance(answer, str) and _words(answer) == _words(expected)


def word_in(answer, choices: Iterable[str]) -> str | None:
    """The choice ``answer`` names (ignoring case and extra spaces), or None."""
    return next((choice for choice in choices if same_words(answer, choice)), None)


# ------------------------------------------------------------------- the cases a checker draws

# Added to every seed a checker draws random cases from: 0 in a notebook (the cases the
# course shows); the grader sets another in its kernel (``fresh_cases``), so a function
# fitted to the cases a student saw is caught.
CASE_SEED_OFFSET = 0


def case_seed(seed: int) -> int:
    """The seed a checker's random cases use: ``seed`` moved by ``CASE_SEED_OFFSET``."""
    return seed + CASE_SEED_OFFSET


def fresh_cases(offset: int) -> None:
    """Draw every checker's random cases from seeds moved by ``offset`` (0: the notebook's)."""
    global CASE_SEED_OFFSET
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"offset must be an int, not {type(offset).__name__}")
    CASE_SEED_OFFSET = offset


def cases_cache(function: Callable) -> Callable:
    """``function`` (a maker of a checker's cases) remembered per offset and arguments."""
    @functools.lru_cache(maxsize=None)
    def made(offset: int, *args):
        return function(*args)

    @functools.wraps(function)
    def cases(*args):
        return made(CASE_SEED_OFFSET, *args)
    return cases


