"""The checks the plain functions run themselves, where an entry point's kinds cannot say it:
a search's options (a window with room for a value, a depth, a budget, a table that fits the
search) and the arena's counts and starting positions, raising ``TypeError`` or the
package's ``ValueError`` subclass with the option's name."""
from __future__ import annotations

import math
from collections.abc import Callable

from ..errors import SearchOptionError
from ..game import Game
from ..safetext import short
from .kinds import MAX_COUNT, is_game, is_int


def check_window(alpha: float, beta: float) -> None:
    """``alpha < beta``: a window with room for a value."""
    if not alpha < beta:
        raise SearchOptionError(f"the window needs alpha < beta, got ({alpha}, {beta})")


def check_depth(depth: int, least: int = 0) -> None:
    """A search depth: an int of at least ``least``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < least:
        raise SearchOptionError(f"a search depth is an int of at least {least}, not {short(depth)}")


def check_choice(name: str, value, choices: tuple) -> None:
    """``value`` is one of ``choices``."""
    if value not in choices:
        raise SearchOptionError(
            f"{name} is one of {', '.join(map(repr, choices))}, not {short(value)}")


def check_table(table: dict | bool | None, symmetry: bool, depth: int | None) -> dict | None:
    """The engine's table: None, or a dict (a fresh one for True, or for symmetry alone)."""
    if table is True or (symmetry and table is None):
        table = {}
    if table is not None and not isinstance(table, dict):
        raise SearchOptionError(f"table is None, True or a dict, not {short(table)}")
    if table is not None and depth is not None:
        raise SearchOptionError(
            "a transposition table needs exact values; a depth-limited value depends "
            "on the depth left, so use either a table or a depth limit")
    return table


def check_depth_limit(depth: int | None, evaluate: Callable | None) -> int | None:
    """``depth`` if it is None or a usable limit (one that comes with an evaluation)."""
    if depth is not None:
        if evaluate is None:
            raise SearchOptionError("a depth limit needs an evaluate function")
        check_depth(depth)
    return depth


def check_count(value, what: str, least: int) -> None:
    """A count option is an int (TypeError otherwise) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a whole number, not {type(value).__name__}")
    if value < least:
        raise SearchOptionError(f"{what} is at least {least}, not {short(value)}")


def check_budget(count, what: str) -> None:
    """A number of playouts or iterations: a whole number from 0 to ``MAX_COUNT``."""
    if not is_int(count):
        raise TypeError(f"{what} is a whole number, not {type(count).__name__}")
    if count < 0:
        raise SearchOptionError(f"{what} is a whole number >= 0, not {short(count)}")
    if count > MAX_COUNT:
        raise SearchOptionError(f"{what} is a whole number at most {MAX_COUNT:,} "
                                f"(a typo would run for days), not {short(count)}")


def check_deepening(seconds, nodes, max_depth) -> None:
    """A clock's ``seconds`` and ``nodes`` (at least one of them) and ``max_depth``."""
    if seconds is None and nodes is None:
        raise SearchOptionError("iterative deepening needs a limit: seconds=, nodes= or both")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"seconds is a number, not {type(seconds).__name__}")
        if not 0 < seconds < math.inf:
            raise SearchOptionError(f"seconds is a positive number, not {short(seconds)}")
    if nodes is not None:
        check_count(nodes, "nodes (the budget of positions)", least=1)
    if max_depth is not None:
        check_count(max_depth, "max_depth", least=1)


def check_whole(value, name: str, least: float, most: float, error: type) -> None:
    """A count (or a seed) is an int (TypeError otherwise) in ``least..most`` (else ``error``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    if not least <= value <= most:
        raise error(f"{name} is a whole number at most {most:,} and >= {least}, "
                    f"not {short(value)}")


def check_start(start) -> Game:
    """A game's starting position is a board (or any ``Game``)."""
    if not is_game(start):
        raise TypeError(f"start is a board (a Game), not {type(start).__name__}")
    return start
