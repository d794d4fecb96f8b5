"""The course's experiments, built on the search layer and the boards.

- ``counting``: how many positions and games tic-tac-toe has, each figure two ways;
- ``firstmove``: the classic blog's naive per-child driver and its published node counts;
- ``nodes``: the node-count table of every exact search from the empty board;
- ``horizon``: positions where a depth-limited search picks a losing move;
- ``convergence``: do MCTS's move values converge to the exact ones?
- ``chance``: slippery tic-tac-toe, exact values over the slip, choices, simulation;
- ``mnk_solve``: m,n,k boards solved with threats and window tables (5x5 k=4 included);
- ``ladder``: built-in opponents of rising strength on any board, Bradley-Terry ratings;
- ``deadline_ladder``: the deadline agent at 0.2 s against greedy and MCTS-1000, played once
  and stored (``deadline_ladder.json``);
- ``minimal_proof``: the smallest proof that tic-tac-toe is a draw, by branch and bound;
- ``draws_as_wins``: the MCTS article's pre-trained player, a draw scored as a win or as half.
"""
from .chance import SlipSolution, simulate, slip_curve, solve_slippery
from .convergence import STUDY_BUDGETS, STUDY_POSITIONS, convergence_study
from .counting import (all_counts, game_counts, games_by_walking, orbits_by_burnside,
                       position_counts, positions, positions_by_filtering, raw_boards,
                       tree_nodes)
from .firstmove import (PUBLISHED_FIRST_MOVE, PUBLISHED_GAME, PUBLISHED_GAME_COUNTS, FirstMove,
                        RecentKillers, UnknownVariantError, cached_minimax, first_move,
                        new_memory, replay)
from .horizon import HORIZON_EXAMPLE, HorizonExample, horizon_positions
from .ladder import LADDER, Ratings, fit_ratings, ladder_ratings, round_robin
from .draw_proof import minimal_proof
from .mnk_solve import BoardTooLargeError, MNKSolver, solve_mnk
from .nodes import (first_move_report, format_minimal_proof, format_nodes_report, nodes_report,
                    report_rows, row_named)

__all__ = [
    "all_counts", "BoardTooLargeError", "cached_minimax", "convergence_study", "first_move",
    "first_move_report", "FirstMove", "format_minimal_proof", "format_nodes_report",
    "game_counts", "games_by_walking", "HORIZON_EXAMPLE", "horizon_positions",
    "HorizonExample", "LADDER", "ladder_ratings", "Ratings", "fit_ratings", "round_robin",
    "minimal_proof", "MNKSolver", "new_memory", "nodes_report",
    "orbits_by_burnside", "position_counts", "positions", "positions_by_filtering",
    "PUBLISHED_FIRST_MOVE", "PUBLISHED_GAME", "PUBLISHED_GAME_COUNTS", "raw_boards",
    "RecentKillers", "replay", "report_rows", "row_named", "simulate", "slip_curve",
    "SlipSolution",
    "solve_mnk", "solve_slippery", "STUDY_BUDGETS", "STUDY_POSITIONS", "tree_nodes",
    "UnknownVariantError",
]
