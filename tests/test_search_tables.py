"""Transposition tables: entries carry bound flags, so a table survives any window."""
import math

import pytest

from ttt_lib import BitBoard
from ttt_lib.search import AlphaBeta, Stats, Trace, alphabeta, solve_all
from ttt_lib.search.pruning import EXACT, LOWER, UPPER
from ttt_lib.symmetry import SYMMETRIES, transform

WINDOWS = [(0, 1), (-1, 0), (-math.inf, 0), (0, math.inf), (-0.5, 0.5), (-1, 1),
           (-math.inf, math.inf)]


@pytest.fixture(scope="module")
def exact():
    return solve_all(BitBoard())


def mover_value(key, exact):
    """The true value, for the player to move, of the position with this (canonical) key."""
    state = BitBoard.from_bits(key)
    return state.to_move * exact[key]


def check_soft_result(result, alpha, beta, value):
    if alpha < value < beta:
        assert result == value
    elif value <= alpha:
        assert value <= result <= alpha
    else:
        assert beta <= result <= value


@pytest.mark.parametrize("symmetry", [False, True])
def test_every_entry_is_true_to_its_flag(symmetry, all_bitboards, exact):
    table = {}
    for i, state in enumerate(all_bitboards):
        alpha, beta = WINDOWS[i % len(WINDOWS)]
        result = alphabeta(state, alpha, beta, table=table, symmetry=symmetry)
        check_soft_result(result, alpha, beta, exact[state.key()])
    flags = {flag for _, flag in table.values()}
    assert flags == {EXACT, LOWER, UPPER}
    for key, (value, flag) in table.items():
        true = mover_value(key, exact)
        if flag == EXACT:
            assert value == true
        elif flag == LOWER:
            assert true >= value
        else:
            assert true <= value


@pytest.mark.parametrize("symmetry", [False, True])
def test_a_table_reused_across_windows_still_gives_exact_values(symmetry, all_bitboards, exact):
    table = {}
    for alpha, beta in WINDOWS[:4]:
        for state in all_bitboards[::7]:
            alphabeta(state, alpha, beta, table=table, symmetry=symmetry)
    for state in all_bitboards:
        assert alphabeta(state, table=table, symmetry=symmetry) == exact[state.key()]


def test_ignoring_the_flags_gives_wrong_values(all_bitboards, exact):
    """The control: the same table with every bound taken as exact is wrong somewhere."""
    table = {}
    for alpha, beta in [(0, 1), (-1, 0)]:
        for state in all_bitboards[::7]:
            alphabeta(state, alpha, beta, table=table)
    naive = {key: (value, EXACT) for key, (value, flag) in table.items()}
    wrong = [state for state in all_bitboards
             if alphabeta(state, table=dict(naive)) != exact[state.key()]]
    assert wrong


def test_table_hits_are_not_counted_as_nodes():
    table, first, again = {}, Stats(), Stats()
    alphabeta(BitBoard(), table=table, stats=first)
    assert first.table_hits > 0 and first.nodes > 0
    alphabeta(BitBoard(), table=table, stats=again)
    assert again == Stats(table_hits=1)


def test_symmetric_images_share_one_entry():
    state = BitBoard.from_text("X../.O./..X")
    table = {}
    alphabeta(state, symmetry=True, table=table)
    for name, perm in SYMMETRIES.items():
        image = BitBoard.from_cells(transform(state.cells(), perm))
        stats, trace = Stats(), Trace()
        assert alphabeta(image, symmetry=True, table=table, stats=stats, trace=trace) \
            == alphabeta(state)
        assert stats == Stats(table_hits=1), name
        assert [e.kind for e in trace.events] == ["hit"]
        assert trace.lines()[0].endswith("table value 0")


def test_the_symmetric_table_holds_fewer_positions():
    plain, symmetric = {}, {}
    alphabeta(BitBoard(), table=plain)
    alphabeta(BitBoard(), table=symmetric, symmetry=True)
    assert len(symmetric) < len(plain) / 3


def test_a_table_with_a_hard_failing_search_is_still_exact(all_bitboards, exact):
    table = {}
    for i, state in enumerate(all_bitboards):
        alpha, beta = WINDOWS[i % len(WINDOWS)]
        result = alphabeta(state, alpha, beta, table=table, fail="hard")
        assert alpha <= result <= beta
        if alpha < exact[state.key()] < beta:
            assert result == exact[state.key()]
    for state in all_bitboards[::5]:
        assert alphabeta(state, table=table, fail="hard") == exact[state.key()]


@pytest.mark.parametrize("entry, alpha, beta, answer", [
    ((0, EXACT), -1, 1, True), ((5, EXACT), -1, 1, True),
    ((1, LOWER), -1, 1, True), ((1, LOWER), -1, 2, False), ((0, LOWER), -1, 1, False),
    ((-1, UPPER), -1, 1, True), ((-1, UPPER), -2, 1, False), ((0, UPPER), -1, 1, False),
])
def test_an_entry_answers_a_window_when_its_bound_is_enough(entry, alpha, beta, answer):
    state = BitBoard.from_text("X../.O./...")
    stats = Stats()
    engine = AlphaBeta(table={state.key(): entry})
    value = engine.observed(lambda: engine.search_with_table(state, alpha, beta), stats)
    assert (stats == Stats(table_hits=1)) is answer
    assert value == (entry[0] if answer else 0)


def test_finished_games_are_stored_exact_whatever_the_window():
    """A finished board's value does not depend on the window it was searched in."""
    for alpha, beta in WINDOWS:
        table = {}
        AlphaBeta(table=table).value(BitBoard.from_text("XX./OO./..."), alpha, beta)
        for key, (value, flag) in table.items():
            if BitBoard.from_bits(key).is_terminal():
                assert flag == EXACT, (alpha, beta, key)


def test_the_variants_are_wrappers_around_the_one_search():
    plain, tabled = AlphaBeta(), AlphaBeta(table=True)
    hard, both = AlphaBeta(fail="hard"), AlphaBeta(fail="hard", table=True)
    assert plain.visit == plain.search and tabled.visit == tabled.search_with_table
    assert hard.visit == hard.search_fail_hard and hard.visit_soft == hard.search
    assert both.visit == both.search_fail_hard and both.visit_soft == both.search_with_table
    state = BitBoard.from_text("X../.O./...")
    assert both.search_fail_hard(state, 0.5, 0.9) == 0.5
    assert tabled.search_with_table(state, -1, 1) == 0 == plain.search(state, -1, 1)
