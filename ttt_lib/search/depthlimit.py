"""Looking only a few moves ahead: depth-limited search and iterative deepening.

A real game is too big to search to the end, so the search stops ``depth`` moves ahead and
scores the positions there with a heuristic (``line_score`` by default). A finished game is
scored ``win`` times its utility, so a real win outweighs any heuristic score (``win`` must
exceed every ``|evaluate(state)|``: raise it for large boards with long lines).

Iterative deepening searches to depth 1, 2, 3... each time trying the previous best moves
first: it always has an answer ready, and stops by itself once a search saw every position
to the end of the game (the value is then exact).

What lies just beyond the depth limit is invisible, so a move can look best while it loses
(the horizon effect: ``ttt_lib.studies.horizon`` finds such positions).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..checks import DEPTH, FUNCTION, GAME, NUMBER, ORDERING, argument_checks, check_depth, maybe
from ..errors import SearchOptionError
from ..game import Game
from .pruning import INF, AlphaBeta
from .ordering import Ordering, line_score
from .trace import Stats

WIN = 10 ** 6  # beyond any line score: on 3x3 boards |line_score| <= 8 * 100


def depth_limited(state: Game, depth: int, evaluate: Callable[[Game], float] = line_score, *,
                  stats: Stats | None = None, ordering: str | Ordering | None = None,
                  win: float = WIN) -> float:
    """X's value of ``state`` looking ``depth`` moves ahead.

    Positions at the depth limit are scored by ``evaluate`` (X's view), finished games by
    ``win * utility``. Searched by alpha-beta, which gives the same value as depth-limited
    minimax with fewer nodes. ``stats`` observes the search from outside.
    """
    engine = AlphaBeta(depth=depth, evaluate=evaluate, win=win, ordering=ordering)
    return engine.observed(lambda: engine.value(state, -INF, INF), stats)


def depth_limited_choice(state: Game, depth: int,
                         evaluate: Callable[[Game], float] = line_score, *,
                         stats: Stats | None = None, win: float = WIN) -> tuple[float, list]:
    """X's value and every best move (sorted), looking ``depth`` (at least 1) moves ahead."""
    check_depth(depth, least=1)
    engine = AlphaBeta(depth=depth, evaluate=evaluate, win=win)
    return engine.observed(lambda: engine.root(state), stats, root=True)


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


def deepen_to_depth(state: Game, max_depth: int,
                    evaluate: Callable[[Game], float] = line_score, *,
                    ordering: str | Ordering | None = None,
                    win: float = WIN) -> list[Iteration]:
    """Iterative deepening to a fixed depth: depth-limited searches to depth 1, 2, ...
    ``max_depth``, best moves so far tried first (against a clock: ``iterative_deepening``).

    Stops early once a search is exact. Returns one ``Iteration`` per depth searched, with
    the nodes each round searched.
    """
    check_depth(max_depth, least=1)
    rounds: list[Iteration] = []
    first: list = []
    for depth in range(1, max_depth + 1):
        engine = AlphaBeta(depth=depth, evaluate=evaluate, win=win, ordering=ordering)
        moves = first + [move for move in engine.ordered_moves(state, 0) if move not in first]
        (value, first), nodes = nodes_searched(engine, state, moves)
        rounds.append(Iteration(depth, value, first, nodes, not engine.horizon_reached))
        if not engine.horizon_reached:
            break
    return rounds


def nodes_searched(engine: AlphaBeta, state: Game, moves: list) -> tuple[tuple, int]:
    """``engine.root(state, moves)`` and the number of nodes it searched."""
    work = Stats()
    result = engine.observed(lambda: engine.root(state, moves), work, root=True)
    return result, work.nodes


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
DEPTH_LIMITED = dict(state=GAME, depth=DEPTH, evaluate=FUNCTION, stats=maybe(Stats, "a Stats"),
                     ordering=ORDERING, win=NUMBER)
argument_checks(depth_limited, SearchOptionError, **DEPTH_LIMITED)
argument_checks(depth_limited_choice, SearchOptionError, **DEPTH_LIMITED)
argument_checks(deepen_to_depth, SearchOptionError, **DEPTH_LIMITED, max_depth=DEPTH)
argument_checks(Iteration, SearchOptionError)  # a record: nothing to check
