"""Where agents meet: single games, seeded round-robin tournaments, and the exact odds of
random play to check them against.

There is one game loop, ``turns``: ``play_game``, the tournaments, ``python -m ttt_lib
selfplay`` and the play widget (through ``play_turn``) all move with it, so a seed plays the
same game everywhere.

A tournament's every game gets its own seed, derived from (tournament seed, X agent, O agent,
game number), and its agents are rebuilt from their names and options for that game. So the
results do not depend on which process plays which game: the same seed gives the same table
serially, on a process pool, or on any other ``concurrent.futures.Executor``.
"""
from __future__ import annotations

import hashlib
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple, Union

from .agents import AGENTS, Agent, AgentError, agent_options, make_agent
from .boards.bit import BitBoard
from .arena_entry import ArenaError, short
from .arena_entry import check_count as _check_count, check_start as _check_start
from .errors import IllegalMoveError
from .game import MAX, Game, player_name

AgentSpec = Union[str, tuple[str, dict]]
OUTCOMES = ("x_wins", "o_wins", "draws")

# Measured on 2 cores: starting and feeding a process pool costs ~0.03 s, so it pays from
# about 0.1 s of serial play; the margin covers machines busy with other work.
POOL_THRESHOLD_SECONDS = 0.25
MAX_GAMES = 1_000_000  # per ordered pair: minutes of the fastest agents; a typo fails at once


# ------------------------------------------------------------------------------- one game

class Turn(NamedTuple):
    """One move of a game: the position before it, who moved, the agent, its move, and the
    position after it. ``agent.stats`` is the work of this move's search."""

    before: Game
    mover: int
    agent: Agent
    move: object
    after: Game


@dataclass
class GameRecord:
    """One finished game: who played, the moves in order, and the result for X."""

    x: str
    o: str
    moves: list
    result: int
    final: Game = field(repr=False)

    @property
    def winner(self) -> str | None:
        """'X', 'O', or None for a draw."""
        return player_name(self.result) if self.result else None


def play_turn(state: Game, agent: Agent) -> tuple[object, Game]:
    """``agent``'s move in ``state`` and the position it leads to; an illegal choice raises
    ``IllegalMoveError`` naming the agent."""
    move = agent.choose(state)
    try:
        return move, state.play(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"{short(agent)} chose an illegal move: {error}") from None


def seat(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec,
         seed: int | None = None) -> tuple[Agent, Agent]:
    """The two players of a game seeded by ``seed`` (0 if None).

    ``Agent`` objects play as they are; names and ``(name, options)`` pairs are built with
    the seeds ``derive_seed(seed, "X")`` and ``derive_seed(seed, "O")``.
    """
    seed = 0 if seed is None else seed
    _check_count(seed, "seed", -math.inf, math.inf)
    return _as_agent(x_agent, derive_seed(seed, "X")), _as_agent(o_agent, derive_seed(seed, "O"))


def turns(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec, seed: int | None = None,
          first: str = "X", start: Game | None = None) -> Iterator[Turn]:
    """The turns of one game from ``start`` (by default the empty board, ``first`` to open),
    one at a time, as they are played: the game loop of ``play_game``, the tournaments and
    ``python -m ttt_lib selfplay``. The agents are built (a bad name refused) at the call,
    before the first move."""
    x_player, o_player = seat(x_agent, o_agent, seed)
    state = BitBoard(first=first) if start is None else _check_start(start)
    return _turns({MAX: x_player, -MAX: o_player}, state)


def _turns(players: dict[int, Agent], state: Game) -> Iterator[Turn]:
    """The game loop: the player to move chooses and plays, until the game is over."""
    while not state.is_terminal():
        agent = players[state.to_move]
        move, after = play_turn(state, agent)
        yield Turn(state, state.to_move, agent, move, after)
        state = after


def play_game(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec, seed: int | None = None,
              first: str = "X", start: Game | None = None) -> GameRecord:
    """Play one game from ``start`` (by default the empty board, ``first`` to open).

    Agents are ``Agent`` objects, used as they are, or names / ``(name, options)`` pairs,
    built here with seeds derived from ``seed`` (0 if None).
    """
    state = BitBoard(first=first) if start is None else _check_start(start)
    moves = []
    for turn in turns(x_agent, o_agent, seed, start=state):
        moves.append(turn.move)
        state = turn.after
    return GameRecord(_label(x_agent), _label(o_agent), moves, _sign(state.utility()), state)


def _as_agent(agent: Agent | AgentSpec, seed: int) -> Agent:
    if isinstance(agent, Agent):
        return agent
    name, options = normalize_spec(agent)
    return make_agent(name, seed=seed, **options)


def _label(agent: Agent | AgentSpec) -> str:
    return agent.name if isinstance(agent, Agent) else spec_label(agent)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


# ----------------------------------------------------------------------- agent specifications

def normalize_spec(spec: AgentSpec) -> tuple[str, dict]:
    """``"mcts"`` or ``("mcts", {"playouts": 200})`` -> (name, options), checked.

    The arena seeds every game's agents itself, so ``seed`` and ``rng`` are not options here.
    """
    if isinstance(spec, str):
        name, options = spec, {}
    elif (isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str)
          and isinstance(spec[1], dict)):
        name, options = spec[0], dict(spec[1])
        if not all(isinstance(key, str) for key in options):
            raise AgentError(f"an agent's options are named by strings, not {short(spec[1])}")
    else:
        raise AgentError(f"an agent is a name or a (name, options) pair, not {short(spec)}")
    for fixed in ("seed", "rng"):
        if fixed in options:
            raise AgentError(f"agent {short(name)}: the arena seeds each game's agents itself, "
                             f"so {short(fixed)} cannot be one of its options")
    agent_options(name)  # an unknown name raises here, listing the valid ones
    return name, options


def spec_label(spec: AgentSpec) -> str:
    """How a spec is named in tables: ``mcts`` or ``mcts(playouts=200)``."""
    name, options = normalize_spec(spec)
    if not options:
        return name
    return f"{name}({', '.join(f'{k}={short(v)}' for k, v in sorted(options.items()))})"


def derive_seed(*parts) -> int:
    """A 64-bit seed determined by ``parts`` alone (not by the process or hash seed)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


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


def _cpu_count() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


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


def processes_available() -> bool:
    """Can this Python start worker processes? Not in a browser (Pyodide, JupyterLite)."""
    try:
        import multiprocessing.synchronize  # noqa: F401  (needs the OS's semaphores)
    except ImportError:
        return False
    return sys.platform not in ("emscripten", "wasi")


class SerialExecutor(Executor):
    """Runs each task when it is submitted, in this process: the pool of a browser."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # kept for future.result(), as a pool would
            future.set_exception(error)
        return future


def process_pool(max_workers: int | None = None) -> Executor:
    """A pool of ``max_workers`` worker processes, or a ``SerialExecutor`` where processes
    are unavailable (JupyterLite): every result is the same either way, only slower."""
    if max_workers is not None:
        _check_count(max_workers, "max_workers", 1, 1024)
    if processes_available():
        try:  # imported here: Pyodide has no _multiprocessing, which the import needs
            from concurrent.futures import ProcessPoolExecutor
            return ProcessPoolExecutor(max_workers)
        except (NotImplementedError, OSError):
            pass
    return SerialExecutor()


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



# The checked entry points: the arena's functions behind checks of their arguments.
from .arena_entry import publish_arena  # noqa: E402 (it wraps the functions defined above)
publish_arena(globals())
