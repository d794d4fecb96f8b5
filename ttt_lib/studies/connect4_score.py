"""Pascal Pons' distance-to-win score of a Connect Four position: not only who wins, but how soon.

The score is for the player to move, in Pons' convention (his test sets and solvers, BitBully
among them, use it): 0 a draw; if the player to move wins with best play, ``(cells + 1 - n)
// 2`` where ``n`` is the number of discs on the board just before its winning disc (so a
win at the next move from ``n`` discs scores ``(cells + 1 - n) // 2``, a later win less);
if the opponent wins, minus the opponent's such score. On 7x6 an immediate win from the empty
board would score 21 and a loss at the last disc -1 (``cells`` is the board's cell count).

The course's value (+1, 0, -1, X's view: ``connect4_solve.solve_position``) is the sign of the
score, turned to X's side. The search is Pons': the same threats, anticipation of losing moves
and move order as ``PositionSolver``, a table of score bounds, and at the root a narrowing
window: null-window questions ("is the score above s?") with s halved towards 0 first, so the
common small scores are settled in a few questions. It takes more nodes than the W/D/L search.
"""
from __future__ import annotations

from ..boards.connect4 import ConnectFour
from .connect4_solve import PositionSolver, check_position_of, safe_moves


def truncated_half(score: int) -> int:
    """``score / 2`` rounded towards 0 (C's integer division, as in Pons' solver)."""
    return -(-score // 2) if score < 0 else score // 2


class ScoreSolver(PositionSolver):
    """Pons' score of any position of one board size; the table of score bounds outlives
    one position, like ``PositionSolver``'s (see the module's notes)."""

    def value(self, state: ConnectFour) -> int:
        """X's value of ``state`` (+1, 0, -1): the sign of the score, from X's side."""
        score = self.score(state)
        return ((score > 0) - (score < 0)) * state.to_move

    def score(self, state: ConnectFour) -> int:
        """The score of ``state`` for the player to move (0 if the game is over in a draw,
        negative if it is over with a win: the opponent's winning disc came last)."""
        check_position_of(state, self.geometry)
        cells, discs = self.full.bit_count(), (state.x | state.o).bit_count()
        if state.won:
            return -((cells + 2 - discs) // 2)  # the opponent won with disc number `discs`
        if discs == cells:
            return 0
        mine, theirs = (state.x, state.o) if state.to_move == 1 else (state.o, state.x)
        taken, empty = mine | theirs, self.full ^ (mine | theirs)
        threats, their_threats = self.threats(mine, empty), self.threats(theirs, empty)
        if threats & (taken + self.bottom_row) & self.full:
            return (cells + 1 - discs) // 2
        low, high = -((cells - discs) // 2), (cells + 1 - discs) // 2
        while low < high:  # narrowing null windows, each question halved towards 0 first
            middle = low + (high - low) // 2
            if middle <= 0 and truncated_half(low) < middle:
                middle = truncated_half(low)
            elif middle >= 0 and high // 2 > middle:
                middle = high // 2
            found = self.scored(mine, taken, threats, their_threats, middle, middle + 1)
            low, high = (low, found) if found <= middle else (found, high)
        return low

    def scored(self, mine: int, taken: int, threats: int, their_threats: int, alpha: int,
               beta: int) -> int:
        """The score for the player to move within (alpha, beta), fail-soft at a cut-off;
        the player to move cannot win at once (its parent saw to that)."""
        self.nodes += 1
        cells, discs = self.cells, taken.bit_count()
        moves = safe_moves((taken + self.bottom_row) & self.full, their_threats)
        if not moves:
            return -((cells - discs) // 2)  # the opponent wins with the next disc
        if discs >= cells - 2:
            return 0  # no win at once either way, and at most one disc each left
        key = mine + taken
        low, high = self.table.get(key, (-((cells - 2 - discs) // 2),
                                         (cells - 1 - discs) // 2))
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        theirs = mine ^ taken
        for _, move, made in self.ordered(mine, taken, moves):
            found = -self.scored(theirs, taken | move, their_threats & ~move, made, -beta,
                                 -alpha)
            if found >= beta:
                self.table[key] = (max(low, found), high)  # at least found
                return found
            alpha = max(alpha, found)
        self.table[key] = (low, min(high, alpha))  # at most alpha
        return alpha

    @property
    def cells(self) -> int:
        return self.full.bit_count()


def position_score(state: ConnectFour) -> int:
    """Pons' score of ``state`` for the player to move (see the module's notes): positive
    the player to move wins, the larger the sooner; 0 a draw; negative it loses."""
    if not isinstance(state, ConnectFour):
        raise TypeError(f"state is a ConnectFour position, not {type(state).__name__}")
    return ScoreSolver(state.columns, state.rows, state.k).score(state)
