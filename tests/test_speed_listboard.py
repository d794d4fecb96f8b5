"""ListBoard's remembered facts (``won``, ``marks``) against the textbook scans, everywhere."""
import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.game import count_tree, reachable
from ttt_lib.search.exact import minimax
from ttt_lib.search import count_nodes


def every_listboard(first="X"):
    return list(reachable(ListBoard(first)).values())


@pytest.mark.parametrize("first", ["X", "O"])
def test_remembered_winner_and_marks_match_the_grid(first):
    boards = every_listboard(first)
    assert len(boards) == 5478
    for board in boards:
        assert board.won == board.winner()  # the textbook scan over all eight lines
        assert board.marks == sum(mark != " " for row in board.grid for mark in row)
        full = all(mark != " " for row in board.grid for mark in row)
        assert board.is_terminal() == (board.winner() is not None or full)
        assert board.utility() == BitBoard.from_board(board).utility()
        rebuilt = ListBoard.from_text(board.to_text(), first=first)
        assert (rebuilt.won, rebuilt.marks) == (board.won, board.marks)


def test_playing_never_changes_the_parent():
    board = ListBoard.from_text("XO./.XO/...")
    before = (board.to_text(), board.won, board.marks, board.to_move)
    child = board.play(8)
    assert (board.to_text(), board.won, board.marks, board.to_move) == before
    assert child.won == "X" and child.is_terminal() and child.moves() == []


def test_the_full_tree_is_the_same_as_the_bitboards():
    value, stats = count_nodes(minimax, ListBoard())
    assert value == 0
    assert stats.nodes == count_tree(BitBoard()) == 549946
