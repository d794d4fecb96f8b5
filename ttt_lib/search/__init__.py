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
from .alphabeta import AlphaBeta, SearchOptionError, alphabeta, alphabeta_maxmin
from .chance_pruning import ChanceTrace, Star1, Star2, star1, star2
from .depthlimit import Iteration, depth_limited, depth_limited_choice, iterative_deepening
from .expectimax import epsilon_perfect, expectimax, expectimax_search, uniform_random
from .expectiminimax import (best_chance_moves, chance_value, expectiminimax,
                             expectiminimax_memo)
from .mcts import MCTSTree, flat_monte_carlo, mcts, random_playout, tree_stats
from .minimax import (best_moves, minimax, move_values, negamax, negamax_memo, negamax_step,
                      solve, solve_all)
from .observe import count_nodes, trace_calls
from .ordering import Killers, heuristic_order, line_score, open_lines, threat_order
from .pvs import pvs, pvs_search
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
