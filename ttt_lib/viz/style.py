"""The look of every picture, defined once: colours, line widths and line styles.

The colours come from the Okabe-Ito palette (chosen to stay apart under every common colour-
vision deficiency), darkened where text needs it: text stands at least 4.5:1 against what it is
drawn on, marks and lines at least 3:1 against white (WCAG 2.1 AA). ``TEXT_PAIRS`` and
``MARK_PAIRS`` list every ink and what it stands on, ``CATEGORIES`` the colours a reader must
tell apart; ``tests/test_viz_style.py`` measures them all. No colour is not also told apart by a
second cue: line style and marker (MCTS convergence), hatch and label (tournament bars), shape
(tree nodes), a dot (the last move). The board colours come from ``ttt_lib.boards.picture`` (the
SVG boards use them too), so a board drawn in a tree looks like the same board drawn on its own.
"""
from __future__ import annotations

from ..boards.picture import (GRID_COLOUR, HIGHLIGHT_COLOUR, LINE_COLOUR, MARK_INSET,
                              NUMBER_COLOUR, O_COLOUR, X_COLOUR)

WHITE = "#ffffff"
BLACK = "#000000"            # text on a mid-tone fill where INK falls short (see ink_on)
INK = LINE_COLOUR            # text, and the stroke through a winning line
MUTED_INK = "#555555"        # secondary text (a trace's earlier lines): 7.5:1 on white

# ------------------------------------------------------------------- nodes of game trees
MAX_FILL = "#fbd5bf"         # a node where X (MAX) moves: pale vermillion, a square
MIN_FILL = "#c6e2f5"         # a node where O (MIN) moves: pale blue, a circle
CHANCE_FILL = "#f9e79f"      # a chance node (a diamond): pale yellow, with a brown edge
CHANCE_EDGE = CHANCE_INK = "#7a5f00"
LEAF_FILL = WHITE            # an end position
LEAF_EDGE = "#555555"
GOLD = "#7b3294"             # purple (the name is older): principal variation, solution
                             # tree, chosen lines; drawn thick as well
CURRENT = "#009e73"          # the node a trace step is about: a ring
CUT = "#d55e00"              # the bar across an edge a cut-off skipped
PRUNED_FILL, PRUNED_EDGE, PRUNED_INK = "#f2f2f2", "#8a8a8a", "#666666"  # and dashed
EDGE_COLOUR = "#777777"      # the edges of a tree
PENDING_EDGE, PENDING_INK = "#8a8a8a", "#6e6e6e"   # not reached yet, in a step-by-step view
BOUNDS_EDGE = "#8a8a8a"      # the frame of the alpha/beta box under a node
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
WIN_CELL = "#c8f0d0"         # the play widget's winning cells (the status line says it too)

# ---------------------------------------------------------------------------------- plots
BAR_COLOUR = O_COLOUR
WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR = CURRENT, "#5a5a5a", CUT   # a player's results
OUTCOME_COLOURS = {1: WIN_COLOUR, 0: DRAW_COLOUR, -1: LOSS_COLOUR}  # X's values +1, 0, -1
OUTCOME_LINES = {1: "-", 0: "-.", -1: ":"}          # the second cue of each outcome's line
OUTCOME_MARKERS = {1: "^", 0: "o", -1: "v"}
OUTCOME_HATCHES = {"X wins": "//", "wins": "//", "draws": "", "O wins": "..",
                   "losses": ".."}                  # the second cue of each bar segment
SCORE_LOW, SCORE_MID = CUT, "#f7f7f7"   # the heatmap's scale: 0 vermillion, 1/2 pale, 1 green

# every ink and what it stands on: text needs 4.5:1, marks and lines 3:1 (WCAG 2.1 AA)
TEXT_PAIRS = [(INK, WHITE), (INK, MAX_FILL), (INK, MIN_FILL), (INK, CHANCE_FILL),
              (INK, HIGHLIGHT_COLOUR), (INK, PRUNED_FILL), (INK, SCORE_MID), (INK, WIN_CELL),
              (MUTED_INK, WHITE), (PRUNED_INK, PRUNED_FILL), (PENDING_INK, WHITE),
              (CHANCE_INK, WHITE), (CHANCE_INK, CHANCE_FILL), (X_COLOUR, WHITE),
              (O_COLOUR, WHITE), (MOVE_INK, WHITE), (NUMBER_COLOUR, WHITE)]
MARK_PAIRS = [(colour, WHITE) for colour in (
    X_COLOUR, O_COLOUR, GRID_COLOUR, LINE_COLOUR, LEAF_EDGE, CHANCE_EDGE, GOLD, CURRENT, CUT,
    PRUNED_EDGE, EDGE_COLOUR, PENDING_EDGE, BOUNDS_EDGE, BAR_COLOUR, WIN_COLOUR, DRAW_COLOUR,
    LOSS_COLOUR)] + [(X_COLOUR, MAX_FILL), (O_COLOUR, MIN_FILL), (X_COLOUR, WIN_CELL),
                     (O_COLOUR, WIN_CELL)]
# colours a reader must tell apart from one another (each also has a second cue)
CATEGORIES = {"sides": (X_COLOUR, O_COLOUR),
              "outcomes": (WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR),
              "tournament": (X_COLOUR, DRAW_COLOUR, O_COLOUR),
              "tree marks": (GOLD, CURRENT, CUT)}
# (the pale node fills are told apart by shape first: squares, circles, diamonds)


def luminance(colour: str) -> float:
    """The relative luminance of '#rrggbb' (WCAG 2.1)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(ink: str, background: str) -> float:
    """WCAG 2.1 contrast ratio of two '#rrggbb' colours, from 1 to 21."""
    light, dark = sorted((luminance(ink), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_on(background: str) -> str:
    """INK if it reads at 4.5:1 on ``background``, else black or white, whichever reads
    better (one of the two always reaches 4.58:1)."""
    if contrast(INK, background) >= 4.5:
        return INK
    return BLACK if contrast(BLACK, background) >= contrast(WHITE, background) else WHITE


__all__ = ["BAR_COLOUR", "BLACK", "BOUNDS_EDGE", "CATEGORIES", "CHANCE_EDGE", "CHANCE_FILL",
           "CHANCE_INK", "CURRENT", "CUT", "CUT_WIDTH", "DRAW_COLOUR", "EDGE_COLOUR",
           "EDGE_LOOKS", "FADED_ALPHA", "GOLD", "GRID_COLOUR", "GRID_WIDTH",
           "HIGHLIGHT_COLOUR", "INK", "LEAF_EDGE", "LEAF_FILL", "LOSS_COLOUR", "MARKED_WIDTH",
           "MARK_INSET", "MARK_PAIRS", "MARK_WIDTH", "MAX_FILL", "MIN_FILL", "MOVE_INK",
           "MUTED_INK", "NODE_WIDTH", "NUMBER_COLOUR", "OUTCOME_COLOURS", "OUTCOME_HATCHES",
           "OUTCOME_LINES", "OUTCOME_MARKERS", "O_COLOUR", "PENDING_EDGE", "PENDING_INK",
           "PRUNED_EDGE", "PRUNED_FILL", "PRUNED_INK", "PRUNED_WIDTH", "SCORE_LOW",
           "SCORE_MID", "TEXT_PAIRS", "WHITE", "WIN_ALPHA", "WIN_CELL", "WIN_COLOUR",
           "WIN_WIDTH", "X_COLOUR", "contrast", "ink_on", "luminance"]
