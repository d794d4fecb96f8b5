"""Exercises of notebook 03: alpha-beta pruning."""
from __future__ import annotations

import math

from ..game import TreeNode, leaves, walk
from ..search.alphabeta import alphabeta
from ..search.watch import Stats
from ..search.watch import Trace
from .core import is_int, unanswered, verdict

__all__ = ["TREE_03_PRUNED", "TREE_03_NODES", "TREE_03_WINDOW", "NODE_03_WINDOW",
           "check_03_pruned_leaves", "check_03_node_count", "check_03_window"]

# A depth-3 tree (MAX at the root), its nodes named A, B, C... breadth-first.
TREE_03_PRUNED = [[[3, 5], [6, 9]], [[1, 2], [0, -1]]]
# A depth-3 tree with three subtrees under the root.
TREE_03_NODES = [[[4, 8], [9, 3]], [[2, 7], [5, 1]], [[6, 3], [8, 9]]]
# The tree of Russell and Norvig's textbook, and the node whose window is asked for.
TREE_03_WINDOW = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
NODE_03_WINDOW = "D"


def _entered(tree, **options) -> tuple[TreeNode, Trace]:
    root, trace = TreeNode(tree, labels=True), Trace()
    alphabeta(root, trace=trace, **options)
    return root, trace


def _names(answer) -> list[str] | None:
    """Node names from a list, tuple or set of strings (any case); None otherwise."""
    if isinstance(answer, str):
        answer = [part for part in answer.replace(",", " ").split()]
    if not isinstance(answer, (list, tuple, set, frozenset)):
        return None
    if not all(isinstance(name, str) for name in answer):
        return None
    return [name.strip().upper() for name in answer]


def check_03_pruned_leaves(answer) -> None:
    """The leaves of ``TREE_03_PRUNED`` (named A, B, C... breadth-first) that alpha-beta never
    looks at, searching the children left to right from the full window."""
    root, trace = _entered(TREE_03_PRUNED)
    entered = set(trace_names(trace))
    leaf_names = [leaf.name for leaf in leaves(root)]
    expected = sorted(name for name in leaf_names if name not in entered)
    first_hint = ("work left to right, keeping alpha (MAX's best so far) and beta (MIN's); "
                  "a node's remaining children are skipped once alpha >= beta.")
    if unanswered(answer, first_hint):
        return
    names = _names(answer)
    if names is None:
        return verdict(False, "", "give the leaves as a list of names, like ['H', 'I'].")
    all_names = {node.name for node in walk(root)}
    unknown = sorted(set(names) - all_names)
    inner = sorted(set(names) & (all_names - set(leaf_names)))
    searched = sorted(set(names) & entered & set(leaf_names))
    if unknown:
        hint = f"{unknown[0]} is not a node of this tree: its nodes are A to {leaf_names[-1]}."
    elif inner:
        hint = (f"{inner[0]} is an inner node; list only the leaves (the numbers at the "
                "bottom) that are never looked at.")
    elif searched:
        hint = (f"leaf {searched[0]} is looked at: when the search reaches it, alpha is "
                "still below beta there.")
    elif len(set(names)) < len(expected):
        hint = ("some pruned leaves are missing: a cut-off skips every leaf below the "
                "skipped children, not just the children themselves.")
    else:
        hint = "each leaf once, please."
    verdict(sorted(set(names)) == expected and len(names) == len(expected),
            f"{', '.join(expected)} are never looked at: "
            f"{len(leaf_names) - len(expected)} of the {len(leaf_names)} leaves decide "
            "the value.", hint)


def trace_names(trace: Trace) -> list[str]:
    """The names of the nodes a traced search entered, in order."""
    return [event.name for event in trace.events if event.kind == "enter"]


def check_03_node_count(answer) -> None:
    """How many nodes (root, inner nodes and leaves) alpha-beta enters on ``TREE_03_NODES``,
    children searched left to right from the full window."""
    stats = Stats()
    alphabeta(TreeNode(TREE_03_NODES), stats=stats)
    expected = stats.nodes
    total = sum(1 for _ in walk(TreeNode(TREE_03_NODES)))
    first_hint = ("trace the search by hand (or run it with a Stats()) and count every node "
                  "it enters, the root and the leaves included.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a number of nodes.")
    if answer == total:
        hint = "that is every node of the tree; alpha-beta skips some of them."
    elif answer == stats.leaves:
        hint = "that counts only the leaves; count the root and inner nodes entered too."
    elif answer == expected - 1:
        hint = "one short: is the root counted?"
    elif not 0 < answer <= total:
        hint = f"the tree has {total} nodes, so the count lies between 1 and {total}."
    elif answer < expected:
        hint = ("too few: a cut-off happens only once alpha >= beta, and a MIN node's first "
                "child is always searched.")
    else:
        hint = "too many: look again for the cut-offs in the second and third subtrees."
    verdict(answer == expected,
            f"alpha-beta enters {expected} of the {total} nodes (run it with a Stats() "
            "to confirm).", hint)


def _bound(value) -> float | None:
    """A bound as a number, with 999 and -999 read as the slides' infinities."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if abs(value) == 999:
        return math.copysign(math.inf, value)
    return float(value)


def check_03_window(answer) -> None:
    """The window ``(alpha, beta)`` with which negamax-form alpha-beta, started from the full
    window, enters node D of ``TREE_03_WINDOW`` (use -999 or -math.inf for minus infinity)."""
    root, trace = _entered(TREE_03_WINDOW)
    (event,) = [e for e in trace.events if e.kind == "enter" and e.name == NODE_03_WINDOW]
    expected = (event.alpha, event.beta)
    _, maxmin = _entered(TREE_03_WINDOW, form="maxmin")
    (other,) = [e for e in maxmin.events if e.kind == "enter" and e.name == NODE_03_WINDOW]
    first_hint = ("in negamax form each child gets the window (-beta, -alpha) of its parent, "
                  "as the parent's alpha stands when the child is searched.")
    if unanswered(answer, first_hint):
        return
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return verdict(False, "", "give the window as a pair (alpha, beta), like (-999, 4).")
    got = tuple(_bound(value) for value in answer)
    if None in got:
        return verdict(False, "", "alpha and beta are numbers; write infinity as 999 or "
                                  "math.inf.")
    if got == (other.alpha, other.beta):
        hint = ("that is the max/min form's window, from X's view; in negamax form the window "
                "is from the view of the player to move at D.")
    elif got == (-other.alpha, -other.beta):
        hint = "negating both bounds is half of it: swap them too, so that alpha < beta."
    elif got[0] >= got[1]:
        hint = "a window needs alpha < beta."
    elif got == (-math.inf, math.inf):
        hint = "B has been searched by then, so the root's alpha is no longer minus infinity."
    else:
        hint = ("find the root's alpha once B is done, then pass (-beta, -alpha) to the next "
                "child.")
    verdict(got == expected,
            f"D is entered with ({_text(expected[0])}, {_text(expected[1])}): the root has "
            f"alpha {_text(other.alpha)} from B, and D, a MIN node, sees it negated as its "
            "beta.", hint)


def _text(value: float) -> str:
    if math.isinf(value):
        return "-∞" if value < 0 else "∞"
    return f"{value:g}"
