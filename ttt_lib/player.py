"""The base of every player: a named agent with its own seeded RNG.

It sits apart from ``agents`` (the built-in players and the registry) so that the learning
agents of ``ttt_lib.learn`` can subclass it while ``agents`` registers them: no import circle.
"""
from __future__ import annotations

import random

from .game import Game
from .search.trace import Stats


class AgentError(ValueError):
    """A bad value for an agent's option, or a move asked of a finished game."""


class Agent:
    """Base class: a named player with its own RNG; subclasses implement ``choose``."""

    name = "agent"

    def __init__(self, seed: int | None = 0, rng: random.Random | None = None) -> None:
        self.rng = _rng(seed, rng)
        self.stats: Stats | None = None

    def choose(self, state: Game):
        raise NotImplementedError

    def legal_moves(self, state: Game) -> list:
        """The moves of ``state``; an error if the game is already over."""
        if not isinstance(state, Game):
            raise TypeError(f"state is a game position (a board or a TreeNode), "
                            f"not {type(state).__name__}")
        moves = state.moves()
        if not moves:
            raise AgentError(f"the game is over: the {self.name} agent has no move to choose")
        return moves

    def __repr__(self) -> str:
        return f"<{self.name} agent>"


def _rng(seed, rng) -> random.Random:
    """``rng`` itself, or a new ``random.Random(seed)``."""
    if rng is not None:
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng is a random.Random, not {type(rng).__name__}")
        return rng
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed is an int or None, not {type(seed).__name__}")
    return random.Random(seed)
