"""Players: named agents that choose a move, built on the searches.

Every agent has ``choose(state) -> move`` and, after each choice, ``stats``: the work its
search did for that move (a ``Stats``, or None for agents that do not search). Build one by
name with ``make_agent("perfect", seed=0)``.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from .game import MAX, Game
from .search.minimax import best_moves, solve
from .search.stats import Stats


class Agent:
    """Base class: a named player; subclasses implement ``choose``."""

    name = "agent"

    def __init__(self) -> None:
        self.stats: Stats | None = None

    def choose(self, state: Game):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} agent>"


def _rng(seed, rng) -> random.Random:
    return rng if rng is not None else random.Random(seed)


def best_for_mover(state: Game, values: dict) -> list:
    """The moves whose value (for X) is best for the player to move, in move order."""
    pick = max if state.to_move == MAX else min
    target = pick(values.values())
    return [move for move, value in values.items() if value == target]


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = 0, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = _rng(seed, rng)

    def choose(self, state: Game):
        return self.rng.choice(state.moves())


class PerfectAgent(Agent):
    """Plays a uniformly random optimal move, found by the memoised negamax solver."""

    name = "perfect"

    def __init__(self, seed: int | None = 0, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = _rng(seed, rng)

    def choose(self, state: Game):
        self.stats, table = Stats(), {}
        solve(state, table, self.stats)  # fills the table: the children are looked up below
        return self.rng.choice(best_moves(state, table))


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "perfect": PerfectAgent,
}


class UnknownAgentError(ValueError):
    """An agent name or option that does not exist."""


def make_agent(name: str, **options) -> Agent:
    """Build the agent called ``name`` with its options (e.g. ``seed=0``)."""
    if name not in AGENTS:
        raise UnknownAgentError(
            f"unknown agent {name!r}; choose one of: {', '.join(sorted(AGENTS))}")
    factory = AGENTS[name]
    import inspect
    accepted = [p for p in inspect.signature(factory).parameters if p != "self"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise UnknownAgentError(
            f"agent {name!r} has no option {unknown[0]!r}; its options are: "
            f"{', '.join(accepted) or 'none'}")
    return factory(**options)
