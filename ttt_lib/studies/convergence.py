"""Do MCTS's move values converge? MCTS's estimates against the exact minimax values."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..boards.bit import BitBoard
from ..game import Game
from ..search.monte_carlo import SQRT2, MCTSTree
from ..search.exact import move_values as exact_move_values

STUDY_POSITIONS: tuple[str, ...] = (
    ".../.../...",  # the opening: every move draws
    "X../.O./..X",  # O must take an edge; a corner loses
    "XO./.../...",  # X to move has a forced win
)
STUDY_BUDGETS: tuple[int, ...] = (10, 30, 100, 300, 1000, 3000, 10000)


def convergence_study(positions: Iterable[Game | str] = STUDY_POSITIONS,
                      budgets: Sequence[int] = STUDY_BUDGETS, *, seed: int = 0,
                      c: float = SQRT2, shared: bool = False) -> list[dict]:
    """MCTS's move values against the exact minimax values as the playouts grow.

    One tree per position grows through the sorted ``budgets``; at each budget a row records
    every move's estimated and exact value (for X) and visits, the mean absolute error over
    the visited moves, and whether the most visited moves are all optimal. Plain data, ready
    to plot.
    """
    rows = []
    for position in positions:
        state = BitBoard.from_text(position) if isinstance(position, str) else position
        exact = exact_move_values(state)
        best = max(exact.values()) if state.to_move > 0 else min(exact.values())
        tree, done = MCTSTree(state, c=c, shared=shared, seed=seed), 0
        for budget in sorted(budgets):
            tree.run(budget - done)
            done = budget
            rows.append(_study_row(state, tree, budget, exact, best))
    return rows


def _study_row(state: Game, tree: MCTSTree, budget: int, exact: dict, best: float) -> dict:
    """One row of the study: the tree's estimates after ``budget`` playouts."""
    estimates = tree.move_values()
    errors = [abs(v - exact[m]) for m, v in estimates.items() if v is not None]
    return {
        "position": state.to_text(),
        "playouts": budget,
        "estimates": estimates,
        "visits": {row.move: row.visits for row in tree.children()},
        "exact": exact,
        "error": sum(errors) / len(errors) if errors else None,
        "best_is_optimal": all(exact[m] == best for m in tree.most_visited()),
    }
