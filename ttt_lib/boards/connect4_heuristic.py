"""Connect Four's own evaluation, read straight off the two bitboards (``connect4.py``).

The generic ``line_score`` reads a board through ``cells()`` and ``lines()``: right on every
board, but on Connect Four it rebuilds the grid's digits for every position it scores. Here the
same idea (windows of ``k`` cells, scored by how full they are) is a few ands and bit counts
per window, plus what matters in Connect Four and not in tic-tac-toe:

- a *threat*: an empty cell that completes a window for one side. It counts most on the row
  that side can hope to get: in a filled-up endgame the player who moved first fills the odd
  rows counted from the bottom (1, 3, 5), the other player the even rows;
- the centre: a piece in a centre column belongs to more windows than any other.

The board layout is ``connect4.py``'s: column ``c`` takes bits ``height * c`` up, the lowest
row first, ``height = rows + 1`` (a guard bit on top).
"""
from __future__ import annotations

from functools import lru_cache

WINDOW_WEIGHTS = (0, 1, 4)  # a window with 0, 1, 2 pieces of one side only (3 or more: 16)
FULL_WINDOW = 16
THREAT = 32  # an empty cell that completes a window
GOOD_ROW = 32  # ...more if it is on the rows its side gets in the end (odd for the opener)
CENTRE = 3  # each piece in a centre column


@lru_cache(maxsize=16)
def windows(columns: int, rows: int, k: int) -> tuple[int, ...]:
    """Every window of ``k`` cells in a row (a column, a row, a diagonal) as a bit mask."""
    height, masks = rows + 1, []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_c, end_r = c + dc * (k - 1), r + dr * (k - 1)
                if end_c < columns and 0 <= end_r < rows:
                    masks.append(sum(1 << height * (c + dc * i) + r + dr * i
                                     for i in range(k)))
    return tuple(masks)


@lru_cache(maxsize=16)
def row_masks(columns: int, rows: int) -> tuple[int, int]:
    """(the cells of the odd rows counted from the bottom, 1, 3..., those of the even rows)."""
    height = rows + 1
    odd = sum(1 << height * c + r for c in range(columns) for r in range(0, rows, 2))
    even = sum(1 << height * c + r for c in range(columns) for r in range(1, rows, 2))
    return odd, even


@lru_cache(maxsize=16)
def centre_mask(columns: int, rows: int) -> int:
    """The cells of the centre column (the two middle ones on an even number of columns)."""
    middle = {columns // 2, (columns - 1) // 2}
    return sum(((1 << rows) - 1) << (rows + 1) * c for c in middle)


def threat_cells(mine: int, theirs: int, columns: int, rows: int, k: int) -> int:
    """The empty cells that would complete ``k`` in a row of ``mine``, as a bit mask: for four
    in a row a few shifts per direction (``fours``), else window by window."""
    if k == 4:
        return fours(mine, rows + 1) & board_mask(columns, rows) & ~(mine | theirs)
    cells = 0
    for window in windows(columns, rows, k):
        if not theirs & window:
            held = mine & window
            if held.bit_count() == k - 1:
                cells |= window ^ held
    return cells


def fours(bits: int, height: int) -> int:
    """Every cell (guard bits and beyond the board included) that would make four in a row
    of ``bits`` with three of them: in each direction the three can lie all on one side of
    the cell or split 2 + 1 around it (the classic solvers' shifts)."""
    cells = bits << 1 & bits << 2 & bits << 3  # on top of three in a column
    for step in (height, height - 1, height + 1):  # a row, the two diagonals
        pair = bits << step & bits << 2 * step
        cells |= pair & bits << 3 * step | pair & bits >> step
        pair = bits >> step & bits >> 2 * step
        cells |= pair & bits << step | pair & bits >> 3 * step
    return cells


@lru_cache(maxsize=16)
def board_mask(columns: int, rows: int) -> int:
    """Every cell of the board (no guard bit)."""
    return sum(((1 << rows) - 1) << (rows + 1) * c for c in range(columns))


def evaluate(x: int, o: int, columns: int, rows: int, k: int, first_is_x: bool) -> int:
    """X's score: windows of ``k`` by how full they are (one side's pieces only), the threat
    cells of each side (more on the rows it gets in the end) and the pieces in the centre."""
    score, x_threats, o_threats = window_score(x, o, windows(columns, rows, k), k)
    odd, even = row_masks(columns, rows)
    x_rows, o_rows = (odd, even) if first_is_x else (even, odd)
    score += THREAT * (x_threats.bit_count() - o_threats.bit_count())
    score += GOOD_ROW * ((x_threats & x_rows).bit_count() - (o_threats & o_rows).bit_count())
    centre = centre_mask(columns, rows)
    return score + CENTRE * ((x & centre).bit_count() - (o & centre).bit_count())


def window_score(x: int, o: int, masks: tuple[int, ...], k: int) -> tuple[int, int, int]:
    """The windows' part of X's score, and each side's threat cells (the empty cell of a
    window holding ``k - 1`` of its pieces and none of the other side's)."""
    score, x_threats, o_threats = 0, 0, 0
    for window in masks:
        xs, os = x & window, o & window
        if xs and not os:
            count = xs.bit_count()
            score += WINDOW_WEIGHTS[count] if count < 3 else FULL_WINDOW
            if count == k - 1:
                x_threats |= window ^ xs
        elif os and not xs:
            count = os.bit_count()
            score -= WINDOW_WEIGHTS[count] if count < 3 else FULL_WINDOW
            if count == k - 1:
                o_threats |= window ^ os
    return score, x_threats, o_threats


__all__ = ["board_mask", "centre_mask", "evaluate", "fours", "row_masks", "threat_cells",
           "window_score", "windows"]
