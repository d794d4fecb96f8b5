"""Depth-limited search, iterative deepening and the horizon effect."""
import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.game import MAX
from ttt_lib.search import (Stats, depth_limited, depth_limited_choice, deepen_to_depth,
                            line_score, move_values)
from ttt_lib.search.pruning import SearchOptionError
from ttt_lib.search.depthlimit import WIN
from ttt_lib.search.exact import best_moves
from ttt_lib.studies.horizon import HORIZON_EXAMPLE, horizon_positions


def plain_depth_limited(state, depth):
    """Depth-limited minimax without pruning, written out here as the independent check."""
    if state.is_terminal():
        return WIN * state.utility()
    if depth == 0:
        return line_score(state)
    values = [plain_depth_limited(state.play(move), depth - 1) for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


def test_depth_zero_is_the_evaluation_and_finished_games_dominate():
    state = BitBoard.from_text("X../.O./...")  # X: row and column; O: three lines
    assert depth_limited(state, 0) == line_score(state) == 2 - 3
    won = BitBoard.from_text("XXX/OO./...")
    assert depth_limited(won, 3) == WIN and line_score(won) < WIN / 1000


def test_pruning_does_not_change_the_depth_limited_value(all_bitboards):
    for state in all_bitboards[::11]:
        for depth in (1, 2, 3):
            assert depth_limited(state, depth) == plain_depth_limited(state, depth)
    for depth in range(5):
        assert depth_limited(BitBoard(), depth) == plain_depth_limited(BitBoard(), depth)


def test_one_move_ahead_the_line_score_takes_the_centre():
    assert depth_limited_choice(BitBoard(), 1) == (4, [4])


def test_any_evaluation_works_on_textbook_trees():
    root = TreeNode([[[3, 12], [8, 2]], [[4, 6], [14, 5]]])
    cut_at_two = depth_limited(root, 2, lambda node: 0, win=1)
    assert cut_at_two == 0
    assert depth_limited(root, 3, lambda node: 0, win=1) == 8


def test_iterative_deepening_from_the_empty_board():
    rounds = deepen_to_depth(BitBoard(), 9)
    assert [r.depth for r in rounds] == list(range(1, 10))
    assert [r.exact for r in rounds] == [False] * 8 + [True]
    assert rounds[-1].value == 0 and rounds[-1].best_moves == list(range(9))
    assert rounds[0].best_moves == [4]
    # each round's nodes as the searches counted them when they carried an observer
    assert [r.nodes for r in rounds] == [10, 27, 141, 661, 2488, 5298, 15122, 22816, 29052]
    for r in rounds:
        assert r.value == depth_limited(BitBoard(), r.depth)


def test_iterative_deepening_stops_once_the_search_is_exact():
    state = BitBoard.from_text("XX./.O./O..")  # 2 wins; any other move lets O win there
    rounds = deepen_to_depth(state, 9)
    assert [r.exact for r in rounds] == [False, True]
    assert rounds[-1].value == WIN and rounds[-1].best_moves == best_moves(state) == [2]


def test_iterative_deepening_respects_max_depth():
    rounds = deepen_to_depth(BitBoard(), 3)
    assert len(rounds) == 3 and not rounds[-1].exact


def test_the_horizon_example():
    example = HORIZON_EXAMPLE
    state = example.state()
    value, chosen = depth_limited_choice(state, example.depth)
    assert tuple(chosen) == example.chosen
    assert tuple(best_moves(state)) == example.optimal
    exact = move_values(state)
    loses = 1 if state.to_move == -1 else -1  # for X, a win of the other side
    assert all(exact[move] == loses for move in chosen)
    assert all(exact[move] == 0 for move in example.optimal)
    deeper = depth_limited_choice(state, state.cells().count(0))
    assert tuple(deeper[1]) == example.optimal


def test_the_horizon_example_is_found_by_searching_every_position(all_bitboards):
    found = list(horizon_positions(all_bitboards, HORIZON_EXAMPLE.depth))
    assert HORIZON_EXAMPLE.text in {state.to_text() for state in found}
    for state in found:
        _, chosen = depth_limited_choice(state, HORIZON_EXAMPLE.depth)
        assert not set(chosen) & set(best_moves(state))


def test_a_full_depth_search_has_no_horizon(all_bitboards):
    assert not list(horizon_positions(all_bitboards[:200], 9))


def test_a_depth_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="max_depth is a whole number, not float"):
        deepen_to_depth(BitBoard(), 2.5)


def test_huge_depths_are_refused_before_the_search():
    with pytest.raises(ValueError, match="at most 1,000"):
        depth_limited(BitBoard(), 10 ** 100)


@pytest.mark.parametrize("call, fragment", [
    (lambda: depth_limited(BitBoard(), -1), "at least 0"),
    (lambda: deepen_to_depth(BitBoard(), 0), "at least 1"),
    (lambda: depth_limited_choice(BitBoard(), 0), "at least 1"),
    (lambda: depth_limited_choice(BitBoard.from_text("XXX/OO./..."), 1), "game is over at XXX"),
])
def test_bad_depths(call, fragment):
    with pytest.raises(ValueError, match=fragment):
        call()


def test_depth_errors_are_search_option_errors():
    with pytest.raises(SearchOptionError):
        depth_limited(BitBoard(), -2)
