"""The argument kinds: small functions ``kind(value, name, where, error)`` that return a value
or raise (``TypeError`` for a wrong type, ``error`` for a wrong value), naming the argument
and showing at most a short ``repr`` of what came (``short``)."""
from __future__ import annotations

import numbers
import random
from collections.abc import Callable, Mapping

from ..game import MAX, Game
from ..safetext import short

MAX_COUNT = 1_000_000
"""The most playouts, games or iterations one call does: about a minute of work for the
slowest search here, and a typo such as 10**9 would run for days."""

MAX_DEPTH = 1_000
"""The deepest a depth limit goes: more than the number of cells of any board the library
plays (19x19 = 361), so no game needs more, and a bigger number is a typo."""


def type_name(value) -> str:
    return type(value).__name__


def is_int(value) -> bool:
    """A whole number: an ``int`` (or a numpy integer), not ``True``/``False``."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


# ------------------------------------------------------------------------- argument kinds
# A kind is ``kind(value, name, where, error)``: it returns the value or raises.

def game(verb: str) -> Callable:
    """The kind of a game state: anything with the ``ttt_lib.Game`` methods (a board, a
    ``TreeNode``); ``verb`` says what the function does with it ("searches", "takes")."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not is_game(value):
            raise TypeError(f"{where} {verb} a game state (ttt_lib.Game), "
                            f"not {type_name(value)}")
        return value
    return kind


GAME, STATE = game("searches"), game("takes")


MAX_FLOAT = 2 ** 1023  # about the largest int a float holds

_GAME_TYPES: dict[type, bool] = {}  # the types seen to be games: checked once per type


def is_game(value) -> bool:
    """``isinstance(value, Game)``, answered at once for a type already seen to be a game (a
    game loop or a recursive entry point asks it of every state it is handed)."""
    return _GAME_TYPES.get(type(value), False) or _is_game(value)


def _is_game(value) -> bool:
    """Is ``value`` a ``Game``? Classes whose instances have the methods are remembered
    (a Protocol check is slow, and a recursive entry point asks it of every state)."""
    game = not isinstance(value, type) and isinstance(value, Game)
    if game and all(callable(getattr(type(value), name, None)) for name in GAME_METHODS):
        _GAME_TYPES[type(value)] = True
    return game


GAME_METHODS = ("moves", "play", "is_terminal", "utility", "key")


def NUMBER(value, name: str, where: str, error: type) -> object:
    """A real number (infinities allowed), not NaN."""
    if not is_real(value):
        raise TypeError(f"{where}: {name} is a number, not {type_name(value)}")
    if value != value:  # NaN (math.isnan would overflow on a huge int)
        raise error(f"{where}: {name} is a number, not NaN")
    if isinstance(value, numbers.Integral) and abs(value) > MAX_FLOAT:
        raise error(f"{where}: {name} is at most about 1.8e308 in size (a float's range: "
                    f"the search mixes it with floats), not {short(value)}")
    return value


def FLAG(value, name: str, where: str, error: type) -> object:
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {name} is True or False, not {type_name(value)}")
    return value


def FUNCTION(value, name: str, where: str, error: type) -> object:
    if not callable(value):
        raise TypeError(f"{where}: {name} is a function, not {type_name(value)}")
    return value


def TABLE(value, name: str, where: str, error: type) -> object:
    """A table the search fills in: a dict (or any mutable mapping)."""
    if not isinstance(value, (dict, Mapping)) or not hasattr(value, "__setitem__"):
        raise TypeError(f"{where}: {name} is a dict, not {type_name(value)}")
    return value


def RNG(value, name: str, where: str, error: type) -> object:
    if not isinstance(value, random.Random):
        raise TypeError(f"{where}: {name} is a random.Random, not {type_name(value)}")
    return value


def SEED(value, name: str, where: str, error: type) -> object:
    if value is not None and not is_int(value):
        raise TypeError(f"{where}: {name} is an int or None, not {type_name(value)}")
    return value


def PLAYER(value, name: str, where: str, error: type) -> object:
    """+1 (X) or -1 (O)."""
    if not is_int(value):
        raise TypeError(f"{where}: {name} is +1 (X) or -1 (O), not {type_name(value)}")
    if value not in (MAX, -MAX):
        raise error(f"{where}: {name} is +1 (X) or -1 (O), not {short(value)}")
    return value


def MOVES(value, name: str, where: str, error: type) -> object:
    """A list (or tuple) of moves; ``legal_moves`` checks them against the state."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{where}: {name} is a list of moves, not {type_name(value)}")
    return value


def count(least: int, most: int = MAX_COUNT, why: str = "") -> Callable:
    """The kind of a whole number in ``least..most``; ``why`` says why ``most`` is the bound."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not is_int(value):
            raise TypeError(f"{where}: {name} is a whole number, not {type_name(value)}")
        if not least <= value <= most:
            bound = f" and at most {most:,}" if most < float("inf") else ""
            reason = f" ({why})" if why else ""
            raise error(f"{where}: {name} is a whole number of at least {least}{bound}{reason}, "
                        f"not {short(value)}")
        return int(value)
    return kind


COUNT = count(0, MAX_COUNT, "a typo would run for days")
DEPTH = count(0, MAX_DEPTH, "deeper than any board the library plays")


def instance(cls: type, what: str) -> Callable:
    """The kind of an instance of ``cls`` (``what`` names it in the message)."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not isinstance(value, cls):
            raise TypeError(f"{where}: {name} is {what}, not {type_name(value)}")
        return value
    return kind


def optional(kind: Callable) -> Callable:
    """``kind``, or None."""
    def maybe(value, name: str, where: str, error: type) -> object:
        return value if value is None else kind(value, name, where, error)
    return maybe


def maybe(cls: type, what: str) -> Callable:
    """The kind of an instance of ``cls``, or None."""
    return optional(instance(cls, what))


def either(*kinds: Callable, what: str) -> Callable:
    """A value that passes one of ``kinds`` (tried in order; ``what`` names them all)."""
    def kind(value, name: str, where: str, error: type) -> object:
        for each in kinds:
            try:
                return each(value, name, where, error)
            except TypeError:
                continue
        raise TypeError(f"{where}: {name} is {what}, not {type_name(value)}")
    return kind


def choice(*choices: str) -> Callable:
    """One of the strings ``choices``."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not isinstance(value, str):
            raise TypeError(f"{where}: {name} is a string, not {type_name(value)}")
        if value not in choices:
            raise error(f"{where}: {name} is one of {', '.join(map(repr, choices))}, "
                        f"not {short(value)}")
        return value
    return kind


# ------------------------------------------------------- kinds the searches share (windows, moves)

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
