import pytest

from ttt_lib import IllegalMoveError, TreeNode
from ttt_lib.game import Game, TreeError, column_label, count_tree, leaves, reachable, walk


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


@pytest.mark.parametrize("bad", [[], [[1], []], [1, float("nan")]])
def test_malformed_trees(bad):
    with pytest.raises(TreeError, match="child|finite"):
        TreeNode(bad)


@pytest.mark.parametrize("bad", [["a"], None, [[1], True]])
def test_trees_of_the_wrong_type(bad):
    with pytest.raises(TypeError, match="a tree is a number or a list of trees"):
        TreeNode(bad)


def test_tree_arguments_are_checked():
    with pytest.raises(TypeError, match="labels is True or False"):
        TreeNode([1, 2], labels=None)
    with pytest.raises(IllegalMoveError):
        TreeNode([1, 2]).play(True)
    with pytest.raises(TreeError, match="not a leaf"):
        TreeNode([1, 2]).utility()
    deep = 1
    for _ in range(5000):
        deep = [deep]
    TreeNode(deep)  # checked without recursion


def test_column_labels():
    assert [column_label(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
