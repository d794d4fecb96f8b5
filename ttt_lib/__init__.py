"""ttt_lib: game-tree search taught through tic-tac-toe.

The core (boards, protocol, symmetry, counting, search) needs only the standard library;
drawing and widgets live in ``ttt_lib.viz`` and ``ttt_lib.widgets`` and are imported on demand.
"""
from .boards import BitBoard, ListBoard, MNKBoard
from .errors import IllegalMoveError, InvalidBoardError
from .game import MAX, MIN, Game, TreeNode

__all__ = ["BitBoard", "ListBoard", "IllegalMoveError", "InvalidBoardError", "MAX", "MIN",
           "Game", "TreeNode", "MNKBoard"]
__version__ = "0.1.0"
