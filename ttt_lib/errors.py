"""The package's own ``ValueError`` subclasses: the two every board raises on bad input, and
the one every search raises on a bad option, the arena's for a bad count or seed; and the error of a browser's Python asked for
worker processes.

All subclass ``ValueError`` so that code which already catches ``ValueError`` keeps working,
and all carry a message that names the problem (the cell, the character, the counts).
"""


class IllegalMoveError(ValueError):
    """A move that cannot be played here: occupied cell, off the board, not your turn, game over."""


class InvalidBoardError(ValueError):
    """A board that cannot be parsed, or a position that cannot arise in a real game."""


class SearchOptionError(ValueError):
    """A search option that does not exist or does not fit with the others."""


class ArenaError(ValueError):
    """A bad value for a game or tournament: a count, a seed, an interval's numbers."""


ArenaError.__module__ = "ttt_lib.arena"  # where it is raised and caught, and pickled from


# How every "needs processes" message starts (the lite site's browser test looks for it).
NOT_IN_A_BROWSER = "not in a browser"


class ProcessesUnavailable(RuntimeError):
    """Work that needs worker processes, asked of a Python that cannot start one: a browser's
    (Pyodide, in the JupyterLite site). The message starts with ``NOT_IN_A_BROWSER``."""
