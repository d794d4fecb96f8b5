"""The sources' slips, computed: tree nodes against 9!, and the sibling-symmetry alpha-beta
behind "3,025 non-isomorphic states", each count checked by an independent route."""
from __future__ import annotations

import math
from itertools import permutations

import pytest

from ttt_lib import BitBoard
from ttt_lib.studies import counting
from ttt_lib.studies.slips import (ORDERS, PUBLISHED_EXAMINED, WINDOWS, bound_table,
                                   closest_variants, distinct_children, sequences_by_depth,
                                   sibling_symmetry_search, sibling_variants,
                                   tree_nodes_by_depth)
from ttt_lib.symmetry import SYMMETRIES

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(cells: list) -> bool:
    return any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in LINES)


def walk_by_depth(cells: list, player: int, depth: int, counts: list) -> None:
    """Every node of the tree, on a plain list, with its own win test."""
    counts[depth] += 1
    if won(cells) or all(cells):
        return
    for cell in range(9):
        if not cells[cell]:
            cells[cell] = player
            walk_by_depth(cells, -player, depth + 1, counts)
            cells[cell] = 0


def test_sequences_by_depth_count_the_prefixes_of_9_move_sequences():
    by_enumeration = [sum(1 for _ in permutations(range(9), k)) for k in range(10)]
    assert sequences_by_depth() == by_enumeration
    assert by_enumeration[9] == math.factorial(9)       # 9! counts the leaves only
    assert sum(by_enumeration) > math.factorial(9)


def test_tree_nodes_by_depth_agree_with_a_walk_of_the_whole_tree():
    counts = [0] * 10
    walk_by_depth([0] * 9, 1, 0, counts)
    assert tree_nodes_by_depth() == counts
    assert sum(counts) == counting.tree_nodes()


def test_the_bound_nodes_at_most_9_factorial_fails():
    rows = bound_table()
    assert rows[-1]["nodes_total"] == sum(tree_nodes_by_depth()) > math.factorial(9)
    assert rows[-1]["sequences_total"] == sum(sequences_by_depth())
    first_over = next(row["depth"] for row in rows if row["nodes_total"] > math.factorial(9))
    assert 0 < first_over <= 9
    assert all(row["nodes"] <= row["sequences"] for row in rows)  # wins only remove nodes


# ------------------------------------------- an independent sibling-symmetry alpha-beta

def canonical(cells: tuple) -> tuple:
    return min(tuple(cells[p[i]] for i in range(9)) for p in SYMMETRIES.values())


def count_nodes(cells: list, player: int, alpha: float, beta: float, order: list,
                counter: list) -> float:
    """Negamax alpha-beta on a plain list, children symmetric to an earlier sibling skipped;
    ``counter[0]`` counts the nodes entered. The value is for ``player``, the one to move."""
    counter[0] += 1
    if won(cells):
        return -1  # the previous player completed a line
    if all(cells):
        return 0
    best, seen = -math.inf, set()
    for cell in order:
        if cells[cell]:
            continue
        cells[cell] = player
        key = canonical(tuple(cells))
        if key not in seen:
            seen.add(key)
            value = -count_nodes(cells, -player, -beta, -alpha, order, counter)
            best, alpha = max(best, value), max(alpha, value)
        cells[cell] = 0
        if alpha >= beta:
            break
    return best


STATIC = {"natural": list(range(9)), "centre, corners, edges": [4, 0, 2, 6, 8, 1, 3, 5, 7],
          "corners, edges, centre": [0, 2, 6, 8, 1, 3, 5, 7, 4],
          "edges, corners, centre": [1, 3, 5, 7, 0, 2, 6, 8, 4]}


@pytest.mark.parametrize("window", list(WINDOWS))
@pytest.mark.parametrize("order", list(STATIC))
def test_sibling_search_counts_what_an_independent_search_counts(order, window):
    counter = [0]
    value = count_nodes([0] * 9, 1, *WINDOWS[window], STATIC[order], counter)
    for fail in ("soft", "hard"):
        run = sibling_symmetry_search(order=order, window=window, fail=fail)
        assert (run.value, run.nodes) == (value, counter[0])
        assert run.leaves < run.nodes and run.below_root == run.nodes - 1


def test_sibling_search_enters_fewer_classes_than_exist_yet_more_nodes_than_classes():
    run = sibling_symmetry_search()
    classes = len({b.canonical_key() for b in counting.positions().values()})
    assert run.classes < classes < run.nodes


def test_distinct_children_keeps_the_first_move_into_each_class():
    keep = distinct_children()
    assert keep(BitBoard(), BitBoard().moves()) == [0, 1, 4]
    after_centre = BitBoard().play(4)
    assert keep(after_centre, after_centre.moves()) == [0, 1]
    reverse = distinct_children(lambda state, moves: list(reversed(moves)))
    assert reverse(BitBoard(), BitBoard().moves()) == [8, 7, 4]


def test_every_variant_finds_the_draw_and_closest_variants_rank_by_distance():
    runs = sibling_variants()
    assert len(runs) == len(ORDERS) * len(WINDOWS) * 2
    assert {run.value for run in runs} == {0}
    nearest = closest_variants(runs, count=4)
    distances = [d for d, _, _ in nearest]
    assert distances == sorted(distances)
    every = [abs(n - PUBLISHED_EXAMINED) for run in runs for n in (run.nodes, run.below_root)]
    assert distances[0] == min(every)
    exact = closest_variants(runs, target=runs[0].nodes, count=1)
    assert exact[0][0] == 0 and exact[0][2].nodes == runs[0].nodes
