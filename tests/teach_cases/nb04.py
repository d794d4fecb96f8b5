"""Right and wrong answers for the exercises of notebook 04."""
from ttt_lib import BitBoard, teach
from ttt_lib.search import best_moves, depth_limited_choice, line_score
from ttt_lib.teach.nb04 import SPEEDUPS_04, speedup_nodes


def fewest_nodes(text):
    return min(SPEEDUPS_04, key=lambda name: speedup_nodes(text, name))


def horizon_depth(text):
    board = BitBoard.from_text(text)
    empty = board.cells().count(0)
    good = {d: set(depth_limited_choice(board, d)[1]) <= set(best_moves(board))
            for d in range(1, empty + 1)}
    return min(d for d in good if all(good[e] for e in good if e >= d))


CASES = [
    (teach.check_04_line_score, line_score(BitBoard.from_text(teach.BOARD_04_LINE_SCORE)),
     [8, -80, 1, 0, 12]),
    (teach.check_04_speedup, fewest_nodes(teach.BOARD_04_SPEEDUP),
     ["table", "symmetric table", "heuristic order", "killers", "PVS", "threats"]),
    (teach.check_04_horizon_depth, horizon_depth(teach.BOARD_04_HORIZON), [1, 2, 3, 5, 6, 10]),
]
