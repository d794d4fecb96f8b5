"""Right and wrong answers for the exercises of notebook 01."""
from ttt_lib import BitBoard, teach
from ttt_lib.boards.bit import LINE_MASKS
from ttt_lib.game import count_tree
from ttt_lib.boards.tictactoe import LINES

LEFT = LINE_MASKS[LINES.index(teach.LINE_01_MASK)]
ROW, COLUMN = teach.CELL_01_BIT

CASES = [
    (teach.check_01_line_mask, LEFT,
     [0b001001001, LEFT << 9, 0b111, 0b100100000, 1 << 9, 0b110100100, "0b100100100"]),
    (teach.check_01_cell_bit, BitBoard().play(3 * ROW + COLUMN).bits.bit_length() - 1,
     [3 * ROW + COLUMN, 2, 15, 18, 0, 17]),
    (teach.check_01_tree_nodes, count_tree(BitBoard.from_text(teach.BOARD_01_NODES)),
     [102, 237, 326, 85, 1000, 200, 0]),
]
