"""Games by name, as the command line and the class tournament give them.

- ``"tictactoe"``: the 3x3 board (``BitBoard``);
- ``"connect4"``: Connect Four on 7 columns of 6 rows; ``"connect4:C,R"`` or
  ``"connect4:C,R,K"`` another size (``ConnectFour(C, R, K)``);
- ``"mnk:M,N,K"``: the m,n,k-game, M rows of N cells, K in a row (``MNKBoard``).

A name is data, so a tournament task can carry it to another process or to a student's
sandbox, which rebuilds each position from its text (``position_from_text``).
"""
from __future__ import annotations

from ..errors import InvalidBoardError
from ..game import Game
from .bit import BitBoard
from .connect4 import ConnectFour
from .list import ListBoard
from .mnk import MNKBoard

GAMES = ("tictactoe", "connect4", "connect4:C,R[,K]", "mnk:M,N,K")


def _numbers(game: str, text: str, counts: tuple[int, ...]) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) not in counts or not all(p.strip().isdigit() for p in parts):
        raise InvalidBoardError(f"game {game!r}: after the colon come "
                                f"{' or '.join(map(str, counts))} whole numbers, like "
                                f"connect4:7,6 or mnk:5,5,4")
    return tuple(int(p) for p in parts)


def start_position(game: str, first="X") -> Game:
    """The empty board of the game called ``game`` (see the module's list), ``first`` to open."""
    if not isinstance(game, str):
        raise TypeError(f"a game is named by a string, not {type(game).__name__}")
    kind, _, size = game.strip().lower().partition(":")
    if kind == "tictactoe" and not size:
        return BitBoard(first=first)
    if kind == "connect4":
        return ConnectFour(*(_numbers(game, size, (2, 3)) if size else ()), first=first)
    if kind == "mnk" and size:
        return MNKBoard(*_numbers(game, size, (3,)), first=first)
    raise InvalidBoardError(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")


def game_name(state: Game) -> str:
    """The name ``start_position`` builds ``state``'s kind of board from, size included."""
    if isinstance(state, (BitBoard, ListBoard)):
        return "tictactoe"
    if isinstance(state, ConnectFour):
        return f"connect4:{state.columns},{state.rows},{state.k}"
    if isinstance(state, MNKBoard):
        return f"mnk:{state.m},{state.n},{state.k}"
    raise TypeError(f"no game name for a {type(state).__name__}")


def position_from_text(game: str, text: str, first="X") -> Game:
    """The position of ``game`` written as ``text`` (its ``to_text()``), checked."""
    start = start_position(game, first)
    if isinstance(start, BitBoard):
        return BitBoard.from_text(text, first=first)
    position = type(start).from_text(text, k=start.k, first=first)
    if (position.m, position.n) != (start.m, start.n):
        raise InvalidBoardError(f"the text {text!r} is not a {game} position: "
                                f"{position.m} rows of {position.n}")
    return position


__all__ = ["GAMES", "game_name", "position_from_text", "start_position"]
