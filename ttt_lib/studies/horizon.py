"""The horizon effect: a move that looks best a few moves deep, and loses.

What lies just beyond the depth limit is invisible to a depth-limited search. ``horizon_positions``
finds the positions where every move such a search prefers is a mistake; ``HORIZON_EXAMPLE`` is
one of them, kept for the course.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..boards import BitBoard
from ..game import Game
from ..search.depthlimit import depth_limited_choice
from ..search.minimax import best_moves as exact_best_moves
from ..search.ordering import line_score


def horizon_positions(states: Iterable[Game], depth: int,
                      evaluate: Callable[[Game], float] = line_score) -> Iterator[Game]:
    """The positions where every move the depth-limited search prefers is a mistake."""
    for state in states:
        if state.is_terminal():
            continue
        _, chosen = depth_limited_choice(state, depth, evaluate)
        if not set(chosen) & set(exact_best_moves(state)):
            yield state


@dataclass(frozen=True)
class HorizonExample:
    """A position where looking ``depth`` moves ahead picks a move that loses."""

    text: str
    depth: int
    chosen: tuple[int, ...]   # the depth-limited search's best moves: each one loses
    optimal: tuple[int, ...]  # the exact best moves: each one draws

    def state(self) -> BitBoard:
        return BitBoard.from_text(self.text)


# O to move. Three moves deep, the corner 0 scores best: it threatens the diagonal 0-4-8.
# But X's forced block at 8 also threatens 2 (column) and 6 (row) at once, and that fork is
# decided beyond the horizon. Found by ``horizon_positions(all positions, 3)``; the tests
# search again.
HORIZON_EXAMPLE = HorizonExample(".../.OX/.X.", depth=3, chosen=(0,), optimal=(2, 6, 8))
