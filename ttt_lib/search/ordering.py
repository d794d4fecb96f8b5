"""Move ordering: try the likely best move first, so alpha-beta cuts off sooner.

Two static evaluations (X's view) score a position without searching: ``line_score``
(lines weighted by how full they are) and ``open_lines`` (lines still open to each side).
Three ways to order, each switchable on its own in ``alphabeta``:

- ``heuristic_order``: by the classic line score of the position each move leads to;
- ``threat_order``: a move that wins now, then one that blocks the opponent's win, then the rest;
- ``Killers``: moves that closed the window (alpha up to beta) at the same depth before are
  tried first.

The heuristics read a board only through ``cells()`` (0 empty, 1 X, 2 O) and ``lines()`` (the
cells of every winning line), so they work on any m,n,k board, not just 3x3. A move is the
cell it marks, except where pieces fall: on Connect Four a move is a column and the board's
``landing_cell`` names the cell it fills (``cell_of``). Orderings are stable: moves that score
alike keep the game's own order (row-major on 3x3 boards, left to right on Connect Four).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
import functools
from functools import lru_cache
from operator import itemgetter

from ..checks import BOARD, MOVES, also_legal_moves, argument_checks, count, short
from ..errors import SearchOptionError
from ..game import MAX, Game

X_DIGIT, O_DIGIT = 1, 2
DIGIT_OF = {MAX: X_DIGIT, -MAX: O_DIGIT}

Ordering = Callable[[Game, list], list]


class UnsupportedStateError(ValueError):
    """A heuristic asked of a state that has no board to read (no ``cells()``/``lines()``)."""


def _board(state) -> tuple[Sequence[int], Sequence[Sequence[int]]]:
    try:
        return state.cells(), state.lines()
    except AttributeError:
        raise UnsupportedStateError(
            f"line heuristics need a board with cells() and lines(); "
            f"{type(state).__name__} has none") from None


# a board's lines (by id) -> (those lines, {cells: line score}): see ``once_per_position``
_SCORES: dict[int, tuple] = {}
_SCORES_KEPT = 100_000  # positions kept per set of lines before the table starts afresh


def once_per_position(score: Callable) -> Callable:
    """``score(state)`` worked out once per position: a search asks about the same positions
    again and again, and a score that reads only ``cells()`` and ``lines()`` is the same
    each time. (A board whose cells or lines are not tuples is scored every time.)"""

    @functools.wraps(score)
    def remembered(state):
        cells, lines = _board(state)
        if type(cells) is not tuple or type(lines) is not tuple:
            return score(state)
        kept = _SCORES.get(id(lines))
        if kept is None or kept[0] is not lines:
            kept = _SCORES[id(lines)] = (lines, {})
        known = kept[1].get(cells)
        if known is None:
            if len(kept[1]) >= _SCORES_KEPT:
                kept[1].clear()
            known = kept[1][cells] = score(state)
        return known

    return remembered


@once_per_position
def line_score(state) -> float:
    """The classic evaluation, from X's point of view.

    Every line holding only X's marks scores +1, +10, +100... for 1, 2, 3... marks
    (``10 ** (count - 1)``), every line holding only O's marks the same negated; lines with
    both, or neither, score 0.
    """
    cells, lines = _board(state)
    return sum(_line_value([cells[cell] for cell in line]) for line in lines)


def open_lines(state) -> int:
    """Another classic evaluation, from X's point of view: the lines still open to X (no O
    mark in them) minus the lines still open to O (no X mark), each line counting 1."""
    cells, lines = _board(state)
    return sum((O_DIGIT not in marks) - (X_DIGIT not in marks)
               for marks in ([cells[cell] for cell in line] for line in lines))


# a board's lines (by id) -> (those lines, what ``lines_read`` finds in them)
_LINES: dict[int, tuple] = {}
_LINES_KEPT = 16  # sets of lines kept (one per board shape in use) before starting afresh


def lines_read(lines) -> tuple[dict[int, list[int]], tuple[Callable, ...]]:
    """What the orderings need of a board's lines, worked out once per set of lines (the
    boards of one shape share one ``lines()`` tuple): for each cell the numbers of the
    lines through it, and for each line a function from the cells to its marks (a tuple)."""
    kept = _LINES.get(id(lines))
    if kept is not None and kept[0] is lines:
        return kept[1]
    through: dict[int, list[int]] = {}
    for number, line in enumerate(lines):
        for cell in line:
            through.setdefault(cell, []).append(number)
    found = through, tuple(_reader(line) for line in lines)
    if type(lines) is tuple:  # a list could change under the kept answer
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        _LINES[id(lines)] = (lines, found)
    return found


def _reader(line: Sequence[int]) -> Callable:
    """A function from the cells to the marks in ``line``, as a tuple."""
    if len(line) > 1:
        return itemgetter(*line)
    return lambda cells: tuple(cells[cell] for cell in line)


def cell_of(state) -> Callable:
    """The function from a move to the cell it marks: the move itself on most boards,
    ``state.landing_cell`` where pieces fall (a Connect Four move is a column)."""
    land = getattr(state, "landing_cell", None)
    return land if land is not None else _itself


def _itself(move):
    return move


def _line_value(marks: Sequence[int]) -> int:
    return _value_of_counts(marks.count(X_DIGIT), marks.count(O_DIGIT))


def _value_of_counts(xs: int, os: int) -> int:
    """A line's value from how many X and O marks it holds (``line_score``'s terms)."""
    if xs and not os:
        return 10 ** (xs - 1)
    if os and not xs:
        return -10 ** (os - 1)
    return 0


@lru_cache(maxsize=1024)
def _changes_of_counts(xs: int, os: int) -> tuple[int, int]:
    """How a line's value changes when X marks one of its cells, and when O does."""
    now = _value_of_counts(xs, os)
    return _value_of_counts(xs + 1, os) - now, _value_of_counts(xs, os + 1) - now


def heuristic_order(state: Game, moves: list) -> list:
    """``moves`` best first for the player to move, by the line score after each move.

    Only the lines through a move change when it is played, so each move is scored by how
    much it changes those lines, without playing it (the same order as scoring the child).
    Each line's change is worked out once, for all the moves through it.
    """
    cells, lines = _board(state)
    mover = state.to_move
    through, readers = lines_read(lines)
    side = 0 if mover == MAX else 1  # the mark the move adds: X's or O's
    change = []
    for read in readers:
        marks = read(cells)
        change.append(_changes_of_counts(marks.count(X_DIGIT), marks.count(O_DIGIT))[side])
    cell_for = cell_of(state)

    def gain(move) -> int:
        return mover * sum([change[number] for number in through.get(cell_for(move), ())])

    return sorted(moves, key=gain, reverse=True)


def completes_line(cells: Sequence[int], lines, move: int, digit: int) -> bool:
    """Would marking ``move`` with ``digit`` fill a line whose other cells are all ``digit``?"""
    return move in _completing_cells(cells, lines, digit)


_LAST_POSITION: list = [((), (), {})]  # (cells, lines, {digit: the cells completing a line})


def _completing_cells(cells: Sequence[int], lines, digit: int) -> set:
    """Every cell ``completes_line`` says yes to, from one pass over the lines: in each line,
    its one cell that is not ``digit`` (all its cells, if none is). An ordering asks about
    each move of the same position in turn, so the last position's answer is kept (for
    cells and lines given as tuples, which cannot change under it)."""
    kept = _LAST_POSITION[0]
    if (kept[0] is not cells or kept[1] is not lines or type(cells) is not tuple
            or type(lines) is not tuple):
        kept = _LAST_POSITION[0] = (cells, lines, {})
    found = kept[2].get(digit)
    if found is None:
        found = kept[2][digit] = set()
        for line, read in zip(lines, lines_read(lines)[1]):
            if len(line) - read(cells).count(digit) <= 1:
                found.update([cell for cell in line if cells[cell] != digit] or line)
    return found


def threat_order(state: Game, moves: list) -> list:
    """Win now, else block the opponent's immediate win, else the rest, in the given order
    (a move read as the cell it marks, ``cell_of``)."""
    cells, lines = _board(state)
    mine, theirs, cell_for = DIGIT_OF[state.to_move], DIGIT_OF[-state.to_move], cell_of(state)
    wins = [m for m in moves if completes_line(cells, lines, cell_for(m), mine)]
    blocks = [m for m in moves
              if m not in wins and completes_line(cells, lines, cell_for(m), theirs)]
    rest = [m for m in moves if m not in wins and m not in blocks]
    return wins + blocks + rest


ORDERINGS: dict[str, Ordering] = {"heuristic": heuristic_order, "threats": threat_order}


def ordering_function(ordering: str | Ordering | None) -> Ordering | None:
    """The function behind an ``ordering`` option: None, a name in ``ORDERINGS``, or a callable."""
    if ordering is None or callable(ordering):
        return ordering
    if not isinstance(ordering, str):
        raise TypeError(f"ordering is None, a name or a function, not {type(ordering).__name__}")
    if ordering in ORDERINGS:
        return ORDERINGS[ordering]
    raise SearchOptionError(f"unknown ordering {short(ordering)}; choose None, "
                            f"{', '.join(repr(name) for name in ORDERINGS)} or a function")


class Killers:
    """The killer heuristic: per depth, the last ``slots`` moves that closed the window.

    A move that refuted one position often refutes its siblings too (the same threat is
    still there), so at the same depth it is tried first, if it is legal.
    """

    def __init__(self, slots: int = 2) -> None:
        if slots < 1:
            raise ValueError(f"killers need at least one slot per depth, not {slots}")
        self.slots = slots
        self.by_depth: dict[int, list[Hashable]] = {}

    def record(self, state: Game, depth: int, move) -> None:
        """Remember that ``move`` closed the window in ``state`` at ``depth`` (newest first)."""
        killers = self.by_depth.setdefault(depth, [])
        if move in killers:
            killers.remove(move)
        killers.insert(0, move)
        del killers[self.slots:]

    def first(self, state: Game, depth: int, moves: list) -> list:
        """``moves`` with this depth's killers moved to the front, the rest in order."""
        killers = [m for m in self.by_depth.get(depth, ()) if m in moves]
        if not killers:
            return moves
        return killers + [m for m in moves if m not in killers]


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
for _order in (heuristic_order, threat_order):
    argument_checks(_order, SearchOptionError, state=BOARD, moves=MOVES, also=also_legal_moves)
for _score in (line_score, open_lines):
    argument_checks(_score, SearchOptionError, state=BOARD)
argument_checks(Killers, SearchOptionError,
                slots=count(1, 100, "at least one slot per depth; more than a board's moves "
                                    "is no use"))
