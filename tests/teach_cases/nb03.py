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


# ---------------------------------------------------------------- write-it alpha-beta
INF = math.inf


def right_alphabeta(state, alpha, beta):  # fail-soft
    if state.is_terminal():
        return state.utility()
    if state.to_move == 1:
        best = -INF
        for move in state.moves():
            best = max(best, right_alphabeta(state.play(move), alpha, beta))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    best = INF
    for move in state.moves():
        best = min(best, right_alphabeta(state.play(move), alpha, beta))
        beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def utility_read_twice(state, alpha, beta):  # looks at each leaf twice: still right
    if state.is_terminal():
        if state.utility() > 0:  # a first look
            return state.utility()
        return state.utility()
    return _max_min(utility_read_twice, state, alpha, beta)


def _max_min(search, state, alpha, beta):
    """One level of max/min alpha-beta, ``search`` for the children."""
    best = -INF if state.to_move == 1 else INF
    for move in state.moves():
        value = search(state.play(move), alpha, beta)
        if state.to_move == 1:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def fail_hard(state, alpha, beta):  # returns the bound it crossed: also right
    if state.is_terminal():
        return min(max(state.utility(), alpha), beta)
    for move in state.moves():
        value = fail_hard(state.play(move), alpha, beta)
        if state.to_move == 1:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            return beta if state.to_move == 1 else alpha
    return alpha if state.to_move == 1 else beta


def variant(**mistake):
    """Alpha-beta with one of the switches of the checker's own catalogue of mistakes."""
    def search(state, alpha, beta):
        return teach.nb03.wrong_alphabeta(state, alpha, beta, teach.nb03.Mistake(**mistake))
    return search


no_pruning, strict_ties = variant(prune_at=()), variant(ties=False)
prunes_at_max_only, prunes_at_min_only = variant(prune_at=(1,)), variant(prune_at=(-1,))


def window_not_passed(state, alpha, beta):  # every child searched from (-inf, inf)
    if state.is_terminal():
        return state.utility()
    values = []
    for move in state.moves():
        values.append(window_not_passed(state.play(move), -INF, INF))
        best = max(values) if state.to_move == 1 else min(values)
        if state.to_move == 1:
            alpha = max(alpha, best)
        else:
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def bounds_swapped(state, alpha, beta):  # MAX lowers beta, MIN raises alpha
    if state.is_terminal():
        return state.utility()
    best = -INF if state.to_move == 1 else INF
    for move in state.moves():
        value = bounds_swapped(state.play(move), alpha, beta)
        if state.to_move == 1:
            best, beta = max(best, value), min(beta, max(best, value))
        else:
            best, alpha = min(best, value), max(alpha, min(best, value))
        if alpha >= beta:
            break
    return best


def min_moves_alpha(state, alpha, beta):  # MIN's branch copied from MAX's: it raises alpha
    if state.is_terminal():
        return state.utility()
    best = -INF if state.to_move == 1 else INF
    for move in state.moves():
        value = min_moves_alpha(state.play(move), alpha, beta)
        best = max(best, value) if state.to_move == 1 else min(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def max_everywhere(state, alpha, beta):
    if state.is_terminal():
        return state.utility()
    best = -INF
    for move in state.moves():
        best = max(best, max_everywhere(state.play(move), alpha, beta))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def negamax_form(state, alpha, beta):  # right pruning, but the value for the player to move
    if state.is_terminal():
        return state.to_move * state.utility()
    best = -INF
    for move in state.moves():
        best = max(best, -negamax_form(state.play(move), -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def root_window_ignored(state, alpha, beta):
    return right_alphabeta(state, -INF, INF)


def clamps_wrongly(state, alpha, beta):  # a fail-low result pushed up to beta
    value = right_alphabeta(state, alpha, beta)
    return beta if value <= alpha else value


def endless(state, alpha, beta):
    return endless(state, alpha, beta)


def stub(state, alpha, beta):
    raise NotImplementedError  # your code here


# Each write-it checker: right functions, and typical wrong ones with words of their hint.
WRITE_IT = [
    (teach.check_03_alphabeta, [right_alphabeta, fail_hard, variant(), utility_read_twice],
     {no_pruning: "evaluated every leaf", strict_ties: "not only when alpha > beta",
      prunes_at_max_only: "only at MAX nodes", prunes_at_min_only: "only at MIN nodes",
      window_not_passed: "each child get the window", min_moves_alpha: "MIN lower beta", bounds_swapped: "bounds are swapped",
      max_everywhere: "MIN (to_move == -1) takes the smallest",
      negamax_form: "negamax's value", root_window_ignored: "at the root too",
      clamps_wrongly: "a bound between that value", endless: "recursed without end",
      stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search import alphabeta_maxmin, minimax  # noqa: E402


def numpy_alphabeta(state, alpha, beta):  # numpy's numbers and infinities, fail-hard
    if state.is_terminal():
        return np.int64(state.utility())
    for move in state.moves():
        value = numpy_alphabeta(state.play(move), alpha, beta)
        if state.to_move == 1:
            alpha = np.maximum(alpha, value)
        else:
            beta = np.minimum(beta, value)
        if alpha >= beta:
            break
    return alpha if state.to_move == 1 else beta


def library_alphabeta(state, alpha, beta):
    return alphabeta(state, alpha=alpha, beta=beta)


def library_maxmin(state, alpha, beta):
    return alphabeta_maxmin(state, alpha, beta)


def library_minimax(state, alpha, beta):  # the right value, but no alpha-beta at all
    return minimax(state)


WRITE_IT[0][1].append(numpy_alphabeta)
CHEATS = [(teach.check_03_alphabeta, {library_alphabeta: "alphabeta",
                                      library_maxmin: "alphabeta_maxmin",
                                      library_minimax: "minimax"})]
