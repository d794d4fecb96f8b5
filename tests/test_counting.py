"""Counting figures against the literature and against a second, independent computation."""
from collections import Counter
from math import factorial

from ttt_lib.studies.counting import (all_counts, games_by_walking, orbits_by_burnside,
                                      positions_by_filtering, raw_boards, tree_nodes)
from ttt_lib.game import count_tree
from ttt_lib import BitBoard

LITERATURE = {"positions": 5478, "up_to_symmetry": 765, "terminal": 958,
              "terminal_up_to_symmetry": 138, "games": 255168, "games_up_to_symmetry": 26830,
              "x_wins": 131184, "o_wins": 77904, "draws": 46080, "tree_nodes": 549946}


def test_figures_match_the_literature():
    counts = all_counts()
    assert counts["raw_boards"] == 3 ** 9
    assert counts["tree_nodes"] == LITERATURE["tree_nodes"]
    pos, games = counts["positions"], counts["games"]
    assert pos["total"] == LITERATURE["positions"]
    assert pos["up_to_symmetry"] == LITERATURE["up_to_symmetry"]
    assert pos["terminal"] == LITERATURE["terminal"]
    assert pos["terminal_up_to_symmetry"] == LITERATURE["terminal_up_to_symmetry"]
    assert games["total"] == LITERATURE["games"]
    assert games["up_to_symmetry"] == LITERATURE["games_up_to_symmetry"]
    assert (games["x_wins"], games["o_wins"], games["draws"]) == (
        LITERATURE["x_wins"], LITERATURE["o_wins"], LITERATURE["draws"])
    assert sum(pos["by_marks"].values()) == pos["total"]
    assert games["by_length"]["5"]["x_wins"] == 1440
    assert games["by_length"]["9"]["draws"] == 46080


def test_positions_by_filtering_agree_with_search(all_bitboards):
    filtered = positions_by_filtering()
    assert sorted(filtered) == sorted(b.cells() for b in all_bitboards)
    assert raw_boards() == 19683


def test_symmetry_classes_by_burnside(all_bitboards):
    cells = [b.cells() for b in all_bitboards]
    assert orbits_by_burnside(cells) == 765
    terminal = [b.cells() for b in all_bitboards if b.is_terminal()]
    assert orbits_by_burnside(terminal) == 138


def test_games_by_walking_every_leaf():
    by_result = games_by_walking()
    assert by_result == Counter({1: 131184, -1: 77904, 0: 46080})
    assert sum(by_result.values()) < factorial(9)


def test_tree_nodes_two_ways():
    assert tree_nodes() == count_tree(BitBoard()) == 549946


def test_games_up_to_symmetry_by_canonical_walk():
    """Walk the tree expanding one child per symmetry class, without memoisation."""
    def games(state):
        if state.is_terminal():
            return 1
        children = {}
        for move in state.moves():
            child = state.play(move)
            children.setdefault(child.canonical_key(), child)
        return sum(games(c) for c in children.values())
    assert games(BitBoard()) == 26830
