"""Solving bigger m,n,k-games exactly: two yes/no searches with threats and per-cell windows.

X's value of the empty board is +1 if X can force k in a row, -1 if O can, else 0. So the
solver asks two yes/no questions, "can the attacker force a line?" with X and then O as the
attacker, each an AND/OR search over bitboards (``ttt_lib.boards.shape``) with its own table
of settled positions. What makes it fast is what it knows about windows (the runs of k cells):

- a *threat* is a window holding k-1 of one side's marks and nothing of the other's: its free
  cell wins at once. The side to move wins if it has a threat; otherwise, if the opponent has
  two threats it loses, and if one, it must block it (the only move searched);
- the attacker cannot win once no window is free of the defender's marks (a *dead* position);
- a window holding both sides' marks stays dead for both, so each position hands its
  children only the windows still live there, and they look at no other;
- moves are tried best first: each cell scores the windows through it that are still live for
  either side, a window with more marks much more; a cell on no live window is never tried;
- near the root, symmetric positions share one table entry (the canonical key).

``MNKSolver(m, n, k).solve()`` returns ``{"m", "n", "k", "value", "nodes", "positions",
"seconds"}``; ``progress(solver)`` is called every ``PROGRESS_EVERY`` nodes, and a
``KeyboardInterrupt`` leaves the figures so far in ``solver.nodes`` / ``solver.positions``.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from ..boards.shape import shape_of
from ..progress import ProgressLine

# The table grows about tenfold with each extra row of four or five cells (4x4 k=4: 20,000
# positions; 5x4: 330,000; 5x5: 1.8 million): past 30 cells a solve outgrows memory.
MAX_CELLS = 30
SYMMETRY_MARKS = 6  # positions with at most this many marks are keyed up to symmetry
PROGRESS_EVERY = 1 << 14
WIN, LOSS, DEAD = "win", "loss", "dead"  # what ``moves`` finds instead of moves to search
WEIGHT = [1 << 2 * marks for marks in range(32)]  # a window with more marks counts much more


class BoardTooLargeError(ValueError):
    """A board with more cells than the exact solver can hold."""


class MNKSolver:
    """The exact value of the empty m,n,k board for X (see the module's notes)."""

    def __init__(self, m: int, n: int, k: int,
                 progress: Callable[["MNKSolver"], None] | None = None) -> None:
        shape = shape_of(m, n, k)  # checks the three numbers
        if shape.size > MAX_CELLS:
            raise BoardTooLargeError(
                f"m*n is at most {MAX_CELLS} cells for the exact solver, not {m}*{n}="
                f"{shape.size}: the table of a larger board would outgrow memory")
        self.shape, self.k, self.size = shape, k, shape.size
        self.windows = [(w, tuple(c for c in range(shape.size) if w >> c & 1), 0)
                        for w in shape.line_masks]  # (mask, cells, marks) of every window
        self.progress = progress
        self.nodes, self.tables = 0, [{}, {}]
        self.start = time.perf_counter()

    @property
    def positions(self) -> int:
        """Positions settled and stored in the two tables."""
        return sum(len(table) for table in self.tables)

    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def solve(self) -> dict:
        """X's value of the empty board with the work it took."""
        self.start = time.perf_counter()
        value = 0
        if self.attacker_wins(0):
            value = 1
        elif self.attacker_wins(1):
            value = -1
        return self.figures(value)

    def figures(self, value: int | None) -> dict:
        """The solve's figures (``value`` None if it was stopped)."""
        m, n, k = self.shape.m, self.shape.n, self.k
        return {"m": m, "n": n, "k": k, "value": value, "nodes": self.nodes,
                "positions": self.positions, "seconds": self.seconds()}

    def attacker_wins(self, attacker: int) -> bool:
        """Can X (``attacker`` 0) or O (1) force k in a row from the empty board?"""
        self.table = self.tables[attacker]
        if attacker == 0:
            return self.attack(0, 0, self.windows)
        return self.defend(0, 0, self.windows)  # X moves first: the defender

    # ------------------------------------------------------------------ the two searches
    def attack(self, a: int, d: int, windows: list) -> bool:
        """The attacker (marks ``a``) is to move: can it force a line? ``windows`` holds
        every window that may still be live (those of the position before)."""
        key, known = self.look_up(a, d)
        if known is not None:
            return known
        moves, live = self.moves(a, d, windows, attacking=True)
        if isinstance(moves, list):
            result = any(self.defend(a | 1 << c, d, live) for c in moves)
        else:
            result = moves == WIN
        self.table[key] = result
        return result

    def defend(self, a: int, d: int, windows: list) -> bool:
        """The defender (marks ``d``) is to move: does the attacker still force a line?"""
        key, known = self.look_up(a, d)
        if known is not None:
            return known
        moves, live = self.moves(d, a, windows, attacking=False)
        if isinstance(moves, list):
            result = all(self.attack(a, d | 1 << c, live) for c in moves)
        else:
            result = moves == LOSS
        self.table[key] = result
        return result

    def look_up(self, a: int, d: int) -> tuple[int, bool | None]:
        """The table key of the position and its stored result (None if not settled)."""
        self.nodes += 1
        if self.nodes % PROGRESS_EVERY == 0 and self.progress is not None:
            self.progress(self)
        key = a << self.size | d
        if (a | d).bit_count() <= SYMMETRY_MARKS:
            key = self.shape.canonical(key)
        return key, self.table.get(key)

    # --------------------------------------------------------------- windows and threats
    def moves(self, me: int, them: int, windows: list,
              attacking: bool) -> tuple[str | list[int], list]:
        """The side to move (marks ``me``): WIN (it has a threat), LOSS (the opponent has
        two), DEAD (the board is full, or no window is live for the attacker), or the cells
        worth searching, best first (only the block when the opponent has one threat); and
        the windows of ``windows`` still live, with their marks."""
        k1, free = self.k - 1, self.shape.full & ~(me | them)
        defender = them if attacking else me
        mine = theirs = 0  # threat cells of each side
        alive = False  # is some window free of the defender's marks?
        live = []  # (mask, cells, marks) of each window still open to one side
        for w, cells, _ in windows:
            if not w & them:
                count = (w & me).bit_count()
                if count == k1:
                    mine |= w & free
            elif not w & me:
                count = (w & them).bit_count()
                if count == k1:
                    theirs |= w & free
            else:
                continue  # both sides' marks: dead for both
            alive = alive or not w & defender
            live.append((w, cells, count))
        if mine:
            return WIN, live
        if theirs:
            return (LOSS if theirs & theirs - 1 else [theirs.bit_length() - 1]), live
        if not free or not alive:
            return DEAD, live
        return self.best_first(free, live), live

    def best_first(self, free: int, live: list) -> list[int]:
        """The free cells on a live window, those on more windows with more marks first.

        A cell on no live window is dead for both sides: marking it is a pass, and a pass is
        never better than another move (an extra mark never hurts its owner), so it is left
        out; a live window of the attacker always has a free cell, so the list is not empty.
        """
        score = [0] * self.size
        for _, cells, count in live:
            weight = WEIGHT[count]
            for c in cells:
                score[c] += weight
        return sorted((c for c in self.shape.cells_in(free) if score[c]),
                      key=score.__getitem__, reverse=True)


def solve_mnk(m: int, n: int, k: int,
              progress: Callable[[MNKSolver], None] | None = None) -> dict:
    """X's value of the empty m,n,k board: ``{"m", "n", "k", "value", "nodes", "positions",
    "seconds"}``."""
    return MNKSolver(m, n, k, progress).solve()


def format_figures(figures: dict) -> str:
    """The figures of a solve as a short report."""
    m, n, k, value = figures["m"], figures["n"], figures["k"], figures["value"]
    outcome = {1: "X (the first player) wins", 0: "a draw", -1: "O wins",
               None: "not known (stopped)"}[value]
    return (f"{m}x{n}, k={k}: {outcome}; X's value {'?' if value is None else value}\n"
            f"nodes {figures['nodes']:,}, positions stored {figures['positions']:,}, "
            f"{figures['seconds']:.3f} s")


class SolveProgress(ProgressLine):
    """The solve's counter (nodes, nodes/s, positions), from ``after`` seconds of solving on."""

    def __call__(self, solver: MNKSolver) -> None:
        seconds = solver.seconds()
        if self.due(seconds):
            self.write(f"{solver.nodes:,} nodes, {solver.nodes / seconds:,.0f} nodes/s, "
                       f"{solver.positions:,} positions, {seconds:.0f} s")
