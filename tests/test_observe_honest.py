"""The observer states what the watched function did, never what the textbook would have done.

Every hand-written search here keeps its own books as it runs (``Books``: the window each call
received, the value it returned, how many children it searched, its own table's hits), so
the truth is written by the function itself. ``count_nodes`` and ``trace_calls`` must agree
with those books for searches in max/min and negamax form, written as module functions,
methods, nested functions under a driver, with the depth before the window, with the window
as one tuple, with their own table, and with a bug (alpha never raised); or refuse clearly.
"""
import math
import random

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search import (alphabeta, alphabeta_maxmin, compare_traces, count_nodes, minimax,
                            negamax, Stats, trace_calls)
from ttt_lib.search.locate import WindowNotFound
from ttt_lib.search.observe import NoSearchSeen
from ttt_lib.search.report import ReportRow
from ttt_lib.studies.nodes import counted_search
from ttt_lib.teach.judge import random_tree

INF = math.inf
SLIDES = [[7, 5], [3, 1, 9]]
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


class Books:
    """What a search writes down about itself: one entry per call it searched, in order."""

    def __init__(self):
        self.entered, self.returned, self.hits, self.leaves = [], [], 0, 0
        self.stopped = []   # (name, moves left) of each node that broke off its loop

    def enter(self, state, low, high):
        self.entered.append((name(state), low, high))

    def leave(self, state, value, searched):
        self.returned.append((name(state), value))
        if searched < len(state.moves()):
            self.stopped.append((name(state), len(state.moves()) - searched))
        return value

    def leaf(self, state, value):
        self.leaves += 1
        self.entered.append((name(state), None, None))
        self.returned.append((name(state), value))
        return value

    def counts(self):
        return (len(self.entered), self.leaves, len(self.stopped), self.hits)


def name(state):
    return state.name if isinstance(getattr(state, "name", None), str) else state.to_text()


BOOKS = Books()


# ----------------------------------------------------------------- the hand-written searches

def maxmin(state, alpha, beta):
    """Max/min form, fail-soft."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.utility())
    BOOKS.enter(state, alpha, beta)
    up, searched = state.to_move == 1, 0
    best = -INF if up else INF
    for move in state.moves():
        value = maxmin(state.play(move), alpha, beta)
        searched += 1
        if up:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return BOOKS.leave(state, best, searched)


def nega(state, alpha, beta):
    """Negamax form: the value for the player to move."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.to_move * state.utility())
    BOOKS.enter(state, alpha, beta)
    best, searched = -INF, 0
    for move in state.moves():
        best = max(best, -nega(state.play(move), -beta, -alpha))
        searched += 1
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return BOOKS.leave(state, best, searched)


def forgets(state, alpha, beta):
    """Max/min form with a bug: MAX never raises alpha."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.utility())
    BOOKS.enter(state, alpha, beta)
    up, searched = state.to_move == 1, 0
    best = -INF if up else INF
    for move in state.moves():
        value = forgets(state.play(move), alpha, beta)
        searched += 1
        if up:
            best = max(best, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return BOOKS.leave(state, best, searched)


def deep(state, depth, lo, hi):
    """The depth before the window (the depth counts plies and limits nothing)."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.utility())
    BOOKS.enter(state, lo, hi)
    up, searched = state.to_move == 1, 0
    best = -INF if up else INF
    for move in state.moves():
        value = deep(state.play(move), depth + 1, lo, hi)
        searched += 1
        best = max(best, value) if up else min(best, value)
        lo, hi = (max(lo, best), hi) if up else (lo, min(hi, best))
        if lo >= hi:
            break
    return BOOKS.leave(state, best, searched)


def paired(state, window):
    """The window as one (low, high) tuple, negamax form."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.to_move * state.utility())
    low, high = window
    BOOKS.enter(state, low, high)
    best, searched = -INF, 0
    for move in state.moves():
        best = max(best, -paired(state.play(move), (-high, -low)))
        searched += 1
        low = max(low, best)
        if low >= high:
            break
    return BOOKS.leave(state, best, searched)


TABLE = {}


def tabled(state, alpha, beta):
    """Negamax with its own table of exact values (kept only when inside the window)."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.to_move * state.utility())
    if state.key() in TABLE:
        BOOKS.hits += 1
        return TABLE[state.key()]
    BOOKS.enter(state, alpha, beta)
    best, searched, start = -INF, 0, alpha
    for move in state.moves():
        best = max(best, -tabled(state.play(move), -beta, -alpha))
        searched += 1
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    if start < best < beta:
        TABLE[state.key()] = best
    return BOOKS.leave(state, best, searched)


class Searcher:
    """A search written as a method."""

    def search(self, state, alpha, beta):
        if state.is_terminal():
            return BOOKS.leaf(state, state.utility())
        BOOKS.enter(state, alpha, beta)
        up, searched = state.to_move == 1, 0
        best = -INF if up else INF
        for move in state.moves():
            value = self.search(state.play(move), alpha, beta)
            searched += 1
            best = max(best, value) if up else min(best, value)
            alpha, beta = (max(alpha, best), beta) if up else (alpha, min(beta, best))
            if alpha >= beta:
                break
        return BOOKS.leave(state, best, searched)


def driver(state):
    """A driver: the search is a nested function, with the window its own."""
    def inner(node, a, b):
        if node.is_terminal():
            return BOOKS.leaf(node, node.utility())
        BOOKS.enter(node, a, b)
        up, searched = node.to_move == 1, 0
        best = -INF if up else INF
        for move in node.moves():
            value = inner(node.play(move), a, b)
            searched += 1
            best = max(best, value) if up else min(best, value)
            a, b = (max(a, best), b) if up else (a, min(b, best))
            if a >= b:
                break
        return BOOKS.leave(node, best, searched)
    return inner(state, -INF, INF)


def max_value(state, alpha, beta):
    """AIMA's pair of functions calling each other."""
    if state.is_terminal():
        return BOOKS.leaf(state, state.utility())
    BOOKS.enter(state, alpha, beta)
    best, searched = -INF, 0
    for move in state.moves():
        best = max(best, min_value(state.play(move), alpha, beta))
        searched += 1
        if best >= beta:
            break
        alpha = max(alpha, best)
    return BOOKS.leave(state, best, searched)


def min_value(state, alpha, beta):
    if state.is_terminal():
        return BOOKS.leaf(state, state.utility())
    BOOKS.enter(state, alpha, beta)
    best, searched = INF, 0
    for move in state.moves():
        best = min(best, max_value(state.play(move), alpha, beta))
        searched += 1
        if best <= alpha:
            break
        beta = min(beta, best)
    return BOOKS.leave(state, best, searched)


def aima(state):
    return (max_value if state.to_move == 1 else min_value)(state, -INF, INF)


# Each search, how to call it, its form.
SEARCHES = {
    "maxmin": (maxmin, (-INF, INF), "maxmin"),
    "negamax": (nega, (-INF, INF), "negamax"),
    "forgets": (forgets, (-INF, INF), "maxmin"),
    "depth first": (deep, (0, -INF, INF), "maxmin"),
    "window tuple": (paired, ((-INF, INF),), "negamax"),
    "own table": (tabled, (-INF, INF), "negamax"),
    "method": (Searcher().search, (-INF, INF), "maxmin"),
    "driver": (driver, (), "maxmin"),
    "lambda": (lambda s: maxmin(s, -INF, INF), (), "maxmin"),
    "max_value/min_value": (aima, (), "maxmin"),
}


def own_books(search, state, args):
    """The search run plainly, and the books it kept."""
    global BOOKS
    BOOKS, TABLE_COPY = Books(), dict(TABLE)
    TABLE.clear()
    value = search(state, *args)
    books, BOOKS = BOOKS, Books()
    TABLE.clear()
    TABLE.update(TABLE_COPY)
    return value, books


def observed_books(observer, search, state, args):
    """``observer(search, state, *args)`` run with fresh books and an empty table."""
    global BOOKS
    BOOKS = Books()
    TABLE.clear()
    result = observer(search, state, *args)
    TABLE.clear()
    return result


def positions():
    rng = random.Random(5)
    trees = [TreeNode(SLIDES, labels=True), TreeNode(AIMA, labels=True)]
    trees += [TreeNode(random_tree(rng, depth), labels=True) for depth in (3, 4)]
    return trees + [BitBoard.from_text("X../.O./..."), BitBoard.from_text("XO./.X./..O")]


@pytest.mark.parametrize("label", SEARCHES)
def test_every_count_is_the_functions_own(label):
    search, args, _ = SEARCHES[label]
    for state in positions():
        value, books = own_books(search, state, args)
        seen, stats = observed_books(count_nodes, search, state, args)
        assert seen == value
        assert (stats.nodes, stats.leaves, stats.cutoffs, stats.table_hits) == books.counts(), \
            (label, name(state))


@pytest.mark.parametrize("label", SEARCHES)
def test_every_trace_line_is_true_of_what_the_function_did(label):
    search, args, form = SEARCHES[label]
    for state in positions()[:4]:
        _, books = own_books(search, state, args)
        _, trace = observed_books(trace_calls, search, state, args)
        entered = [(e.name, e.alpha, e.beta) for e in trace.events if e.kind == "enter"]
        leaves = {e.name for e in trace.events if e.kind == "leaf"}
        assert [(n, a, b) if n not in leaves else (n, None, None) for n, a, b in entered] \
            == books.entered
        returned = [(e.name, e.value) for e in trace.events if e.kind in ("leaf", "exit")]
        assert returned == books.returned
        assert [(e.name, e.value) for e in trace.events if e.kind == "cutoff"] == books.stopped
        assert trace.form == form


def test_a_search_that_forgets_to_raise_alpha_is_not_credited_with_it():
    root = TreeNode(SLIDES, labels=True)
    right = trace_calls(maxmin, root, -INF, INF)[1].lines()
    wrong = observed_books(trace_calls, forgets, root, (-INF, INF))[1].lines()
    assert "  B improved alpha( A ) to 5" in right
    assert not any("improved alpha" in line for line in wrong)
    assert ("  C is searched with A's alpha still -999, but A already has 5 from B: the "
            "textbook raises alpha( A ) to 5 before searching C") in wrong
    assert wrong[-1] == "A -999 999 5" and right[-1] == "A 5 999 5"
    assert not any("prune" in line for line in wrong)  # C searched all its moves


def test_a_cut_off_is_a_node_stopped_with_moves_left():
    """The AIMA tree: C stops after its first leaf; D's window closes only at its last."""
    trace = Trace_of(alphabeta_maxmin, TreeNode(AIMA, labels=True))
    assert [e.name for e in trace.events if e.kind == "cutoff"] == ["C"]
    assert not any("children of D" in line for line in trace.lines())


def Trace_of(search, root):
    return trace_calls(search, root, -INF, INF)[1]


def test_the_empty_boards_cut_offs_counted_independently():
    """Plain alpha-beta from the empty board: the nodes that stop with moves left, as the
    function itself counts them, are what Stats reports, for the library and for count_nodes."""
    value, books = own_books(maxmin, BitBoard(), (-INF, INF))
    stopped = len(books.stopped)
    library = Stats()
    alphabeta(BitBoard(), stats=library, form="maxmin")
    assert library.cutoffs == stopped == count_nodes(alphabeta_maxmin, BitBoard())[1].cutoffs
    assert stopped == 4_237 and len(books.entered) == library.nodes == 18_297


def test_the_checked_public_search_is_counted_as_the_search_it_is():
    library, state = Stats(), BitBoard.from_text("X../.O./...")
    alphabeta(state, stats=library)
    value, stats = count_nodes(alphabeta, state)
    assert value == 0 and stats == library and stats.nodes > 100
    table = Stats()
    alphabeta(state, stats=table, table=True)
    assert count_nodes(alphabeta, state, table=True)[1] == table
    assert count_nodes(minimax, TreeNode(SLIDES))[1].nodes == 8


def test_a_window_that_cannot_be_found_is_refused_with_how_to_say_it():
    def unnamed(state, p, q, r):
        if state.is_terminal():
            return state.utility()
        return max(unnamed(state.play(m), p, q, r) for m in state.moves())
    root = TreeNode(SLIDES, labels=True)
    with pytest.raises(WindowNotFound, match=r"read p=0, q=-inf, r=inf.*window=\("):
        count_nodes(unnamed, root, 0, -INF, INF)
    _, trace = trace_calls(unnamed, root, 0, -INF, INF, window=("q", "r"))
    assert trace.lines()[0] == "A -999 999 -999"
    assert count_nodes(unnamed, root, 0, -INF, INF, window=())[1].nodes == 8
    with pytest.raises(WindowNotFound, match="no such parameter"):
        count_nodes(unnamed, root, 0, -INF, INF, window=("lo", "hi"))
    with pytest.raises(TypeError, match="window="):
        count_nodes(unnamed, root, 0, -INF, INF, window=(-INF, INF))


def test_a_function_with_no_recursion_is_refused_not_counted_as_one_node():
    def with_a_stack(state):
        stack, best = [state], 0
        while stack:
            node = stack.pop()
            stack += [] if node.is_terminal() else [node.play(m) for m in node.moves()]
        return best
    with pytest.raises(NoSearchSeen, match="no search was seen"):
        count_nodes(with_a_stack, TreeNode(SLIDES))


def test_two_forms_are_named_before_any_line():
    root = TreeNode(SLIDES, labels=True)
    said = compare_traces(trace_calls(negamax, root)[1], trace_calls(minimax, root)[1])
    assert said.startswith("the two are written in different forms: yours in negamax form")


def test_a_report_row_cannot_flip_a_negamax_value_silently():
    from ttt_lib.errors import SearchOptionError
    state = BitBoard.from_text("XX./O../...")  # O to move: X's wins end on O's turn
    with pytest.raises(SearchOptionError, match="view='mover'"):
        counted_search(ReportRow("negamax, view forgotten", negamax, {}, None), state)
    value, stats = counted_search(ReportRow("negamax", negamax, {}, None, view="mover"), state)
    assert value == minimax(state) and stats.nodes > 0
