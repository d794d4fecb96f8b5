"""Where agents meet: seeded round-robin tournaments, and the exact odds of random play to
check them against (one game and its loop: ``match.py``; where the games run: ``pools.py``).

A tournament's every game gets its own seed, derived from (tournament seed, X agent, O agent,
game number), and its agents are rebuilt from their names and options for that game. So the
results do not depend on which process plays which game: the same seed gives the same table
serially, on a process pool, or on any other ``concurrent.futures.Executor``.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction

from .agents import AGENTS, Agent, make_agent
from .boards.bit import BitBoard
from .checks import STATE, TABLE, check_start as _check_start, optional, publish, short
from .errors import ArenaError
from .game import Game
from .match import (AgentSpec, GameRecord, Turn, _check_count, _sign, derive_seed,
                    normalize_spec, play_game, play_turn, seat, spec_label, turns)
from .pools import SerialExecutor, cpu_count as _cpu_count, process_pool, processes_available

OUTCOMES = ("x_wins", "o_wins", "draws")

# Measured on 2 cores: starting and feeding a process pool costs ~0.03 s, so it pays from
# about 0.1 s of serial play; the margin covers machines busy with other work.
POOL_THRESHOLD_SECONDS = 0.25
MAX_GAMES = 1_000_000  # per ordered pair: minutes of the fastest agents; a typo fails at once

__all__ = ["MAX_GAMES", "OUTCOMES", "POOL_THRESHOLD_SECONDS", "ArenaError", "GameRecord",
           "PairResult", "SerialExecutor", "TournamentResult", "Turn", "derive_seed",
           "normalize_spec", "play_chunk", "play_game", "play_pairs", "play_turn",
           "process_pool", "processes_available", "random_play_odds",
           "random_play_probabilities", "seat", "spec_label", "tournament", "turns",
           "wilson_interval"]


# ------------------------------------------------------------------------------ tournaments

def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default z)."""
    _check_count(trials, "trials", 0, 2 ** 53)  # beyond it a float cannot count one more
    _check_count(successes, "successes", 0, trials)
    if isinstance(z, bool) or not isinstance(z, (int, float)):
        raise TypeError(f"z is a number, not {type(z).__name__}")
    if not 0 < z < math.inf:
        raise ArenaError(f"z (standard deviations) is a positive number, not {short(z)}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials ** 2))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PairResult:
    """The games of one ordered pair: X agent, O agent and the counts of each outcome."""

    x: str
    o: str
    x_wins: int
    o_wins: int
    draws: int

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws

    def rates(self) -> dict[str, float]:
        """Each outcome's share of the games."""
        return {k: getattr(self, k) / self.games for k in OUTCOMES}

    def intervals(self, z: float = 1.96) -> dict[str, tuple[float, float]]:
        """Each outcome's Wilson confidence interval (95% by default)."""
        return {k: wilson_interval(getattr(self, k), self.games, z) for k in OUTCOMES}

    def as_dict(self) -> dict:
        return {"x": self.x, "o": self.o, "x_wins": self.x_wins, "o_wins": self.o_wins,
                "draws": self.draws}


@dataclass(frozen=True)
class TournamentResult:
    """Counts per ordered pair, in the order played."""

    games: int
    seed: int
    results: tuple[PairResult, ...]

    def pair(self, x: str, o: str) -> PairResult:
        """The result of ``x`` (as X) against ``o``, by their labels."""
        for result in self.results:
            if (result.x, result.o) == (x, o):
                return result
        raise KeyError(f"no games of {x} (X) against {o} (O) in this tournament")

    def as_dict(self) -> dict:
        return {"games": self.games, "seed": self.seed,
                "results": [result.as_dict() for result in self.results]}

    def format(self) -> str:
        """A table: one row per ordered pair, each outcome as count, rate and 95% interval."""
        rows = [["X", "O", "X wins", "O wins", "draws"]]
        for r in self.results:
            rows.append([r.x, r.o] + [_cell(getattr(r, k), r.games, *r.intervals()[k])
                                      for k in OUTCOMES])
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        lines = ["  ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip()
                 for row in rows]
        lines.insert(1, "-" * (sum(widths) + 2 * (len(widths) - 1)))
        title = (f"{self.games} games per ordered pair, seed {self.seed}; "
                 f"rates with 95% Wilson intervals")
        return "\n".join([title] + lines)


def _cell(count: int, games: int, low: float, high: float) -> str:
    return f"{count:>6} {count / games:>6.1%} [{low:.0%}-{high:.0%}]"


def tournament(agents: Sequence[AgentSpec], games: int = 100, seed: int = 0,
               executor: Executor | None = None, first: str = "X") -> TournamentResult:
    """Round robin: ``games`` games for every ordered pair, an agent against itself included.

    ``executor=None`` plays serially, switching to a process pool when the games are long
    enough for one to pay; the table is the same either way.
    """
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Iterable):
        raise TypeError(f"agents is a list of agent names or (name, options) pairs, "
                        f"not {type(agents).__name__}")
    specs = list(agents)
    if not specs:
        raise ArenaError("a tournament needs at least one agent")
    return play_pairs([(x, o) for x in specs for o in specs], games, seed, executor, first)


def play_pairs(pairs: Iterable[tuple[AgentSpec, AgentSpec]], games: int = 100, seed: int = 0,
               executor: Executor | None = None, first: str = "X") -> TournamentResult:
    """``games`` seeded games for each (X agent, O agent) pair; see ``tournament``."""
    _check_count(games, "games (per ordered pair)", 1, MAX_GAMES)
    _check_count(seed, "seed", -math.inf, math.inf)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor is a concurrent.futures.Executor or None, "
                        f"not {type(executor).__name__}")
    pairs = [(_checked(x), _checked(o)) for x, o in _pair_list(pairs)]
    BitBoard(first=first)  # a bad opener fails here, before any game
    probes, rest = _tasks(pairs, games, seed, first)
    counts = [[0, 0, 0] for _ in pairs]
    for index, chunk in _run(probes, rest, executor):
        counts[index] = [a + b for a, b in zip(counts[index], chunk)]
    results = tuple(PairResult(spec_label(x), spec_label(o), *counts[i])
                    for i, (x, o) in enumerate(pairs))
    return TournamentResult(games, seed, results)


def _pair_list(pairs) -> list[tuple]:
    """``pairs`` as a list of (X spec, O spec) pairs, or a TypeError."""
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
        raise TypeError(f"pairs is a list of (X agent, O agent) pairs, not {type(pairs).__name__}")
    pairs = list(pairs)
    if not pairs:
        raise ArenaError("a tournament needs at least one (X agent, O agent) pair")
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"each pair is (X agent, O agent), not {short(pair)}")
    return pairs


def _checked(spec: AgentSpec) -> tuple[str, dict]:
    """The normalized spec, after building the agent once so bad options fail right away."""
    name, options = normalize_spec(spec)
    make_agent(name, **options)
    return name, options


def _tasks(pairs: list, games: int, seed: int, first: str) -> tuple[list, list]:
    """Tasks (pair index, X spec, O spec, seed, opener, game numbers): first game 0 of every
    pair (a probe of how long a game takes), then the rest, in a few chunks per core."""
    probes = [(i, x, o, seed, first, range(0, 1)) for i, (x, o) in enumerate(pairs)]
    chunks = max(1, min(games - 1, 4 * _cpu_count()))
    bounds = [1 + (games - 1) * k // chunks for k in range(chunks + 1)]
    rest = [(i, x, o, seed, first, range(a, b))
            for i, (x, o) in enumerate(pairs) for a, b in zip(bounds, bounds[1:]) if b > a]
    return probes, rest


def play_chunk(task: tuple) -> tuple[int, list[int]]:
    """Play the games of one task; returns (pair index, [X wins, O wins, draws])."""
    index, x, o, seed, first, numbers = task
    x_label, o_label = spec_label(x), spec_label(o)
    counts = [0, 0, 0]
    for number in numbers:
        game_seed = derive_seed(seed, x_label, o_label, number)
        # The agents and seeds of play_game(x, o, game_seed, first), built without
        # re-checking the specs for every game.
        x_player = _built(x, derive_seed(game_seed, "X"))
        o_player = _built(o, derive_seed(game_seed, "O"))
        result = play_game(x_player, o_player, first=first).result
        counts[0 if result > 0 else 1 if result < 0 else 2] += 1
    return index, counts


def _built(spec: tuple[str, dict], seed: int) -> Agent:
    """The agent of a spec already checked by ``normalize_spec``."""
    name, options = spec
    return AGENTS[name](seed=seed, **options)


def _run(probes: list, rest: list, executor: Executor | None):
    """Each task's result, played on ``executor``; with none, serially unless the probes show
    that the rest takes long enough for a process pool to pay."""
    if executor is not None:
        yield from executor.map(play_chunk, probes + rest)
        return
    start = time.perf_counter()
    yield from map(play_chunk, probes)
    per_game = (time.perf_counter() - start) / len(probes)
    remaining = per_game * sum(len(task[-1]) for task in rest)
    if remaining < POOL_THRESHOLD_SECONDS or _cpu_count() < 2 or not processes_available():
        yield from map(play_chunk, rest)
        return
    with process_pool(_cpu_count()) as pool:
        yield from pool.map(play_chunk, rest)


# ---------------------------------------------------------------- exact odds of random play

def random_play_probabilities(state: Game | None = None) -> dict[str, Fraction]:
    """The exact chances of each outcome when both sides play uniformly random moves from
    ``state`` (the empty board by default), as fractions: keys x_wins, o_wins, draws."""
    table: dict = {}
    state = BitBoard() if state is None else _check_start(state)
    x_wins, o_wins, draws = random_play_odds(state, table)
    return {"x_wins": x_wins, "o_wins": o_wins, "draws": draws}


def random_play_odds(state: Game, table: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(X wins, O wins, draws) under uniformly random play from ``state``: a finished game's
    own result, else the average over its moves; ``table`` remembers each position's odds."""
    key = state.key()
    if key not in table:
        if state.is_terminal():
            result = _sign(state.utility())
            table[key] = tuple(Fraction(int(result == r)) for r in (1, -1, 0))
        else:
            moves = state.moves()
            children = [random_play_odds(state.play(m), table) for m in moves]
            table[key] = tuple(sum(odds) / len(moves) for odds in zip(*children))
    return table[key]


# The checked entry points: these functions behind checks of their arguments (``ttt_lib.checks``).
def also_task(arguments: dict, where: str, error: type) -> None:
    """A task of ``play_chunk``: (pair index, X spec, O spec, seed, opener, games)."""
    task = arguments["task"]
    if not isinstance(task, tuple) or len(task) != 6 or not isinstance(task[5], range):
        raise TypeError(f"{where}: task is a tuple (pair index, X agent, O agent, seed, "
                        f"opener, range of game numbers), not {short(task)}")
    _check_count(len(task[5]), "games (in a task)", 0, MAX_GAMES)


publish(globals(), ArenaError, {
    "play_chunk": dict(also=also_task),
    "random_play_odds": dict(state=STATE, table=TABLE),
    "random_play_probabilities": dict(state=optional(STATE)),
})
