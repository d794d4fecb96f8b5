"""Right and wrong answers for the exercises of notebook 03."""
import math

from ttt_lib import TreeNode, teach
from ttt_lib.game import leaves
from ttt_lib.search import Stats, Trace, alphabeta


def pruned_leaves(tree):
    root, trace = TreeNode(tree, labels=True), Trace()
    alphabeta(root, trace=trace)
    entered = {e.name for e in trace.events if e.kind == "enter"}
    return [leaf.name for leaf in leaves(root) if leaf.name not in entered]


def node_count(tree):
    stats = Stats()
    alphabeta(TreeNode(tree), stats=stats)
    return stats.nodes


def window(tree, name):
    trace = Trace()
    alphabeta(TreeNode(tree, labels=True), trace=trace)
    (event,) = [e for e in trace.events if e.kind == "enter" and e.name == name]
    return (event.alpha, event.beta)


CASES = [
    (teach.check_03_pruned_leaves, pruned_leaves(teach.TREE_03_PRUNED),
     [["K"], ["K", "G"], ["K", "L", "N", "O"], ["Z"], ["K", "K", "N"], "H I"]),
    (teach.check_03_node_count, node_count(teach.TREE_03_NODES), [22, 7, 14, 16, 100, 0]),
    (teach.check_03_window, window(teach.TREE_03_WINDOW, teach.NODE_03_WINDOW),
     [(3, 999), (3, math.inf), (-3, -999), (-999, 999), (5, 1), (-999, -2), ("a", "b"),
      (1, 2, 3)]),
]
