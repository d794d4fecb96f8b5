"""The horizon effect: a move that looks best a few moves deep, and loses.

What lies just beyond the depth limit is invisible to a depth-limited search. ``horizon_positions``
finds the positions where every move such a search prefers is a mistake; ``HORIZON_EXAMPLE`` is
one of them, kept for the course: a threat just beyond the limit.

The textbook's horizon effect (AIMA, chapter 5) is a loss put off by delaying moves until it
lies beyond the limit: ``DELAY_EXAMPLE`` is one on a 4x4 board (no 3x3 position shows it
clearly); ``plies_to_win`` says how far off a win lies.

Past the horizon: ``mistakes_by_depth`` counts, over every unfinished position up to symmetry,
the positions where a depth-limited search rates a non-optimal move best, with and without
heuristic continuation (``search.continuation``), with the positions each search visits;
``search_mistakes`` does the same for any chooser (quiescence search's too).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from ..boards import BitBoard, MNKBoard
from ..game import Game, reachable
from ..search.continuation import PLAIN, WIN, Continuation, continued_choice
from ..search.deepening import Clock, Clocked
from ..search.depthlimit import depth_limited, depth_limited_choice
from ..search.exact import best_moves as exact_best_moves
from ..search.ordering import line_score


def horizon_positions(states: Iterable[Game], depth: int,
                      evaluate: Callable[[Game], float] = line_score) -> Iterator[Game]:
    """The positions where every move the depth-limited search prefers is a mistake."""
    for state in states:
        if state.is_terminal():
            continue
        _, chosen = depth_limited_choice(state, depth, evaluate)
        if not set(chosen) & set(exact_best_moves(state)):
            yield state


@dataclass(frozen=True)
class HorizonExample:
    """A position where looking ``depth`` moves ahead picks a move that loses."""

    text: str
    depth: int
    chosen: tuple[int, ...]   # the depth-limited search's best moves: each one loses
    optimal: tuple[int, ...]  # the exact best moves: each one draws

    def state(self) -> BitBoard:
        return BitBoard.from_text(self.text)


# O to move. Three moves deep, the corner 0 scores best: it threatens the diagonal 0-4-8.
# But X's forced block at 8 also threatens 2 (column) and 6 (row) at once, and that fork is
# decided beyond the horizon. Found by ``horizon_positions(all positions, 3)``; the tests
# search again.
HORIZON_EXAMPLE = HorizonExample(".../.OX/.X.", depth=3, chosen=(0,), optimal=(2, 6, 8))


# ------------------------------------------------ the textbook's horizon effect: a delaying move

@dataclass(frozen=True)
class DelayExample:
    """An m,n,k position where the player to move (O) loses whatever it does, and a delaying
    move (a threat the opponent must block) pushes the loss beyond a ``depth``-move search:
    that search rates ``delaying`` best. ``line`` is a longest game from there: O's threats,
    X's forced blocks, X's win."""

    text: str
    k: int
    depth: int
    delaying: int
    line: tuple[int, ...]

    def state(self) -> MNKBoard:
        return MNKBoard.from_text(self.text, k=self.k)


# O to move on a 4x4 board, three in a row wins. Every quiet move loses within 3 more moves,
# inside a 4-move horizon; O's 9 threatens the diagonal 12-9-6, X must block, and O can go on
# threatening (10, then 1) before X wins 8 moves from the root. Found by a seeded search of
# random 4x4 positions; the tests check every claim again.
DELAY_EXAMPLE = DelayExample("..../..../X.../O.X.", k=3, depth=4, delaying=9,
                             line=(9, 6, 10, 11, 1, 5, 0, 2))


def plies_to_win(state: Game, most: int, win: float = WIN) -> int | None:
    """The fewest moves ahead at which a depth-limited search sees that X wins from
    ``state`` (X's win within that many moves, whatever O does), or None within ``most``."""
    for depth in range(1, most + 1):
        if depth_limited(state, depth, win=win) >= win:
            return depth
    return None


# ------------------------------------------------------------ past the horizon: continuation

def unfinished_classes() -> dict:
    """One unfinished position of each symmetry class (627 of them), by canonical key, each the
    first of its class met breadth-first from the empty board."""
    classes: dict = {}
    for state in reachable(BitBoard()).values():
        if not state.is_terminal():
            classes.setdefault(state.canonical_key(), state)
    return classes


Choose = Callable[[Game, int, Continuation], tuple]


def counted_choice(state: Game, depth: int, rules: Continuation,
                   choose: Choose = continued_choice) -> tuple[list, int]:
    """The best moves ``choose`` finds (``continued_choice``, or ``quiescent_choice``), and
    the positions it searched (the root and every position played: counted from outside, by
    a clock that never runs out)."""
    clock = Clock()
    _, moves = choose(Clocked(state, clock), depth, rules)
    return moves, clock.ticks + 1


@dataclass(frozen=True)
class DepthMistakes:
    """At one depth, over every unfinished class: the positions where the search rates a
    non-optimal move best, and the positions it searched, without and with continuation."""

    depth: int
    plain: int
    continued: int
    plain_nodes: int
    continued_nodes: int


def mistakes_by_depth(depths: Iterable[int] = range(1, 7),
                      rules: Continuation = Continuation()) -> list[DepthMistakes]:
    """For each depth, the mistakes and the cost of the plain depth limit (``PLAIN``, with
    ``rules.evaluate``) and of heuristic continuation by ``rules``."""
    classes, table = unfinished_classes(), {}
    optimal = {key: set(exact_best_moves(state, table)) for key, state in classes.items()}
    plain = replace(PLAIN, evaluate=rules.evaluate, win=rules.win)
    rows = []
    for depth in depths:
        counts = {}
        for name, chosen_by in (("plain", plain), ("continued", rules)):
            found = [counted_choice(state, depth, chosen_by) for state in classes.values()]
            counts[name] = sum(not set(moves) <= optimal[key]
                               for key, (moves, _) in zip(classes, found))
            counts[f"{name}_nodes"] = sum(nodes for _, nodes in found)
        rows.append(DepthMistakes(depth, **counts))
    return rows


def search_mistakes(choose: Choose, depths: Iterable[int] = range(1, 7),
                    rules: Continuation = Continuation()) -> list[tuple[int, int, int]]:
    """For each depth, over every unfinished class: ``(depth, mistakes, positions searched)``
    of ``choose`` with ``rules`` (a mistake: a non-optimal move rated best)."""
    classes, table = unfinished_classes(), {}
    optimal = {key: set(exact_best_moves(state, table)) for key, state in classes.items()}
    rows = []
    for depth in depths:
        found = [counted_choice(state, depth, rules, choose) for state in classes.values()]
        rows.append((depth, sum(not set(moves) <= optimal[key]
                                for key, (moves, _) in zip(classes, found)),
                     sum(nodes for _, nodes in found)))
    return rows


def effective_branching(nodes: int, depth: int) -> float:
    """The branching factor a uniform tree ``depth`` deep would need for ``nodes`` nodes:
    ``nodes ** (1 / depth)``."""
    return nodes ** (1 / depth)
