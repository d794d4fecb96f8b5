"""The naive per-child driver reproduces the classic blog's published node counts."""
import pytest

from ttt_lib import BitBoard
from ttt_lib.game import count_tree, reachable
from ttt_lib.search import Stats
from ttt_lib.studies.firstmove import (PUBLISHED_FIRST_MOVE, PUBLISHED_GAME,
                                      PUBLISHED_GAME_COUNTS, VARIANTS, UnknownVariantError,
                                      child_search, first_move, replay)
from ttt_lib.search.exact import best_moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_published_first_move_counts(variant):
    result = first_move(BitBoard("O"), variant)
    assert result.stats.nodes == PUBLISHED_FIRST_MOVE[variant]
    assert result.value == 0 and result.best_moves == list(range(9))


@pytest.mark.parametrize("variant", ["alphabeta", "memo", "killers"])
def test_the_published_count_before_every_move_of_the_blogs_game(variant):
    assert replay(PUBLISHED_GAME, variant) == list(PUBLISHED_GAME_COUNTS[variant])


def test_the_minimax_game_counts_are_the_sizes_of_the_subtrees():
    """Plain minimax counts every node below the position: an independent tree count."""
    state = BitBoard("O")
    for move, published in zip(PUBLISHED_GAME, PUBLISHED_GAME_COUNTS["minimax"]):
        assert count_tree(state) - 1 == published
        state = state.play(move)


def test_replaying_plain_minimax_from_the_fourth_move():
    state = BitBoard("O")
    for move in PUBLISHED_GAME[:3]:
        state = state.play(move)
    assert first_move(state, "minimax").stats.nodes == PUBLISHED_GAME_COUNTS["minimax"][3]


def test_the_memo_count_is_inner_positions_plus_visits_to_finished_boards():
    """7,381 counted another way: each inner position once, each finished child every time."""
    root = BitBoard("O")
    inner = [s for key, s in reachable(root).items() if not s.is_terminal() and s != root]
    finished_visits = sum(s.play(m).is_terminal() for s in inner for m in s.moves())
    finished_children_of_root = sum(root.play(m).is_terminal() for m in root.moves())
    assert len(inner) + finished_visits + finished_children_of_root == PUBLISHED_FIRST_MOVE["memo"]


@pytest.mark.parametrize("variant", ["alphabeta", "memo"])
def test_the_counts_do_not_depend_on_who_opens(variant):
    assert first_move(BitBoard("X"), variant).stats == first_move(BitBoard("O"), variant).stats


def test_the_blogs_killers_act_at_xs_nodes_only_so_the_opener_matters():
    assert first_move(BitBoard("X"), "killers").stats.nodes \
        != first_move(BitBoard("O"), "killers").stats.nodes


def test_the_blogs_cache_is_shared_by_the_children():
    """A fresh cache for each child, as a stricter driver would use, counts far more."""
    root, fresh = BitBoard("O"), Stats()
    for move in root.moves():
        child_search("memo", fresh, {})(root.play(move))
    assert fresh.nodes > first_move(root, "memo").stats.nodes == 7_381


@pytest.mark.parametrize("text", ["X../.O./...", "XO./.X./..O", "XOX/OO./X.."])
def test_driver_values_pick_the_optimal_moves(text):
    state = BitBoard.from_text(text)
    for variant in VARIANTS:
        assert first_move(state, variant).best_moves == best_moves(state), variant


def test_bad_variant_and_finished_game():
    with pytest.raises(UnknownVariantError, match="unknown driver variant 'greedy'"):
        first_move(BitBoard(), "greedy")
    with pytest.raises(ValueError, match="the game is over"):
        first_move(BitBoard.from_text("XXX/OO./..."), "minimax")
