"""The learners' view of a position: two 9-bit masks seen by the player to move.

A position is ``(mine, theirs)``: bit ``c`` of ``mine`` is set when the player to move holds
cell ``c`` (cells 0..8 row by row, as ``moves()`` numbers them). One table then serves X and
O alike (the negamax view: every value is the player to move's), and either opener. ``key`` packs the
pair into one int; with ``symmetric`` it is the smallest key among the 8 images of the board,
and ``Seen`` carries the symmetry used, so a move can be mapped into and out of that image.
"""
from __future__ import annotations

from ..boards.tictactoe import LINES
from ..game import Game
from ..symmetry import O_DIGIT, PERMUTATIONS, X_DIGIT

FULL = 0x1FF
WINS = tuple(sum(1 << c for c in line) for line in LINES)
HAS_LINE = tuple(any(m & w == w for w in WINS) for m in range(FULL + 1))
FREE = tuple(tuple(c for c in range(9) if not taken >> c & 1) for taken in range(FULL + 1))
# For symmetry s, the image of a mask (cell i of the image holds cell PERMUTATIONS[s][i]),
# and where each cell goes: MOVE_TO[s][c] is the image's cell holding original cell c.
IMAGE = tuple(tuple(sum(1 << i for i, j in enumerate(p) if m >> j & 1) for m in range(FULL + 1))
              for p in PERMUTATIONS)
MOVE_TO = tuple(tuple(p.index(c) for c in range(9)) for p in PERMUTATIONS)


def masks_of(state: Game) -> tuple[int, int]:
    """``(mine, theirs)`` of a 3x3 board, seen by the player to move."""
    cells = state.cells()
    x = sum(1 << c for c, d in enumerate(cells) if d == X_DIGIT)
    o = sum(1 << c for c, d in enumerate(cells) if d == O_DIGIT)
    return (x, o) if state.to_move == 1 else (o, x)


def board_text(mine: int, theirs: int, x_to_move: bool) -> str:
    """The position as ``BitBoard.from_text`` reads it (``"X.O/.X./..."``), given whether X
    is the player to move."""
    x, o = (mine, theirs) if x_to_move else (theirs, mine)
    cells = "".join("X" if x >> c & 1 else "O" if o >> c & 1 else "." for c in range(9))
    return "/".join(cells[r:r + 3] for r in (0, 3, 6))


def key_of(mine: int, theirs: int) -> int:
    """One int for the pair: the mask of the player to move above the opponent's."""
    return mine << 9 | theirs


def canonical(mine: int, theirs: int) -> tuple[int, int]:
    """The smallest key among the 8 images of the position, and the symmetry giving it."""
    return min((table[mine] << 9 | table[theirs], s) for s, table in enumerate(IMAGE))


def lookup(mine: int, theirs: int, symmetric: bool) -> tuple[int, int]:
    """The table key of a position and the symmetry to map its moves with (0: none)."""
    return canonical(mine, theirs) if symmetric else (mine << 9 | theirs, 0)


def after(mine: int, theirs: int, move: int) -> tuple[int, int, float | None]:
    """The position after the player to move takes ``move``, seen by the next player to move,
    and the result
    for the player who moved if the game ended (1 win, 0 draw), else None."""
    mine |= 1 << move
    if HAS_LINE[mine]:
        return theirs, mine, 1.0
    if mine | theirs == FULL:
        return theirs, mine, 0.0
    return theirs, mine, None

