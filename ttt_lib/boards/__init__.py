"""The boards: one grid base (``grid.GridBoard``) under ``ListBoard``, ``BitBoard``,
``MNKBoard`` and ``ConnectFour``.

``shape`` (the m,n,k shapes) and ``text`` (reading and writing board texts) are below
``grid``; ``tictactoe`` is the 3x3 case both 3x3 boards share; each board module adds only
its own storage and fast paths. Boards import no search, picture or agent module.
"""
from .bit import BitBoard
from .connect4 import ConnectFour
from .grid import BoardSketch, GridBoard, board_sketch, grid_svg
from .list import ListBoard
from .mnk import MNKBoard
from .shape import Shape, shape_of, winning_lines

__all__ = ["BitBoard", "BoardSketch", "ConnectFour", "GridBoard", "ListBoard", "MNKBoard",
           "Shape", "board_sketch", "grid_svg", "shape_of", "winning_lines"]
