"""Exercise 4 of notebook 07 (write it): plain UCT, judged from the outside (``check_07_mcts``).

The student's ``fn(state, playouts, rng)`` gets a ``CountedState``, the game protocol with one
thing added: every game the function finishes (each time it reads a finished position's result;
see ``Tally``) is counted, by the root move the game began with. So the checker sees how many
playouts the function ran and where they went, whatever its tree looks like. It judges the move
on seeded positions where exactly one move wins, or exactly one move saves the game (with a few
hundred playouts UCT finds it; a result counted for the wrong player does not), and the games
on near-empty boards with a small budget, where a search that ignores the budget is seen.
"""
from __future__ import annotations

import math
import numbers
import random
from collections import Counter
from functools import lru_cache

from ..boards.bit import BitBoard
from ..search.exact import move_values
from ..search.monte_carlo import MCTSTree, SolverTree, random_playout
from .core import case_seed, unanswered, write_it
from .judge import SEARCHES, TimeLimit, call_limited, failure_of

__all__ = ["CountedState", "MCTS_07_CASES", "MCTS_07_BUDGETS", "check_07_mcts"]

SECONDS_07_MCTS = 5.0  # per call: a slow but honest UCT still has time

# (position, who moved first, playouts): one move wins, or one move saves the game; half with
# O to move. The case number seeds the rng the checker passes: random.Random(2025 + number).
MCTS_07_CASES = [
    (".OX/XO./.XO", "X", 300), (".OX/X.O/.XO", "X", 300),
    (".XO/..X/OXO", "O", 300), ("O../.XO/XOX", "O", 300),
    (".O./XX./OX.", "X", 300), ("XOX/O.X/...", "X", 300), ("X../X../OXO", "X", 300),
    ("X../X.O/OX.", "X", 300), ("OX./O.X/..X", "X", 300),
    ("O../OX./.OX", "O", 300), ("OX./.../OOX", "O", 300), ("O../O../XXO", "O", 300),
    ("XOO/X../O..", "O", 300), ("XX./OO./.O.", "O", 300),
    ("..X/.OX/..O", "X", 300), ("..O/.OX/..X", "X", 300), ("X.O/O../X..", "X", 300),
    ("O.X/O../.X.", "X", 300),
    (".XO/OX./...", "O", 300), (".../.XO/XO.", "O", 300), (".../O.X/.OX", "O", 300),
    ("..O/X.X/.O.", "O", 300),
]

# (position, who moved first, playouts): near-empty boards, a small budget. A right UCT
# finishes about one game per playout; a search of every line finishes thousands.
MCTS_07_BUDGETS = [(".../.../...", "X", 20), ("X../.../...", "X", 30), (".../.O./...", "O", 25)]
SEED_07_MCTS = 2025


# ------------------------------------------------------------------ the state the function sees

_ROOT = object()  # the root's own "first move"


class _OverBudget(BaseException):
    """Raised when ``fn`` finishes far more games than its budget: it ends the call (a
    BaseException, so that ``except Exception`` in the student's code does not hide it)."""


class Tally(Counter):
    """Games finished, by the root move each began with; over ``limit`` ends the call. A
    result read again with no move, ``moves()`` or ``is_terminal()`` in between (as a
    backpropagation loop reads it for each node of its path) is one game."""

    def __init__(self, limit: float = math.inf) -> None:
        super().__init__()
        self.limit, self.total, self.last = limit, 0, None

    def count(self, first, position) -> None:
        if position is self.last:
            return
        self.last = position
        self[first] += 1
        self.total += 1
        if self.total > self.limit:
            raise _OverBudget()


class CountedState:
    """A position as ``fn`` sees it: ``to_move``, ``moves()``, ``play(move)``,
    ``is_terminal()``, ``utility()`` (X's result), ``key()`` and ``random_playout(rng)``.
    ``tally`` counts the games finished, by the root move each began with."""

    __slots__ = ("_state", "_tally", "_first")
    STEADY = ("to_move", "key")  # what a grading box may know without asking (see faces)

    def __init__(self, state, tally: Tally | None = None, first=_ROOT) -> None:
        self._state, self._first = state, first
        self._tally = Tally() if tally is None else tally

    @property
    def to_move(self) -> int:
        return self._state.to_move

    def moves(self) -> list:
        self._tally.last = None
        return self._state.moves()

    def play(self, move) -> "CountedState":
        self._tally.last = None
        if isinstance(move, numbers.Integral) and not isinstance(move, bool):
            move = int(move)  # numpy's integers are moves too
        first = move if self._first is _ROOT else self._first
        return CountedState(self._state.play(move), self._tally, first)

    def is_terminal(self) -> bool:
        self._tally.last = None
        return self._state.is_terminal()

    def utility(self):
        if self._state.is_terminal():
            self._tally.count(self._first, self)
        return self._state.utility()

    def random_playout(self, rng):
        """The board's own playout (the same game as ``play`` in a loop), one game counted."""
        self._tally.count(self._first, object())
        return self._state.random_playout(rng)

    def key(self):
        return self._state.key()

    def __eq__(self, other) -> bool:
        return isinstance(other, CountedState) and self._state.key() == other._state.key()

    def __hash__(self) -> int:
        return hash(self._state.key())

    def __repr__(self) -> str:
        return repr(self._state)


# ------------------------------------------------------------------------------ the cases

def _board(text: str, first: str) -> BitBoard:
    return BitBoard.from_text(text, first=first)


@lru_cache(maxsize=None)
def _answer(text: str, first: str) -> tuple:
    """(the one best move, what it does) by exact search."""
    state = _board(text, first)
    values = {m: v * state.to_move for m, v in move_values(state).items()}
    best = max(values.values())
    move, = [m for m, v in values.items() if v == best]
    return move, ("the only winning move is" if best > 0 else
                  "the only move that does not lose is")


def _shown(state, playouts: int, seed: int) -> str:
    side = "X" if state.to_move == 1 else "O"
    return f"{state!r} ({side} to move), playouts={playouts}, rng=random.Random({seed})"


class _Run:
    """One call of ``fn``: the move it returned and the games it finished."""

    def __init__(self, text: str, first: str, playouts: int, seed: int) -> None:
        self.state = _board(text, first)
        self.playouts, self.seed, self.move = playouts, seed, None
        self.games = Tally(limit=20 * playouts + 100)

    def call(self, fn) -> str | None:
        """Call ``fn`` on the case; the student's exception, if any, as a sentence."""
        try:
            self.move = call_limited(fn, (CountedState(self.state, self.games),
                                          self.playouts, random.Random(self.seed)),
                                     SECONDS_07_MCTS)
        except NotImplementedError:
            raise
        except _OverBudget:
            return (f"on {self.where} your function finished more than {self.games.limit:,} "
                    f"games (it was stopped there). {_EXCESS}")
        except TimeLimit:
            return (f"on {self.where} it ran for more than {SECONDS_07_MCTS:g} s (a loop that "
                    "never ends, or a search that ignores the budget?)")
        except Exception as error:  # the student's bug, reported, never a traceback
            return f"on {self.where} {failure_of(error)}."
        return None

    @property
    def total(self) -> int:
        return self.games.total

    @property
    def where(self) -> str:
        return _shown(self.state, self.playouts, self.seed)

    def legal(self) -> bool:
        move = self.move
        return (isinstance(move, numbers.Integral) and not isinstance(move, bool)
                and int(move) in self.state.moves())

    def spread(self) -> str:
        """The games by root move: '4: 210, 6: 50, 8: 40'."""
        by_move = sorted(self.games.items(), key=lambda item: (-item[1], str(item[0])))
        return ", ".join(f"{move}: {games}" for move, games in by_move)


# ------------------------------------------------------------------ the budget, seen from outside

def _budget_problem(run: _Run, at_least: int) -> str | None:
    """What is wrong with the number of games ``run`` finished, if anything."""
    budget, games = run.playouts, run.total
    if games == 0:
        return (f"on {run.where} your function finished no game. UCT plays a game to the end "
                "in each of its iterations (a random playout from the node it added) and "
                "counts the result; play `playouts` of them before choosing.")
    if games < at_least:
        return (f"on {run.where} your function finished only {games} games. Run `playouts` "
                "iterations, each ending in one finished game.")
    if games > 3 * budget + 10:
        return (f"on {run.where} your function finished {games} games, "
                f"{games / budget:.0f} times the budget. {_excess_hint(run)}")
    return None


def _excess_hint(run: _Run) -> str:
    width = len(run.state.moves())
    if abs(run.total - width * run.playouts) <= width:
        return ("`playouts` is the budget of the whole search, not of each move: one "
                "playout per iteration, `playouts` iterations in all.")
    return _EXCESS


_EXCESS = ("Stop after `playouts` iterations, one playout each: a search that follows every "
           "line, or runs until its tree is complete, ignores the budget.")


# ------------------------------------------------------------- the typical mistakes, replayed

class _ForPlayerToMove(MCTSTree):
    """Each node counts the result for the player to move in it, not the one who moved."""

    def backpropagate(self, path, x_result):
        super().backpropagate(path, -x_result)


class _ForXEverywhere(MCTSTree):
    """Each node counts X's result, whoever moved into it."""

    def backpropagate(self, path, x_result):
        for node in path:
            node.visits += 1
            node.wins += x_result > 0
            node.losses += x_result < 0
            node.draws += x_result == 0


def _greedy(state, *, rng) -> MCTSTree:
    return MCTSTree(state, c=0, rng=rng)


WRONG_PLAYER = ("The result is counted for the wrong player: each node must count it for "
                "the player who moved into it (who chooses that node at its parent), so a "
                "win for X is a loss in O's nodes; your search prefers moves that are good "
                "for the opponent.")
MISTAKES = [  # (the trees that make the mistake, its hint)
    ((_ForPlayerToMove, _ForXEverywhere), WRONG_PLAYER),
    ((_greedy,), "There is no exploration (or too little): the child with the best mean so far "
              "takes nearly every visit, so a move that started with lucky playouts keeps "
              "them and the right one starves. Select by UCB1, mean plus c * sqrt(ln N / n), "
              "c about 1 to 1.4."),
]
PROBES, PROBE_SEEDS, GREEDY_SEEDS = 10, 8, 16


@lru_cache(maxsize=None)
def _mistake_moves(number: int, text: str, first: str, playouts: int, seed: int,
                   seeds: int = PROBE_SEEDS) -> frozenset:
    """The moves mistake ``number`` plays on a case with ``seeds`` seeds (the case's first)."""
    return frozenset(make(_board(text, first), rng=random.Random(seed + k)).run(playouts)
                     .best_move() for make in MISTAKES[number][0] for k in range(seeds))


def _probes(fn, runs: list[_Run]) -> list[tuple[_Run, tuple]]:
    """The failing run and those before it, with the cases after it run too until there are
    ``PROBES``: the moves the typical mistakes' moves are compared with."""
    probes = list(zip(runs, MCTS_07_CASES))[-PROBES:]
    for number in range(len(runs), len(MCTS_07_CASES)):
        if len(probes) >= PROBES:
            break
        run = _Run(*MCTS_07_CASES[number], case_seed(SEED_07_MCTS + number))
        if run.call(fn) or not run.legal():
            break
        probes.append((run, MCTS_07_CASES[number]))
    return probes


def _wrong_move_hint(fn, runs: list[_Run]) -> str:
    """The hint of the first typical mistake that reproduces the moves ``fn`` played on the
    failing case and the probes around it; else how UCT goes."""
    probes, last = _probes(fn, runs), runs[-1]
    firsts = [run.state.moves()[0] for run, _ in probes]
    if (all(int(run.move) == first for (run, _), first in zip(probes, firsts))
            and sum(first != _answer(*probe[:2])[0] for (_, probe), first
                    in zip(probes, firsts)) >= 3):  # three times the first move was wrong
        return ("Your function plays the first legal move whatever its playouts say: play "
                "the root move with the most visits.")
    case = MCTS_07_CASES[len(runs) - 1]
    best, _ = _answer(*case[:2])
    # UCB1 never leaves a move with one game in fifty; without exploration the right one starves
    starved = last.games[best] <= max(2, last.total // 50)
    favoured = last.games[int(last.move)] == max(last.games.values())
    for number, (_, hint) in enumerate(MISTAKES):
        if number == 1:  # no exploration: the right move starved, and the mistake fails here
            replays = _mistake_moves(number, *case, last.seed, GREEDY_SEEDS)
            reproduced = starved and bool(replays - {best})
        else:  # the wrong player: its moves on all the probes but two at most, and the
            # move played is the one its own games favoured (a random pick seldom is)
            matches = sum(int(run.move) in _mistake_moves(number, *probe, run.seed)
                          for run, probe in probes)
            reproduced = matches >= len(probes) - 2 >= PROBES - 2 and favoured
        if reproduced:
            return hint
    return ("Plain UCT: from the root select the child with the largest UCB1 (its mean "
            "reward for the player who moved into it, plus c * sqrt(ln N / n)), add one new "
            "child, finish the game at random from it, count the result in every node on "
            "the path for the player who moved into that node, and after `playouts` "
            "iterations play the most visited root move.")


# ------------------------------------------------------------------------------ the judge

def _judge_budgets(fn) -> str | None:
    for number, (text, first, playouts) in enumerate(MCTS_07_BUDGETS):
        run = _Run(text, first, playouts, case_seed(SEED_07_MCTS + 100 + number))
        problem = run.call(fn) or _illegal(run) or _budget_problem(run, playouts // 2)
        if problem:
            return problem
    return None


def _illegal(run: _Run) -> str | None:
    if run.legal():
        return None
    return (f"on {run.where} your function returned {run.move!r}, which is not a legal move; "
            f"return one of state.moves(), {run.state.moves()}.")


def _judge_moves(fn) -> str | None:
    runs = []
    for number, case in enumerate(MCTS_07_CASES):
        text, first, playouts = case
        run = _Run(text, first, playouts, case_seed(SEED_07_MCTS + number))
        runs.append(run)
        problem = run.call(fn) or _illegal(run) or _budget_problem(run, 1)
        if problem:
            return problem
        best, what = _answer(text, first)
        if int(run.move) != best:
            return (f"on {run.where} {what} {best}; your function played {run.move!r} "
                    f"(its games by root move: {run.spread()}). "
                    f"{_wrong_move_hint(fn, runs)}")
    return None


FORBIDDEN_07_MCTS = (*SEARCHES, *((MCTSTree, name) for name in (
    "run", "iterate", "select", "expand", "simulate", "backpropagate", "best_move",
    "most_visited", "move_values", "children")),
    *((SolverTree, name) for name in ("iterate", "select", "prove", "simulate")))


@write_it(allows=(random_playout,), forbids=FORBIDDEN_07_MCTS, task="UCT")
def check_07_mcts(fn) -> None:
    """Judge ``fn(state, playouts, rng) -> move``, plain UCT with random playouts: on
    near-empty boards with a small budget, the games it finishes (about ``playouts``); on
    seeded positions where one move wins or one move saves the game, that move."""
    if unanswered(fn, "grow a tree from the root: select by UCB1, expand, play out at random, "
                      "backpropagate; after `playouts` iterations play the most visited move."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    try:
        problem = _judge_budgets(fn) or _judge_moves(fn)
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    if problem:
        return print(f"Not yet: {problem}")
    total = sum(case[2] for case in MCTS_07_CASES)
    print(f"Right: your UCT finds the one winning or saving move in all {len(MCTS_07_CASES)} "
          f"seeded positions ({total:,} playouts, X or O to move) and finishes about "
          f"`playouts` games on each budget.")
