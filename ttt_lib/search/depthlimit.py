"""Looking only a few moves ahead: depth-limited search, iterative deepening, the horizon effect.

A real game is too big to search to the end, so the search stops ``depth`` moves ahead and
scores the positions there with a heuristic (``line_score`` by default). A finished game is
scored ``win`` times its utility, so a real win outweighs any heuristic score (``win`` must
exceed every ``|evaluate(state)|``: raise it for large boards with long lines).

Iterative deepening searches to depth 1, 2, 3... each time trying the previous best moves
first: it always has an answer ready, and stops by itself once a search saw every position
to the end of the game (the value is then exact).

The horizon effect: what lies just beyond the depth limit is invisible, so a move can look best
while it loses. ``HORIZON_EXAMPLE`` is such a position, found by ``horizon_positions``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..bitboard import BitBoard
from ..game import Game
from .alphabeta import INF, AlphaBeta, check_depth
from .minimax import best_moves as exact_best_moves
from .ordering import Ordering, line_score
from .stats import Stats

WIN = 10 ** 6  # beyond any line score: on 3x3 boards |line_score| <= 8 * 100


def depth_limited(state: Game, depth: int, evaluate: Callable[[Game], float] = line_score, *,
                  stats: Stats | None = None, ordering: str | Ordering | None = None,
                  win: float = WIN) -> float:
    """X's value of ``state`` looking ``depth`` moves ahead.

    Positions at the depth limit are scored by ``evaluate`` (X's view), finished games by
    ``win * utility``. Searched by alpha-beta, which gives the same value as depth-limited
    minimax with fewer nodes.
    """
    engine = AlphaBeta(depth=depth, evaluate=evaluate, win=win, stats=stats, ordering=ordering)
    return engine.value(state, -INF, INF)


def depth_limited_choice(state: Game, depth: int,
                         evaluate: Callable[[Game], float] = line_score, *,
                         stats: Stats | None = None, win: float = WIN) -> tuple[float, list]:
    """X's value and every best move (sorted), looking ``depth`` (at least 1) moves ahead."""
    check_depth(depth, least=1)
    return AlphaBeta(depth=depth, evaluate=evaluate, win=win, stats=stats).root(state)


@dataclass(frozen=True)
class Iteration:
    """One round of iterative deepening.

    ``exact`` is true when no position was scored by the heuristic: the search reached the
    end of the game everywhere, so ``value`` is the game's value times ``win``.
    """

    depth: int
    value: float
    best_moves: list
    nodes: int
    exact: bool


def iterative_deepening(state: Game, max_depth: int,
                        evaluate: Callable[[Game], float] = line_score, *,
                        stats: Stats | None = None, ordering: str | Ordering | None = None,
                        win: float = WIN) -> list[Iteration]:
    """Depth-limited searches to depth 1, 2, ... ``max_depth``, best moves so far tried first.

    Stops early once a search is exact. Returns one ``Iteration`` per depth searched.
    """
    check_depth(max_depth, least=1)
    rounds: list[Iteration] = []
    first: list = []
    for depth in range(1, max_depth + 1):
        work = Stats()
        engine = AlphaBeta(depth=depth, evaluate=evaluate, win=win, stats=work,
                           ordering=ordering)
        moves = first + [move for move in engine.ordered_moves(state, 0) if move not in first]
        value, first = engine.root(state, moves)
        rounds.append(Iteration(depth, value, first, work.nodes, not engine.horizon_reached))
        if stats is not None:
            for name, count in work.as_dict().items():
                setattr(stats, name, getattr(stats, name) + count)
        if not engine.horizon_reached:
            break
    return rounds


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

