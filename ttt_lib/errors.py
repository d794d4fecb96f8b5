"""The two exceptions every board raises on bad input.

Both subclass ``ValueError`` so that code which already catches ``ValueError`` keeps working,
and both carry a message that names the problem (the cell, the character, the counts).
"""


class IllegalMoveError(ValueError):
    """A move that cannot be played here: occupied cell, off the board, not your turn, game over."""


class InvalidBoardError(ValueError):
    """A board that cannot be parsed, or a position that cannot arise in a real game."""
