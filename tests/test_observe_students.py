"""Five alpha-betas written the way students write them, traced from outside by trace_calls,
against a recording made by hand-instrumented copies of the same functions."""
import math
import random

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search import alphabeta_maxmin, compare_traces, count_nodes, trace_calls
from ttt_lib.teach.judge import random_tree

INF = math.inf


# ---------------------------------------------------------------- five students' functions

def soft(state, alpha, beta):
    """Max/min form, fail-soft."""
    if state.is_terminal():
        return state.utility()
    maximizing = state.to_move == 1
    best = -INF if maximizing else INF
    for move in state.moves():
        value = soft(state.play(move), alpha, beta)
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def hard(state, alpha, beta):
    """Max/min form, fail-hard: every result clamped into the window."""
    if state.is_terminal():
        return min(max(state.utility(), alpha), beta)
    if state.to_move == 1:
        for move in state.moves():
            alpha = max(alpha, hard(state.play(move), alpha, beta))
            if alpha >= beta:
                return beta
        return alpha
    for move in state.moves():
        beta = min(beta, hard(state.play(move), alpha, beta))
        if alpha >= beta:
            return alpha
    return beta


def other_names(node, lo=-INF, hi=INF):
    """Fail-soft max/min form with other names and a default window."""
    if node.is_terminal():
        return node.utility()
    top = None
    for child in (node.play(m) for m in node.moves()):
        v = other_names(child, lo, hi)
        if node.to_move == 1:
            top = v if top is None else max(top, v)
            lo = max(lo, top)
        else:
            top = v if top is None else min(top, v)
            hi = min(hi, top)
        if lo >= hi:
            break
    return top


def nega(state, alpha, beta):
    """Negamax form: the value for the player to move."""
    if state.is_terminal():
        return state.to_move * state.utility()
    best = -INF
    for move in state.moves():
        best = max(best, -nega(state.play(move), -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def buggy(state, alpha, beta):
    """Max/min form with a bug: MIN's children are searched without MAX's alpha."""
    if state.is_terminal():
        return state.utility()
    maximizing = state.to_move == 1
    best = -INF if maximizing else INF
    for move in state.moves():
        value = buggy(state.play(move), alpha if maximizing else -INF, beta)
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


# ------------------------------------- the same functions, instrumented by hand, one copy

def number(x) -> str:
    x = math.copysign(999, x) if math.isinf(x) else x
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def recorded(state, alpha, beta, lines, *, negamax=False, fail="soft", bug=False, depth=0):
    """The slides' trace lines of one call, written where each event happens: a cut-off
    only where moves are left, and the bug's window named where it is passed."""
    pad, name = "  " * depth, state.name
    up = negamax or state.to_move == 1
    best = -INF if up else INF
    lines.append(f"{pad}{name} {number(alpha)} {number(beta)} {number(best)}")
    window = alpha, beta
    if state.is_terminal():
        value = state.to_move * state.utility() if negamax else state.utility()
        value = clamp(value, *window) if fail == "hard" else value
        lines.append(f"{pad}{name} leaf value {number(value)}")
        return value
    moves, cut = state.moves(), False
    for i, move in enumerate(moves):
        child = state.play(move)
        if negamax:
            value = -recorded(child, -beta, -alpha, lines, negamax=True, depth=depth + 1)
        else:
            low = -INF if bug and not up else alpha
            if low < alpha:  # the bug: MIN's alpha not passed on
                lines.append(f"{pad}  {child.name} is searched with {name}'s alpha as "
                             f"{number(low)}, but {name}'s alpha is {number(alpha)}: the "
                             f"window is not passed on to {child.name}")
            value = recorded(child, low, beta, lines, fail=fail, bug=bug, depth=depth + 1)
        if (value > best) if up else (value < best):
            best = value
            lines.append(f"{pad}  {child.name} now best child of {name}")
        if up and best > alpha:
            alpha = best
            lines.append(f"{pad}  {child.name} improved alpha( {name} ) to {number(alpha)}")
        if not up and best < beta:
            beta = best
            lines.append(f"{pad}  {child.name} improved beta( {name} ) to {number(beta)}")
        if alpha >= beta:
            if i < len(moves) - 1:  # a cut-off: moves are left
                lines.append(f"{pad}  alpha >= beta, prune remaining children of {name}")
            break
    result = clamp(best, *window) if fail == "hard" else best
    lines.append(f"{pad}{name} {number(alpha)} {number(beta)} {number(result)}")
    return result


def clamp(x, low, high):
    return min(max(x, low), high)


STUDENTS = {  # function -> how its hand-instrumented copy runs
    soft: {}, hard: {"fail": "hard"}, other_names: {}, nega: {"negamax": True},
    buggy: {"bug": True},
}
SLIDES = [[7, 5], [3, 1, 9]]


def trees():
    rng = random.Random(31)
    return [SLIDES] + [random_tree(rng, depth) for depth in (2, 3, 4, 5) for _ in range(6)]


@pytest.mark.parametrize("student", STUDENTS, ids=lambda f: f.__name__)
def test_the_observed_trace_is_the_hand_recorded_one(student):
    for tree in trees():
        root = TreeNode(tree, labels=True)
        value, trace = trace_calls(student, root, -INF, INF)
        lines = []
        assert recorded(root, -INF, INF, lines, **STUDENTS[student]) == value
        assert trace.lines() == lines, tree
        if isinstance(tree, list):  # a lone leaf looks the same in either form
            assert trace.form == ("negamax" if student is nega else "maxmin")


def test_the_right_ones_match_the_library_and_the_bug_is_named():
    root = TreeNode(SLIDES, labels=True)
    reference = trace_calls(alphabeta_maxmin, root, -INF, INF)[1]
    for student in (soft, other_names):
        assert compare_traces(trace_calls(student, root, -INF, INF)[1], reference) is None
    differs = 0
    for tree in trees():
        root = TreeNode(tree, labels=True)
        reference = trace_calls(alphabeta_maxmin, root, -INF, INF)[1]
        mine = trace_calls(buggy, root, -INF, INF)[1]
        right, wrong = [], []
        recorded(root, -INF, INF, right)
        recorded(root, -INF, INF, wrong, bug=True)
        first = next((i for i, (a, b) in enumerate(zip(wrong, right), 1) if a != b), None)
        said = compare_traces(mine, reference)
        if first is None and len(wrong) == len(right):
            assert said is None
        else:
            differs += 1
            first = first or min(len(wrong), len(right)) + 1
            assert said.startswith(f"line {first} differs"), (said, first)
    assert differs >= 5


def test_counting_a_students_function_counts_what_it_searched():
    for student in STUDENTS:
        value, stats = count_nodes(student, BitBoard.from_text("X../.O./..."), -INF, INF)
        sign = BitBoard.from_text("X../.O./...").to_move if student is nega else 1
        assert value * sign == 0
        assert 0 < stats.leaves < stats.nodes


def test_compare_traces_takes_traces():
    with pytest.raises(TypeError):
        compare_traces("A 1 2 3", trace_calls(soft, TreeNode(SLIDES), -INF, INF)[1])
    with pytest.raises(TypeError):
        trace_calls(soft, [[1, 2]], -INF, INF)


def test_the_stepper_and_the_drawing_take_a_students_search():
    from ttt_lib.viz import draw_tree
    from ttt_lib.widgets import TraceStepper

    root = TreeNode(SLIDES, labels=True)
    for student in (nega, buggy):
        stepper = TraceStepper(SLIDES, search=student)
        _, trace = trace_calls(student, root, -INF, INF)
        assert stepper.lines == trace.lines() and stepper.form == trace.form
        assert stepper.go(len(stepper.lines) - 1) == trace.lines()[-1]
        assert draw_tree(root, trace=trace, step=3).png()
