"""The boards: one grid base (``grid.GridBoard``) under ``ListBoard``, ``BitBoard``,
``MNKBoard`` and ``ConnectFour``.

``shape`` (the m,n,k shapes) and ``text`` (reading and writing board texts) are below
``grid``; ``tictactoe`` is the 3x3 case both 3x3 boards share; each board module adds only
its own storage and fast paths. Boards import no search, picture or agent module.
"""
from .bit import BitBoard
from .connect4 import ConnectFour
from .grid import GridBoard
from .picture import BoardSketch, board_sketch, grid_svg
from .list import ListBoard
from .mnk import MNKBoard
from .shape import Shape, shape_of, winning_lines

__all__ = ["BitBoard", "BoardSketch", "ConnectFour", "GridBoard", "ListBoard", "MNKBoard",
           "Shape", "board_sketch", "grid_svg", "shape_of", "winning_lines"]

# The checked entry points (``ttt_lib.checks``): sizes and cells are checked before any table
# or picture is built; ``winning_lines`` itself stays the plain listing the notebooks show.
from ..checks import publish as _publish, check_init as _check_init  # noqa: E402
from ..errors import InvalidBoardError as _InvalidBoardError  # noqa: E402
from .shape import SIZE as _SIZE  # noqa: E402
from .picture import also_cells as _also_cells  # noqa: E402

_SIZES = dict(m=_SIZE, n=_SIZE, k=_SIZE)
_publish(globals(), _InvalidBoardError, {
    "winning_lines": _SIZES,
    "board_sketch": dict(m=_SIZE, n=_SIZE, also=_also_cells),
    "grid_svg": dict(m=_SIZE, n=_SIZE, also=_also_cells),
})
_check_init(Shape, _InvalidBoardError, **_SIZES)
