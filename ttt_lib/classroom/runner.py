"""The class tournament: a seeded round robin of built-in and student agents, played serially,
on a process pool, or on a Dask cluster, with the same table on each.

A task is data (entrants as names, options and file contents; seeds; game numbers), so any
worker with ``ttt_lib`` installed can play it. A game's seeds come from (the run's key, X's
label, O's label, game number) as in ``arena.play_pairs``. The key is the tournament's seed
alone when only built-in agents play (so built-in pairs give exactly the arena's counts);
when students' agents play, it is ``derive_seed(seed, secret)`` with a secret drawn for the
run, which no box ever sees (not on a command line, not in an environment, not in a task a
box receives): an agent cannot compute its opponent's or the built-in agents' seeds, and so
cannot foresee a random agent's moves. The secret is printed with the table afterwards;
``secret=`` (``--secret``) replays the run. Every game is played by the package's own loop (``arena.turns``); a student
side is a ``StudentAgent`` whose sandbox lives for the whole task, restarted after a fatal
forfeit. A forfeit loses the game and is listed with its reason.
"""
from __future__ import annotations

import logging
import math
import secrets
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..agents import AGENTS, make_agent
from ..arena import (MAX_GAMES, AgentSpec, PairResult, TournamentResult, derive_seed,
                     processes_available,
                     normalize_spec, spec_label, turns)
from ..boards.named import start_position
from ..errors import NOT_IN_A_BROWSER, ProcessesUnavailable
from ..game import MAX, player_name
from . import cgroups, jail
from .leaderboard import Leaderboard, leaderboard
from .loading import ClassroomError, Roster
from ..safetext import printable
from .worker import Box, Entrant, Forfeit, Limits, StudentAgent

EXECUTORS = ("serial", "processes", "dask")
MAX_WORKERS = 256
GAMES_PER_TASK = 8  # a task reuses its sandboxes for this many games


class Task(NamedTuple):
    """Games ``numbers`` (start, stop) of two agents, with each as X in turn: ordered pair
    ``indexes[0]`` is (a, b), ``indexes[1]`` (b, a). Both sandboxes serve both."""

    indexes: tuple[int, int]
    a: Entrant
    b: Entrant
    seed: int
    first: str
    numbers: tuple[int, int]
    limits: Limits
    game: str = "tictactoe"  # the board, by name (boards.named)


class ForfeitRecord(NamedTuple):
    x: str
    o: str
    game: int
    agent: str
    side: str
    reason: str


class TaskResult(NamedTuple):
    counts: tuple[tuple[int, tuple[int, int, int]], ...]  # (pair index, (X wins, O wins, draws))
    forfeits: tuple[ForfeitRecord, ...]


@dataclass(frozen=True)
class ClassResult:
    """A class tournament: the pairwise table, every forfeit, the files left out."""

    table: TournamentResult
    forfeits: tuple[ForfeitRecord, ...]
    rejected: tuple[tuple[str, str], ...]
    labels: tuple[str, ...]
    isolated: bool = True  # students' agents ran in bubblewrap boxes
    secret: str = ""  # the run's secret ('' when only built-in agents played)
    unlimited: str = ""  # why the boxes had no cgroups ('' when they had them)

    @property
    def results(self) -> tuple[PairResult, ...]:  # so tournament_heatmap takes this too
        return self.table.results

    def leaderboard(self) -> Leaderboard:
        return leaderboard(self.labels, self.table.results)

    def as_dict(self) -> dict:
        return {**self.table.as_dict(), "agents": list(self.labels),
                "leaderboard": self.leaderboard().as_dicts(),
                "forfeits": [f._asdict() for f in self.forfeits],
                "rejected": [{"file": name, "reason": why} for name, why in self.rejected],
                "isolated": self.isolated, "secret": self.secret,
                "cgroups": not self.unlimited}

    def format(self, pairs: bool = True) -> str:
        """The leaderboard, the files left out, the forfeits and (with ``pairs``) the
        table of every ordered pair; names and reasons with control characters escaped."""
        notes = ([] if self.isolated else ["not isolated"]) + (
            [f"no per-box cgroups ({self.unlimited}): per-process rlimits and a wall clock"]
            if self.unlimited else [])
        parts = [self.leaderboard().format(", ".join(notes))]
        if self.rejected:
            parts.append("Left out:\n" + "\n".join(f"  {printable(name)}: {printable(why)}"
                                                  for name, why in self.rejected))
        if self.forfeits:
            parts.append(format_forfeits(self.forfeits))
        if pairs:
            parts.append(printable_table(self.table).format())
        if self.secret:
            seed = self.table.seed
            parts.append(f"Seeds: from seed {seed} and this run's secret {self.secret} "
                         f"(replay: --seed {seed} --secret {self.secret})")
        return "\n\n".join(parts)


def printable_table(table: TournamentResult) -> TournamentResult:
    """The pair table with every name's control and bidi characters escaped."""
    return replace(table, results=tuple(replace(r, x=printable(r.x), o=printable(r.o))
                                        for r in table.results))


def format_forfeits(forfeits: Sequence[ForfeitRecord]) -> str:
    """Forfeits grouped by agent and reason, with how many games each cost."""
    groups: dict[tuple[str, str], int] = {}
    for f in forfeits:
        groups[f.agent, f.reason] = groups.get((f.agent, f.reason), 0) + 1
    lines = [f"  {printable(agent)}: {printable(reason)} ({count} game{'s' * (count != 1)})"
             for (agent, reason), count in sorted(groups.items())]
    lost = len(forfeits)
    return f"Forfeits ({lost} game{'s' * (lost != 1)} lost by failing):\n" + "\n".join(lines)


# ----------------------------------------------------------------------------- one task

def play_task(task: Task) -> TaskResult:
    """Play a task's games; the student sandboxes live until its last game."""
    a, b = _player(task.a, task.limits), _player(task.b, task.limits)
    counts, forfeits = [], []
    try:
        for index, x, o in ((task.indexes[0], a, b), (task.indexes[1], b, a)):
            tally = [0, 0, 0]
            for number in range(*task.numbers):
                result, forfeit = _play_one(task, x, o, number)
                tally[0 if result > 0 else 1 if result < 0 else 2] += 1
                forfeits += [forfeit] if forfeit else []
            counts.append((index, tuple(tally)))
    finally:
        for player in (a, b):
            if isinstance(player, StudentAgent):
                player.close()
    return TaskResult(tuple(counts), tuple(forfeits))


def _player(entrant: Entrant, limits: Limits):
    return entrant if entrant.builtin else StudentAgent(entrant, limits)


def _label(player) -> str:
    return player.label if isinstance(player, Entrant) else player.name


def _play_one(task: Task, x, o, number: int) -> tuple[int, ForfeitRecord | None]:
    """One game's result for X, and the forfeit that decided it, if any."""
    players = {MAX: x, -MAX: o}
    game_seed = derive_seed(task.seed, _label(x), _label(o), number)
    seated, side = {}, MAX
    try:
        for side, player in players.items():
            seed = derive_seed(game_seed, player_name(side))
            if isinstance(player, StudentAgent):
                player.new_game(seed)
                seated[side] = player
            else:
                seated[side] = AGENTS[player.builtin](seed=seed, **dict(player.options))
        state = start_position(task.game, task.first)
        side = state.to_move
        for turn in turns(seated[MAX], seated[-MAX], start=state):
            side, state = -turn.mover, turn.after  # side: who moves next
        utility = state.utility()
        return (utility > 0) - (utility < 0), None
    except Forfeit as forfeit:
        record = ForfeitRecord(_label(x), _label(o), number, _label(players[side]),
                               player_name(side), forfeit.reason)
        return -side, record


# -------------------------------------------------------------------------- the tournament

def entrants(builtins: Sequence[AgentSpec], roster: Roster | None) -> list[Entrant]:
    """The built-ins (names or (name, options) pairs, checked by building each once) then
    the roster's students; labels must differ."""
    found = []
    for spec in builtins:
        name, options = normalize_spec(spec)
        make_agent(name, **options)  # bad options fail here, before any game
        found.append(Entrant(spec_label(spec), builtin=name,
                             options=tuple(sorted(options.items()))))
    found += roster.entrants if roster else []
    labels = [e.label for e in found]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ClassroomError(f"the agent {twice[0]!r} is named twice")
    if len(found) < 2:
        raise ClassroomError(f"a tournament needs at least two agents, not {len(found)}")
    return found


def ordered_pairs(players: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """Every ordered pair of different agents, X's agent in the outer loop."""
    return [(x, o) for x in players for o in players if x is not o]


def tasks(players: Sequence[Entrant], games: int, seed: int, limits: Limits,
          first: str = "X", game: str = "tictactoe") -> list[Task]:
    """Each two agents' games (both ways round) of ``game``, cut into chunks."""
    index = {(x.label, o.label): i for i, (x, o) in enumerate(ordered_pairs(players))}
    chunks = [(n, min(n + GAMES_PER_TASK, games)) for n in range(0, games, GAMES_PER_TASK)]
    return [Task((index[a.label, b.label], index[b.label, a.label]), a, b, seed, first, chunk,
                 limits, game)
            for i, a in enumerate(players) for b in players[i + 1:] for chunk in chunks]


def class_tournament(builtins: Sequence[AgentSpec] = (), roster: Roster | None = None,
                     games: int = 10, seed: int = 0, limits: Limits = Limits(),
                     executor: Executor | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     game: str = "tictactoe", secret: str | None = None) -> ClassResult:
    """A round robin of the named built-ins and the roster's agents: ``games`` games for every
    ordered pair of different agents, of ``game`` (a name of ``boards.named``: tictactoe,
    connect4, mnk:M,N,K). ``executor=None`` plays serially, in this process. ``secret``:
    the run's secret (see above), drawn afresh when None and students play; give a printed
    one to replay a run."""
    check_count(games, "games (per ordered pair)", 1, MAX_GAMES)
    check_count(seed, "seed", -math.inf, math.inf)
    students = bool(roster and roster.entrants)
    secret = run_secret(secret, students)
    start_position(game)  # an unknown game fails here, before any sandbox starts
    if roster is not None and roster.unavailable and len(builtins) < 2:
        raise ProcessesUnavailable(roster.unavailable)  # a browser's: the class is missing
    players = entrants(builtins, roster)
    if limits.isolated and roster and roster.entrants:
        jail.require("a student's agent")
    pairs = [(x.label, o.label) for x, o in ordered_pairs(players)]
    counts = [[0, 0, 0] for _ in pairs]
    forfeits: list[ForfeitRecord] = []
    done, total = 0, len(pairs) * games
    key = derive_seed(seed, secret) if secret else seed  # the boxes never see it
    try:
        for result in run(tasks(players, games, key, limits, game=game), executor):
            for index, tally in result.counts:
                counts[index] = [a + b for a, b in zip(counts[index], tally)]
                done += sum(tally)
            forfeits += result.forfeits
            if progress:
                progress(done, total)
    finally:  # this process's boxes (a pool's workers end theirs when they end)
        Box.close_all()
    table = TournamentResult(games, seed, tuple(PairResult(x, o, *counts[i])
                                                for i, (x, o) in enumerate(pairs)))
    order = {pair: i for i, pair in enumerate(pairs)}
    forfeits.sort(key=lambda f: (order[f.x, f.o], f.game))
    return ClassResult(table, tuple(forfeits), tuple(roster.rejected) if roster else (),
                       tuple(p.label for p in players), limits.isolated, secret,
                       cgroups.why_not() if students else "")


def run_secret(secret: str | None, students: bool) -> str:
    """The run's secret: the one given (to replay), else 32 fresh hex digits when students
    play, else none."""
    if secret is None:
        return secrets.token_hex(16) if students else ""
    if not isinstance(secret, str):
        raise TypeError(f"secret is a string, not {type(secret).__name__}")
    if not secret.isascii() or not secret.isprintable() or len(secret) > 200:
        raise ClassroomError("secret is at most 200 printable ASCII characters")
    return secret


def run(work: list[Task], executor: Executor | None) -> Iterator[TaskResult]:
    """Each task's result as it finishes; on Ctrl-C the tasks not started are cancelled."""
    if executor is None:
        yield from map(play_task, work)
        return
    futures = [executor.submit(play_task, task) for task in work]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def check_count(value, name: str, least: float, most: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    if not least <= value <= most:
        raise ClassroomError(f"{name} must be between {least} and {most:,}, not {value}")


# ------------------------------------------------------------------------------ executors

def _ignore_interrupts() -> None:
    """A pool worker leaves Ctrl-C to the parent, which stops it (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def open_executor(kind: str = "serial", workers: int = 2,
                  scheduler: str | None = None) -> Iterator[Executor | None]:
    """``None`` (serial), a pool of ``workers`` processes, or a Dask executor: on the cluster
    at ``scheduler``, or on a local cluster of ``workers`` processes. Closed on exit, Ctrl-C
    included (a pool's running workers are stopped)."""
    if kind not in EXECUTORS:
        raise ClassroomError(f"the executor is one of {', '.join(EXECUTORS)}, not {kind!r}")
    check_count(workers, "workers", 1, MAX_WORKERS)
    if scheduler is not None and kind != "dask":
        raise ClassroomError("a scheduler address needs the dask executor")
    if kind == "serial":
        yield None
    elif kind == "processes":
        from concurrent.futures import ProcessPoolExecutor  # not in Pyodide: imported when used
        pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts)
        try:
            yield pool
        except BaseException:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    else:
        with dask_client(workers, scheduler) as client:
            yield client.get_executor()


@contextmanager
def dask_client(workers: int = 2, scheduler: str | None = None):
    """A Dask ``Client``: connected to ``scheduler``, or to a new local cluster of
    ``workers`` single-threaded processes (closed on exit). Not in a browser
    (``ProcessesUnavailable``)."""
    if not processes_available():
        raise ProcessesUnavailable(f"{NOT_IN_A_BROWSER}: Dask's workers are processes, which "
                                   f"a browser's Python cannot start; run this notebook in "
                                   f"JupyterLab or on Colab for them")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClassroomError("the dask executor needs dask[distributed] installed") from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as error:
            raise ClassroomError(f"cannot reach the Dask scheduler {scheduler}: {error}") \
                from None
        with client:
            yield client
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        yield client
