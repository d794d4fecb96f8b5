"""The node-count table: every exact search from the empty board, side by side.

``nodes_report()`` runs each variant once from the empty board and records its value, its
best moves, and its work (nodes, leaves, cut-offs, table hits, PVS re-searches); the rows go
from plain minimax through each speed-up on its own to the best combination.
``nodes_report(first_move=True, opener="O")`` instead runs the naive per-child driver of the
classic blog (see ``firstmove``) and sets its published counts beside ours.
"""
from __future__ import annotations

import importlib
import inspect
import json
import pkgutil

from .. import search as search_package
from ..boards import BitBoard
from ..game import MAX, Game
from ..search.exact import move_values
from ..errors import SearchOptionError
from ..search.observe import count_nodes_in_form
from ..search.report import ReportRow, report_order
from ..search.trace import Stats
from .firstmove import PUBLISHED_FIRST_MOVE, SOURCE, VARIANTS, first_move
from .draw_proof import minimal_proof

COLUMNS = ("nodes", "leaves", "cutoffs", "table_hits", "researches")
# the library's own report by (opener, its rows), as JSON: every count in it is deterministic,
# so a process counts them once (the notebook, the CLI and the tests ask again)
_LIBRARY_REPORTS: dict[tuple, str] = {}


def report_rows() -> list[ReportRow]:
    """Every search module's ``REPORT_ROWS``, each right after the row it names
    (``report_order``): a new search module with rows appears here without any other file
    changed."""
    rows = []
    for module in pkgutil.iter_modules(search_package.__path__):
        found = importlib.import_module(f"{search_package.__name__}.{module.name}")
        rows += getattr(found, "REPORT_ROWS", [])
    return report_order(rows)


def row_named(name: str) -> ReportRow:
    """The report row called ``name``."""
    for row in report_rows():
        if row.name == name:
            return row
    raise ValueError(f"no report row is called {name!r}")


def row_of(spec: str, view: str = "x") -> ReportRow:
    """A report row for any search function, named ``"module:function"`` (the module
    imported by its dotted name); ``view`` says whose value it returns ("x" or "mover")."""
    module_name, colon, name = spec.partition(":")
    if not colon or not module_name or not name.isidentifier():
        raise ValueError(f"a search is named module:function (e.g. ttt_lib.search.exact:minimax), "
                         f"not {spec!r}")
    if view not in ("x", "mover"):
        raise ValueError(f"view is 'x' or 'mover', not {view!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import the module {module_name!r} of {spec!r}: {error}") from None
    search = getattr(module, name, None)
    if not callable(search):
        raise ValueError(f"{module_name} has no function {name!r}")
    return ReportRow(spec, search, {}, after=None, view=view)


def x_value(row: ReportRow, state: Game, **options) -> float:
    """``row``'s search of ``state``, uncounted, as X's value."""
    value = row.search(state, **options)
    return state.to_move * value if row.view == "mover" else value


def counted_search(row: ReportRow, state: Game) -> tuple[float, Stats]:
    """X's value of ``state`` by ``row``'s search, and its work as the observer saw it: by
    the search's own ``stats=`` if it has one (which watches the recursion inside a
    driver), else by ``count_nodes``. A search that shows as one node from a position with
    moves made no call the observer could see: it is refused, never reported as 1 node."""
    if "stats" in inspect.signature(row.search).parameters:
        stats = Stats()
        value = row.search(state, stats=stats, **row.options)
    else:
        value, stats, form = count_nodes_in_form(row.search, state, **row.options)
        check_view(row, form)
    if stats.nodes + stats.table_hits <= 1 and not state.is_terminal():
        raise ReportRowError(
            f"report row {row.name!r}: {getattr(row.search, '__qualname__', row.search)} "
            f"showed as one node: the observer saw no recursive call; give the row the "
            f"function that recurses, or a search taking stats=")
    return (state.to_move * value if row.view == "mover" else value), stats


class ReportRowError(ValueError):
    """A report row whose work the observer could not see."""


VIEWS = {"x": ("X's values", "maxmin"), "mover": ("the player to move's values", "negamax")}


def check_view(row: ReportRow, form: str | None) -> None:
    """Refuse a row whose stated ``view`` contradicts the form its search was seen in (a
    negamax search reported as X's values would be flipped silently at O's turn)."""
    said, expected = VIEWS[row.view]
    if form is not None and form != expected:
        other = next(view for view, (_, f) in VIEWS.items() if f == form)
        raise SearchOptionError(
            f"the report row {row.name!r} says its search returns {said} (view={row.view!r}),"
            f" but the search was seen written in {form} form: give the row view={other!r}")


def optimal_moves(state: Game, values: dict) -> list:
    """The moves whose value (for X) is best for the player to move, sorted."""
    target = (max if state.to_move == MAX else min)(values.values())
    return sorted(move for move, value in values.items() if value == target)


def search_row(row: ReportRow, state: Game) -> dict:
    """One variant's value, best moves and work from ``state``.

    The counts are those of the one search for the value; the best moves come from a
    second, uncounted pass that searches each move's position with the same variant.
    """
    value, stats = counted_search(row, state)
    child_options = {k: v for k, v in row.options.items() if k not in ("alpha", "beta")}
    values = move_values(state, value_of=lambda child: x_value(row, child, **child_options))
    return {"name": row.name, "value": value, "best_moves": optimal_moves(state, values),
            **stats.as_dict()}


def nodes_report(first_move: bool = False, opener: str = "X",
                 rows: list[ReportRow] | None = None) -> dict:
    """Every variant's value, best moves and work from the empty board, as plain data
    (``rows``: these rows only, e.g. ``[row_of("my_module:my_search")]``)."""
    if first_move:
        return first_move_report(opener)
    if opener not in ("X", "O"):
        raise ValueError(f"the opener is 'X' or 'O', not {opener!r}")
    if rows is None:  # the library's own rows: counted once per process, a fresh copy each time
        found = report_rows()
        key = (opener, tuple((row.name, row.search, repr(row.options)) for row in found))
        if key not in _LIBRARY_REPORTS:
            _LIBRARY_REPORTS[key] = json.dumps(_report(opener, found, proof=opener == "X"))
        return json.loads(_LIBRARY_REPORTS[key])
    return _report(opener, rows)


def _report(opener: str, rows: list[ReportRow], proof: bool = False) -> dict:
    """``rows``' report from the empty board (with the smallest proof beside it if ``proof``)."""
    state = BitBoard(opener)
    report = {"position": state.to_text(), "opener": opener, "first_move": False,
              "variants": [search_row(row, state) for row in rows]}
    if proof:
        report["minimal_proof"] = beside_best_variant(minimal_proof(), report["variants"])
    return report


def beside_best_variant(proof: dict, variants: list[dict]) -> dict:
    """The proof's figures with ``best_search`` read from the table: the variant with the
    fewest nodes (its name in ``best_search_name``) and the ratio to the proof."""
    best = min(variants, key=lambda row: row["nodes"])
    return {**proof, "best_search": best["nodes"], "best_search_name": best["name"],
            "ratio": best["nodes"] / proof["nodes"]}


def format_minimal_proof(proof: dict) -> list[str]:
    """The smallest proof of the draw beside our best search, as report lines."""
    size = f"{proof['nodes']:,} nodes"
    name = proof.get("best_search_name", "alpha-beta + symmetric table + heuristic order")
    if proof["proven"]:
        known = "proven minimal"
    else:
        known = (f"the smallest found in {proof['branches']:,} branches; "
                 f"no proof has fewer than {proof['lower_bound']:,}")
    return [f"Smallest proof of the draw (both sides hold it; symmetric positions and "
            f"transpositions counted once): {size} ({known})",
            f"Our best search ({name}): {proof['best_search']:,} nodes = "
            f"{proof['ratio']:.2f}x that proof"]


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
