"""ttt_lib.learn's networks: the numpy network's gradients, the Q-network and the PUCT learner."""
from __future__ import annotations

import numpy as np
import pytest

from ttt_lib.agents import RandomAgent
from ttt_lib.arena import play_game
from ttt_lib.boards.bit import BitBoard
from ttt_lib.learn.agents import QNetAgent, ZeroAgent
from ttt_lib.learn.masks import masks_of
from ttt_lib.learn.net import Network
from ttt_lib.learn.policy import LearnError, learning_curve, policy_table, value_pairs
from ttt_lib.learn.qnet import QNet, inputs
from ttt_lib.learn.store import ModelFileError, load, save
from ttt_lib.learn.zero import PolicyValueNet, Zero, puct_search


def numeric_gradient(loss, param: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences of ``loss()`` with respect to each entry of ``param``."""
    grad = np.zeros_like(param)
    for index in np.ndindex(param.shape):
        keep = param[index]
        param[index] = keep + eps
        up = loss()
        param[index] = keep - eps
        down = loss()
        param[index] = keep
        grad[index] = (up - down) / (2 * eps)
    return grad


def test_backward_matches_finite_differences():
    net = Network([5, 4, 3, 2], seed=1)
    rng = np.random.default_rng(2)
    x, weights = rng.normal(size=(6, 5)), rng.normal(size=(6, 2))

    def loss():
        return float(np.sum(net(x) * weights))

    grads = net.backward(net.forward(x)[1], weights)
    for param, grad in zip(net.params(), grads):
        assert np.allclose(grad, numeric_gradient(loss, param), atol=1e-6)


def test_the_policy_value_gradient_matches_finite_differences():
    pv = PolicyValueNet(seed=3, hidden=6)
    for b in pv.net.b:  # off ReLU's kink: with zero biases the empty board sits exactly on it
        b += np.random.default_rng(4).normal(0, 0.5, b.shape)
    states = [BitBoard(), BitBoard().play(4), BitBoard().play(0).play(4).play(8)]
    x = np.array([inputs(*masks_of(s)) for s in states])
    pi = np.array([[0.5, 0, 0, 0, 0.5, 0, 0, 0, 0], [0.2, 0.8, 0, 0, 0, 0, 0, 0, 0],
                   [0, 1.0, 0, 0, 0, 0, 0, 0, 0]])
    z = np.array([0.0, 1.0, -1.0])
    _, grads = pv.gradients(x, pi, z)
    for param, grad in zip(pv.net.params(), grads):
        numeric = numeric_gradient(lambda: pv.gradients(x, pi, z)[0], param)
        assert np.allclose(grad, numeric, atol=1e-6)


def test_a_network_starts_the_same_for_a_seed_and_round_trips():
    one, two, other = Network([18, 8, 9], 5), Network([18, 8, 9], 5), Network([18, 8, 9], 6)
    assert all(np.array_equal(a, b) for a, b in zip(one.params(), two.params()))
    assert not np.array_equal(one.W[0], other.W[0])
    again = Network.from_dict(one.as_dict())
    assert all(np.array_equal(a, b) for a, b in zip(one.params(), again.params()))
    broken = one.as_dict()
    broken["W"][0] = broken["W"][0][:-1]
    with pytest.raises(ValueError, match="do not match"):
        Network.from_dict(broken)


@pytest.mark.parametrize("cls, games", [(QNet, 40), (Zero, 3)])
def test_network_learning_is_deterministic_for_a_seed(cls, games):
    one, two = cls(seed=7).train(games), cls(seed=7).train(games)
    other = cls(seed=8).train(games)
    net = (lambda learner: learner.net) if cls is QNet else (lambda learner: learner.net.net)
    assert all(np.array_equal(a, b) for a, b in zip(net(one).params(), net(two).params()))
    assert not np.array_equal(net(one).W[0], net(other).W[0])


@pytest.mark.parametrize("cls, games", [(QNet, 30), (Zero, 2)])
def test_a_saved_network_round_trips(cls, games, tmp_path):
    learner = cls(seed=1, hidden=16).train(games)
    save(learner, tmp_path / "net.json")
    again = load(tmp_path / "net.json")
    assert type(again) is cls and again.options() == learner.options()
    assert again.games == games
    moves = learner.best_move if cls is QNet else learner.prior_move
    again_moves = again.best_move if cls is QNet else again.prior_move
    assert policy_table(again_moves) == policy_table(moves)


@pytest.mark.parametrize("old, new, reason", [
    ('"sizes": [18, 4, 4, 9]', '"sizes": [18, 5, 4, 9]', "do not match"),
    ('"sizes": [18, 4, 4, 9]', '"sizes": [18, 4000000, 4, 9]', "do not match"),
    ('"hidden": 4', '"hidden": 4000000', "hidden"),
    ('"b": [[0.0', '"b": [[NaN', "finite"),
    ('"W": [[[', '"W": [[["x", ', "not tables of numbers"),
    ('"W": [[[', '"W": [[[[1], ', "not tables of numbers"),
])
def test_a_network_file_with_bad_weights_is_refused(tmp_path, old, new, reason):
    save(QNet(seed=0, hidden=4), tmp_path / "net.json")
    text = (tmp_path / "net.json").read_text()
    assert old in text
    (tmp_path / "net.json").write_text(text.replace(old, new, 1))
    with pytest.raises(ModelFileError, match=reason):
        load(tmp_path / "net.json")


def test_a_few_hundred_games_teach_the_networks():
    qnet = learning_curve(QNet(seed=0), 300, 150)
    assert qnet[-1][1] > qnet[0][1] + 0.15  # measured: 0.63 -> 0.88
    zero = learning_curve(Zero(seed=0), 40, 20, lambda learner: learner.prior_move)
    assert zero[-1][1] > zero[0][1] + 0.04  # the priors alone, no search: 0.59 -> 0.68


def test_q_learning_lowers_the_error_on_its_replay_buffer():
    learner = QNet(seed=0, updates=1).train(200)
    before = np.mean([learner.learn_batch() for _ in range(20)])
    for _ in range(300):
        learner.learn_batch()
    after = np.mean([learner.learn_batch() for _ in range(20)])
    assert after < before


@pytest.mark.parametrize("text, wins", [("XX./OO./...", {2}), ("OO./XX./X..", {2})])
def test_puct_finds_a_win_in_one_even_untrained(text, wins):
    board = BitBoard.from_text(text)
    root = puct_search(PolicyValueNet(seed=0), *masks_of(board), 200)
    assert max(root.visits, key=root.visits.get) in wins


def test_puct_blocks_a_threat_even_untrained():
    board = BitBoard.from_text("XX./O../...")  # O to move must take cell 2
    root = puct_search(PolicyValueNet(seed=0), *masks_of(board), 300)
    assert max(root.visits, key=root.visits.get) == 2


def test_the_networks_give_a_value_for_every_position():
    for learner in (QNet(seed=0, hidden=8), Zero(seed=0, hidden=8)):
        values = [learned for _, learned in value_pairs(learner)]
        assert len(values) == 4520 and all(np.isfinite(values))
    assert all(-1 <= v <= 1 for v in values)  # the value head is a tanh


def test_the_network_agents_play_and_check_their_options(tmp_path):
    qnet, zero = QNetAgent(games=20), ZeroAgent(games=2, playouts=30)
    assert play_game(qnet, RandomAgent(seed=1), seed=1).result in (-1, 0, 1)
    assert play_game(RandomAgent(seed=2), zero, seed=2).result in (-1, 0, 1)
    assert zero.stats.nodes == 30
    with pytest.raises(LearnError, match="playouts"):
        ZeroAgent(games=2, playouts=0)
    with pytest.raises(LearnError, match="hidden"):
        QNet(hidden=0)
