"""Solving Connect Four exactly: small empty boards, and any position of any size (7x6 too).

X's value is +1 if X can force k in a row, -1 if O can, else 0. The search is a negamax over
the pieces of the player to move (``mine``) and all pieces (``taken``), in the column-major
layout of ``ttt_lib.boards.connect4`` (bit ``(rows+1)*c + r``, row 0 the lowest, a guard bit
over each column). What makes it fast, after Pascal Pons' solver:

- *threat cells*: the empty cells that would complete k in a row for a side, for all cells at
  once with shifts and ands. The player to move wins at once if a playable cell is one of its
  threats; if the opponent has two playable threats it loses; if one, it must block it;
- it never plays just below an opponent's threat (the opponent would then play on top and win):
  no such move left is a loss;
- moves are ordered by the threats they create, then centre columns first;
- a table of bounds (a value may be known only to be at least or at most something, after a
  cut-off), keyed by ``mine + taken`` (one int per position) or its mirror image, the smaller;
  a position no side can still win in (no window free of the other side's pieces) starts
  with the bounds that follow from that;
- at the root, two null-window questions: "does X at least draw?" and, if so, "does X win?"
  (asked in this order because on boards this small a draw or a loss for X is the common
  outcome: a loss then takes one question).

``Connect4Solver(columns, rows, k).solve()`` solves the empty board (at most ``MAX_CELLS``
cells) and returns ``{"columns", "rows", "k", "value", "nodes", "positions", "seconds"}``;
``progress(solver)`` is called every ``PROGRESS_EVERY`` nodes, and a ``KeyboardInterrupt``
leaves the figures so far in ``solver.nodes`` and ``solver.positions``.

``solve_position(state)`` is X's value of any ``ConnectFour`` position: the same search from
that position (``PositionSolver``, whose table outlives one position, so that the positions
of one game share their work). Values are W/D/L only; Pons' distance-to-win scores are
``connect4_score.position_score``'s. How long a solve takes depends on the empty cells
left: in pure Python, 7x6 positions of 24 or more discs in a few hundredths of a second, of
16 discs in a tenth of a second to a few seconds of CPU, the empty 7x6 board far beyond reach.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from operator import itemgetter

from ..boards.connect4 import ConnectFour, geometry_of
from ..errors import InvalidBoardError
from ..progress import ProgressLine
from .mnk_solve import BoardTooLargeError

MAX_CELLS = 30
"""The most cells the solver takes: 6x5 and 5x6 already store tens of millions of positions;
a bigger table would outgrow memory (and the search a day)."""
PROGRESS_EVERY = 1 << 14
LOW, HIGH = -1, 1  # the values: O wins, X wins (0: a draw)


def pack(low: int, high: int) -> int:
    """A table entry: the value is at least ``low`` and at most ``high``."""
    return (low + 1) << 2 | (high + 1)


def threat_cells_4(height: int) -> Callable[[int, int], int]:
    """``threat_cells(mine, empty)`` for four in a row with columns of ``height`` bits: Pons'
    shifts, unrolled, the shifts of each direction fixed once (a row ``height``, the
    diagonals ``height - 1`` and ``height + 1``)."""
    r1, d1, u1 = height, height - 1, height + 1
    r2, d2, u2, r3, d3, u3 = 2 * r1, 2 * d1, 2 * u1, 3 * r1, 3 * d1, 3 * u1

    def threat_cells(mine: int, empty: int) -> int:
        cells = mine << 1 & mine << 2 & mine << 3  # on top of three in a column
        up, down = mine << r1, mine >> r1  # one step along a row, each way
        cells |= up & mine << r2 & (mine << r3 | down) | down & mine >> r2 & (up | mine >> r3)
        up, down = mine << d1, mine >> d1  # along one diagonal
        cells |= up & mine << d2 & (mine << d3 | down) | down & mine >> d2 & (up | mine >> d3)
        up, down = mine << u1, mine >> u1  # along the other
        cells |= up & mine << u2 & (mine << u3 | down) | down & mine >> u2 & (up | mine >> u3)
        return cells & empty

    return threat_cells


def threat_cells(mine: int, empty: int, height: int, k: int) -> int:
    """The ``empty`` cells that give ``mine`` ``k`` in a row: for each direction and each
    place the missing cell can take in the run, the other ``k - 1`` cells all ``mine``."""
    cells = 0
    for shift in (1, height, height - 1, height + 1):
        for gap in range(k):
            run = empty
            for place in range(k):
                if place != gap:
                    step = (gap - place) * shift
                    run &= mine << step if step > 0 else mine >> -step
            cells |= run
    return cells & empty


class Connect4Solver:
    """The exact value of the empty Connect Four board for X (see the module's notes)."""

    def __init__(self, columns: int, rows: int, k: int = 4,
                 progress: Callable[["Connect4Solver"], None] | None = None) -> None:
        geometry = geometry_of(columns, rows, k)  # checks the three numbers
        if columns * rows > MAX_CELLS:
            raise BoardTooLargeError(
                f"columns*rows is at most {MAX_CELLS} cells for the exact solver, not "
                f"{columns}*{rows}={columns * rows}: the table of a larger board would "
                f"outgrow memory")
        self._prepare(geometry, progress)

    def _prepare(self, geometry, progress: Callable[["Connect4Solver"], None] | None) -> None:
        """What the search needs of the board size, and an empty table."""
        columns, k = geometry.columns, geometry.k
        self.geometry, self.k, self.height = geometry, k, geometry.height
        self.full, self.bottom_row = geometry.full, sum(geometry.bottom)
        centre = sorted(range(columns), key=lambda c: (abs(2 * c - columns + 1), c))
        self.order = [geometry.column[c] for c in centre]  # centre columns first
        self.step, self.chunk, *self.mirror_tables = geometry.mirror_tables
        self.threats = (threat_cells_4(self.height) if k == 4 else
                        partial(threat_cells, height=self.height, k=k))
        self.progress = progress
        self.nodes, self.table = 0, {}
        self.start = time.perf_counter()

    @property
    def positions(self) -> int:
        """Positions with a bound stored in the table."""
        return len(self.table)

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def solve(self) -> dict:
        """X's value of the empty board with the work it took."""
        self.start = time.perf_counter()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * MAX_CELLS + 200))
        try:
            threats = self.threats(0, self.full)  # none unless k = 1
            value = LOW if self.negamax(0, 0, threats, threats, -1, 0) < 0 else (
                HIGH if self.negamax(0, 0, threats, threats, 0, 1) > 0 else 0)
        finally:
            sys.setrecursionlimit(limit)
        return self.figures(value)

    def figures(self, value: int | None) -> dict:
        """The solve's figures (``value`` None if it was stopped)."""
        geometry = self.geometry
        return {"columns": geometry.columns, "rows": geometry.rows, "k": self.k,
                "value": value, "nodes": self.nodes, "positions": self.positions,
                "seconds": self.seconds()}

    # ---------------------------------------------------------------------------- search
    def negamax(self, mine: int, taken: int, threats: int, their_threats: int, alpha: int,
                beta: int) -> int:
        """The value for the player to move (pieces ``mine``; its threat cells ``threats``,
        the opponent's ``their_threats``) within (alpha, beta), fail-soft. The opponent's
        last move did not win: its parent would have played a win at once."""
        self.nodes += 1
        if self.nodes % PROGRESS_EVERY == 0 and self.progress is not None:
            self.progress(self)
        if taken == self.full:
            return 0
        playable = (taken + self.bottom_row) & self.full
        if threats & playable:
            return HIGH  # a win at once
        moves = safe_moves(playable, their_threats)
        if not moves:
            return LOW
        key = mine + taken
        mirrored = self.mirror(key)
        if mirrored < key:
            key = mirrored
        entry = self.table.get(key)
        if entry is None:
            low, high = self.bounds(mine, taken)
        else:
            low, high = (entry >> 2) - 1, (entry & 3) - 1
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
        best = self.search(mine, taken, their_threats, moves, alpha, beta)
        if best <= alpha:
            high = min(high, best)
        if best >= beta:
            low = max(low, best)
        if alpha < best < beta:
            low = high = best
        self.table[key] = pack(low, high)
        return best

    def bounds(self, mine: int, taken: int) -> tuple[int, int]:
        """(low, high): the value's bounds before any search. A side with no window free of
        the other's pieces can never win: the value is at most 0 if that side is the player
        to move, at least 0 if it is the opponent."""
        open_cells, wins = self.full ^ taken, self.geometry.wins
        return (LOW if wins(open_cells | mine ^ taken) else 0,
                HIGH if wins(open_cells | mine) else 0)

    def search(self, mine: int, taken: int, their_threats: int, moves: int, alpha: int,
               beta: int) -> int:
        """The best child value, best moves first, stopping at a cut-off; first, a child
        the table already shows to be good enough cuts off at once (a fifth fewer nodes
        on 6x4). A move changes only the mover's threats; the opponent's lose the cell
        just taken."""
        best, theirs = LOW - 1, mine ^ taken
        children = self.ordered(mine, taken, moves)
        table, mirror = self.table, self.mirror
        for _, move, _ in children:  # a child already known to refute: cut at once
            key = theirs + (taken | move)
            mirrored = mirror(key)
            entry = table.get(mirrored if mirrored < key else key)
            if entry is not None and 1 - (entry & 3) >= beta:
                return 1 - (entry & 3)
        for _, move, threats in children:
            value = -self.negamax(theirs, taken | move, their_threats & ~move, threats,
                                  -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def ordered(self, mine: int, taken: int, moves: int) -> list[tuple[int, int, int]]:
        """(minus the threats made, move, the mover's threat cells after it) for each one-bit
        move in ``moves``, sorted: the moves making the most threats first, then (the sort is
        stable) centre columns first."""
        empty, threats, children = self.full ^ taken, self.threats, []
        for column in self.order:
            move = moves & column
            if move:
                made = threats(mine | move, empty ^ move)
                children.append((-made.bit_count(), move, made))
        if len(children) > 1:
            children.sort(key=itemgetter(0))
        return children

    def mirror(self, key: int) -> int:
        """The key of the mirror image: ``mine + taken`` has no carry out of a column, so it
        mirrors column by column (``Geometry.mirror``), here with its tables unrolled."""
        tables, chunk, step = self.mirror_tables, self.chunk, self.step
        if len(tables) == 3:
            return (tables[0][key & chunk] | tables[1][key >> step & chunk]
                    | tables[2][key >> 2 * step])
        if len(tables) == 2:
            return tables[0][key & chunk] | tables[1][key >> step]
        return self.geometry.mirror(key)


class PositionSolver(Connect4Solver):
    """X's exact value of any position of one board size (7x6 included), by the same search
    from the position; the table is kept from one position to the next, so the positions
    of one game share their work."""

    def __init__(self, columns: int = 7, rows: int = 6, k: int = 4,
                 progress: Callable[["Connect4Solver"], None] | None = None) -> None:
        self._prepare(geometry_of(columns, rows, k), progress)
        self.mirrored = Connect4Solver.mirror.__get__(self)

    def value(self, state: ConnectFour) -> int:
        """X's value of ``state``: +1 X wins, 0 a draw, -1 O wins, with best play."""
        check_position_of(state, self.geometry)
        if state.won or state.x | state.o == self.full:
            return state.won
        # keys up to the mirror only from a position that is its own mirror image: from any
        # other, a mirrored transposition is rare and the look-up costs a third of the time
        # (a key and its mirror have the same value, so the table serves both kinds of key)
        self.mirror = self.mirrored if state.mirror() == state else same_key
        mine, theirs = (state.x, state.o) if state.to_move == HIGH else (state.o, state.x)
        taken = mine | theirs
        empty = self.full ^ taken
        threats, their_threats = self.threats(mine, empty), self.threats(theirs, empty)
        if self.negamax(mine, taken, threats, their_threats, LOW, 0) < 0:
            return LOW * state.to_move
        if self.negamax(mine, taken, threats, their_threats, 0, HIGH) > 0:
            return HIGH * state.to_move
        return 0

    def solve(self, state: ConnectFour) -> dict:
        """``{"value", "nodes", "positions", "seconds"}``: X's value of ``state`` and the work
        this one solve took (nodes searched, positions stored)."""
        nodes, positions, start = self.nodes, self.positions, time.perf_counter()
        value = self.value(state)
        return {"value": value, "nodes": self.nodes - nodes,
                "positions": self.positions - positions,
                "seconds": time.perf_counter() - start}


def same_key(key: int) -> int:
    """The key itself: no mirror image looked up."""
    return key


def check_position_of(state, geometry) -> None:
    """``state`` is a ``ConnectFour`` (TypeError) of the solver's board size (ValueError)."""
    if not isinstance(state, ConnectFour):
        raise TypeError(f"state is a ConnectFour position, not {type(state).__name__}")
    if state.geometry is not geometry:
        raise InvalidBoardError(
            f"state is a {state.columns}x{state.rows} k={state.k} board; this solver "
            f"takes {geometry.columns}x{geometry.rows} k={geometry.k}")


def solve_position(state: ConnectFour) -> int:
    """X's exact value of any Connect Four position (7x6 included): +1 if X can force a
    win, -1 if O can, 0 otherwise."""
    if not isinstance(state, ConnectFour):
        raise TypeError(f"state is a ConnectFour position, not {type(state).__name__}")
    return PositionSolver(state.columns, state.rows, state.k).value(state)


def safe_moves(playable: int, their_threats: int) -> int:
    """The cells worth playing (a mask): the one block if the opponent has one playable
    threat, none if it has two; never a cell just below an opponent's threat."""
    forced = playable & their_threats
    if forced:
        if forced & (forced - 1):
            return 0
        playable = forced
    return playable & ~(their_threats >> 1)


def solve_connect4(columns: int, rows: int, k: int = 4,
                   progress: Callable[[Connect4Solver], None] | None = None) -> dict:
    """X's value of the empty Connect Four board: ``{"columns", "rows", "k", "value",
    "nodes", "positions", "seconds"}``."""
    return Connect4Solver(columns, rows, k, progress).solve()


def format_figures(figures: dict) -> str:
    """The figures of a solve as a short report."""
    columns, rows, k, value = figures["columns"], figures["rows"], figures["k"], figures["value"]
    outcome = {1: "X (the first player) wins", 0: "a draw", -1: "O wins",
               None: "not known (stopped)"}[value]
    return (f"Connect Four, {columns} columns x {rows} rows, k={k}: {outcome}; "
            f"X's value {'?' if value is None else value}\n"
            f"nodes {figures['nodes']:,}, positions stored {figures['positions']:,}, "
            f"{figures['seconds']:.3f} s")


class SolveProgress(ProgressLine):
    """The solve's counter (nodes, nodes/s, positions), from ``after`` seconds of solving on."""

    def __call__(self, solver: Connect4Solver) -> None:
        seconds = solver.seconds()
        if self.due(seconds):
            self.write(f"{solver.nodes:,} nodes, {solver.nodes / seconds:,.0f} nodes/s, "
                       f"{solver.positions:,} positions, {seconds:.0f} s")
