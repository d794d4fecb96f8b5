"""Exercises of notebook 12: the Connect Four capstone."""
from __future__ import annotations

import numbers
import random
import time
from functools import lru_cache

from ..arena import PairResult, derive_seed
from ..boards.connect4 import ConnectFour
from .. import agents as _agents
from ..player import Agent
from ..safetext import short
from ..search.monte_carlo import MCTSTree
from ..search.ordering import line_score
from ..studies.ladder import fit_ratings, round_robin
from .core import case_seed, unanswered, write_it
from .judge import SEARCHES, Case, TimeLimit, call_limited, failure_of, judge
from .nb08 import AGENT_08_FORBIDS

__all__ = ["AGENT_12_GAMES", "AGENT_12_MOVE_TIME", "check_12_agent", "check_12_windows"]

AGENT_12_MOVE_TIME = 1.0  # seconds per move, as the class tournament's default clock
AGENT_12_GAMES = (8, 3)   # games a round against greedy (half as X), and the most rounds
LADDER_12 = ("random", "greedy")
SEED_12 = 12


# ------------------------------------------------------------------ exercise 1: the windows

def _positions(count: int = 60) -> list[ConnectFour]:
    """Seeded random positions, 7x6 and 5x4 (four in a row), the emptiest first."""
    rng, found = random.Random(case_seed(SEED_12)), []
    while len(found) < count:
        state = ConnectFour(*rng.choice([(7, 6), (7, 6), (5, 4)]))
        for _ in range(rng.randrange(0, 24)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.moves()))
        found.append(state)
    return sorted(found, key=lambda s: (bin(s.x | s.o).count("1"), s.to_text()))


def _windows_hint(state, expected, got, visits) -> str:
    if got == -expected:
        return "The sign is the other way round: the score is from X's point of view."
    return ("Every window of four counts: along the rows, up the columns and along both "
            "diagonals; one holding only X's pieces adds 10 ** (pieces - 1), only O's "
            "subtracts as much, and a window with both (or neither) adds nothing.")


@write_it(forbids=(*SEARCHES, line_score), task="the score")
def check_12_windows(fn) -> None:
    """Judge ``fn(state)``: the windows-of-four score of a Connect Four position (X's view),
    against ``line_score`` on seeded positions of 7x6 and 5x4 boards."""
    if unanswered(fn, "go over every window of four cells: rows, columns and both "
                      "diagonals, and add each window's score."):
        return
    cases = [Case(state, f"{state.columns}x{state.rows} board {state.to_text()!r}")
             for state in _positions()]
    judge(fn, cases, oracle=line_score, hint=_windows_hint,
          call=lambda student, watched: student(watched.state),
          right=f"your score agrees with line_score on all {len(cases)} positions: every "
                f"window of four in every direction, X's windows up, O's down.")


# ------------------------------------------------------------------- exercise 2: the agent

class Illegal(Exception):
    """The student's agent broke a rule: the sentence says which."""


class Timed(Agent):
    """The student's agent (a function of the state, an Agent class or an instance),
    watched: each move legal and within the move time."""

    name = "yours"

    def __init__(self, player, seed: int) -> None:
        super().__init__(seed)
        if isinstance(player, type) and issubclass(player, Agent):
            player = player(seed=seed)
        self.choice = player.choose if isinstance(player, Agent) else player
        random.seed(seed)  # a function drawing on the random module plays the same again

    def choose(self, state):
        start = time.perf_counter()
        try:  # stopped at twice the move time: an endless loop ends too
            move = call_limited(self.choice, (state,), 2 * AGENT_12_MOVE_TIME)
        except NotImplementedError:
            raise
        except TimeLimit:
            raise Illegal(f"on {state.to_text()!r} it took more than the "
                          f"{AGENT_12_MOVE_TIME:g} s a move may take (an endless loop?)") from None
        except Exception as error:  # the student's bug, reported, never a traceback
            raise Illegal(f"on {state.to_text()!r} {failure_of(error)}") from None
        seconds = time.perf_counter() - start
        if seconds > AGENT_12_MOVE_TIME:
            raise Illegal(f"on {state.to_text()!r} it took {seconds:.1f} s, more than the "
                          f"{AGENT_12_MOVE_TIME:g} s a move may take")
        legal = [m for m in state.moves() if _same_move(move, m)]
        if not legal:
            raise Illegal(f"on {state.to_text()!r} it chose {short(move)}, not a legal move "
                          f"(the columns that are not full: {state.moves()})")
        return legal[0]  # numpy's np.int64(3) is the column 3


def _same_move(move, legal: int) -> bool:
    """Whether the student's ``move`` is the column ``legal`` (any whole number, numpy's too;
    never True or a float)."""
    return (isinstance(move, numbers.Integral) and not isinstance(move, bool)
            and int(move) == legal)


def _games(player, opponent: str, games: int, first: int) -> PairResult:
    """``games`` seeded games of the student's agent against ``opponent``, numbered from
    ``first``; half with the student as X. The result as seen by the student (as X)."""
    from ..arena import play_game
    wins = losses = draws = 0
    for number in range(first, first + games):
        seed = derive_seed(case_seed(SEED_12), opponent, number)
        mine = Timed(player, seed)
        as_x = number % 2 == 0
        x, o = (mine, opponent) if as_x else (opponent, mine)
        result = play_game(x, o, seed=seed, start=ConnectFour()).result * (1 if as_x else -1)
        wins, losses, draws = wins + (result > 0), losses + (result < 0), draws + (result == 0)
    return PairResult("yours", opponent, wins, losses, draws)


@lru_cache(maxsize=1)
def _ladder_results() -> tuple[PairResult, ...]:
    """The ladder's own round robin (random and greedy), seeded."""
    return tuple(round_robin(LADDER_12, ConnectFour(), games=AGENT_12_GAMES[0], seed=SEED_12))


def _rate(player) -> tuple[object, list[PairResult]]:
    """Rounds of games against greedy (after one against random) until the student's agent
    is rated above greedy with 95% confidence, or the rounds run out."""
    per_round, rounds = AGENT_12_GAMES
    results = [_games(player, "random", per_round // 2, 0)]
    for round_number in range(rounds):
        results.append(_games(player, "greedy", per_round, round_number * per_round))
        ratings = fit_ratings(("random", "greedy", "yours"),
                              list(_ladder_results()) + results)
        if ratings.gap("yours", "greedy")[1] > 0:
            break
    return ratings, results


def _agent_hint(ratings, results) -> str:
    gap, low, _ = ratings.gap("yours", "greedy")
    greedy = [r for r in results if r.o == "greedy"]
    record = "/".join(str(sum(getattr(r, k) for r in greedy))
                      for k in ("x_wins", "draws", "o_wins"))
    return (f"against greedy your agent went {record} (won/drawn/lost), {gap:+.0f} Elo with "
            f"a 95% interval from {low:+.0f}: not yet above greedy with confidence. Win and "
            f"block first, then prefer the centre and the moves whose windows score best, "
            f"and never drop a piece just below the opponent's winning cell.")


# the library's searches and agents: the agent is the student's (line_score, the evaluation
# of notebook 5, is allowed: exercise 1 is writing it again)
AGENT_12_FORBIDS = (*AGENT_08_FORBIDS, (MCTSTree, "run"), (_agents.GreedyAgent, "choose"))


@write_it(forbids=AGENT_12_FORBIDS, task="the agent")
def check_12_agent(player) -> None:
    """Judge the student's Connect Four agent against the ladder: rated above greedy with 95%
    confidence within ``AGENT_12_GAMES`` seeded rounds, every move legal and within
    ``AGENT_12_MOVE_TIME``."""
    if unanswered(player, "start from greedy (win, else block) and add a preference: the "
                          "centre columns, or the move whose windows score best."):
        return
    if not (callable(player) or isinstance(player, Agent)):
        return print(f"Not yet: pass your function (def ...) or Agent class itself, not "
                     f"{type(player).__name__}.")
    try:
        ratings, results = _rate(player)
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    except Illegal as error:
        return print(f"Not yet: {error}.")
    gap, low, high = ratings.gap("yours", "greedy")
    if low <= 0:
        return print(f"Not yet: {_agent_hint(ratings, results)}")
    rating, (bottom, top) = ratings.rating("yours"), ratings.interval("yours")
    games = sum(r.games for r in results)
    print(f"Right: in {games} seeded games your agent rates {rating:+.0f} Elo above random "
          f"[{bottom:+.0f}, {top:+.0f}], {gap:+.0f} above greedy [{low:+.0f}, {high:+.0f}], "
          f"every move legal and within {AGENT_12_MOVE_TIME:g} s. Enter it in the class "
          f"tournament!")
