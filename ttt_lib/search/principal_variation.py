"""Principal variation search (NegaScout): prove the first move best with zero windows.

Once one move has been searched with the full window, PVS assumes it is the best and only
*tests* each later move with a zero-width window ``(alpha, alpha + 1)``: "can this move beat
alpha?". A test is cheap because nearly everything in it is pruned. When a test says yes
(and the move might still be below beta), the move is searched again with a real window to
get its value: a re-search (``count_nodes`` counts them in ``researches``). With good move ordering the
tests mostly fail and PVS does less work than alpha-beta; with bad ordering the re-searches
cost more than they save.

The values here are whole numbers, so a window one unit wide holds no value strictly inside
it. The result stays exact for any numbers (a test that lands inside the window is exact
itself), only less efficient.
"""
from __future__ import annotations

import math

from ..checks import FUNCTION, ORDERING, argument_checks, check_window, optional
from ..errors import SearchOptionError
from ..game import MAX, Game
from .pruning import OBSERVERS, WINDOW
from .observe import observed
from .ordering import Ordering, ordering_function
from .report import ReportRow
from .trace import Stats, Trace

INF = math.inf


def pvs(state: Game, alpha: float = -INF, beta: float = INF, *, stats: Stats | None = None,
        trace: Trace | None = None, ordering: str | Ordering | None = None) -> float:
    """X's value of ``state`` by principal variation search in the window ``(alpha, beta)``.

    ``ordering`` is None, "heuristic", "threats" or a function, as for ``alphabeta``;
    ``stats`` / ``trace`` observe the search from outside.
    """
    check_window(alpha, beta)
    order = ordering_function(ordering)
    if state.to_move == MAX:
        run = lambda: pvs_search(state, alpha, beta, order)
    else:
        run = lambda: -pvs_search(state, -beta, -alpha, order)
    return observed(run, [pvs_search], (), stats, trace)


def pvs_search(state: Game, alpha: float, beta: float, order: Ordering | None = None) -> float:
    """The value of ``state`` for the player to move (negamax form, fail-soft);
    ``order`` sorts the moves (None: the game's order)."""
    if state.is_terminal():
        return state.to_move * state.utility()
    moves = state.moves() if order is None else order(state, state.moves())
    best = -INF
    for i, move in enumerate(moves):
        child = state.play(move)
        if i == 0:
            value = -pvs_search(child, -beta, -alpha, order)
        else:
            value = -pvs_search(child, -alpha - 1, -alpha, order)
            if alpha < value < beta:  # the test says this move beats alpha: find by how much
                value = -pvs_search(child, -beta, -value, order)
        best = max(best, value)
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
argument_checks(pvs, SearchOptionError, **WINDOW, **OBSERVERS, ordering=ORDERING)
argument_checks(pvs_search, SearchOptionError, **WINDOW, order=optional(FUNCTION))

# The node-count report's rows from this module (see ``ttt_lib.studies.nodes``).
REPORT_ROWS = [
    ReportRow("PVS", pvs, {}, after="alpha-beta + killers"),
    ReportRow("PVS + heuristic order", pvs, {"ordering": "heuristic"}, after="PVS"),
]
