"""``SlipperyBoard``: tic-tac-toe where marks slip, a game with chance nodes.

The player to move picks an empty cell (a move); then chance decides where the mark lands:
on the chosen cell with probability ``1 - slip``, otherwise on one of the other empty cells,
each equally likely (when the chosen cell is the last empty one, the mark lands there). So a
move leads to a *chance node* (``is_chance()``), whose ``outcomes()`` are the boards the mark
can land on with their exact probabilities; ``slip = 0`` is ordinary tic-tac-toe.

The rules, texts and pictures are the grid's (``grid.GridBoard``); a chance node shows its
board with the chosen cell shaded.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter

from ..game import (MAX, ChanceNodeError, check_outcomes, player_name, probability,
                    refuse_chance)
from ..symmetry import EMPTY
from .grid import GridBoard
from .rules import check_position, full_lines, to_move_of
from .shape import Shape, shape_of
from .text import PLAYER_DIGIT, format_text, parse_cells, parse_player, split_rows


@lru_cache(maxsize=None)
def symmetry_maps(shape: Shape) -> tuple:
    """For each symmetry of ``shape``: a function giving the image of a cell tuple, and where
    each cell goes (``inverse[cell]``)."""
    maps = []
    for perm in shape.symmetries.values():
        inverse = [0] * len(perm)
        for i, source in enumerate(perm):
            inverse[source] = i
        maps.append((itemgetter(*perm), tuple(inverse)))
    return tuple(maps)


@lru_cache(maxsize=1 << 16)  # searches ask again and again, one slip after another
def smallest_image(shape: Shape, cells: tuple[int, ...], aim: int | None) -> tuple:
    """The smallest (cells, aimed cell) among a position's symmetric images; the aimed cell
    is -1 at a decision node."""
    return min((image(cells), -1 if aim is None else inverse[aim])
               for image, inverse in symmetry_maps(shape))


# A position's text, remembered: every chance node's outcomes are checked under its name.
board_text = lru_cache(maxsize=1 << 16)(format_text)


def line_reader(line: tuple[int, ...]):
    """A function giving the marks on ``line`` of a cell tuple, as a tuple."""
    if len(line) == 1:
        return lambda cells: (cells[line[0]],)
    return itemgetter(*line)


@lru_cache(maxsize=None)
def lines_through(shape: Shape) -> tuple:
    """For each cell of ``shape``: readers of the winning lines that pass through it."""
    return tuple(tuple(line_reader(line) for line in shape.lines if cell in line)
                 for cell in range(shape.size))


class SlipperyBoard(GridBoard):
    """A position of slippery tic-tac-toe (or of an m,n,k-game), exact ``slip`` probability.

    >>> board = SlipperyBoard("1/4").play(4)          # X aims at the centre: a chance node
    >>> [(str(p), b.to_text()) for p, b in board.outcomes()][:2]
    [('3/4', '.../.X./...'), ('1/32', 'X../.../...')]
    """

    __slots__ = ("shape", "slip", "first", "to_move", "_cells", "aim", "won")

    def __init__(self, slip="0", m: int = 3, n: int = 3, k: int = 3, first="X") -> None:
        """The empty board; each mark slips with probability ``slip`` (``"1/4"``, a Fraction,
        0 or 1); m rows of n cells, k in a row wins; ``first`` opens."""
        self.shape = shape_of(m, n, k)
        self.slip = probability(slip, "slip")
        self.first = self.to_move = parse_player(first)
        self._cells = (EMPTY,) * self.shape.size
        self.aim, self.won = None, 0

    @classmethod
    def _make(cls, template: "SlipperyBoard", cells: tuple[int, ...], to_move: int,
              aim: int | None, won: int) -> "SlipperyBoard":
        board = object.__new__(cls)
        board.shape, board.slip, board.first = template.shape, template.slip, template.first
        board._cells, board.to_move, board.aim, board.won = cells, to_move, aim, won
        return board

    # ------------------------------------------------------------------------- building
    @classmethod
    def _from_cells(cls, shape: Shape, cells: Sequence[int], first: int,
                    slip="0") -> "SlipperyBoard":
        template = cls(slip, shape.m, shape.n, shape.k, first)
        won = next((side for side in (MAX, -MAX)
                    if full_lines(shape, cells, PLAYER_DIGIT[side])), 0)
        return cls._make(template, tuple(cells), to_move_of(cells, first), None, won)

    @classmethod
    def from_text(cls, text: str, slip="0", *, k: int = 3, first="X") -> "SlipperyBoard":
        """Parse ``"X.O/.X./..."`` (rows separated by '/'); ``slip`` as for the empty board."""
        rows = split_rows(text)
        cells = parse_cells(text, "".join(rows))
        shape = shape_of(len(rows), len(rows[0]), k)
        check_position(shape, cells, parse_player(first))
        return cls._from_cells(shape, cells, parse_player(first), slip)

    @classmethod
    def from_board(cls, board: GridBoard, slip="0") -> "SlipperyBoard":
        """The same position (and opener) as another kind of board, marks slipping ``slip``."""
        return cls._from_cells(board.shape, tuple(board.cells()), board.first, slip)

    # ------------------------------------------------------------------ the game protocol
    def cells(self) -> tuple[int, ...]:
        return self._cells

    def is_chance(self) -> bool:
        """Has a cell been chosen and the mark not landed yet?"""
        return self.aim is not None

    def moves(self) -> list[int]:
        """The empty cells, row-major; none once the game is over. A chance node has none:
        it raises ``ChanceNodeError`` (its next states are ``outcomes()``)."""
        if self.aim is not None:
            raise refuse_chance(self.name)
        if self.won:
            return []
        return [cell for cell, digit in enumerate(self._cells) if digit == EMPTY]

    def play(self, move: int, player=None) -> "SlipperyBoard":
        """The chance node after the player to move (or ``player``, checked) aims at ``move``."""
        if self.aim is not None:
            raise refuse_chance(self.name)
        self._check_move(move, player)
        return SlipperyBoard._make(self, self._cells, -self.to_move, move, 0)

    def outcomes(self) -> list[tuple[Fraction, "SlipperyBoard"]]:
        """Where the aimed mark can land, with its probability: the chosen cell first, then
        the other empty cells in row-major order (outcomes of probability 0 left out)."""
        if self.aim is None:
            raise ChanceNodeError(f"{self.name} is not a chance node: it has moves, not outcomes")
        others = [cell for cell, digit in enumerate(self._cells)
                  if digit == EMPTY and cell != self.aim]
        if not others:
            return [(Fraction(1), self.land(self.aim))]
        pairs = [(1 - self.slip, self.aim)] + [(self.slip / len(others), c) for c in others]
        return check_outcomes([(p, self.land(cell)) for p, cell in pairs if p], self.name)

    def land(self, cell: int) -> "SlipperyBoard":
        """The board after the aiming player's mark lands on ``cell`` (of a chance node)."""
        mover = -self.to_move
        digit = PLAYER_DIGIT[mover]
        cells = self._cells[:cell] + (digit,) + self._cells[cell + 1:]
        full = (digit,) * self.shape.k
        won = mover if any(marks(cells) == full
                           for marks in lines_through(self.shape)[cell]) else 0
        return SlipperyBoard._make(self, cells, self.to_move, None, won)

    def is_terminal(self) -> bool:
        return self.aim is None and (self.won != 0 or EMPTY not in self._cells)

    def utility(self) -> int:
        """+1 if X has k in a row, -1 if O has, else 0."""
        return self.won

    def winner(self) -> str | None:
        return player_name(self.won) if self.won else None

    def key(self) -> tuple:
        """The cells, the aimed cell (None at a decision node), the slip as numerator and
        denominator (whole numbers hash faster than a Fraction) and the opener."""
        return self._cells, self.aim, self.slip.numerator, self.slip.denominator, self.first

    def canonical_key(self) -> tuple:
        """The smallest key among the position's 8 symmetric images (a slip is uniform over
        the empty cells, so symmetric positions have the same value)."""
        return (smallest_image(self.shape, self._cells, self.aim), self.slip.numerator,
                self.slip.denominator, self.first)

    def _identity(self) -> tuple:
        return self.shape.m, self.shape.n, self.shape.k, self.key()

    # -------------------------------------------------------------------------- display
    @property
    def name(self) -> str:
        """The board's text; at a chance node, who aims at which cell too (for traces)."""
        text = board_text(self._cells, self.shape.n)
        if self.aim is None:
            return text
        return f"{text} {player_name(-self.to_move)} aims at {self.aim}"

    def sketch(self, highlight: Sequence[int] = ()):
        """The grid's picture; a chance node's chosen cell is shaded."""
        if self.aim is not None and not highlight:
            highlight = (self.aim,)
        return super().sketch(highlight)

    def _text_options(self) -> str:
        return f", slip={str(self.slip)!r}" + ("" if self.shape.k == 3 else f", k={self.k}")

    def __repr__(self) -> str:
        first = "" if self.first == MAX else ", first='O'"
        aimed = "" if self.aim is None else f".play({self.aim})"
        return (f"SlipperyBoard.from_text({format_text(self._cells, self.shape.n)!r}"
                f"{self._text_options()}{first}){aimed}")


__all__ = ["SlipperyBoard"]
