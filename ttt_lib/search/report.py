"""The rows a search module offers the node-count report, each placed after the row it follows.

A module lists its rows in ``REPORT_ROWS``; ``ttt_lib.studies.nodes.report_rows()`` collects
every module's and puts them in order with ``report_order``: no row has a number, each names
the row it comes after (the first row names none), so a new search adds its rows after the
last one without touching any other module.
"""
from __future__ import annotations

from dataclasses import dataclass


class ReportOrderError(ValueError):
    """The rows' ``after`` names do not make one line: a name unknown or given twice, two
    rows after the same one, or a circle."""


@dataclass(frozen=True)
class ReportRow:
    """One row of the node-count report (``ttt_lib.studies.nodes``).

    ``search(state, **options)`` is called on the position and counted from outside
    (``count_nodes``); ``after`` names the row this one follows (None: the first row);
    ``view`` says whose value it returns: "x" (X's) or "mover" (the player to move's,
    turned into X's by the report).
    """

    name: str
    search: object
    options: dict
    after: str | None
    view: str = "x"


def report_order(rows: list[ReportRow]) -> list[ReportRow]:
    """``rows`` in the report's order: the first row (``after=None``), then the row that
    names it, and so on. The rows make one line: a row named by two others is refused (one
    of the two must name the other), as is an ``after`` that names no row."""
    check_names(rows)
    follower: dict[str | None, ReportRow] = {}
    for row in rows:
        if row.after in follower:
            where = "first" if row.after is None else f"after {row.after!r}"
            raise ReportOrderError(f"report rows {follower[row.after].name!r} and {row.name!r} "
                                   f"both come {where}: let one name the other")
        follower[row.after] = row
    ordered, name = [], None
    while name in follower:
        ordered.append(follower[name])
        name = ordered[-1].name
    if len(ordered) < len(rows):
        lost = sorted({r.name for r in rows} - {r.name for r in ordered})
        raise ReportOrderError(f"report rows {lost} follow each other in a circle")
    return ordered


def check_names(rows: list[ReportRow]) -> None:
    """Every row's name is its own, and every ``after`` names a row."""
    names = [row.name for row in rows]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ReportOrderError(f"two report rows are called {twice[0]!r}")
    for row in rows:
        if row.after is not None and row.after not in names:
            raise ReportOrderError(f"report row {row.name!r} comes after {row.after!r}, "
                                   f"which is no row's name")
