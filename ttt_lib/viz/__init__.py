"""Pictures: rows of boards (SVG), game trees (a networkx graph drawn with matplotlib), plots.

- ``boards``: ``board_grid``, small boards side by side as SVG, and the matplotlib board that
  trees draw (both from the board's ``BoardSketch``);
- ``trees``: the tree below a position as a graph, its layout, exact values, principal
  variation and solution tree; ``drawing``: ``draw_tree``;
- ``traces``: an alpha-beta trace on the drawn tree, event by event;
- ``mcts``: ``draw_mcts``, the top of a Monte Carlo tree;
- ``plots``: node counts, MCTS convergence, tournament results;
- ``heatmap``: ``tournament_heatmap``, a round robin as a grid of scores, X's agent by O's;
- ``ratings``: ``rating_leaderboard``, a large class's ratings with intervals, best first;
- ``render`` draws every tree, ``style`` holds every colour, ``picture`` the returned objects.

Every picture is deterministic: the same call gives the same SVG or PNG bytes on every run.
Only this package and ``ttt_lib.widgets`` import matplotlib and networkx (and, through them,
numpy); ``import ttt_lib`` loads none of them.
"""
from .boards import board_grid
from .drawing import draw_tree
from .heatmap import tournament_heatmap
from .mcts import draw_mcts
from .picture import SVG, Picture, figure_bytes, side_by_side
from .plots import plot_mcts_convergence, plot_node_counts, plot_tournament
from .ratings import rating_leaderboard
from .style import (CURRENT, CUT, EDGE_COLOUR, GOLD, INK, LEAF_EDGE, LEAF_FILL, MAX_FILL, MIN_FILL,
                    O_COLOUR, PENDING_EDGE, PENDING_INK, PRUNED_EDGE, PRUNED_FILL, PRUNED_INK,
                    X_COLOUR)
from .traces import TraceSnapshot, trace_paths, trace_snapshot
from .trees import (NodePath, as_state, game_tree, minimax_values, principal_variation,
                    solution_tree, tree_layout)

__all__ = ["Picture", "SVG", "TraceSnapshot", "as_state", "board_grid", "draw_mcts",
           "draw_tree", "figure_bytes", "game_tree", "minimax_values", "plot_mcts_convergence",
           "plot_node_counts", "plot_tournament", "principal_variation", "rating_leaderboard",
           "side_by_side", "solution_tree",
           "tournament_heatmap", "trace_paths", "trace_snapshot", "tree_layout"]
