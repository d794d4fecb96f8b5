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
from .stats import Stats
from .trace import Trace

INF = math.inf


def pvs(state: Game, alpha: float = -INF, beta: float = INF, *, stats: Stats | None = None,
        trace: Trace | None = None, ordering: str | Ordering | None = None) -> float:
    """X's value of ``state`` by principal variation search in the window ``(alpha, beta)``.

    ``ordering`` is None, "heuristic", "threats" or a function, as for ``alphabeta``.
    """
    check_window(alpha, beta)
    order = ordering_function(ordering)
    if state.to_move == MAX:
        return _pvs(state, alpha, beta, 0, stats, trace, order)
    return -_pvs(state, -beta, -alpha, 0, stats, trace, order)


def _pvs(state: Game, alpha: float, beta: float, depth: int, stats: Stats | None,
         trace: Trace | None, order: Ordering | None) -> float:
    """The value of ``state`` for the player to move (negamax form, fail-soft)."""
    if stats is not None:
        stats.nodes += 1
    if trace is not None:
        trace.enter(state, depth, alpha, beta, -INF)
    if state.is_terminal():
        value = state.to_move * state.utility()
        if stats is not None:
            stats.leaves += 1
        if trace is not None:
            trace.leaf(state, depth, value)
        return value
    moves = state.moves() if order is None else order(state, state.moves())
    best = -INF
    for i, move in enumerate(moves):
        child = state.play(move)
        if i == 0:
            value = -_pvs(child, -beta, -alpha, depth + 1, stats, trace, order)
        else:
            value = -_pvs(child, -alpha - 1, -alpha, depth + 1, stats, trace, order)
            if alpha < value < beta:  # the test says this move beats alpha: find by how much
                if stats is not None:
                    stats.researches += 1
                value = -_pvs(child, -beta, -value, depth + 1, stats, trace, order)
        if value > best:
            best = value
            if trace is not None:
                trace.new_best(child, state, depth + 1)
            if best > alpha:
                alpha = best
                if trace is not None:
                    trace.improve(child, state, depth + 1, "alpha", alpha)
        if alpha >= beta:
            if stats is not None:
                stats.cutoffs += 1
            if trace is not None:
                trace.cutoff(state, depth, alpha, beta)
            break
    if trace is not None:
        trace.exit(state, depth, alpha, beta, best)
    return best
