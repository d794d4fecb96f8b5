"""Notebook 04's write-it move ordering (``check_04_ordering``): the student's ordering judged
by the nodes alpha-beta searches with it, against plain order and the line heuristic."""
from __future__ import annotations

import random

from ..boards.bit import BitBoard
from ..game import reachable
from ..search.pruning import AlphaBeta
from ..search.ordering import Killers, heuristic_order, line_score, threat_order
from .core import case_seed, cases_cache, unanswered, write_it
from .judge import SEARCHES, SECONDS, call_limited, failure_of

__all__ = ["ORDERING_04_FACTOR", "ordering_04_positions", "check_04_ordering"]

ORDERING_04_FACTOR = 1.5  # the target: at most this many times the line heuristic's nodes
ORDERING_04_NAMED = ("XX./OO./...", "XO./.O./..X", "X../.O./..X")  # positions the notebook shows


class NotAnOrdering(Exception):
    """The student's ordering returned something other than a reordering of the moves."""

    def __init__(self, state, moves: list, got) -> None:
        super().__init__(f"not a reordering of {moves}")
        self.state, self.moves, self.got = state, moves, got


class TooManyNodes(Exception):
    """The search with the student's ordering passed its node budget (far worse than plain)."""


@cases_cache
def ordering_04_positions() -> tuple[BitBoard, ...]:
    """The positions the ordering is judged on, smallest search first: a seeded sample of 8
    unfinished positions for each number of marks from 7 down to 1, the notebook's positions,
    and the empty board last."""
    by_marks: dict[int, list[BitBoard]] = {}
    for state in reachable(BitBoard()).values():
        if not state.is_terminal():
            by_marks.setdefault(9 - state.cells().count(0), []).append(state)
    rng, chosen = random.Random(case_seed(4)), {}
    for marks in range(7, 0, -1):
        pool = sorted(by_marks[marks], key=lambda state: state.to_text())
        chosen.update((state.to_text(), state) for state in rng.sample(pool, 8))
    chosen.update((text, BitBoard.from_text(text)) for text in ORDERING_04_NAMED)
    return (*sorted(chosen.values(), key=lambda state: state.cells().count(0)), BitBoard())


def _reordering_error(moves: list, got) -> str | None:
    """Why ``got`` is not a reordering of ``moves``, or None when it is one."""
    if not isinstance(got, (list, tuple)):
        return f"return a list of moves, not a {type(got).__name__}."
    for move in got:
        if move not in moves:
            return f"move {move!r} is not one of state.moves()."
        if list(got).count(move) > 1:
            return f"move {move} comes twice: list every move exactly once."
    missing = [move for move in moves if move not in got]
    return f"it left out {missing}: return every move, best first." if missing else None


class _CountingAlphaBeta(AlphaBeta):
    """Alpha-beta that counts the nodes it searches as it goes (the checker's budget)."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.nodes = 0

    def search(self, state, alpha: float, beta: float, ply: int = 0) -> float:
        self.nodes += 1
        return super().search(state, alpha, beta, ply)


def _nodes(order, state, budget: int) -> int:
    """Nodes alpha-beta visits from ``state`` with ``order(state) -> moves`` deciding the
    order, stopped with ``TooManyNodes`` past ``budget``."""

    def ordering(node, moves: list) -> list:
        if engine.nodes > budget:
            raise TooManyNodes()
        got = order(node)
        if _reordering_error(moves, got):
            raise NotAnOrdering(node, moves, got)
        got = list(got)
        if all(type(mine) is int for mine in got):
            return got
        return [next(move for move in moves if move == mine) for mine in got]  # numpy's ints

    engine = _CountingAlphaBeta(ordering=ordering)
    engine.value(state)
    return engine.nodes


@cases_cache
def _library_nodes() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per position of ``ordering_04_positions``: nodes with plain order, with the line
    heuristic."""
    positions = ordering_04_positions()
    plain = tuple(_nodes(lambda s: s.moves(), state, 10 ** 7) for state in positions)
    line = tuple(_nodes(lambda s: heuristic_order(s, s.moves()), state, 10 ** 7)
                 for state in positions)
    return plain, line


def _run(fn, budgets: list[int]) -> tuple[list[int], str | None]:
    """Node counts of ``fn`` over the positions (a count over its budget is cut short), or
    the verdict line of the first position where it fails."""
    counts = []
    for state, budget in zip(ordering_04_positions(), budgets):
        try:
            # a whole search, cut at its node budget: the clock only catches a loop that
            # never plays a move, so it is generous (a busy machine is slow, not wrong)
            counts.append(call_limited(_nodes, (fn, state, budget), 5 * SECONDS))
        except TooManyNodes:
            counts.append(budget + 1)
        except NotImplementedError:
            return counts, "Not yet: write the function (it still raises NotImplementedError)."
        except NotAnOrdering as bad:
            return counts, (f"Not yet: on {bad.state!r} (moves {bad.moves}) your function "
                            f"returned {bad.got!r}: {_reordering_error(bad.moves, bad.got)}")
        except Exception as error:  # the student's bug, reported, never a traceback
            return counts, f"Not yet: on {state!r} {failure_of(error)}"
    return counts, None


def _ordering_hint(fn, yours: int, plain: int, budgets: list[int]) -> str:
    """What is likely wrong with an ordering that misses the target."""
    if yours >= plain:
        flipped, failed = _run(lambda state: list(reversed(fn(state))), budgets)
        if not failed and sum(flipped) < plain:
            return ("That is worse than plain order, and the same order reversed does far "
                    f"better ({sum(flipped):,} nodes): it puts the worst moves first. Sort "
                    "best first (reverse=True), scoring for the player to move.")
        return ("That is no better than plain order: the best move should come first, e.g. "
                "a winning move, then a block, then the moves that open the most lines.")
    return ("Your order helps, but not enough: score each move for the player to move "
            "(for O, the move that is worst for X is best), and put wins and blocks first.")


@write_it(allows=(line_score,), forbids=(*SEARCHES, heuristic_order, threat_order,
                                         (Killers, "first")), task="the order")
def check_04_ordering(fn) -> None:
    """Judge ``fn(state) -> state's moves, most promising first``: alpha-beta with it, over
    ``ordering_04_positions()``, must visit at most ``ORDERING_04_FACTOR`` times the nodes it
    visits with the library's line-heuristic order."""
    if unanswered(fn, "return state.moves() sorted best first for the player to move, e.g. "
                      "by the line score of the position each move leads to."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    plain, line = _library_nodes()
    budgets = [2 * count + 100 for count in plain]
    counts, failed = _run(fn, budgets)
    if failed:
        return print(failed)
    yours, target = sum(counts), int(ORDERING_04_FACTOR * sum(line))
    if yours > target:
        worst = max(range(len(counts)), key=lambda i: counts[i] - line[i])
        cut = ["at least " if count > budget else "" for count, budget in zip(counts, budgets)]
        return print(
            f"Not yet: over the {len(counts)} positions alpha-beta with your order visits "
            f"{max(cut)}{yours:,} nodes; the target is at most {target:,} "
            f"({ORDERING_04_FACTOR:g} times the line heuristic's {sum(line):,}; plain order: "
            f"{sum(plain):,}). Worst: {ordering_04_positions()[worst]!r}, {cut[worst]}"
            f"{counts[worst]:,} nodes against the line heuristic's {line[worst]:,}. "
            + _ordering_hint(fn, yours, sum(plain), budgets))
    print(f"Right: your order puts good moves first: with it alpha-beta visits {yours:,} "
          f"nodes over the {len(counts)} positions, against {sum(line):,} with the line "
          f"heuristic and {sum(plain):,} with plain order.")
