"""Search algorithms, each written once over the game protocol of ``ttt_lib.game``.

Every search returns a value from X's point of view (``negamax`` and ``negamax_memo``, which
score for the player to move, say so), and takes optional ``stats`` and ``trace`` arguments.
"""
from .alphabeta import AlphaBeta, SearchOptionError, alphabeta, alphabeta_maxmin
from .depthlimit import (HORIZON_EXAMPLE, depth_limited, depth_limited_choice, horizon_positions,
                         iterative_deepening)
from .driver import first_move, replay
from .expectimax import epsilon_perfect, expectimax, uniform_random
from .minimax import (best_moves, minimax, move_values, negamax, negamax_memo, solve,
                      solve_all)
from .ordering import Killers, heuristic_order, line_score, threat_order
from .pvs import pvs
from .stats import Stats
from .trace import Trace

__all__ = [
    "AlphaBeta", "HORIZON_EXAMPLE", "Killers", "SearchOptionError", "Stats", "Trace",
    "alphabeta", "alphabeta_maxmin", "best_moves", "depth_limited", "depth_limited_choice",
    "epsilon_perfect", "expectimax", "first_move", "heuristic_order", "horizon_positions",
    "iterative_deepening", "line_score", "minimax", "move_values", "negamax", "negamax_memo",
    "pvs", "replay", "solve", "solve_all", "threat_order", "uniform_random",
]
