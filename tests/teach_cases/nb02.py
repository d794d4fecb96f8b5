"""Right and wrong answers for the exercises of notebook 02."""
from ttt_lib import BitBoard, TreeNode, teach
from ttt_lib.search import best_moves, minimax, negamax

ROOT = TreeNode(teach.TREE_02_VALUE, labels=True)
NODE_D = ROOT.play(2)  # labels run breadth-first: A the root, then B, C, D

CASES = [
    (teach.check_02_minimax_value, minimax(ROOT), [14, 0, 1, 6, 7, 5, 100]),
    (teach.check_02_negamax_value, negamax(NODE_D), [7, -9, 9, 0, 3, -100]),
    (teach.check_02_best_moves, best_moves(BitBoard.from_text(teach.BOARD_02_BEST)),
     [[1], [1, 3], [0, 1], [2], [1, 3, 5, 7, 2], [1, 1, 3, 5, 7], 6, [9]]),
]
