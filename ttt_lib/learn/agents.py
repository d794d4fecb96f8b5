"""The learned players: ``qtable``, ``td``, ``qnet`` and ``zero`` as agents.

Each is trained on construction from ``train_seed`` for ``games`` games (default: the
``train`` command's budget), or loaded from a saved file with ``path``. Training is done
once per process for each (kind, train_seed, games): a tournament rebuilds its agents for
every game with a new ``seed``, which only breaks ties between equally valued moves.
"""
from __future__ import annotations

import random

from ..player import Agent
from ..boards.tictactoe import Board3x3
from ..game import Game
from ..search.trace import Stats
from .policy import LearnError, check_count
from .store import load
from .train import trained


class LearnedAgent(Agent):
    """Plays the greedy move of a learned model (ties broken by the agent's own RNG)."""

    kind = ""

    def __init__(self, games: int | None = None, train_seed: int = 0,
                 path: str | None = None, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        if path is not None:
            if games is not None:
                raise LearnError("give games (train now) or path (load a model), not both")
            self.learner = load(path)
            if self.learner.kind != self.kind:
                raise LearnError(f"{path!r} holds a {self.learner.kind} model, "
                                 f"not a {self.kind} one")
        else:
            self.learner = trained(self.kind, train_seed, games)

    def choose(self, state: Game):
        self.check(state)
        return self.learner.best_move(state, self.rng)

    def check(self, state: Game) -> None:
        """Refuse a finished game and anything but a 3x3 tic-tac-toe board."""
        self.legal_moves(state)
        if not isinstance(state, Board3x3):
            raise TypeError(f"the {self.name} agent plays 3x3 tic-tac-toe boards, "
                            f"not {type(state).__name__}")


class QTableAgent(LearnedAgent):
    """Tabular Q-learning by self-play (``learn.qtable``)."""

    name = kind = "qtable"


class TDAgent(LearnedAgent):
    """TD(0) position values by self-play (``learn.td``)."""

    name = kind = "td"


class QNetAgent(LearnedAgent):
    """Q-learning with a small numpy network and a replay buffer (``learn.qnet``)."""

    name = kind = "qnet"


class ZeroAgent(LearnedAgent):
    """PUCT search with ``playouts`` per move, guided by a learned policy/value network."""

    name = kind = "zero"

    def __init__(self, playouts: int = 100, games: int | None = None, train_seed: int = 0,
                 path: str | None = None, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(games, train_seed, path, seed, rng)
        self.playouts = check_count(playouts, "playouts (PUCT playouts per move)")

    def choose(self, state: Game):
        from .zero import most_visited
        self.check(state)
        root = self.learner.search(state, self.playouts)
        self.stats = Stats(nodes=self.playouts)
        return most_visited(root)


LEARNED_AGENTS = {"qtable": QTableAgent, "td": TDAgent, "qnet": QNetAgent, "zero": ZeroAgent}
