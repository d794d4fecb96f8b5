"""How many positions and games tic-tac-toe has, each figure computed from the rules.

Two different routes lead to every headline figure, and the tests check they agree:
positions by breadth-first search from the empty board *and* by filtering all 3^9 raw boards;
games by counting paths with memoisation *and* by walking the whole tree; symmetry classes
by canonical keys *and* by Burnside's lemma (the average number of fixed points).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from functools import lru_cache
from itertools import product

from ..boards import BitBoard
from ..boards.tictactoe import check_position, parse_player
from ..errors import InvalidBoardError
from ..game import Game, reachable, walk
from ..symmetry import PERMUTATIONS, transform

RESULT_NAMES = {1: "x_wins", -1: "o_wins", 0: "draws"}


def raw_boards() -> int:
    """Ways to fill 9 cells with X, O or empty, legal or not."""
    return sum(1 for _ in product(range(3), repeat=9))


def positions(first="X") -> dict[Hashable, BitBoard]:
    """Every position reachable from the empty board, by key (breadth-first search)."""
    return reachable(BitBoard(first))


def positions_by_filtering(first="X") -> list[tuple[int, ...]]:
    """The same positions found the other way: every raw board that passes the validity rules."""
    opener = parse_player(first)
    legal = []
    for cells in product(range(3), repeat=9):
        try:
            check_position(cells, opener)
        except InvalidBoardError:
            continue
        legal.append(cells)
    return legal


def position_counts(first="X") -> dict:
    """Reachable positions: total, up to symmetry, terminal (both ways), by number of marks."""
    states = list(positions(first).values())
    terminal = [s for s in states if s.is_terminal()]
    by_marks = Counter(len(s.cells()) - s.cells().count(0) for s in states)
    return {
        "total": len(states),
        "up_to_symmetry": len({s.canonical_key() for s in states}),
        "terminal": len(terminal),
        "terminal_up_to_symmetry": len({s.canonical_key() for s in terminal}),
        "by_marks": {str(m): by_marks[m] for m in sorted(by_marks)},
    }


def orbits_by_burnside(cell_tuples) -> int:
    """Symmetry classes of a set of positions closed under symmetry, by Burnside's lemma:
    the number of classes is the average, over the 8 symmetries, of the positions each fixes."""
    cell_tuples = list(cell_tuples)
    fixed = sum(1 for p in PERMUTATIONS for cells in cell_tuples if transform(cells, p) == cells)
    assert fixed % len(PERMUTATIONS) == 0
    return fixed // len(PERMUTATIONS)


def game_counts(first="X") -> dict:
    """Complete games (move sequences to a win or a full board) by length and result,
    counted as paths through the positions; and the same up to symmetry."""
    table = _paths_by_length_and_result(BitBoard(first), {}, canonical=False)
    table_sym = _paths_by_length_and_result(BitBoard(first), {}, canonical=True)
    return {
        "total": sum(table.values()),
        "up_to_symmetry": sum(table_sym.values()),
        **{name: sum(n for (_, r), n in table.items() if r == result)
           for result, name in RESULT_NAMES.items()},
        "by_length": _by_length(table),
        "up_to_symmetry_by_length": _by_length(table_sym),
    }


def _by_length(table: Counter) -> dict:
    lengths = sorted({length for length, _ in table})
    return {str(n): {name: table[(n, r)] for r, name in RESULT_NAMES.items()} for n in lengths}


def _paths_by_length_and_result(state: Game, memo: dict, canonical: bool) -> Counter:
    """Counter {(length, result): games} of the games continuing from ``state``.

    With ``canonical``, children that are symmetric images of each other count once, which
    counts games up to symmetry (the usual convention for the figure 26,830).
    """
    key = state.canonical_key() if canonical else state.key()
    if key in memo:
        return memo[key]
    if state.is_terminal():
        marks = sum(1 for digit in state.cells() if digit)
        result = Counter({(marks, state.utility()): 1})
    else:
        result = Counter()
        children = [state.play(m) for m in state.moves()]
        if canonical:
            children = list({c.canonical_key(): c for c in children}.values())
        for child in children:
            result.update(_paths_by_length_and_result(child, memo, canonical))
    memo[key] = result
    return result


def games_by_walking(state: Game | None = None) -> Counter:
    """Games counted the slow, direct way: visit every leaf of the full tree."""
    state = BitBoard() if state is None else state
    return Counter(leaf.utility() for leaf in walk(state) if leaf.is_terminal())


def tree_nodes(state: Game | None = None) -> int:
    """Nodes of the full game tree (the empty board included), counted through the positions:
    a position's subtree has itself plus its children's subtrees."""
    state = BitBoard() if state is None else state

    @lru_cache(maxsize=None)
    def size(key):
        node = states[key]
        return 1 + sum(size(node.play(m).key()) for m in node.moves())

    states = reachable(state)
    return size(state.key())


def all_counts(first="X") -> dict:
    """Everything above as one JSON-ready dict (what ``python -m ttt_lib count --json`` prints)."""
    return {
        "raw_boards": raw_boards(),
        "tree_nodes": tree_nodes(BitBoard(first)),
        "positions": position_counts(first),
        "games": game_counts(first),
    }
