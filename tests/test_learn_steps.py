"""The steps notebook 10 shows one at a time: the Q-network's loss, gradient and targets, the
self-play record of the PUCT learner, and the table learners' touched entries."""
from __future__ import annotations

import numpy as np
import pytest

from ttt_lib.boards.bit import BitBoard
from ttt_lib.game import reachable
from ttt_lib.learn import QTable, TDValues, positions
from ttt_lib.learn.masks import board_text, lookup, masks_of
from ttt_lib.learn.net import Network
from ttt_lib.learn.policy import LearnError, value_pairs
from ttt_lib.learn.qnet import QNet, inputs, q_gradients
from ttt_lib.learn.zero import Zero


def test_board_text_reads_back_every_position():
    for state in reachable(BitBoard()).values():
        text = board_text(*masks_of(state), state.to_move == 1)
        assert text == state.to_text() and BitBoard.from_text(text) == state


def test_q_gradients_match_finite_differences_and_a_step_lowers_the_loss():
    net = Network([18, 7, 7, 9], seed=5)
    states = [BitBoard.from_text(t) for t in ("XX./OO./...", "X../.O./...", ".../.../...")]
    x = np.array([inputs(*masks_of(s)) for s in states])
    moves, target = np.array([2, 8, 4]), np.array([1.0, -0.5, 0.0])
    loss, grads = q_gradients(net, x, moves, target)
    q = net(x)
    assert loss == pytest.approx(np.mean((q[[0, 1, 2], moves] - target) ** 2))
    for param, grad in zip(net.params(), grads):
        for index in list(np.ndindex(param.shape))[::7]:
            keep = param[index]
            param[index] = keep + 1e-6
            up = q_gradients(net, x, moves, target)[0]
            param[index] = keep - 1e-6
            down = q_gradients(net, x, moves, target)[0]
            param[index] = keep
            assert grad[index] == pytest.approx((up - down) / 2e-6, abs=1e-6)
    net.step(grads)
    assert q_gradients(net, x, moves, target)[0] < loss


def old_learn_batch(learner: QNet) -> float:
    """``learn_batch`` as it was written before ``targets`` and ``q_gradients`` were split
    out of it: the same arithmetic must give the same weights."""
    buf = learner.replay
    i = buf.sample(learner.np_rng, learner.batch)
    q_next = np.where(buf.legal[i], learner.target(buf.x_next[i]), -np.inf).max(axis=1)
    q_next[buf.done[i]] = 0.0
    target = buf.reward[i] - learner.gamma * q_next
    q, layer_inputs = learner.net.forward(buf.x[i])
    rows = np.arange(len(i))
    error = q[rows, buf.move[i]] - target
    grad = np.zeros_like(q)
    grad[rows, buf.move[i]] = 2 * error / len(i)
    learner.net.step(learner.net.backward(layer_inputs, grad))
    if learner.net.steps % learner.sync == 0:
        learner.target = learner.net.copy()
    return float(np.mean(error ** 2))


def test_learn_batch_does_what_it_did_before_the_split():
    new, old = QNet(seed=3, sync=5), QNet(seed=3, sync=5)
    for learner in (new, old):
        for _ in range(3):
            learner.play_game(0.5)
    for _ in range(12):
        assert new.learn_batch() == old_learn_batch(old)
    for a, b in zip(new.net.params() + new.target.params(), old.net.params() + old.target.params()):
        assert np.array_equal(a, b)


def test_the_targets_are_the_result_or_minus_the_opponents_best_value():
    learner = QNet(seed=1, random_share=0.0)
    learner.play_game(0.0)
    rows = np.arange(0, learner.replay.count, 8)  # each move's own image
    targets = learner.targets(rows)
    buf = learner.replay
    assert buf.done[rows[-1]] and not buf.done[rows[:-1]].any()
    assert targets[-1] == buf.reward[rows[-1]]  # the game's result for the last mover
    for row, target in zip(rows[:-1], targets[:-1]):
        next_values = learner.target(buf.x_next[row][None])[0]
        legal = [c for c in range(9) if buf.legal[row][c]]
        assert target == pytest.approx(-max(next_values[c] for c in legal))


def test_a_self_play_record_gives_each_position_the_result_for_its_player_to_move():
    learner = Zero(seed=2, simulations=12)
    record = learner.play_game()
    states = [BitBoard()]
    for (mine, theirs, visits, _), (next_mine, next_theirs, _, _) in zip(record, record[1:]):
        placed = (next_theirs ^ mine).bit_length() - 1  # the cell the player to move took
        assert next_mine == theirs and placed in visits
        states.append(states[-1].play(placed))
    for (mine, theirs, visits, _), state in zip(record, states):
        assert (mine, theirs) == masks_of(state) and sum(visits.values()) == 12
        assert set(visits) == set(state.moves())
    # past the sampled opening the last move is the most visited: play it to see the result
    assert len(record) > learner.sample_moves
    visits = record[-1][2]
    final = states[-1].play(max(visits, key=visits.get))
    assert final.is_terminal()
    last_player_wins = 1.0 if final.utility() * states[-1].to_move > 0 else 0.0
    assert final.utility() * states[-1].to_move >= 0  # the player who just moved never loses
    results = [z for *_, z in record]
    assert results == [last_player_wins * (-1) ** (len(record) - 1 - i)
                       for i in range(len(record))]
    assert len(learner.buffer) == 8 * len(record)
    for j, (mine, theirs, visits, z) in enumerate(reversed(record)):
        x, pi, stored_z = learner.buffer[8 * j]  # the first of the 8 images is the position
        assert np.array_equal(x, inputs(mine, theirs)) and stored_z == z
        assert pi.tolist() == [visits.get(c, 0) / sum(visits.values()) for c in range(9)]


@pytest.mark.parametrize("cls", [QTable, TDValues])
def test_touched_names_exactly_the_entries_training_wrote(cls):
    fresh = cls(seed=0)
    assert value_pairs(fresh, touched=True) == []
    learner = cls(seed=0).train(30)
    table = learner.q if cls is QTable else learner.v
    flags = [learner.touched(s) for s in positions()]
    keys = {lookup(*masks_of(s), learner.symmetric)[0] for s, f in zip(positions(), flags) if f}
    assert keys == set(table)
    pairs = value_pairs(learner, touched=True)
    assert len(pairs) == sum(flags) < len(positions())
    assert pairs == [pair for pair, f in zip(value_pairs(learner), flags) if f]


def test_touched_is_refused_for_a_network():
    with pytest.raises(LearnError, match="table learner"):
        value_pairs(QNet(seed=0), touched=True)
