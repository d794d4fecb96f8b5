"""The machinery every notebook's exercises share: showing real code, and reporting answers.

``show_source(obj)`` shows the code of a function or class exactly as ``ttt_lib`` runs it, so a
notebook never carries a second copy that could drift from the package. Checkers report through
``verdict`` and ``unanswered``; IPython is imported inside ``show_source`` and only when a
notebook kernel is running.
"""
from __future__ import annotations

import inspect
import sys
import textwrap
from pathlib import Path

__all__ = ["show_source", "source_text", "verdict", "unanswered", "is_int", "as_cells"]


# ------------------------------------------------------------------------- showing the code

def source_text(obj) -> str:
    """The source of ``obj``, dedented, under a comment naming its file (relative to the
    package's parent directory, so the text is the same on every machine)."""
    source = textwrap.dedent(inspect.getsource(obj))
    return f"# {_where(obj)}\n{source}"


def _where(obj) -> str:
    path = Path(inspect.getsourcefile(obj)).resolve()
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
    return isinstance(value, int) and not isinstance(value, bool)


def as_cells(answer):
    """Cell numbers from a list, tuple, set or range of ints; None if it is something else."""
    if isinstance(answer, (list, tuple, set, frozenset, range)) and all(map(is_int, answer)):
        return list(answer)
    return None
