import pytest

from ttt_lib import IllegalMoveError, TreeNode
from ttt_lib.game import Game, column_label, count_tree, leaves, reachable, walk


def test_labels_are_breadth_first():
    root = TreeNode([[7, 5], [3, 1, 9]], labels=True)
    names = [node.name for node in walk(root)]
    assert names == ["A", "B", "D", "E", "C", "F", "G", "H"]
    assert root.play(1).play(2).utility() == 9


def test_players_alternate_by_depth_and_leaves_are_terminal():
    root = TreeNode([[2, 3, -1], [1, 6], [-4, 2, 9]])
    assert root.to_move == 1 and root.play(0).to_move == -1
    assert [leaf.utility() for leaf in leaves(root)] == [2, 3, -1, 1, 6, -4, 2, 9]
    assert count_tree(root) == 12 and len(reachable(root)) == 12
    assert root.play(2).name == "2" and root.name == "root"


def test_tree_nodes_follow_the_protocol():
    assert isinstance(TreeNode([1, 2]), Game)


@pytest.mark.parametrize("move", [3, -1, "0"])
def test_bad_tree_moves(move):
    with pytest.raises(IllegalMoveError, match="children 0..2"):
        TreeNode([1, 2, 3]).play(move)
    with pytest.raises(IllegalMoveError, match="is a leaf"):
        TreeNode([1, 2, 3]).play(0).play(0)


@pytest.mark.parametrize("bad", [[], [[1], []], ["a"], None])
def test_malformed_trees(bad):
    with pytest.raises(ValueError, match="tree|child"):
        TreeNode(bad)


def test_column_labels():
    assert [column_label(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
