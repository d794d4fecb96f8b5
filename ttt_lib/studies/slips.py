"""Two figures the lecture sources state and get wrong, computed here instead of asserted.

- **"states <= nodes <= 9!"**: 9! counts the complete 9-move sequences only, the leaves of a
  tree in which no game ends early. The nodes of a tree are all its prefixes, so even without
  early wins they number the sum of 9!/(9-k)! over the depths k = 0..9, and the real tree, wins
  included, still has more nodes than 9!. ``tree_nodes_by_depth`` and ``sequences_by_depth``
  give both trees depth by depth.
- **"alpha-beta examines 3,025 non-isomorphic states"**: only 765 classes of positions exist,
  so the figure cannot count classes; it reads like the node count of an alpha-beta search
  that skips symmetric siblings. ``sibling_symmetry_search`` is that search, built on
  ``AlphaBeta`` with an ordering that keeps one child per symmetry class, and
  ``sibling_variants`` runs it under every window, move order and fail mode offered, so the
  closest variant to the published figure can be named.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from math import perm

from ..boards import BitBoard
from ..game import Game
from ..search import AlphaBeta, Stats
from ..search.ordering import heuristic_order, threat_order

PUBLISHED_EXAMINED = 3_025   # the slides: "alpha-beta examines 3,025 non-isomorphic states"

Ordering = Callable[[Game, list], list]


# ------------------------------------------------------------------ nodes against 9!

def sequences_by_depth(cells: int = 9) -> list[int]:
    """Nodes at each depth of a tree in which no game ends early: 9!/(9-k)! at depth k."""
    return [perm(cells, k) for k in range(cells + 1)]


def tree_nodes_by_depth(state: Game | None = None) -> list[int]:
    """Nodes of the real game tree at each depth below ``state`` (the empty board by
    default): move sequences of each length that no earlier win ended, counted as paths
    through the positions of one depth at a time."""
    state = BitBoard() if state is None else state
    layer = {state.key(): (state, 1)}  # position key -> (position, paths reaching it)
    counts = []
    while layer:
        counts.append(sum(paths for _, paths in layer.values()))
        below: dict = {}
        for position, paths in layer.values():
            if position.is_terminal():
                continue
            for move in position.moves():
                child = position.play(move)
                _, known = below.get(child.key(), (child, 0))
                below[child.key()] = (child, known + paths)
        layer = below
    return counts


def bound_table(state: Game | None = None) -> list[dict]:
    """Depth by depth: the nodes without early wins and with them, and both running totals."""
    real, plain = tree_nodes_by_depth(state), sequences_by_depth()
    rows, real_total, plain_total = [], 0, 0
    for depth, (n_plain, n_real) in enumerate(zip(plain, real + [0] * len(plain))):
        real_total, plain_total = real_total + n_real, plain_total + n_plain
        rows.append({"depth": depth, "sequences": n_plain, "sequences_total": plain_total,
                     "nodes": n_real, "nodes_total": real_total})
    return rows


# ------------------------------------------------------- alpha-beta skipping symmetric siblings

def distinct_children(order: Ordering | None = None) -> Ordering:
    """An ordering for ``AlphaBeta``: the moves in ``order`` (as given by default), keeping
    only the first move into each symmetry class, so no child is symmetric to an earlier
    sibling."""
    def keep_first_of_each_class(state: Game, moves: list) -> list:
        seen, kept = set(), []
        for move in (moves if order is None else order(state, moves)):
            key = state.play(move).canonical_key()
            if key not in seen:
                seen.add(key)
                kept.append(move)
        return kept
    return keep_first_of_each_class


def static_order(cells: tuple[int, ...]) -> Ordering:
    """A fixed preference of cells, such as centre, then corners, then edges."""
    rank = {cell: i for i, cell in enumerate(cells)}
    return lambda state, moves: sorted(moves, key=rank.__getitem__)


CENTRE, CORNERS, EDGES = (4,), (0, 2, 6, 8), (1, 3, 5, 7)
ORDERS: dict[str, Ordering | None] = {
    "natural": None, "heuristic": heuristic_order, "threats": threat_order,
    "centre, corners, edges": static_order(CENTRE + CORNERS + EDGES),
    "centre, edges, corners": static_order(CENTRE + EDGES + CORNERS),
    "corners, centre, edges": static_order(CORNERS + CENTRE + EDGES),
    "corners, edges, centre": static_order(CORNERS + EDGES + CENTRE),
    "edges, centre, corners": static_order(EDGES + CENTRE + CORNERS),
    "edges, corners, centre": static_order(EDGES + CORNERS + CENTRE),
}
WINDOWS = {"(-inf, inf)": (-math.inf, math.inf), "(-1, 1)": (-1, 1)}
FAILS = ("soft", "hard")


@dataclass(frozen=True)
class SiblingRun:
    """One run of the sibling-symmetry search: its settings and what it counted."""

    order: str
    window: str
    fail: str
    value: float
    nodes: int      # nodes entered, the root included
    leaves: int     # terminal positions among them
    classes: int    # symmetry classes those nodes fall into

    @property
    def below_root(self) -> int:
        return self.nodes - 1


class EnteringAlphaBeta(AlphaBeta):
    """``AlphaBeta`` that keeps every position its search enters, in order: what a trace's
    ``visited()`` gives, without the cost of tracing every call."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.entered: list[Game] = []

    def search(self, state: Game, alpha: float, beta: float, ply: int = 0) -> float:
        self.entered.append(state)
        return super().search(state, alpha, beta, ply)


def sibling_symmetry_search(state: Game | None = None, *, order: str = "natural",
                            window: str = "(-inf, inf)", fail: str = "soft") -> SiblingRun:
    """Alpha-beta from ``state`` (the empty board by default) that never searches a child
    symmetric to an earlier sibling; ``order``, ``window`` and ``fail`` name entries of
    ``ORDERS``, ``WINDOWS`` and ``FAILS``."""
    state = BitBoard() if state is None else state
    stats = Stats()
    engine = EnteringAlphaBeta(fail=fail, ordering=distinct_children(ORDERS[order]))
    value = engine.observed(lambda: engine.value(state, *WINDOWS[window]), stats)
    classes = {position.canonical_key() for position in engine.entered}
    return SiblingRun(order, window, fail, value, stats.nodes, stats.leaves, len(classes))


def sibling_variants(state: Game | None = None) -> list[SiblingRun]:
    """The sibling-symmetry search under every move order, window and fail mode."""
    return [sibling_symmetry_search(state, order=order, window=window, fail=fail)
            for order in ORDERS for window in WINDOWS for fail in FAILS]


def closest_variants(runs: list[SiblingRun], target: int = PUBLISHED_EXAMINED,
                     count: int = 3) -> list[tuple[int, str, SiblingRun]]:
    """The ``count`` runs whose node count (root included or not) lies nearest ``target``:
    (distance, what was counted, run), nearest first; a run that differs from an earlier
    one only in its fail mode, with the same count, is listed once."""
    found, seen = [], set()
    for run in runs:
        if (run.order, run.window, run.nodes) in seen:  # fail-hard counted like fail-soft
            continue
        seen.add((run.order, run.window, run.nodes))
        for what, nodes in (("nodes", run.nodes), ("below the root", run.below_root)):
            found.append((abs(nodes - target), what, run))
    found.sort(key=lambda item: (item[0], item[1], item[2].order, item[2].window, item[2].fail))
    return found[:count]
