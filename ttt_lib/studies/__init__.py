"""The course's experiments, built on the search layer and the boards.

- ``counting``: how many positions and games tic-tac-toe has, each figure two ways;
- ``firstmove``: the classic blog's naive per-child driver and its published node counts;
- ``nodes``: the node-count table of every exact search from the empty board;
- ``horizon``: positions where a depth-limited search picks a losing move;
- ``convergence``: do MCTS's move values converge to the exact ones?
"""
from .convergence import STUDY_BUDGETS, STUDY_POSITIONS, convergence_study
from .counting import (all_counts, game_counts, games_by_walking, orbits_by_burnside,
                       position_counts, positions, positions_by_filtering, raw_boards,
                       tree_nodes)
from .firstmove import (PUBLISHED_FIRST_MOVE, PUBLISHED_GAME, PUBLISHED_GAME_COUNTS, FirstMove,
                        RecentKillers, UnknownVariantError, cached_minimax, first_move,
                        new_memory, replay)
from .horizon import HORIZON_EXAMPLE, HorizonExample, horizon_positions
from .nodes import SEARCHES, first_move_report, format_nodes_report, nodes_report

__all__ = [
    "FirstMove", "HORIZON_EXAMPLE", "HorizonExample", "PUBLISHED_FIRST_MOVE", "PUBLISHED_GAME",
    "PUBLISHED_GAME_COUNTS", "RecentKillers", "SEARCHES", "STUDY_BUDGETS", "STUDY_POSITIONS", "UnknownVariantError", "all_counts",
    "cached_minimax", "convergence_study", "first_move", "first_move_report", "format_nodes_report", "game_counts",
    "games_by_walking", "horizon_positions", "new_memory", "nodes_report", "orbits_by_burnside",
    "position_counts", "positions", "positions_by_filtering", "raw_boards", "replay",
    "tree_nodes",
]
