"""The write-it table search of notebook 04 (``check_04_transposition``) and what it stands on
(``ttt_lib.teach.tables``): its expected values and node counts held to ttt_lib's own searches,
its sessions as promised, and the pieces that watch a student's search from outside."""
import math
import random

import pytest

from ttt_lib import BitBoard
from ttt_lib.search import AlphaBeta, solve
from ttt_lib.teach import nb04_table
from ttt_lib.teach.tables import (Counted, Expanded, ForgetfulTable, Search, TooMuchSearch,
                                  WatchedTable, right_result, table_search)

INF = math.inf
SESSIONS = nb04_table.transposition_04_sessions()
SEARCHES = [search for session in SESSIONS for search in session]


def test_sessions_are_many_seeded_and_o_moves_at_half_the_roots():
    assert len(SESSIONS) == 20 and len(SEARCHES) >= 100
    roots = [session[0].state for session in SESSIONS]
    assert sum(root.to_move == -1 for root in roots) == len(roots) // 2
    assert {root.first for root in roots} == {1, -1}  # X and O open
    empties = [root.cells().count(0) for root in roots]
    assert empties == sorted(empties)  # smallest first
    assert all(search.alpha < search.beta for search in SEARCHES)
    assert all(not search.state.is_terminal() for search in SEARCHES)
    for session in SESSIONS:  # the root again from the full window, after narrower ones
        assert (session[-1].alpha, session[-1].beta) == (-INF, INF)
        assert session[0].state in {search.state for search in session[-2:]}


def test_sessions_with_even_marks_search_the_same_marks_with_the_other_mover():
    for session in SESSIONS:
        root = session[0].state
        twins = [s.state for s in session if s.state.cells() == root.cells()
                 and s.state.to_move != root.to_move]
        assert bool(twins) == (root.cells().count(0) % 2 == 1)


def test_the_expected_values_are_ttt_lib_s():
    for search in SEARCHES:
        assert nb04_table.mover_value(search.state) == search.state.to_move * solve(search.state)


def test_the_alphabeta_count_is_ttt_lib_s_alphabeta():
    expanded = Expanded()
    for search in SEARCHES:
        AlphaBeta().search(Counted(search.state, expanded), search.alpha, search.beta)
    assert nb04_table.alphabeta_04_expansions() == expanded.count


@pytest.mark.parametrize("fail", ["soft", "hard"])
def test_the_checker_s_own_table_search_is_right_in_random_windows(fail):
    """Its fail-hard form stores the clamped values (as students write it), the library's the
    fail-soft ones: both right, not always equal."""
    rng = random.Random(4)
    for session in SESSIONS:
        mine, library = {}, {}
        for search in session:
            alpha, beta = sorted(rng.sample(nb04_table.EDGES_04, 2))
            got = table_search(search.state, alpha, beta, mine, hard=fail == "hard")
            value = nb04_table.mover_value(search.state)
            assert right_result(value, got, alpha, beta)
            if fail == "soft":  # the same values as the library's engine, entry for entry
                assert got == AlphaBeta(table=library).visit(search.state, alpha, beta)


def test_right_results_in_a_window():
    assert right_result(0, 0, -1, 1) and not right_result(0, -1, -1, 1)
    assert right_result(-1, -1, -1, 1) and right_result(-1, -0.5, -0.5, 1)  # fail-soft, -hard
    assert not right_result(-1, 0, -0.5, 1)  # an upper bound above alpha
    assert right_result(1, 1, -1, 0.5) and right_result(1, 0.5, -1, 0.5)
    assert not right_result(1, 0, -1, 0.5)
    assert not right_result(0, True, -1, 1) and not right_result(0, None, -1, 1)
    assert not right_result(0, float("nan"), -1, 1)
    numpy = pytest.importorskip("numpy")
    assert right_result(0, numpy.int64(0), -1, 1) and right_result(1, numpy.float64(0.5), 0, 0.5)
    assert not right_result(1, numpy.bool_(True), 0, 2)


def test_counted_states_count_expansions_and_stand_for_their_state():
    board = BitBoard.from_text("X../.O./...")
    expanded = Expanded()
    watched = Counted(board, expanded)
    watched.moves(), watched.moves()
    child = watched.play(2)
    child.moves()
    Counted(BitBoard.from_text("XXX/OO./..."), expanded).moves()  # a finished game: no expansion
    assert expanded.count == 2
    assert watched == board and hash(watched) == hash(board) and {board: 1}[watched] == 1
    assert watched.to_text() == board.to_text() and watched.key() == board.key()
    assert repr(child) == repr(board.play(2))
    limited = Expanded(limit=0)
    with pytest.raises(TooMuchSearch):
        Counted(board, limited).moves()


def test_tables_that_count_reads_and_that_forget():
    table = WatchedTable()
    table[1] = "a"
    assert table.get(1) == "a" and 2 not in table and table.get(2) is None
    assert table[1] == "a" and table.setdefault(3, "c") == "c"
    assert (table.reads, table.found) == (5, 2) and isinstance(table, dict)
    forgetful = ForgetfulTable()
    forgetful[1] = "a"
    forgetful.update({2: "b"})
    assert forgetful.setdefault(3, "c") == "c" and len(forgetful) == 0


def test_a_search_prints_as_the_student_types_it():
    search = Search(BitBoard.from_text("X../.O./..."), -INF, 0.5)
    assert str(search) == "BitBoard.from_text('X../.O./...') from the window (-math.inf, 0.5)"
