"""Exercises of notebook 00: index and how to use the course."""
from __future__ import annotations

from functools import lru_cache

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from .core import as_cells, is_int, unanswered, verdict

__all__ = ["BOARD_00_LEGAL_MOVES", "BOARD_00_WINNING_MOVE", "check_00_legal_moves",
           "check_00_winning_move"]

BOARD_00_LEGAL_MOVES = "X.O/.X./O.."
BOARD_00_WINNING_MOVE = "X.X/OO./..."


def check_00_legal_moves(answer) -> None:
    """The legal moves of ``X.O/.X./O..`` as a list of cell numbers (any order)."""
    board = ListBoard.from_text(BOARD_00_LEGAL_MOVES)
    expected = board.moves()
    first_hint = "cells are numbered 0 to 8 row by row, and a move is an empty cell."
    if unanswered(answer, first_hint):
        return
    cells = as_cells(answer)
    if cells is None:
        return verdict(False, "", "give the moves as a list of cell numbers, like [0, 4].")
    taken = sorted(set(cells) - set(expected))
    if any(not 0 <= cell < 9 for cell in cells):
        hint = "cell numbers run from 0 (top left) to 8 (bottom right)."
    elif taken:
        hint = f"cell {taken[0]} already holds a mark, so it is not a legal move."
    elif len(cells) != len(set(cells)):
        hint = "each cell appears once in the list."
    else:
        hint = (f"you have {len(set(cells))} of the {len(expected)} empty cells; "
                "print(board) and count the blanks row by row.")
    verdict(sorted(cells) == expected,
             f"the empty cells {expected} are the legal moves, exactly board.moves().", hint)


@lru_cache(maxsize=None)
def _winning_moves(text: str) -> tuple[int, ...]:
    board = BitBoard.from_text(text)
    return tuple(m for m in board.moves() if board.play(m).utility() == board.to_move)


def check_00_winning_move(answer) -> None:
    """The cell where X, to move in ``X.X/OO./...``, completes three in a row."""
    wins = _winning_moves(BOARD_00_WINNING_MOVE)
    first_hint = "look along each row, column and diagonal for two X and a gap."
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "give one cell number, an int from 0 to 8.")
    board = BitBoard.from_text(BOARD_00_WINNING_MOVE)
    if answer not in board.moves():
        hint = f"cell {answer} is not a free cell of this board; pick an empty one."
    else:
        after = board.play(answer)
        threat = _winning_moves(after.to_text())
        hint = ("that move does not win, and O would then win at once."
                if threat else "that move does not make three in a row.")
    verdict(answer in wins, f"cell {answer} completes X's line and wins the game.", hint)


