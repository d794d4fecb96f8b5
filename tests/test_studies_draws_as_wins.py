"""The draws-as-wins study: the article's pre-trained MCTS, its draws scored 1 or 1/2."""
import random

import pytest

from ttt_lib.boards import BitBoard
from ttt_lib.errors import SearchOptionError
from ttt_lib.player import AgentError
from ttt_lib.search.monte_carlo import MCTSTree, Node, SharedTree
from ttt_lib.studies.draws_as_wins import (DrawAsWinNode, PretrainedMCTS, ScoredTree,
                                           versus_random)


def _nodes(tree):
    return list(tree.table.values())


def test_scoring_of_a_draw():
    tree = ScoredTree(BitBoard(), draws_as_wins=True, seed=3).run(300)
    plain = ScoredTree(BitBoard(), draws_as_wins=False, seed=3).run(300)
    assert all(type(node) is DrawAsWinNode for node in _nodes(tree))
    assert all(type(node) is Node for node in _nodes(plain))
    for node in _nodes(tree):
        if node.visits:
            assert node.value == (node.wins + node.draws) / node.visits
    for node in _nodes(plain):
        if node.visits:
            assert node.value == (node.wins + node.draws / 2) / node.visits


def test_scored_half_is_our_shared_tree():
    """With a draw worth 1/2 the study's tree is our default shared MCTS, playout for playout."""
    ours = MCTSTree(BitBoard(), shared=True, seed=5).run(400)
    study = ScoredTree(BitBoard(), seed=5).run(400)
    assert isinstance(ours, SharedTree)
    assert {k: (n.wins, n.draws, n.losses) for k, n in ours.table.items()} == \
        {k: (n.wins, n.draws, n.losses) for k, n in study.table.items()}


def test_choose_plays_a_best_learned_score():
    agent = PretrainedMCTS(300, draws_as_wins=True, seed=1)
    rng = random.Random(0)
    state = BitBoard()
    while not state.is_terminal():
        scores = {}
        for move in state.moves():
            node = agent.tree.table.get(state.play(move).canonical_key())
            scores[move] = (node.wins + node.draws) / node.visits if node and node.visits else 0.0
        move = agent.choose(state)
        assert scores[move] == max(scores.values())
        state = state.play(rng.choice(state.moves()))


def test_versus_random_counts_and_repeats():
    agent = PretrainedMCTS(200, seed=2)
    first = versus_random(agent, 30, seed=4)
    assert [r.games for r in first] == [30, 30]
    assert first[0].o == "random" and first[1].x == "random"
    assert versus_random(agent, 30, seed=4) == first


def test_draws_as_wins_draws_more():
    """The study's finding, on a smaller scale: a draw scored as a win draws more as X."""
    plain = versus_random(PretrainedMCTS(1000, seed=0), 200)[0]
    article = versus_random(PretrainedMCTS(1000, draws_as_wins=True, seed=0), 200)[0]
    assert article.draws > plain.draws


def test_refusals():
    with pytest.raises(TypeError):
        PretrainedMCTS(10.5)
    with pytest.raises(SearchOptionError):
        PretrainedMCTS(1)
    with pytest.raises(TypeError):
        ScoredTree(BitBoard(), draws_as_wins="yes")
    agent = PretrainedMCTS(10)
    with pytest.raises(TypeError):
        agent.choose("X........")
    with pytest.raises(AgentError):
        agent.choose(BitBoard.from_text("XXX/OO./..."))
    with pytest.raises(TypeError):
        versus_random("agent")
    with pytest.raises(SearchOptionError):
        versus_random(agent, 0)
