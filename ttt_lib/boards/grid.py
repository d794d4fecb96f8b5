"""The base every board shares: the public API, written once over the rules and the pictures.

``GridBoard`` is the base of ``ListBoard``, ``BitBoard`` and ``MNKBoard``: it writes once, over
a board's ``shape``, ``first``, ``to_move`` and ``cells()``, everything that is not a hot path of
search: building a board from cells (checked by ``rules.check_position``), converting one kind
of board to another, the text and the grid, the reasons a move is refused or the game is over,
the winning line, equality, and the SVG picture (from a ``picture.BoardSketch``, which the
matplotlib drawings of ``ttt_lib.viz`` use too). A 3x3 board is the m=n=k=3 case of these rules.
Cells are numbered row-major and hold 0 (empty), 1 (X) or 2 (O), as in ``ttt_lib.symmetry``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..checks import short
from ..errors import IllegalMoveError
from ..game import MAX, player_name
from ..symmetry import EMPTY
from .alt import described_svg, describe_cells, image_bundle
from .picture import BoardSketch, board_sketch, check_highlight, check_picture_size, sketch_svg
from .rules import cell_digits, check_position, full_lines
from .shape import Shape
from .text import (DIGIT, SYMBOL, format_grid, format_text, parse_move_player, parse_player)


# ---------------------------------------------------------------------------- the base

class GridBoard:
    """The public API every board shares, written once over ``shape``, ``first``,
    ``to_move`` and ``cells()``; never changed in place.

    A subclass stores the position its own way and provides ``cells()``, ``_from_cells`` and
    the game protocol (``moves``, ``play``, ``winner``, ``is_terminal``, ``key``,
    ``canonical_key``), the paths a search takes millions of times.
    """

    __slots__ = ()
    kinds: ClassVar[dict[str, type]] = {}  # every board class by name, for conversions
    shape: Shape
    first: int
    to_move: int

    def __init_subclass__(cls, **options) -> None:
        """Register each kind of board, so boards convert without importing one another."""
        super().__init_subclass__(**options)
        GridBoard.kinds[cls.__name__] = cls

    # ------------------------------------------------------------------------- building
    @classmethod
    def _from_cells(cls, shape: Shape, cells: tuple[int, ...], first: int) -> "GridBoard":
        """The board holding ``cells`` (already checked); each kind stores them its own way."""
        raise NotImplementedError

    @classmethod
    def _from_checked_cells(cls, shape: Shape, cells: Sequence[int], first) -> "GridBoard":
        """The board holding ``cells`` once ``check_position`` accepts them."""
        first = parse_player(first)
        cells = cell_digits(shape, cells)
        check_position(shape, cells, first)
        return cls._from_cells(shape, cells, first)

    @classmethod
    def from_board(cls, board: "GridBoard") -> "GridBoard":
        """The same position (and opener) as another kind of board."""
        require_board(board)
        return cls._from_cells(board.shape, tuple(board.cells()), board.first)

    # ----------------------------------------------------------------------- inspection
    def cells(self) -> tuple[int, ...]:
        """Row-major digits: 0 empty, 1 X, 2 O."""
        raise NotImplementedError

    @property
    def m(self) -> int:
        return self.shape.m

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def k(self) -> int:
        return self.shape.k

    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every winning line (what heuristics count marks along)."""
        return self.shape.lines

    def utility(self) -> int:
        """+1 if X has k in a row, -1 if O has, else 0 (a draw once the board is full)."""
        return {"X": 1, "O": -1, None: 0}[self.winner()]

    def over_reason(self) -> str | None:
        """Why the game is over ('X has won', 'O has won', 'the board is full'), or None."""
        winner = self.winner()
        if winner:
            return f"{winner} has won"
        if EMPTY not in self.cells():
            return "the board is full"
        return None

    def winning_line(self) -> tuple[int, ...] | None:
        """The winner's first complete line, or None."""
        winner = self.winner()
        if winner is None:
            return None
        return full_lines(self.shape, self.cells(), DIGIT[winner])[0]

    def _check_move(self, move, player) -> None:
        """Raise ``IllegalMoveError`` with the reason ``move`` cannot be played now."""
        last = self.shape.size - 1
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move is a cell number 0..{last}, not {short(move)}")
        if not 0 <= move <= last:
            raise IllegalMoveError(f"cell {move} is off the board: cells are numbered 0..{last}")
        reason = self.over_reason()
        if reason:
            raise IllegalMoveError(f"cell {move} cannot be played: the game is over ({reason})")
        if player is not None and parse_move_player(player) != self.to_move:
            raise IllegalMoveError(f"it is {player_name(self.to_move)}'s turn, "
                                   f"not {player_name(-self.to_move)}'s")
        digit = self.cells()[move]
        if digit != EMPTY:
            raise IllegalMoveError(f"cell {move} is occupied by {SYMBOL[digit]}")

    # --------------------------------------------------------------------------- display
    def to_text(self) -> str:
        """Rows of ``X``, ``O`` and ``.`` separated by '/'."""
        return format_text(self.cells(), self.shape.n)

    def __str__(self) -> str:
        """The familiar grid, one row of marks between rules."""
        return format_grid(self.cells(), self.shape.n)

    def __repr__(self) -> str:
        options = self._text_options() + ("" if self.first == MAX else ", first='O'")
        return f"{type(self).__name__}.from_text({self.to_text()!r}{options})"

    def _text_options(self) -> str:
        """What ``from_text`` needs besides the text to rebuild this board (in ``repr``)."""
        return ""

    def sketch(self, highlight: Sequence[int] = ()) -> "BoardSketch":
        """What a picture of the board shows; ``highlight`` cells are shaded."""
        highlight = check_highlight(highlight, self.shape.size)
        return board_sketch(self.cells(), self.shape.m, self.shape.n, self.winning_line(),
                            highlight)

    def svg(self, size: int = 96, highlight: Sequence[int] = (), *,
            numbers: bool = False) -> str:
        """A self-contained SVG (``role="img"``, its description as ``<title>``); ``size`` is
        the longer side, ``highlight`` cells are shaded and dotted (the last move), with
        ``numbers`` each empty cell shows its number."""
        check_picture_size(size)
        return described_svg(sketch_svg(self.sketch(highlight), size, numbers=numbers),
                             self.describe(highlight))

    def describe(self, highlight: Sequence[int] = ()) -> str:
        """The position in words: 'X in cells 0 and 4, O in cell 8; X to move'."""
        return describe_cells(self.cells(), self.shape.m, self.shape.n, to_move=self.to_move,
                              line=self.winning_line(), marked=tuple(highlight))

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        """The SVG, and an HTML ``<img>`` of it with the description as ``alt``."""
        return image_bundle("image/svg+xml", self.svg().encode(), self.describe(), repr(self))

    # -------------------------------------------------------------------------- identity
    def _identity(self) -> tuple:
        """What equal boards share (and hash)."""
        return self.first, tuple(self.cells())

    def __eq__(self, other) -> bool:
        if not isinstance(other, GridBoard):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())


def require_board(board) -> None:
    """A ``TypeError`` unless ``board`` is one of the package's boards."""
    if not isinstance(board, GridBoard):
        raise TypeError(f"board is a ListBoard, BitBoard or MNKBoard, "
                        f"not {type(board).__name__}")
