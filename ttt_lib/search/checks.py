"""The checks the search entry points share beyond single arguments (``ttt_lib.checks``
has those): windows that are open, moves that are legal, an ordering's kind."""
from __future__ import annotations

from ..checks import FUNCTION, either, instance, optional, short

ORDERING = optional(either(FUNCTION, instance(str, "a name"),
                           what="None, an ordering's name or a function"))

def BOARD(value, name: str, where: str, error: type) -> object:
    """The kind of what a line heuristic reads: any state with ``cells()`` and ``lines()``
    (checked by the heuristic itself), but not a class."""
    if isinstance(value, type):
        raise TypeError(f"{where} reads a board (a state with cells() and lines()), "
                        f"not the class {value.__name__}")
    return value


WINDOWS = (("alpha", "beta"), ("low", "high"))


def also_window(arguments: dict, where: str, error: type) -> None:
    """``alpha < beta`` (or ``low < high``): a window with room for a value."""
    for low, high in WINDOWS:
        if low in arguments and high in arguments and not arguments[low] < arguments[high]:
            raise error(f"{where}: the window needs {low} < {high}, got "
                        f"({short(arguments[low])}, {short(arguments[high])})")


def also_legal_moves(arguments: dict, where: str, error: type) -> None:
    """Every move in ``moves`` is legal in ``state`` (a state without ``moves()``, which a
    line heuristic reads as cells and lines alone, is left to the heuristic)."""
    if not callable(getattr(arguments["state"], "moves", None)):
        return
    legal = arguments["state"].moves()
    for move in arguments["moves"]:
        if move not in legal:
            raise error(f"{where}: {short(move)} in moves is not a legal move here")
