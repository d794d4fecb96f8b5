"""Search algorithms, each written once over the game protocol of ``ttt_lib.game``.

Every search returns a value from X's point of view (``negamax``, ``negamax_memo`` and the
recursive cores ``AlphaBeta.search`` and ``pvs_search``, which score for the player to move,
say so). Each reports to one observer (``watch.py``): ``Stats`` counts the work, ``Trace``
records each step; the public entry points also take ``stats=`` and ``trace=``.

This layer knows only the game protocol: the boards, pictures, agents and the course's
experiments (``ttt_lib.studies``) sit above it.
"""
from .alphabeta import AlphaBeta, SearchOptionError, alphabeta, alphabeta_maxmin
from .chance_pruning import ChanceTrace, Star1, Star2, star1, star2
from .depthlimit import Iteration, depth_limited, depth_limited_choice, iterative_deepening
from .expectimax import epsilon_perfect, expectimax, uniform_random
from .expectiminimax import (best_chance_moves, chance_value, expectiminimax,
                             expectiminimax_memo)
from .mcts import MCTSTree, flat_monte_carlo, mcts, random_playout
from .minimax import (best_moves, minimax, move_values, negamax, negamax_memo, solve,
                      solve_all)
from .ordering import Killers, heuristic_order, line_score, open_lines, threat_order
from .pvs import pvs, pvs_search
from .watch import QUIET, Stats, Trace, TraceEvent, Watch, Watchers, node_name, watching

__all__ = [
    "AlphaBeta", "ChanceTrace", "Iteration", "Star1", "Star2", "best_chance_moves",
    "chance_value", "expectiminimax", "expectiminimax_memo", "star1", "star2", "Killers", "MCTSTree", "QUIET", "SearchOptionError", "Stats",
    "Trace", "TraceEvent", "Watch", "Watchers", "alphabeta", "alphabeta_maxmin", "best_moves",
    "depth_limited", "depth_limited_choice", "epsilon_perfect", "expectimax",
    "flat_monte_carlo", "heuristic_order", "iterative_deepening", "line_score", "mcts",
    "minimax", "move_values", "negamax", "negamax_memo", "node_name", "open_lines", "pvs", "pvs_search",
    "random_playout", "solve", "solve_all", "threat_order", "uniform_random", "watching",
]
from .continuation import (PLAIN, Continuation, alphabeta_continued, continued_choice,
                           nothing_forced, root_choice, threats)
from .deepening import Clock, Clocked, Deepening, Round, TimeUp

# The clock-driven iterative deepening is ttt_lib.search.deepening.iterative_deepening;
# ttt_lib.search.iterative_deepening stays depthlimit's (a fixed max_depth) until they merge.
__all__ += ["PLAIN", "Clock", "Clocked", "Continuation", "Deepening", "Round", "TimeUp",
            "alphabeta_continued",
            "continued_choice", "nothing_forced", "root_choice", "threats"]
