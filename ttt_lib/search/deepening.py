"""Iterative deepening against the clock: an answer ready whenever time runs out.

The search looks 1, 2, 3... moves ahead, each round trying the previous round's best moves
first. A ``Clock`` (a deadline in seconds, or a budget of nodes, which gives the same result
on every machine) is checked at every position the search reaches: once it runs out, the
round in progress is abandoned and the answer is the last *complete* round's. The first round
always runs to its end, so there is always an answer. The rounds stop by themselves once one
scored no position by the heuristic: its value is then exact.

The clock is checked inside the search without touching the search's code: the root is
handed over as a ``Clocked`` state, whose every ``play`` ticks the clock. Each round searches
with ``alphabeta_continued`` (``continuation.py``): the plain depth limit by default, or
heuristic continuation by the ``rules`` given (a ``Continuation``).
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Hashable
from dataclasses import dataclass, replace

from ..checks import (GAME, NUMBER, STATE, argument_checks, check_deepening, count, instance,
                     optional)
from ..game import Game
from .continuation import (PLAIN, Continuation, Evaluate, SearchOptionError,
                           alphabeta_continued, check_continuation, root_choice)


class TimeUp(Exception):
    """The clock ran out: the round in progress is abandoned."""


class Clock:
    """A deadline ``seconds`` from now, a budget of ``nodes``, or both; ``tick()`` once per
    position searched. It stays ``running=False`` (never runs out) until switched on."""

    def __init__(self, seconds: float | None = None, nodes: int | None = None) -> None:
        self.deadline = math.inf if seconds is None else time.perf_counter() + seconds
        self.budget = math.inf if nodes is None else nodes
        self.ticks = 0
        self.running = False

    def tick(self) -> None:
        self.ticks += 1
        if self.running and self.is_up():
            raise TimeUp()

    def is_up(self) -> bool:
        return self.ticks >= self.budget or time.perf_counter() >= self.deadline


class Clocked:
    """``state`` with a clock: every ``play`` ticks it (and raises ``TimeUp`` once it has run
    out); everything else is the state's own, so any search runs on it unchanged."""

    __slots__ = ("state", "clock")

    def __init__(self, state: Game, clock: Clock) -> None:
        self.state, self.clock = state, clock

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def play(self, move) -> "Clocked":
        self.clock.tick()
        child = object.__new__(Clocked)  # as Clocked(...), without the entry's checks
        child.state, child.clock = self.state.play(move), self.clock
        return child

    def moves(self) -> list:
        return self.state.moves()

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def utility(self) -> float:
        return self.state.utility()

    def key(self) -> Hashable:
        return self.state.key()

    def __getattr__(self, name: str):  # cells(), lines(), canonical_key()...: the state's
        return getattr(self.state, name)


@dataclass(frozen=True)
class Round:
    """One complete round: X's ``value`` looking ``depth`` moves ahead, its best moves (``move``
    is the first found), the positions it searched (root included), and whether it is
    ``exact`` (no position scored by the heuristic)."""

    depth: int
    value: float
    move: object
    best_moves: tuple
    nodes: int
    exact: bool


@dataclass(frozen=True)
class Deepening:
    """What iterative deepening found: its complete ``rounds``, the depth of the round the
    clock cut short (None if none was) and the positions that round had searched."""

    rounds: tuple[Round, ...]
    abandoned: int | None = None
    abandoned_nodes: int = 0

    @property
    def last(self) -> Round:
        """The last complete round: the answer."""
        return self.rounds[-1]

    @property
    def move(self):
        return self.last.move

    @property
    def value(self) -> float:
        return self.last.value

    @property
    def depth(self) -> int:
        return self.last.depth

    @property
    def nodes(self) -> int:
        """Every position searched, the abandoned round's included."""
        return sum(r.nodes for r in self.rounds) + self.abandoned_nodes


def iterative_deepening(state: Game, seconds: float | None = None,
                        evaluate: Evaluate | None = None, *, nodes: int | None = None,
                        rules: Continuation = PLAIN, max_depth: int | None = None,
                        symmetry: bool = False) -> Deepening:
    """Search 1, 2, 3... moves ahead until ``seconds`` pass or ``nodes`` positions are
    searched; the answer is the last complete round's (see ``Deepening``). The search ends
    as ``rules`` say (``continuation.py``; by default the plain depth limit and the line
    score), with ``evaluate``, if given, as the evaluation. With ``symmetry``, one move
    of each set of root moves with symmetric results is searched (see ``move_classes``)."""
    check_deepening(seconds, nodes, max_depth)
    rules = rules if evaluate is None else replace(rules, evaluate=evaluate)
    check_continuation(state, 1, rules)
    clock, rounds, first = Clock(seconds, nodes), [], []
    classes = move_classes(state, symmetry)
    for depth in range(1, max_depth + 1) if max_depth else itertools.count(1):
        start = clock.ticks
        try:
            rounds.append(deepening_round(Clocked(state, clock), depth, first, rules, classes))
        except TimeUp:
            return Deepening(tuple(rounds), depth, clock.ticks - start + 1)
        clock.running = True  # from the second round on, the clock can run out
        first = [move for move in rounds[-1].best_moves if move in classes]
        if rounds[-1].exact or clock.is_up():
            break
    return Deepening(tuple(rounds))


def deepening_round(state: Clocked, depth: int, first: list, rules: Continuation,
                    classes: dict) -> Round:
    """One round ``depth`` moves deep over the moves ``classes`` lists, ``first`` first."""
    start, guessed = state.clock.ticks, False

    def guess(position) -> float:  # the heuristic, noting that it was needed
        nonlocal guessed
        guessed = True
        return rules.evaluate(position)

    def search(child, left, alpha, beta):
        return alphabeta_continued(child, left, alpha, beta, noting)

    noting = replace(rules, evaluate=guess)
    moves = first + [move for move in classes if move not in first]
    value, best = root_choice(state, depth, search, moves)
    best = [image for move in best for image in classes[move]]
    return Round(depth, state.to_move * value, best[0], tuple(best),
                 state.clock.ticks - start + 1, not guessed)


def move_classes(state: Game, symmetry: bool) -> dict:
    """``{move: [moves]}``: each move, or with ``symmetry`` the first move of each set whose
    results are symmetric (same ``canonical_key()``), with the moves it stands for."""
    if symmetry and not hasattr(state, "canonical_key"):
        raise SearchOptionError(f"symmetry needs canonical_key(); "
                                f"{type(state).__name__} has none")
    classes, first_of = {}, {}
    for move in state.moves():
        key = state.play(move).canonical_key() if symmetry else move
        first_of.setdefault(key, move)
        classes.setdefault(first_of[key], []).append(move)
    return classes


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``); the limits are
# checked by the search itself (``check_deepening``), which the agents call directly.
argument_checks(iterative_deepening, SearchOptionError, state=GAME)
argument_checks(Clock, SearchOptionError, seconds=optional(NUMBER),  # a budget, not work: any size
                nodes=optional(count(0, math.inf)))
argument_checks(Clocked, SearchOptionError, state=STATE, clock=instance(Clock, "a Clock"))

__all__ = ["Clock", "Clocked", "Deepening", "Round", "TimeUp", "iterative_deepening"]
