"""Search algorithms, each written once over the game protocol of ``ttt_lib.game``."""
from .minimax import best_moves, move_values, negamax_memo, solve, solve_all
from .stats import Stats

__all__ = ["Stats", "best_moves", "move_values", "negamax_memo", "solve", "solve_all"]
