"""Does an MCTS that counts a draw as a win draw more? The article's scheme, run with our tree.

The MCTS of "Tic-Tac-Toe with MCTS" (the dev.to series by Nested Software, repository
nestedsoftware/tictac) learns once: 4,000 playouts of whole games from the empty board, in one
tree whose symmetric positions share their statistics. It then plays every move without
searching again: the child with the best record, scored (wins + draws) / visits, so a draw
counts as much as a win (a child never visited scores 0).

``PretrainedMCTS`` does the same with our ``SharedTree``: UCB1 while learning, the best record
while playing, a draw worth 1 (``draws_as_wins=True``, the article's scoring) or 1/2 (our
MCTS's). ``versus_random`` plays one taught agent against the random player from both sides,
so the two scorings can be compared on the same games. The default MCTS is left as it is.
"""
from __future__ import annotations

import random
from collections.abc import Hashable

from ..arena import PairResult, derive_seed
from ..boards import BitBoard
from ..checks import is_int, short
from ..errors import SearchOptionError
from ..game import MAX, MIN, Game
from ..player import Agent, AgentError
from ..search.monte_carlo import MCTSTree, Node, SharedTree

ARTICLE_PLAYOUTS = 4_000  # tictac/mcts.py: perform_training_playouts(num_playouts=4000)


class DrawAsWinNode(Node):
    """A tree node whose mean reward counts a draw as a win: (wins + draws) / visits."""

    __slots__ = ()

    @property
    def value(self) -> float | None:
        return (self.wins + self.draws) / self.visits if self.visits else None


class _NodeClass(MCTSTree):
    """Makes the tree's new nodes of ``node_class``."""

    node_class: type[Node] = Node

    def new_node(self, state: Game) -> Node:
        return self.node_class(state)


class ScoredTree(SharedTree, _NodeClass):
    """Our shared-node UCT tree, its draws scored as wins when ``draws_as_wins``."""

    def __init__(self, state: Game, *, draws_as_wins: bool = False, **options) -> None:
        if not isinstance(draws_as_wins, bool):
            raise TypeError(f"draws_as_wins is True or False, not {type(draws_as_wins).__name__}")
        self.node_class = DrawAsWinNode if draws_as_wins else Node
        super().__init__(state, **options)

    def record(self, state: Game) -> float:
        """The learned score of ``state`` for the player who moved into it (0 if unvisited)."""
        node = self.table.get(_key(state))
        return node.value if node is not None and node.visits else 0.0


def _key(state: Game) -> Hashable:
    return state.canonical_key() if hasattr(state, "canonical_key") else state.key()


class PretrainedMCTS(Agent):
    """The article's MCTS: taught once by ``playouts`` playouts from ``start``, then plays the
    child with the best learned score, ties at random; ``tree`` is what it learned."""

    name = "pretrained-mcts"

    def __init__(self, playouts: int = ARTICLE_PLAYOUTS, draws_as_wins: bool = False,
                 seed: int | None = 0, rng: random.Random | None = None,
                 start: Game | None = None) -> None:
        super().__init__(seed, rng)
        if not is_int(playouts):
            raise TypeError(f"playouts is a whole number, not {type(playouts).__name__}")
        if playouts < 2:
            raise SearchOptionError(f"playouts is a whole number >= 2, not {short(playouts)}")
        start = BitBoard() if start is None else start
        self.draws_as_wins = draws_as_wins
        self.tree = ScoredTree(start, draws_as_wins=draws_as_wins, rng=self.rng).run(playouts)

    def choose(self, state: Game):
        if not isinstance(state, type(self.tree.root.state)):
            raise TypeError(f"state is a {type(self.tree.root.state).__name__} like the one "
                            f"it learned from, not {type(state).__name__}")
        moves = state.moves()
        if not moves:
            raise AgentError(f"the game is over: the {self.name} agent has no move to choose")
        scores = [self.tree.record(state.play(move)) for move in moves]
        top = max(scores)
        return self.rng.choice([m for m, s in zip(moves, scores) if s == top])


def versus_random(agent: PretrainedMCTS, games: int = 1000, seed: int = 0) -> tuple:
    """``games`` seeded games of ``agent`` as X against random, then as O: two PairResults.

    The agent's RNG and the random player's are seeded for each game (from ``seed``, the side
    and the game's number), so each game can be replayed alone; the agent's tree does not
    change while it plays. Every game starts from the position the agent learned from.
    """
    if not isinstance(agent, PretrainedMCTS):
        raise TypeError(f"agent is a PretrainedMCTS, not {type(agent).__name__}")
    if not is_int(games) or not is_int(seed):
        raise TypeError("games and seed are whole numbers")
    if games < 1:
        raise SearchOptionError(f"games is a whole number >= 1, not {short(games)}")
    return tuple(_side(agent, side, games, seed) for side in ("X", "O"))


def _side(agent: PretrainedMCTS, side: str, games: int, seed: int) -> PairResult:
    """The agent's games on ``side`` against random, counted as X wins, O wins and draws."""
    counts = [0, 0, 0]
    for number in range(games):
        agent.rng.seed(derive_seed(seed, agent.name, side, number))
        result = _game(agent, side, random.Random(derive_seed(seed, "random", side, number)))
        counts[0 if result > 0 else 1 if result < 0 else 2] += 1
    label = f"{agent.name}(draws_as_wins={agent.draws_as_wins})"
    x, o = (label, "random") if side == "X" else ("random", label)
    return PairResult(x, o, *counts)


def _game(agent: PretrainedMCTS, side: str, rng: random.Random) -> int:
    """X's result of one game from the agent's start, the agent on ``side``, the other
    player choosing uniformly at random with ``rng``."""
    state, agent_moves = agent.tree.root.state, MAX if side == "X" else MIN
    while not state.is_terminal():
        move = agent.choose(state) if state.to_move == agent_moves else rng.choice(state.moves())
        state = state.play(move)
    return state.utility()
