"""The observer's quick route (counting alone, for a search that receives no window) counts
exactly what its full route counts: nodes, leaves, cut-offs, table hits, re-searches and the
form it saw, for the library's searches (``stats=``, every report row) and for hand-written
ones (max/min, negamax, a table of their own, a depth limit, chance nodes, a checked
wrapper around the search)."""
import inspect

import pytest

from ttt_lib import BitBoard
from ttt_lib.boards.slippery import SlipperyBoard
from ttt_lib.search import Stats, count_nodes, minimax, negamax
from ttt_lib.search.observe import count_nodes_in_form
from ttt_lib.search.ordering import line_score
from ttt_lib.search.watch import Watcher
from ttt_lib.studies.nodes import report_rows

# the right functions of the exercise catalogues, written as students write them
from teach_cases.nb02 import right_minimax as my_minimax, right_negamax as my_negamax
from teach_cases.nb09 import right_expectiminimax as my_expecti

POSITIONS = ["X../.O./...", "XO./.X./...", ".X./.../..O", "XOX/.O./..."]


def both_routes(run):
    """``run()``'s result by the quick route, and by the full one."""
    quick = run()
    Watcher.quick = False
    try:
        full = run()
    finally:
        Watcher.quick = True
    return quick, full


TABLE: dict = {}


def my_memo(state):  # its own table: a hit returns before searching
    if state.key() in TABLE:
        return TABLE[state.key()]
    if state.is_terminal():
        value = state.utility()
    else:
        values = [my_memo(state.play(m)) for m in state.moves()]
        value = max(values) if state.to_move == 1 else min(values)
    TABLE[state.key()] = value
    return value


def my_depth(state, depth=2):  # stops at a depth: an evaluation is a leaf
    if state.is_terminal() or depth == 0:
        return state.utility() if state.is_terminal() else line_score(state)
    values = [my_depth(state.play(m), depth - 1) for m in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def layered(state):  # a wrapper calling the search on the same state
    return my_minimax(state)


HAND_WRITTEN = [my_minimax, my_negamax, my_memo, my_depth]


def counts(result):
    return result[1].as_dict()


@pytest.mark.parametrize("text", POSITIONS)
@pytest.mark.parametrize("search", HAND_WRITTEN + [minimax, negamax],
                         ids=lambda f: getattr(f, "__name__", str(f)))
def test_counting_a_search_gives_the_same_counts_and_form(search, text):
    state = BitBoard.from_text(text)
    TABLE.clear()
    quick = count_nodes_in_form(search, state)
    TABLE.clear()
    Watcher.quick = False
    try:
        full = count_nodes_in_form(search, state)
    finally:
        Watcher.quick = True
    assert quick[0] == full[0] and quick[2] == full[2]
    assert quick[1].as_dict() == full[1].as_dict()
    assert quick[1].nodes > 1


def test_chance_nodes_and_a_wrapper_layer_count_the_same():
    state = SlipperyBoard("1/4")
    for aim in (4, 0, 8, 2):  # four marks down, each where it was aimed
        state = state.play(aim).outcomes()[0][1]
    quick, full = both_routes(lambda: count_nodes(my_expecti, state))
    assert counts(quick) == counts(full) and quick[0] == full[0] and quick[1].nodes > 1
    state = BitBoard.from_text("XO./.X./...")
    quick, full = both_routes(lambda: count_nodes(layered, state))
    assert counts(quick) == counts(full) and quick[1].nodes > 1


@pytest.mark.parametrize("row", report_rows(), ids=lambda row: row.name)
def test_every_report_row_counts_the_same_by_both_routes(row):
    """Each row as the node report counts it: by its ``stats=`` when it has one, else by
    ``count_nodes``."""
    for text in POSITIONS[:2] + ["X../.../..."]:
        state = BitBoard.from_text(text)

        def run():
            if "stats" not in inspect.signature(row.search).parameters:
                return count_nodes(row.search, state, **row.options)
            stats = Stats()
            return row.search(state, stats=stats, **row.options), stats

        quick, full = both_routes(run)
        assert quick[0] == full[0]
        assert counts(quick) == counts(full), text
