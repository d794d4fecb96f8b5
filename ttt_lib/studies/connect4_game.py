"""Connect Four games read by the position solver: a position from a move string, the solve of
``python -m ttt_lib solve --connect4 C R --moves ...``, and the moves of a game that threw
away a win or a draw.

Move strings are written as in Pascal Pons' test sets: one digit a move, columns numbered
from 1 on the left (``"4453"``: X in column 4, O in column 4, X in 5, O in 3), so boards of
at most 9 columns. In Python, moves are the board's own: column numbers from 0.

A game's positions are solved from the last one back to the first, in one
``PositionSolver`` whose table outlives each solve: a later position is cheap and fills the
table for the earlier ones. Early positions of 7x6 are far beyond a pure-Python search, so
each solve has a budget of nodes; from the first position over it back to the start, the
values are not known (None), and no move there is judged.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..boards.connect4 import ConnectFour
from ..errors import IllegalMoveError, InvalidBoardError, SearchOptionError
from ..game import player_name
from ..safetext import short
from .connect4_solve import PositionSolver

GAME_BUDGET = 200_000
"""Nodes one position of a game may take (a few seconds to a minute in pure Python)."""


class OverBudget(Exception):
    """A solve stopped at its budget of nodes."""


def position_after(moves: str, columns: int = 7, rows: int = 6, k: int = 4) -> ConnectFour:
    """The position after ``moves``, one digit a move, columns numbered from 1 (as in Pons'
    test sets), X first; each move checked (off the board, a full column, after a win)."""
    if not isinstance(moves, str):
        raise TypeError(f"moves is a string of column digits, not {type(moves).__name__}")
    board = ConnectFour(columns, rows, k)
    if columns > 9:
        raise InvalidBoardError(f"moves are one digit each, columns 1..9: a board of "
                                f"{columns} columns cannot be written so")
    for number, digit in enumerate(moves, 1):
        if digit not in "123456789"[:columns]:
            raise IllegalMoveError(f"moves: move {number} is {digit!r}, not a column "
                                   f"1..{columns} (columns are numbered from 1)")
        column = int(digit) - 1
        if board.is_terminal():
            raise IllegalMoveError(f"moves: move {number} (column {digit}) comes after the "
                                   f"game is over ({board.over_reason()})")
        if column not in board.moves():
            raise IllegalMoveError(f"moves: move {number} (column {digit}) is played in a "
                                   f"full column: it holds {rows} pieces")
        board = board.play(column)
    return board


class MovesSolve:
    """The command line's solve of the position after a move string (``solve()``,
    ``figures(value)`` and ``nodes``, as ``run_solver`` uses a ``Connect4Solver``)."""

    def __init__(self, columns: int, rows: int, k: int = 4, *, moves: str,
                 progress=None) -> None:
        self.state = position_after(moves, columns, rows, k)
        self.moves, self.solver = moves, PositionSolver(columns, rows, k, progress)

    @property
    def nodes(self) -> int:
        return self.solver.nodes

    def solve(self) -> dict:
        """X's value of the position with the work it took."""
        self.solver.start = time.perf_counter()
        return self.figures(self.solver.value(self.state))

    def figures(self, value: int | None) -> dict:
        """The solve's figures (``value`` None if it was stopped)."""
        state = self.state
        return {"columns": state.columns, "rows": state.rows, "k": state.k,
                "moves": self.moves, "to_move": player_name(state.to_move), "value": value,
                "nodes": self.solver.nodes, "positions": self.solver.positions,
                "seconds": self.solver.seconds()}


def format_position(figures: dict) -> str:
    """The figures of a position's solve as a short report."""
    value = figures["value"]
    outcome = {1: "X wins", 0: "a draw", -1: "O wins", None: "not known (stopped)"}[value]
    return (f"Connect Four, {figures['columns']} columns x {figures['rows']} rows, "
            f"k={figures['k']}, after moves {figures['moves'] or '(none)'} "
            f"({figures['to_move']} to move): {outcome} with best play; X's value "
            f"{'?' if value is None else value}\n"
            f"nodes {figures['nodes']:,}, positions stored {figures['positions']:,}, "
            f"{figures['seconds']:.3f} s")


def value_within(solver: PositionSolver, state: ConnectFour, budget: int) -> int | None:
    """X's value of ``state``, or None if it takes more than about ``budget`` nodes (the
    check comes with the solver's progress calls, every ``PROGRESS_EVERY`` nodes)."""
    start = solver.nodes

    def stop(running: PositionSolver) -> None:
        if running.nodes - start > budget:
            raise OverBudget

    solver.progress = stop
    try:
        return solver.value(state)
    except OverBudget:
        return None
    finally:
        solver.progress = None


def game_values(start: ConnectFour, moves: Sequence[int],
                budget: int = GAME_BUDGET) -> list[int | None]:
    """X's value of each position of the game: ``start``, then after each of ``moves`` (the
    board's column numbers, from 0); solved from the last back, None from the first over
    ``budget`` nodes back to the start."""
    states = game_states(start, moves)
    return values_backwards(PositionSolver(start.columns, start.rows, start.k), states, budget)


def values_backwards(solver: PositionSolver, states: list[ConnectFour],
                     budget: int) -> list[int | None]:
    """X's value of each of ``states``, solved from the last back until one is over
    ``budget`` nodes (None for it and all before it)."""
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget is a whole number of nodes, not {type(budget).__name__}")
    if budget < 1:
        raise SearchOptionError(f"budget is a positive number of nodes, not {budget}")
    values: list[int | None] = [None] * len(states)
    for index in reversed(range(len(states))):
        values[index] = value_within(solver, states[index], budget)
        if values[index] is None:
            break
    return values


def game_states(start: ConnectFour, moves: Sequence[int]) -> list[ConnectFour]:
    """``start`` and the position after each move (each checked by the board)."""
    if not isinstance(start, ConnectFour):
        raise TypeError(f"start is a ConnectFour position, not {type(start).__name__}")
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Sequence):
        raise TypeError(f"moves is a sequence of column numbers, not {type(moves).__name__}")
    states = [start]
    for move in moves:
        states.append(states[-1].play(move))
    return states


@dataclass(frozen=True)
class Mistake:
    """A move that lowered its player's value: ``before`` and ``after`` are X's values of
    the positions around it, ``keeping`` the columns that would have kept the value."""
    ply: int  # the move's number in the game, from 1
    player: str
    column: int  # the board's column number, from 0
    before: int
    after: int
    keeping: tuple[int, ...]

    def describe(self) -> str:
        """The mistake in words, columns numbered from 1 as on the board's labels."""
        names = {1: "a win", 0: "a draw", -1: "a loss"}
        sign = 1 if self.player == "X" else -1
        better = ", ".join(str(column + 1) for column in self.keeping)
        return (f"move {self.ply}: {self.player} in column {self.column + 1} turned "
                f"{names[sign * self.before]} into {names[sign * self.after]}"
                f" (column{'s' if len(self.keeping) > 1 else ''} {better} kept it)")


def game_mistakes(start: ConnectFour, moves: Sequence[int],
                  budget: int = GAME_BUDGET, player: str | None = None) -> list[Mistake]:
    """The moves of the game that turned a win into a draw or a loss, or a draw into a
    loss, for the player who made them: each with the columns that would have kept the
    value. Moves from positions whose value is not known within ``budget`` are not judged;
    with ``player`` ("X" or "O"), only that player's moves are (the columns that would have
    kept a value take a solve each, so the other side's are not looked for)."""
    check_player(player)
    states, mistakes = game_states(start, moves), []
    solver = PositionSolver(start.columns, start.rows, start.k)
    values = values_backwards(solver, states, budget)
    for ply, (state, move) in enumerate(zip(states, moves), 1):
        before, after, sign = values[ply - 1], values[ply], state.to_move
        if before is None or after is None or sign * after >= sign * before:
            continue
        if player is not None and player != player_name(sign):
            continue
        keeping = tuple(column for column in state.moves()
                        if solver.value(state.play(column)) == before)
        mistakes.append(Mistake(ply, player_name(sign), move, before, after, keeping))
    return mistakes


def check_player(player) -> None:
    """``player`` is None, "X" or "O"."""
    if player is not None and not isinstance(player, str):
        raise TypeError(f"player is 'X', 'O' or None, not {type(player).__name__}")
    if player not in (None, "X", "O"):
        raise SearchOptionError(f"player is 'X', 'O' or None, not {short(player)}")
