"""Expectimax against a modelled opponent, with exact fractions, compared with minimax."""
from fractions import Fraction

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.game import MAX
from ttt_lib.search import Stats, epsilon_perfect, expectimax, uniform_random
from ttt_lib.search.opponent_model import OpponentModelError


def brute_force(state, player, model):
    """The expected value straight from the definition: no memo, every path walked."""
    if state.is_terminal():
        return Fraction(state.utility())
    values = {move: brute_force(state.play(move), player, model) for move in state.moves()}
    if state.to_move == player:
        return max(values.values()) if player == MAX else min(values.values())
    return sum(p * values[move] for move, p in model(state).items())


@pytest.fixture(scope="module")
def exact():
    from ttt_lib.search import solve_all
    return solve_all(BitBoard())


@pytest.mark.parametrize("player", [1, -1])
def test_against_a_perfect_opponent_expectimax_is_minimax(player, all_bitboards, exact):
    perfect = epsilon_perfect(0)
    for state in all_bitboards[::4]:
        assert expectimax(state, player, perfect) == exact[state.key()], state.to_text()


@pytest.mark.parametrize("player", [1, -1])
def test_a_weaker_opponent_is_never_worse_for_the_player(player, all_bitboards, exact):
    for state in all_bitboards[::4]:
        value = expectimax(state, player, uniform_random)
        assert isinstance(value, (int, Fraction))
        assert player * value >= player * exact[state.key()], state.to_text()


@pytest.mark.parametrize("text", ["X../.O./...", "XO./.../...", ".../.X./..O", "X.O/.X./..."])
@pytest.mark.parametrize("model", [uniform_random, epsilon_perfect(Fraction(1, 5))])
def test_expectimax_matches_the_definition(text, model):
    state = BitBoard.from_text(text)
    for player in (1, -1):
        assert expectimax(state, player, model) == brute_force(state, player, model)


def test_random_play_versus_perfect_play_from_the_empty_board():
    stats = Stats()
    against_random = expectimax(BitBoard(), MAX, uniform_random, stats=stats)
    assert 0 < against_random < 1 and isinstance(against_random, Fraction)
    assert stats.nodes == 5478  # every position once
    assert expectimax(BitBoard(), MAX, epsilon_perfect(0)) == 0
    assert expectimax(BitBoard(), MAX, epsilon_perfect(1)) == against_random
    values = [expectimax(BitBoard(), MAX, epsilon_perfect(Fraction(k, 4))) for k in range(5)]
    assert values == sorted(values)  # the more the opponent errs, the more X expects


def test_textbook_chance_node():
    root = TreeNode([[3, 12], [8, 2]])
    assert expectimax(root, MAX, uniform_random) == max(Fraction(15, 2), Fraction(10, 2))
    assert expectimax(root, MAX, epsilon_perfect(0)) == 3


@pytest.mark.parametrize("model, fragment", [
    (lambda s: {s.moves()[0]: Fraction(1, 2)}, "add up to 1/2, not 1"),
    (lambda s: {99: 1}, r"illegal move\(s\) \[99\] in X../.../..."),
    (lambda s: {m: (-1 if i == 0 else 2) for i, m in enumerate(s.moves()[:2])}, "negative"),
])
def test_bad_models_are_reported(model, fragment):
    with pytest.raises(OpponentModelError, match=fragment):
        expectimax(BitBoard.from_text("X../.../..."), MAX, model)


def test_bad_arguments():
    with pytest.raises(ValueError, match="player is"):
        expectimax(BitBoard(), 0, uniform_random)
    with pytest.raises(ValueError, match="probability in"):
        epsilon_perfect(1.5)
