"""The capstone's ladder: a student's Connect Four agent, boxed, plays every rung of
``studies.connect4_ladder`` in turn, and the verdict is computed here, outside its box.

The agent's source (``nb12_bundle.bundle``) is loaded into a class-tournament box
(``classroom``: bubblewrap where it can start, a control group of its own) and asked for each
move over a pipe. Its clock is the box's CPU time, read from its control group around each move
and held to the move time here (``ClockedStudent``); the box's own limits, ten times the move
time of CPU and thirty of wall clock (``classroom.worker``), only stop a runaway move, so a
loaded machine's slow wall clock does not make it forfeit. The rungs' budgets are playouts and
nodes, the same on every machine. Each rung is worth a point when the student's agent scores at least half of the
games against it (a draw is half); the ratings come from the stored round robin of the rungs
and the student's games together. After the games the position solver reads the student's
moves back from the end of each game (``studies.connect4_game.game_mistakes``): the moves that
turned a win into a draw or a loss, or a draw into a loss.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..arena import PairResult, derive_seed
from ..boards.connect4 import ConnectFour
from ..agents import make_agent
from ..classroom import cgroups, jail
from ..classroom.box import Box
from ..classroom.worker import Entrant, Forfeit, Limits, StudentAgent
from ..game import player_name
from ..studies import connect4_ladder as rungs
from ..studies.connect4_game import Mistake, game_mistakes
from ..studies.ladder import Ratings

__all__ = ["LadderRun", "MOVE_TIME", "climb"]

MOVE_TIME = 0.5  # CPU seconds a move, the student's default
BACKSTOP = 10  # the box's own limit, this many times the move time (its wall clock: 3x that)
LABEL = "yours"
MISTAKE_BUDGET = 20_000  # solver nodes a position may take when the games are read back


@dataclass
class LadderRun:
    """What the ladder found: the games against each rung, the points, the forfeits, the
    mistakes, and the ratings of the rungs and the student's agent."""

    games: int
    move_time: float
    results: list[PairResult] = field(default_factory=list)
    forfeits: list[str] = field(default_factory=list)
    records: list[tuple[str, int, tuple[int, ...]]] = field(default_factory=list)
    ratings: Ratings | None = None
    found: list[tuple[str, int, Mistake]] | None = None  # the mistakes, once looked for

    @property
    def mistakes(self) -> list[tuple[str, int, Mistake]]:
        """The student's moves the solver says threw a value away (looked for on first use:
        seconds to minutes, as the games are long or short)."""
        if self.found is None:
            self.found = find_mistakes(self.records)
        return self.found

    def score(self, rung: str) -> float:
        """The student's share of the points against ``rung`` (a draw is half)."""
        won = lost = drawn = 0
        for r in self.results:
            if r.o == rung:
                won, lost, drawn = won + r.x_wins, lost + r.o_wins, drawn + r.draws
            elif r.x == rung:
                won, lost, drawn = won + r.o_wins, lost + r.x_wins, drawn + r.draws
        games = won + lost + drawn
        return (won + drawn / 2) / games if games else 0.0

    def record(self, rung: str) -> tuple[int, int, int]:
        """(won, drawn, lost) against ``rung``."""
        mine = [(r.x_wins, r.draws, r.o_wins) if r.x == LABEL else (r.o_wins, r.draws, r.x_wins)
                for r in self.results if rung in (r.x, r.o)]
        return tuple(sum(column) for column in zip(*mine)) if mine else (0, 0, 0)

    @property
    def points(self) -> int:
        """Rungs climbed: from the bottom, each scored at least half against."""
        climbed = 0
        for rung in self.rungs:
            if self.score(rung) < 0.5:
                break
            climbed += 1
        return climbed

    @property
    def rungs(self) -> list[str]:
        played = {r.x for r in self.results} | {r.o for r in self.results}
        return [label for label in rungs.LABELS if label in played]

    def format(self) -> str:
        """One line a rung (record, score, the interval of the rating gap), then the
        student's rating."""
        lines = [f"{'rung':30} won/drawn/lost  score  gap (Elo), 95% interval"]
        for rung in self.rungs:
            won, drawn, lost = self.record(rung)
            gap, low, high = self.ratings.gap(LABEL, rung)
            lines.append(f"{rung:30} {won:>3}/{drawn}/{lost:<8} {self.score(rung):5.2f}  "
                         f"{gap:+5.0f} [{low:+.0f}, {high:+.0f}]")
        low, high = self.ratings.interval(LABEL)
        lines.append(f"your agent: {self.ratings.rating(LABEL):+.0f} Elo above random "
                     f"[{low:+.0f}, {high:+.0f}]; {self.points} of {len(self.rungs)} rungs")
        return "\n".join(lines)


class ClockedStudent(StudentAgent):
    """The student's boxed agent, each move's CPU time read from its box's control group
    and held to ``move_time``; the box itself stops a move only at ``BACKSTOP`` times that
    (its wall clock at three times more), so a loaded machine's slow wall clock does not
    decide. Without a control group the box's clock is the wall clock, at ``move_time``."""

    def __init__(self, entrant: Entrant, move_time: float, isolated: bool) -> None:
        self.cgroup = not cgroups.why_not()
        limit = move_time * BACKSTOP if self.cgroup else move_time
        super().__init__(entrant, Limits(move_time=limit, isolated=isolated, kit=True))
        self.move_time = move_time

    def choose(self, state):
        box = self.sandbox.box
        before = box.cpu_seconds() if box is not None else None
        move = super().choose(state)
        box = self.sandbox.box
        after = box.cpu_seconds() if box is not None else None
        if before is not None and after is not None and after - before > self.move_time:
            raise Forfeit(f"used {after - before:.2f} s of CPU time on a move, more than "
                          f"{self.move_time:g} s")
        return move


def _game(student: StudentAgent, rung: tuple, seed: int, as_x: bool,
          run: LadderRun) -> tuple[int, tuple[int, ...]]:
    """One game from the empty 6x7 board: the student's result (1, 0, -1) and the moves."""
    name, options = rung
    other = make_agent(name, seed=derive_seed(seed, "rung"), **options)
    players = {1: student, -1: other} if as_x else {1: other, -1: student}
    state, moves, mine = ConnectFour(), [], 1 if as_x else -1
    try:
        student.new_game(derive_seed(seed, "student"))  # a file that cannot load forfeits
        while not state.is_terminal():
            move = players[state.to_move].choose(state)
            moves.append(move)
            state = state.play(move)
    except Forfeit as forfeit:
        run.forfeits.append(f"as {player_name(mine)} after {len(moves)} moves: {forfeit.reason}")
        return -1, tuple(moves)
    return mine * state.utility(), tuple(moves)


def climb(source: str, games: int = 10, seed: int = 0, move_time: float = MOVE_TIME,
          top: int | None = None, mistakes: bool = False, stop: bool = False) -> LadderRun:
    """The student's agent (a file's ``source``) against the rungs from the bottom,
    ``games`` games a rung (half as X), up to the ``top``-th rung (all by default); the
    ratings fitted with the stored round robin; the student's lost values are found now
    with ``mistakes``, else when ``run.mistakes`` is first read. With
    ``stop``, the climb ends at the first rung it scores below half against."""
    run = LadderRun(games, move_time)
    entrant = Entrant(LABEL, filename="capstone.py", source=source)
    student = ClockedStudent(entrant, move_time, isolated=not jail.why_not())
    try:
        for rung, label in list(zip(rungs.RUNGS, rungs.LABELS))[:top]:
            tally = {True: [0, 0, 0], False: [0, 0, 0]}  # as X: (x wins, o wins, draws)
            for number in range(games):
                as_x, game_seed = number % 2 == 0, derive_seed(seed, label, number)
                result, moves = _game(student, rung, game_seed, as_x, run)
                for_x = result if as_x else -result
                tally[as_x][0 if for_x > 0 else 1 if for_x < 0 else 2] += 1
                run.records.append((label, 1 if as_x else -1, moves))
            run.results += [PairResult(LABEL, label, *tally[True]),
                            PairResult(label, LABEL, *tally[False])]
            if stop and run.score(label) < 0.5:
                break
    finally:
        student.close()
        if student.sandbox.box is not None:
            Box.discard(student.sandbox.box)
    run.ratings = rungs.ratings_with(run.results, LABEL)
    if mistakes:
        run.found = find_mistakes(run.records)
    return run


def find_mistakes(records) -> list[tuple[str, int, Mistake]]:
    """The student's moves that lowered their value, game by game (the rung, the game's
    index, the mistake), as far back as the solver reaches within its budget."""
    found = []
    for index, (label, side, moves) in enumerate(records):
        for mistake in game_mistakes(ConnectFour(), list(moves), budget=MISTAKE_BUDGET,
                                     player=player_name(side)):
            found.append((label, index, mistake))
    return found
