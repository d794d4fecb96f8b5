"""Principal variation search (NegaScout): prove the first move best with zero windows.

Once one move has been searched with the full window, PVS assumes it is the best and only
*tests* each later move with a zero-width window ``(alpha, alpha + 1)``: "can this move beat
alpha?". A test is cheap because nearly everything in it is pruned. When a test says yes
(and the move might still be below beta), the move is searched again with a real window to
get its value: a re-search, counted in ``stats.researches``. With good move ordering the
tests mostly fail and PVS does less work than alpha-beta; with bad ordering the re-searches
cost more than they save.

The values here are whole numbers, so a window one unit wide holds no value strictly inside
it. The result stays exact for any numbers (a test that lands inside the window is exact
itself), only less efficient.
"""
from __future__ import annotations

import math

from ..game import MAX, Game
from .alphabeta import check_window
from .ordering import Ordering, ordering_function
from .watch import QUIET, Path, Stats, Trace, Watch, watching

INF = math.inf


def pvs(state: Game, alpha: float = -INF, beta: float = INF, *, stats: Stats | None = None,
        trace: Trace | None = None, watch: Watch | None = None,
        ordering: str | Ordering | None = None) -> float:
    """X's value of ``state`` by principal variation search in the window ``(alpha, beta)``.

    ``ordering`` is None, "heuristic", "threats" or a function, as for ``alphabeta``.
    """
    check_window(alpha, beta)
    watch, order = watching(stats, trace, watch), ordering_function(ordering)
    if state.to_move == MAX:
        return pvs_search(state, alpha, beta, watch, order)
    return -pvs_search(state, -beta, -alpha, watch, order)


def pvs_search(state: Game, alpha: float, beta: float, watch: Watch = QUIET,
               order: Ordering | None = None, path: Path = ()) -> float:
    """The value of ``state`` for the player to move (negamax form, fail-soft).

    ``order`` sorts the moves (None: the game's order); ``path`` is the moves from the
    search's root to ``state``.
    """
    watch.enter(state, path, alpha, beta, -INF)
    if state.is_terminal():
        return watch.leaf(state, state.to_move * state.utility(), path)
    moves = state.moves() if order is None else order(state, state.moves())
    best = -INF
    for i, move in enumerate(moves):
        child, child_path = state.play(move), path + (move,)
        if i == 0:
            value = -pvs_search(child, -beta, -alpha, watch, order, child_path)
        else:
            value = -pvs_search(child, -alpha - 1, -alpha, watch, order, child_path)
            if alpha < value < beta:  # the test says this move beats alpha: find by how much
                watch.research(child, child_path)
                value = -pvs_search(child, -beta, -value, watch, order, child_path)
        if value > best:
            best = value
            watch.new_best(child, state, child_path)
        if best > alpha:
            alpha = best
            watch.improve(child, state, child_path, "alpha", alpha)
        if alpha >= beta:
            watch.cutoff(state, alpha, beta, path)
            break
    watch.exit(state, path, alpha, beta, best)
    return best
