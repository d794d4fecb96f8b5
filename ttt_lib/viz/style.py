"""The look of every picture, defined once: colours, line widths and line styles.

The board colours come from ``ttt_lib.boards.grid`` (the SVG boards use them too), so a board
drawn in a tree looks like the same board drawn on its own.
"""
from __future__ import annotations

from ..boards.grid import (GRID_COLOUR, HIGHLIGHT_COLOUR, LINE_COLOUR, MARK_INSET, O_COLOUR,
                           X_COLOUR)

WHITE = "#ffffff"
INK = LINE_COLOUR            # text, and the stroke through a winning line

# ------------------------------------------------------------------- nodes of game trees
MAX_FILL = "#f5b7b1"         # a node where X (MAX) moves: pale red; its edge is X_COLOUR
MIN_FILL = "#aed6f1"         # a node where O (MIN) moves: pale blue; its edge is O_COLOUR
CHANCE_FILL = "#f9e79f"      # a chance node (a diamond): pale yellow, with a brown edge
CHANCE_EDGE = CHANCE_INK = "#9a7d0a"
LEAF_FILL = WHITE            # an end position
LEAF_EDGE = "#555555"
GOLD = "#e0a800"             # principal variation, solution tree, chosen lines
CURRENT = "#27ae60"          # the node a trace step is about
CUT = "#d35400"              # the bar across an edge a cut-off skipped
PRUNED_FILL, PRUNED_EDGE, PRUNED_INK = "#f2f2f2", "#c8c8c8", "#a0a0a0"
EDGE_COLOUR = "#777777"      # the edges of a tree
PENDING_EDGE, PENDING_INK = "#9a9a9a", EDGE_COLOUR   # not reached yet, in a step-by-step view
BOUNDS_EDGE = "#bbbbbb"      # the frame of the alpha/beta box under a node
MOVE_INK = LEAF_EDGE         # move numbers on the edges of a tree of values

NODE_WIDTH, MARKED_WIDTH, PRUNED_WIDTH = 1.5, 4.0, 1.0   # a node's outline, in points per inch
CUT_WIDTH = 3.0

# colour, width and line style of the edges between nodes
EDGE_LOOKS = {"plain": (EDGE_COLOUR, 1.2, "solid"),
              "marked": (GOLD, MARKED_WIDTH, "solid"),
              "grey": (PRUNED_EDGE, PRUNED_WIDTH, "dashed")}

# ------------------------------------------------------------------- boards inside trees
GRID_WIDTH = 1.2             # the rules of the grid
MARK_WIDTH = 2.0             # an X or O on a 3x3 board (thinner on larger boards)
WIN_WIDTH, WIN_ALPHA = 2.5, 0.6   # the stroke through a winning line
FADED_ALPHA = 0.35           # a pruned position

# ---------------------------------------------------------------------------------- plots
BAR_COLOUR = "#5d8aa8"
WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR = CURRENT, "#bdc3c7", X_COLOUR   # a player's results
OUTCOME_COLOURS = {1: CURRENT, 0: "#7f8c8d", -1: X_COLOUR}   # exact values for X: +1, 0, -1

__all__ = ["BAR_COLOUR", "BOUNDS_EDGE", "CHANCE_EDGE", "CHANCE_FILL", "CHANCE_INK", "CURRENT", "CUT", "CUT_WIDTH", "DRAW_COLOUR",
           "EDGE_COLOUR", "EDGE_LOOKS", "FADED_ALPHA", "GOLD", "GRID_COLOUR", "GRID_WIDTH",
           "HIGHLIGHT_COLOUR", "INK", "LEAF_EDGE", "LEAF_FILL", "LOSS_COLOUR", "MARKED_WIDTH",
           "MARK_INSET", "MARK_WIDTH", "MAX_FILL", "MIN_FILL", "MOVE_INK", "NODE_WIDTH",
           "OUTCOME_COLOURS", "O_COLOUR", "PENDING_EDGE", "PENDING_INK", "PRUNED_EDGE",
           "PRUNED_FILL", "PRUNED_INK", "PRUNED_WIDTH", "WHITE", "WIN_ALPHA", "WIN_COLOUR",
           "WIN_WIDTH", "X_COLOUR"]
