"""The node-count table: every exact search from the empty board, side by side.

``nodes_report()`` runs each variant once from the empty board and records its value, its
best moves, and its work (nodes, leaves, cut-offs, table hits, PVS re-searches); the rows go
from plain minimax through each speed-up on its own to the best combination.
``nodes_report(first_move=True, opener="O")`` instead runs the naive per-child driver of the
classic blog (see ``firstmove``) and sets its published counts beside ours.
"""
from __future__ import annotations

from collections.abc import Callable

from ..boards import BitBoard
from ..game import MAX, Game
from ..search.alphabeta import alphabeta
from ..search.minimax import minimax, move_values, negamax, solve
from ..search.pvs import pvs
from ..search.watch import QUIET, Stats, Watch
from .firstmove import PUBLISHED_FIRST_MOVE, SOURCE, VARIANTS, first_move
from .minimal_proof import minimal_proof

Search = Callable[..., float]


def negamax_for_x(state: Game, watch: Watch = QUIET) -> float:
    return state.to_move * negamax(state, watch)


def memo_for_x(state: Game, watch: Watch = QUIET) -> float:
    return solve(state, {}, watch=watch)


# name, search (returns X's value; takes ``watch=``), options
SEARCHES: list[tuple[str, Search, dict]] = [
    ("minimax", minimax, {}),
    ("negamax", negamax_for_x, {}),
    ("negamax + memo", memo_for_x, {}),
    ("alpha-beta (max/min)", alphabeta, {"form": "maxmin"}),
    ("alpha-beta (negamax)", alphabeta, {}),
    ("alpha-beta fail-hard", alphabeta, {"fail": "hard"}),
    ("alpha-beta, window (-1, 1)", alphabeta, {"alpha": -1, "beta": 1}),
    ("alpha-beta + table", alphabeta, {"table": True}),
    ("alpha-beta + symmetric table", alphabeta, {"symmetry": True}),
    ("alpha-beta + heuristic order", alphabeta, {"ordering": "heuristic"}),
    ("alpha-beta + threat order", alphabeta, {"ordering": "threats"}),
    ("alpha-beta + killers", alphabeta, {"killers": True}),
    ("PVS", pvs, {}),
    ("PVS + heuristic order", pvs, {"ordering": "heuristic"}),
    ("sym. table + threats + killers", alphabeta,
     {"symmetry": True, "ordering": "threats", "killers": True}),
    ("sym. table + heuristic order", alphabeta, {"symmetry": True, "ordering": "heuristic"}),
    ("sym. table + heuristic, (-1, 1)", alphabeta,
     {"symmetry": True, "ordering": "heuristic", "alpha": -1, "beta": 1}),
]

COLUMNS = ("nodes", "leaves", "cutoffs", "table_hits", "researches")


def optimal_moves(state: Game, values: dict) -> list:
    """The moves whose value (for X) is best for the player to move, sorted."""
    target = (max if state.to_move == MAX else min)(values.values())
    return sorted(move for move, value in values.items() if value == target)


def search_row(name: str, search: Search, options: dict, state: Game) -> dict:
    """One variant's value, best moves and work from ``state``.

    The counts are those of the one search for the value; the best moves come from a
    second, uncounted pass that searches each move's position with the same variant.
    """
    stats = Stats()
    value = search(state, watch=stats, **options)
    child_options = {k: v for k, v in options.items() if k not in ("alpha", "beta")}
    values = move_values(state, value_of=search, **child_options)
    return {"name": name, "value": value, "best_moves": optimal_moves(state, values),
            **stats.as_dict()}


def nodes_report(first_move: bool = False, opener: str = "X") -> dict:
    """Every variant's value, best moves and work from the empty board, as plain data."""
    if first_move:
        return first_move_report(opener)
    if opener not in ("X", "O"):
        raise ValueError(f"the opener is 'X' or 'O', not {opener!r}")
    state = BitBoard(opener)
    report = {"position": state.to_text(), "opener": opener, "first_move": False,
              "variants": [search_row(name, search, options, state)
                           for name, search, options in SEARCHES]}
    if opener == "X":
        report["minimal_proof"] = minimal_proof()
    return report


def format_minimal_proof(proof: dict) -> list[str]:
    """The smallest proof of the draw beside our best search, as report lines."""
    size = f"{proof['nodes']:,} nodes"
    if proof["proven"]:
        known = "proven minimal"
    else:
        known = (f"the smallest found in {proof['branches']:,} branches; "
                 f"no proof has fewer than {proof['lower_bound']:,}")
    return [f"Smallest proof of the draw (both sides hold it; symmetric positions and "
            f"transpositions counted once): {size} ({known})",
            f"Our best search (alpha-beta + symmetric table + heuristic order): "
            f"{proof['best_search']:,} nodes = {proof['ratio']:.2f}x that proof"]


def first_move_report(opener: str = "O") -> dict:
    """The naive per-child driver's first move, each variant, beside the published counts."""
    state = BitBoard(opener)
    rows = []
    for variant in VARIANTS:
        result = first_move(state, variant)
        rows.append({"name": variant, "value": result.value, "best_moves": result.best_moves,
                     **result.stats.as_dict(),
                     "published": PUBLISHED_FIRST_MOVE[variant] if opener == "O" else None})
    return {"position": state.to_text(), "opener": opener, "first_move": True,
            "source": SOURCE, "variants": rows}


def table_row(report: dict, row: dict) -> list[str]:
    """One variant's cells in the printed table."""
    cells = [row["name"], f"{row['value']:g}", ",".join(map(str, row["best_moves"])),
             *(f"{row[column]:,}" for column in COLUMNS)]
    if report["first_move"]:
        cells.append(f"{row['published']:,}" if row["published"] is not None else "-")
    return cells


def format_nodes_report(report: dict) -> str:
    """The report as an aligned text table."""
    published = report["first_move"]
    header = ["variant", "value", "best moves", "nodes", "leaves", "cut-offs", "table hits",
              "re-searches"] + (["published"] if published else [])
    lines = [table_row(report, row) for row in report["variants"]]
    widths = [max(len(cells[i]) for cells in [header] + lines) for i in range(len(header))]

    def fmt(cells: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths))).rstrip()

    title = (f"First move of the naive per-child driver, {report['opener']} opens "
             f"(the position itself not counted)" if published
             else f"Exact search from the empty board, {report['opener']} to move")
    text = [title, "", fmt(header), fmt(["-" * w for w in widths])] + [fmt(l) for l in lines]
    if published:
        text += ["", f"published: {report['source']}"
                     + ("" if report["opener"] == "O" else " (O opens there)")]
    return "\n".join(text)
