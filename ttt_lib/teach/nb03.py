"""Exercises of notebook 03: alpha-beta pruning."""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from ..game import MAX, MIN, TreeNode, leaves, walk
from ..search.pruning import alphabeta, alphabeta_maxmin
from ..search.exact import minimax
from ..search.trace import Stats, Trace
from .core import is_int, unanswered, verdict, write_it
from .judge import (SEARCHES, SECONDS, Case, Visits, Watched, call_limited, exact_number,
                    failure_of, same_value)
from .nb01 import ON_CASES, judged_cases, likely_mistake
from .nb02 import MINIMAX_MISTAKES

__all__ = ["TREE_03_PRUNED", "TREE_03_NODES", "TREE_03_WINDOW", "NODE_03_WINDOW",
           "check_03_pruned_leaves", "check_03_node_count", "check_03_window",
           "check_03_alphabeta"]

INF = math.inf

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
        missing = next(name for name in expected if name not in names)
        node = cutting_node(root, entered, missing)
        hint = (f"some pruned leaves are missing: look again at {node}. Once alpha >= beta "
                f"there, {node} skips its remaining children, and every leaf under them.")
    else:
        hint = "each leaf once, please."
    verdict(sorted(set(names)) == expected and len(names) == len(expected),
            f"{', '.join(expected)} are never looked at: "
            f"{len(leaf_names) - len(expected)} of the {len(leaf_names)} leaves decide "
            "the value.", hint)


def cutting_node(root: TreeNode, entered: set, leaf: str) -> str:
    """The node whose cut-off skips ``leaf``: its deepest ancestor the search entered."""
    path = next(path for path in _paths(root) if path[-1].name == leaf)
    return [node.name for node in path[:-1] if node.name in entered][-1]


def _paths(node: TreeNode, above: tuple = ()):
    """Every root-to-node path of the tree, as tuples of nodes."""
    path = above + (node,)
    yield path
    for move in ([] if node.is_terminal() else node.moves()):
        yield from _paths(node.play(move), path)


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


# ---------------------------------------------------------------- the write-it exercise
#
# The student's ``fn(state, alpha, beta)`` must give X's value and read exactly the leaves
# (in order) that ttt_lib's own ``alphabeta_maxmin`` reads, children left to right: first
# from the full window on every case, then from narrow windows, where a value outside the
# window may come back as a bound (fail-hard or fail-soft).

@dataclass(frozen=True)
class Mistake:
    """A typical wrong alpha-beta, as switches of ``wrong_alphabeta`` (defaults: right)."""

    hint: str = ""
    ties: bool = True                 # prune once alpha >= beta (False: only alpha > beta)
    prune_at: tuple = (MAX, MIN)      # the players whose nodes stop early
    max_bound: str = "alpha"          # the bound a MAX node moves to its best so far
    min_bound: str = "beta"           # the bound a MIN node moves to its best so far


def wrong_alphabeta(state, alpha: float, beta: float, mistake: Mistake) -> float:
    """Max/min alpha-beta with ``mistake`` in it (``Mistake()`` makes no mistake). A bound
    is moved as its own line would move it: alpha only up, beta only down."""
    if state.is_terminal():
        return state.utility()
    maximizing = state.to_move == MAX
    bounds, best = {"alpha": alpha, "beta": beta}, -INF if maximizing else INF
    for move in state.moves():
        value = wrong_alphabeta(state.play(move), bounds["alpha"], bounds["beta"], mistake)
        best = max(best, value) if maximizing else min(best, value)
        name = mistake.max_bound if maximizing else mistake.min_bound
        bounds[name] = max(bounds[name], best) if name == "alpha" else min(bounds[name], best)
        low, high = bounds["alpha"], bounds["beta"]
        if state.to_move in mistake.prune_at and (low >= high if mistake.ties else low > high):
            break
    return best


LEAF_MISTAKES = [
    Mistake("It evaluated every leaf, as minimax does: nothing was pruned. Does MAX raise "
            "alpha and MIN lower beta, does each child get the window (alpha, beta) as it "
            "stands, and does a node's loop stop once alpha >= beta?", prune_at=()),
    Mistake("It prunes too little when values tie: stop once alpha >= beta, not only when "
            "alpha > beta (an equal value cannot change the result either).", ties=False),
    Mistake("It prunes only at MAX nodes: a MIN node stops too once alpha >= beta.",
            prune_at=(MAX,)),
    Mistake("It prunes only at MIN nodes: a MAX node stops too once alpha >= beta.",
            prune_at=(MIN,)),
]


def read_leaves(search, state, alpha: float, beta: float, seconds: float | None = None):
    """``search(state, alpha, beta)`` on a watched ``state``: (its value, the keys of the
    leaves whose utility() it read, in order, a leaf read twice in a row counted once); with
    ``seconds``, under a time limit."""
    visits = Visits()
    args = (Watched(state, visits), alpha, beta)
    value = search(*args) if seconds is None else call_limited(search, args, seconds)
    keys = visits.leaves
    return value, [key for i, key in enumerate(keys) if i == 0 or key != keys[i - 1]]


def _oracle(state, alpha: float = -INF, beta: float = INF):
    return read_leaves(alphabeta_maxmin, state, alpha, beta)


def _mistake_leaves(state, mistake: Mistake) -> list:
    return read_leaves(lambda s, a, b: wrong_alphabeta(s, a, b, mistake), state, -INF, INF)[1]


def _leaf_mistake(fn, cases: list[Case]) -> str | None:
    """The typical mistake whose leaves match ``fn``'s on every case given, if one does."""
    try:
        got = [read_leaves(fn, case.state, -INF, INF, SECONDS)[1] for case in cases]
    except Exception:
        return None
    for mistake in LEAF_MISTAKES:
        if all(_mistake_leaves(case.state, mistake) == leaves_read
               for case, leaves_read in zip(cases, got)):
            return mistake.hint
    return None


def _leaf_text(state, keys: list) -> str:
    """The leaves read, by their values for a textbook tree, else by their number."""
    count = f"{len(keys)} leaf" if len(keys) == 1 else f"{len(keys)} leaves"
    if not isinstance(state, TreeNode):
        return count
    value = {node.key(): node.utility() for node in leaves(state)}
    return f"{count} ({', '.join(str(value[key]) for key in keys)})"


SWAPPED = Mistake(max_bound="beta", min_bound="alpha")
VALUE_MISTAKES = MINIMAX_MISTAKES + [
    (lambda state: wrong_alphabeta(state, -INF, INF, SWAPPED),
     "The bounds are swapped: a MAX node raises alpha to its best so far, a MIN node lowers "
     "beta; with them swapped, the window closes where it should not and cuts good moves."),
]


def _value_hint(fn, cases: list[Case], got) -> str:
    """Why the value is off: a minimax mistake that explains ``fn``'s values from the full
    window on ``cases`` (the failing one first), or negamax's view."""
    if isinstance(got, (tuple, list)) or got is None:
        return "Return the value alone, a number."
    full = (lambda f, state: f(state, -INF, INF))
    return likely_mistake(fn, cases, VALUE_MISTAKES, call=full) or (
        "Pruning never changes the value: MAX keeps its largest child value and raises "
        "alpha, MIN keeps the smallest and lowers beta, and a terminal state gives utility().")


def _leaf_count_hint(read: list, expected: list) -> str:
    if len(read) > len(expected):
        return ("It prunes too little: once alpha >= beta at a node, return without "
                "searching its remaining children.")
    if len(read) < len(expected):
        return ("It prunes too much: a node stops only once alpha >= beta, and each child "
                "gets the window as it stands then.")
    return "Search the children in the order moves() gives them, left to right."


def _full_window(fn, cases: list[Case]) -> str | None:
    """What is wrong on the first (smallest) case ``fn`` fails from (-inf, inf), or None."""
    for case in cases:
        try:
            got, read = read_leaves(fn, case.state, -INF, INF, SECONDS)
        except NotImplementedError:
            return "write the function (it still raises NotImplementedError)."
        except Exception as error:  # the student's bug, reported, never a traceback
            return f"on {case.text} {failure_of(error)}"
        expected, oracle_read = _oracle(case.state)
        if not same_value(expected, got):
            return (f"on {case.text} X's value is {expected}, your function gave {got!r}. "
                    f"{_value_hint(fn, [case] + cases[-8:], got)}")
        if read != oracle_read:
            hint = _leaf_mistake(fn, [case] + cases[-8:]) or _leaf_count_hint(read, oracle_read)
            return (f"on {case.text} the value {expected} is right, but your search read "
                    f"{_leaf_text(case.state, read)} where left-to-right alpha-beta reads "
                    f"{_leaf_text(case.state, oracle_read)}. {hint}")
    return None


def _within(value, got, alpha: float, beta: float) -> bool:
    """Whether ``got`` is a right answer from the window: exact inside it, else a bound on
    the right side (fail-soft: between the value and the window; fail-hard: its edge)."""
    got = exact_number(got)
    if got is None:
        return False
    if alpha < value < beta:
        return same_value(value, got)
    if value <= alpha:
        return value <= got <= alpha
    return beta <= got <= value


def _narrow_windows(fn, cases: list[Case]) -> str | None:
    """What is wrong on the first case ``fn`` fails from a narrow window, or None."""
    for case in cases:
        value = minimax(case.state)
        for alpha, beta in ((value - 1, value + 1), (value + 1, value + 3),
                            (value - 3, value - 1)):
            where = f"on {case.text} searched from the window ({alpha}, {beta}),"
            try:
                got, read = read_leaves(fn, case.state, alpha, beta, SECONDS)
            except Exception as error:
                return f"{where} {failure_of(error)}"
            if not _within(value, got, alpha, beta):
                side = ("inside it, so the result is exactly that value" if alpha < value < beta
                        else "outside it, so the result is a bound between that value and "
                             "the window's nearer edge (fail-soft), or that edge (fail-hard)")
                return (f"{where} X's value is {value}, {side}; your function gave {got!r}. "
                        "Start a node's best at -inf (MAX) or inf (MIN), keep the best child "
                        "value, and return it.")
            expected = _oracle(case.state, alpha, beta)[1]
            if read != expected:
                hint = ("Use the alpha and beta it is called with at the root too, not -inf "
                        "and inf." if read == _oracle(case.state)[1]
                        else _leaf_count_hint(read, expected))
                return (f"{where} your search read {_leaf_text(case.state, read)} where "
                        f"alpha-beta reads {_leaf_text(case.state, expected)}. {hint}")
    return None


@write_it(forbids=SEARCHES)
def check_03_alphabeta(fn) -> None:
    """Judge ``fn(state, alpha, beta) -> X's value`` (max/min form) on 60 random textbook
    trees and six positions: the value, and exactly the leaves (in order) that alpha-beta
    reads searching the children left to right, from the full window and from narrow ones."""
    if unanswered(fn, "minimax with a window: MAX raises alpha to its best so far, MIN lowers "
                      "beta, and a node stops once alpha >= beta."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    cases = judged_cases(4)
    problem = _full_window(fn, cases) or _narrow_windows(fn, cases)
    if problem:
        return print(f"Not yet: {problem}")
    print("Right: your alpha-beta finds X's value and reads exactly the leaves that "
          f"left-to-right alpha-beta reads, {ON_CASES}, from the full window and from narrow "
          "ones.")
