"""Every exact search gives plain minimax's value on every reachable position, on both boards.

The reference values come from one memoised pass (``solve_all``); plain ``minimax`` is checked
against it independently, so no variant is compared with itself.
"""
import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.search import (AlphaBeta, Stats, alphabeta, best_moves, count_nodes,
                            depth_limited, deepen_to_depth, minimax, negamax, pvs,
                            solve_all)
from ttt_lib.search.depthlimit import WIN

ENGINE_VARIANTS = {
    "negamax, fail-soft": {},
    "negamax, fail-hard": {"fail": "hard"},
    "max/min, fail-soft": {"form": "maxmin"},
    "max/min, fail-hard": {"form": "maxmin", "fail": "hard"},
    "table": {"table": True},
    "symmetric table": {"symmetry": True},
    "heuristic ordering": {"ordering": "heuristic"},
    "threat ordering": {"ordering": "threats"},
    "killers": {"killers": True},
    "window (-1, 1)": {"alpha": -1, "beta": 1},
    "window (-1, 1), max/min, fail-hard": {"alpha": -1, "beta": 1, "form": "maxmin",
                                          "fail": "hard"},
    "best combination": {"symmetry": True, "ordering": "heuristic"},
    "everything": {"symmetry": True, "ordering": "threats", "killers": True, "fail": "hard",
                   "alpha": -1, "beta": 1},
}


@pytest.fixture(scope="module")
def exact():
    """X's exact value of every position (X opens), by key, from one memoised pass."""
    return solve_all(BitBoard())


def marks(state):
    return 9 - state.cells().count(0)


def test_plain_minimax_visits_549946_nodes_from_the_empty_board():
    value, stats = count_nodes(minimax, BitBoard())
    assert value == 0
    assert stats.nodes == 549_946
    assert stats.leaves == 255_168  # the number of games


def test_negamax_visits_the_same_tree():
    value, stats = count_nodes(negamax, BitBoard())
    assert value == 0
    assert stats.nodes == 549_946


def test_the_reference_agrees_with_plain_minimax(all_bitboards, exact):
    assert len(exact) == 5478
    checked = 0
    for state in all_bitboards:
        if marks(state) >= 3:
            assert minimax(state) == exact[state.key()], state.to_text()
            assert negamax(state) == state.to_move * exact[state.key()]
            checked += 1
    assert checked == 5478 - 1 - 9 - 72


def test_both_boards_have_the_same_reference(all_listboards, exact):
    by_text = {state.to_text(): value for state, value in
               zip(all_listboards, solve_all(ListBoard()).values())}
    assert by_text == {BitBoard.from_text(text).to_text(): exact[BitBoard.from_text(text).key()]
                       for text in by_text}


@pytest.mark.parametrize("name", ENGINE_VARIANTS)
def test_alphabeta_variant_is_exact_on_every_position(name, all_bitboards, exact):
    options = ENGINE_VARIANTS[name]
    for state in all_bitboards:
        assert alphabeta(state, **options) == exact[state.key()], state.to_text()


@pytest.mark.parametrize("options", [{}, {"alpha": -1, "beta": 1, "ordering": "heuristic"}])
def test_pvs_is_exact_on_every_position(options, all_bitboards, exact):
    for state in all_bitboards:
        assert pvs(state, **options) == exact[state.key()], state.to_text()


def test_iterative_deepening_to_full_depth_is_exact(all_bitboards, exact):
    solved = {}
    for state in all_bitboards:
        if state.is_terminal():
            assert depth_limited(state, 0) == WIN * exact[state.key()]
            continue
        last = deepen_to_depth(state, 9, ordering="heuristic")[-1]
        assert last.exact and last.depth <= state.cells().count(0)
        assert last.value == WIN * exact[state.key()], state.to_text()
        assert last.best_moves == best_moves(state, solved), state.to_text()


@pytest.mark.parametrize("options", [{}, {"symmetry": True, "ordering": "threats",
                                          "killers": True, "fail": "hard"}])
def test_the_root_search_finds_every_optimal_move(options, all_bitboards, exact):
    solved = {}
    for state in all_bitboards:
        if state.is_terminal():
            continue
        value, moves = AlphaBeta(**options).root(state)
        assert value == exact[state.key()]
        assert moves == best_moves(state, solved), state.to_text()


# On the slower list board, variants that between them use every part of the protocol
# (moves, play, is_terminal, utility, key, canonical_key, cells, lines) and both forms.
LISTBOARD_VARIANTS = {
    "max/min, fail-hard, window (-1, 1)": {"form": "maxmin", "fail": "hard", "alpha": -1,
                                           "beta": 1},
    "heuristic ordering, killers, window (-1, 1)": {"ordering": "heuristic", "killers": True,
                                                    "alpha": -1, "beta": 1},
}


@pytest.mark.parametrize("name", LISTBOARD_VARIANTS)
def test_the_list_board_gives_the_same_values(name, all_listboards, exact):
    options = LISTBOARD_VARIANTS[name]
    for state in all_listboards:
        bits = BitBoard.from_board(state)
        assert alphabeta(state, **options) == exact[bits.key()], state.to_text()


@pytest.mark.parametrize("symmetry", [False, True])
def test_list_board_tables_shared_by_every_position(symmetry, all_listboards, exact):
    table = {}
    for state in all_listboards:
        bits = BitBoard.from_board(state)
        assert alphabeta(state, table=table, symmetry=symmetry,
                         ordering="threats") == exact[bits.key()], state.to_text()
    keys = {type(key) for key in table}
    assert keys == ({tuple} if symmetry else {str})



def test_pvs_on_the_list_board(all_listboards, exact):
    for state in all_listboards:
        bits = BitBoard.from_board(state)
        assert pvs(state, ordering="heuristic") == exact[bits.key()], state.to_text()


def test_deepening_on_the_list_board_from_six_marks_on(all_listboards, exact):
    for state in all_listboards:
        if marks(state) >= 6 and not state.is_terminal():
            bits = BitBoard.from_board(state)
            last = deepen_to_depth(state, 9)[-1]
            assert last.exact and last.value == WIN * exact[bits.key()], state.to_text()
