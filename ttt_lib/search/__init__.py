"""Search algorithms, each written once over the game protocol of ``ttt_lib.game``.

Every search returns a value from X's point of view (``negamax``, ``negamax_memo`` and the
recursive cores ``AlphaBeta.search`` and ``pvs_search``, which score for the player to move,
say so). A search is the algorithm alone: ``trace_calls`` and ``count_nodes`` (``observe.py``)
watch any search function from outside, the library's or a student's, and give a ``Trace`` or
``Stats``; the public entry points also take ``stats=`` and ``trace=``.

A search module says what it offers in ``REPORT_ROWS`` (its rows of the node-count report,
collected by ``ttt_lib.studies.nodes``); a new search is one new file here.

This layer knows only the game protocol: the boards, pictures, agents and the course's
experiments (``ttt_lib.studies``) sit above it.
"""
from .pruning import AlphaBeta, SearchOptionError, alphabeta, alphabeta_maxmin
from .chance_pruning import ChanceTrace, Star1, Star2, star1, star2
from .depthlimit import Iteration, depth_limited, depth_limited_choice, iterative_deepening
from .opponent_model import epsilon_perfect, expectimax, expectimax_search, uniform_random
from .chance import best_chance_moves, chance_value, expectiminimax, expectiminimax_memo
from .monte_carlo import MCTSTree, flat_monte_carlo, mcts, random_playout, tree_stats
from .exact import (best_moves, minimax, move_values, negamax, negamax_memo, negamax_step,
                    solve, solve_all)
from .observe import count_nodes, trace_calls
from .ordering import Killers, heuristic_order, line_score, open_lines, threat_order
from .principal_variation import pvs, pvs_search
from .trace import Stats, Trace, TraceEvent, compare_traces, node_name

__all__ = [
    "AlphaBeta", "ChanceTrace", "Iteration", "Star1", "Star2", "best_chance_moves",
    "chance_value", "expectiminimax", "expectiminimax_memo", "star1", "star2", "Killers",
    "MCTSTree", "SearchOptionError", "Stats", "Trace", "TraceEvent", "alphabeta",
    "alphabeta_maxmin", "best_moves", "compare_traces", "count_nodes", "depth_limited",
    "depth_limited_choice", "epsilon_perfect", "expectimax", "expectimax_search",
    "flat_monte_carlo",
    "heuristic_order", "iterative_deepening", "line_score", "mcts", "minimax", "move_values",
    "negamax", "negamax_memo", "negamax_step", "node_name", "open_lines", "pvs", "pvs_search",
    "random_playout", "solve", "solve_all", "threat_order", "trace_calls", "tree_stats",
    "uniform_random",
]
from .continuation import (PLAIN, Continuation, alphabeta_continued, continued_choice,
                           nothing_forced, root_choice, threats)
from .deepening import Clock, Clocked, Deepening, Round, TimeUp

# The clock-driven iterative deepening is ttt_lib.search.deepening.iterative_deepening;
# ttt_lib.search.iterative_deepening stays depthlimit's (a fixed max_depth) until they merge.
__all__ += ["PLAIN", "Clock", "Clocked", "Continuation", "Deepening", "Round", "TimeUp",
            "alphabeta_continued",
            "continued_choice", "nothing_forced", "root_choice", "threats"]

# ----------------------------------------------------------------- the checked entry points
# Each public function is the algorithm behind a check of its arguments (``ttt_lib.checks``):
# ``ttt_lib.search.minimax("X........")`` is refused with a TypeError before the search starts,
# once, while the recursion inside calls the plain ``search.exact.minimax``, which checks
# nothing. ``show_source``, ``count_nodes`` and ``trace_calls`` see the plain algorithm.
import math

from ..checks import (COUNT, DEPTH, FLAG, FUNCTION, GAME, MOVES, NUMBER, PLAYER, RNG, SEED,
                      STATE, TABLE, check_init, choice, count, either, instance, optional, publish)
from .checks import BOARD, ORDERING, also_legal_moves, also_window

_STATS, _TRACE = optional(instance(Stats, "a Stats")), optional(instance(Trace, "a Trace"))
_MEMO = dict(state=GAME, table=optional(TABLE), stats=_STATS)
_CHANCE = dict(_MEMO, symmetry=FLAG)
_WINDOW = dict(state=GAME, alpha=NUMBER, beta=NUMBER)
_DEPTH = dict(state=GAME, depth=DEPTH, evaluate=FUNCTION, stats=_STATS, ordering=ORDERING,
              win=NUMBER)
_MONTE = dict(state=GAME, seed=SEED, rng=optional(RNG))
_CONTINUED = dict(state=GAME, depth=DEPTH, rules=instance(Continuation, "a Continuation"))
publish(globals(), SearchOptionError, {
    "minimax": dict(state=GAME), "negamax": dict(state=GAME),
    "negamax_memo": dict(state=GAME, table=TABLE), "negamax_step": dict(state=GAME, table=TABLE),
    "solve": _MEMO, "best_moves": _MEMO, "move_values": dict(state=GAME, value_of=FUNCTION),
    "solve_all": dict(root=GAME),
    "alphabeta": dict(_WINDOW, stats=_STATS, trace=_TRACE, form=choice("negamax", "maxmin"),
                      fail=choice("soft", "hard"), symmetry=FLAG, ordering=ORDERING,
                      killers=FLAG, also=also_window),
    "alphabeta_maxmin": dict(_WINDOW, also=also_window),
    "pvs": dict(_WINDOW, stats=_STATS, trace=_TRACE, ordering=ORDERING, also=also_window),
    "pvs_search": dict(_WINDOW, order=optional(FUNCTION), also=also_window),
    "star1": dict(state=GAME, low=NUMBER, high=NUMBER, stats=_STATS, trace=_TRACE,
                  also=also_window),
    "star2": dict(state=GAME, low=NUMBER, high=NUMBER, stats=_STATS, trace=_TRACE,
                  also=also_window),
    "chance_value": _CHANCE, "best_chance_moves": _CHANCE,
    "expectiminimax": dict(state=GAME),
    "expectiminimax_memo": dict(state=GAME, table=TABLE, symmetry=FLAG),
    "expectimax": dict(state=GAME, player=PLAYER, opponent_model=FUNCTION, stats=_STATS),
    "expectimax_search": dict(state=GAME, player=PLAYER, opponent_model=FUNCTION),
    "uniform_random": dict(state=STATE),
    "depth_limited": _DEPTH, "depth_limited_choice": _DEPTH,
    "iterative_deepening": dict(_DEPTH, max_depth=DEPTH),
    "mcts": dict(_MONTE, playouts=COUNT, c=NUMBER, shared=FLAG, solver=FLAG,
                 evaluate=FUNCTION),
    "flat_monte_carlo": _MONTE,  # its playouts: checked in its listing already
    "random_playout": dict(state=GAME, rng=RNG),
    "tree_stats": dict(tree=instance(MCTSTree, "an MCTSTree")),
    "count_nodes": dict(fn=FUNCTION, state=GAME), "trace_calls": dict(fn=FUNCTION, state=GAME),
    "heuristic_order": dict(state=BOARD, moves=MOVES, also=also_legal_moves),
    "threat_order": dict(state=BOARD, moves=MOVES, also=also_legal_moves),
    "line_score": dict(state=BOARD), "open_lines": dict(state=BOARD),
    "threats": dict(state=BOARD), "nothing_forced": dict(state=BOARD),
    "node_name": dict(state=STATE),
    "compare_traces": dict(mine=instance(Trace, "a Trace"),
                           reference=instance(Trace, "a Trace")),
    "alphabeta_continued": dict(_CONTINUED, alpha=NUMBER, beta=NUMBER, also=also_window),
    "continued_choice": _CONTINUED,
    "root_choice": dict(state=GAME, depth=DEPTH, search=FUNCTION, moves=MOVES,
                        also=also_legal_moves),
})
check_init(AlphaBeta, SearchOptionError, fail=choice("soft", "hard"), symmetry=FLAG,
           ordering=ORDERING,  # killers: True, False or any object with Killers' methods
           depth=optional(DEPTH), evaluate=optional(FUNCTION), win=NUMBER)
check_init(Killers, SearchOptionError,
           slots=count(1, 100, "at least one slot per depth; more than a board's moves is no use"))
check_init(MCTSTree, SearchOptionError, state=GAME, c=NUMBER, shared=FLAG, solver=FLAG,
           seed=SEED, rng=optional(RNG), evaluate=FUNCTION)
check_init(Star1, SearchOptionError, low=NUMBER, high=NUMBER, also=also_window)
check_init(Star2, SearchOptionError, low=NUMBER, high=NUMBER, also=also_window)
check_init(Clock, SearchOptionError, seconds=optional(NUMBER),  # a budget, not work: any size
           nodes=optional(count(0, math.inf)))
check_init(Clocked, SearchOptionError, state=STATE, clock=instance(Clock, "a Clock"))
check_init(Trace, SearchOptionError, infinity=NUMBER)
check_init(ChanceTrace, SearchOptionError, infinity=NUMBER)
