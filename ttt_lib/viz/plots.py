"""Plots of the course's measurements: node counts per search variant, MCTS estimates closing
in on the exact values, tournament results. Each takes rows of plain dicts."""
from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import StrMethodFormatter

from ..game import player_name
from .mcts import check_view, mover_reward
from .describe import describe_convergence, describe_counts, describe_tournament
from .picture import Picture
from .style import (BAR_COLOUR, DRAW_COLOUR, EDGE_COLOUR, INK, LOSS_COLOUR, O_COLOUR,
                    OUTCOME_COLOURS, OUTCOME_HATCHES, OUTCOME_LINES, OUTCOME_MARKERS, WHITE,
                    WIN_COLOUR, X_COLOUR)
from .trees import as_state


def plot_node_counts(rows, *, value: str = "nodes", name: str = "name", log: bool = False,
                     title: str | None = "Nodes searched") -> Picture:
    """A bar per search variant: ``rows`` are dicts with ``name`` and ``nodes`` (or
    ``{variant: nodes}``), drawn top to bottom in the given order with the counts written."""
    rows = _rows(rows)
    if not rows:
        raise ValueError("plot_node_counts needs at least one row")
    for row in rows:
        if name not in row or value not in row:
            raise ValueError(f"each row needs {name!r} and {value!r}; got {sorted(row)}")
    counts = [row[value] for row in rows]
    figure = Figure(figsize=(7, 0.42 * len(rows) + 1.2))
    ax = figure.add_subplot()
    ys = list(range(len(rows)))[::-1]
    ax.barh(ys, counts, color=BAR_COLOUR, height=0.6)
    ax.set_yticks(ys, [str(row[name]) for row in rows])
    for y, count in zip(ys, counts):
        ax.text(count, y, f" {count:,}", va="center", ha="left", fontsize=9)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(right=max(counts) * 6)
    else:
        ax.set_xlim(0, max(counts) * 1.2)
        ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.set_xlabel(value + (" (log scale)" if log else ""))
    if title:
        ax.set_title(title)
    _tidy(ax)
    figure.tight_layout()
    names = [str(row[name]) for row in rows]
    return Picture(figure, *describe_counts(names, counts, value, log, title))


def plot_mcts_convergence(rows, *, title: str | None = None, view: str = "x") -> Picture:
    """MCTS's estimate of each move against the playouts, one panel per position, from the
    rows of ``ttt_lib.studies.convergence.convergence_study``.

    With ``view="x"`` the values are X's (exact +1, 0, -1); with ``view="mover"`` they are
    the rewards in [0, 1] of the position's player to move (exact 1, 1/2, 0). Each move's
    line is coloured by its exact outcome (green solid with upward triangles for wins, grey
    dash-dotted with circles for draws, vermillion dotted with downward triangles for losses;
    for X or for the player to move) and the exact values are dashed, so the estimates can
    be seen closing in.
    """
    check_view(view)
    rows = _rows(rows)
    if not rows:
        raise ValueError("plot_mcts_convergence needs at least one row")
    missing = {"position", "playouts", "estimates", "exact"} - set(rows[0])
    if missing:
        raise ValueError(f"rows come from convergence_study; these lack {sorted(missing)}")
    positions = list(dict.fromkeys(row["position"] for row in rows))
    figure = Figure(figsize=(4.2 * len(positions) + 0.4, 3.8))
    axes = figure.subplots(1, len(positions), squeeze=False, sharey=True)[0]
    panels = {}
    for ax, position in zip(axes, positions):
        to_move = as_state(position).to_move if view == "mover" else None
        panels[position] = _convergence_panel(
            ax, [row for row in rows if row["position"] == position], to_move)
        name = "" if to_move is None else f" ({player_name(to_move)} to move)"
        ax.set_title(position + name, fontsize=10, family="DejaVu Sans Mono")
    axes[0].set_ylabel(_CONVERGENCE_LABELS[view][0])
    axes[0].legend(handles=[_outcome_handle(value, label)
                            for label, value in _CONVERGENCE_LABELS[view][1]],
                   fontsize=7, loc="lower left" if view == "x" else "lower right", frameon=False)
    figure.suptitle(title or _CONVERGENCE_LABELS[view][2], fontsize=11)
    figure.tight_layout()
    return Picture(figure, *describe_convergence(panels, _CONVERGENCE_LABELS[view][0]))


def _outcome_handle(outcome: int, label: str) -> Line2D:
    """A legend entry: the outcome's colour, line style and marker."""
    return Line2D([], [], color=OUTCOME_COLOURS[outcome], linestyle=OUTCOME_LINES[outcome],
                  marker=OUTCOME_MARKERS[outcome], markersize=4, label=label)


_CONVERGENCE_LABELS = {  # view: y label, legend (label, outcome for the view), title
    "x": ("estimated value for X",
          (("X wins (exact +1)", 1), ("draw (exact 0)", 0), ("O wins (exact −1)", -1)),
          "MCTS estimates (lines with markers) against exact values (dashed)"),
    "mover": ("estimated reward for the player to move",
              (("win (exact 1)", 1), ("draw (exact ½)", 0), ("loss (exact 0)", -1)),
              "MCTS estimates (lines with markers) against exact values (dashed), "
              "as rewards of the player to move"),
}


def _convergence_panel(ax, rows: list[dict], to_move: int | None = None) -> list[tuple]:
    """One position: a line of estimates per move, and the exact values dashed; X's values,
    or with ``to_move`` the rewards in [0, 1] of that player. Each line's style and marker
    say its exact outcome as its colour does; its move is written at its end, the labels
    spread apart so none overlaps. Returns (move, playouts, last estimate, exact) per line."""
    def shown(value):
        return value if to_move is None or value is None else mover_reward(value, to_move)

    sign = 1 if to_move is None else to_move  # exact * sign: +1 a win for the view
    rows = sorted(rows, key=lambda row: row["playouts"])
    exact = rows[0]["exact"]
    for value in sorted(set(exact.values())):
        ax.axhline(shown(value), color=OUTCOME_COLOURS.get(value * sign, INK),
                   linestyle="--", linewidth=0.8, alpha=0.8)
    ends = []
    for move, value in exact.items():
        points = [(row["playouts"], shown(row["estimates"].get(move))) for row in rows]
        points = [(n, v) for n, v in points if v is not None]
        if points:
            outcome = value * sign
            ax.plot([n for n, _ in points], [v for _, v in points],
                    marker=OUTCOME_MARKERS.get(outcome, "o"), markersize=3,
                    linestyle=OUTCOME_LINES.get(outcome, "-"), linewidth=1.2,
                    color=OUTCOME_COLOURS.get(outcome, INK))
            ends.append((move, *points[-1], shown(value), outcome))
    span = 2.16 if to_move is None else 1.08
    for (move, n, v, _, outcome), y in zip(ends, _spread([end[2] for end in ends], span / 22)):
        ax.annotate(str(move), (n, v), xytext=(n * 1.25, y), textcoords="data", fontsize=7,
                    va="center", color=INK, arrowprops={"arrowstyle": "-", "lw": 0.4,
                                                        "color": EDGE_COLOUR})
    ax.set_xscale("log")
    ax.set_xlim(right=max(end[1] for end in ends) * 2.2 if ends else None)
    ax.set_ylim((-1.08, 1.08) if to_move is None else (-0.04, 1.04))
    ax.set_xlabel("playouts")
    _tidy(ax)
    return [(move, n, v, exact_value) for move, n, v, exact_value, _ in ends]


def _spread(values: list[float], gap: float) -> list[float]:
    """``values`` moved apart, as little as needed, so that neighbours are ``gap`` apart."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    placed = [values[i] for i in order]
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    shift = (placed[-1] - max(values)) / 2 if placed and placed[-1] > max(values) else 0
    result = [0.0] * len(values)
    for i, y in zip(order, placed):
        result[i] = y - shift
    return result


def plot_tournament(results, *, title: str | None = "Tournament results") -> Picture:
    """Stacked bars of outcomes, as shares of the games, one bar per row.

    ``results`` is an ``arena.tournament`` result (or its ``as_dict()``, or its pairs as
    dicts with ``x``, ``o``, ``x_wins``, ``draws``, ``o_wins``): one bar per ordered pair.
    Rows with ``name``, ``wins``, ``draws`` and ``losses`` give one bar per player instead.
    """
    names, outcomes = _tournament_rows(results)
    figure = Figure(figsize=(7, 0.45 * len(names) + 1.4))
    ax = figure.add_subplot()
    ys = list(range(len(names)))[::-1]
    totals = [max(1, sum(counts[i] for _, _, counts in outcomes)) for i in range(len(names))]
    starts = [0.0] * len(names)
    for label, colour, counts in outcomes:
        shares = [count / total for count, total in zip(counts, totals)]
        ax.barh(ys, shares, left=starts, color=colour, height=0.6, label=label,
                hatch=OUTCOME_HATCHES.get(label, ""), edgecolor=WHITE, linewidth=0.8)
        for y, start, share, count in zip(ys, starts, shares, counts):
            if share >= 0.06:
                ax.text(start + share / 2, y, str(count), ha="center", va="center", fontsize=9,
                        color=INK, bbox={"boxstyle": "round,pad=0.2", "fc": WHITE,
                                         "ec": "none"})  # a label over the hatch
        starts = [start + share for start, share in zip(starts, shares)]
    ax.set_yticks(ys, names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False,
              fontsize=9)
    if title:
        ax.set_title(title, pad=24)
    _tidy(ax)
    figure.tight_layout()
    description, details = describe_tournament(names, outcomes)
    return Picture(figure, (f"{title}. " if title else "") + description, details)


def _tournament_rows(results) -> tuple[list[str], list[tuple[str, str, list[int]]]]:
    """Bar names, and (legend label, colour, counts per bar) for each outcome."""
    if hasattr(results, "results"):
        results = [pair.as_dict() for pair in results.results]
    elif isinstance(results, Mapping) and "results" in results:
        results = results["results"]
    rows = [dict(row) for row in results]
    if not rows:
        raise ValueError("plot_tournament needs at least one result")
    if all({"x", "o", "x_wins", "o_wins", "draws"} <= set(row) for row in rows):
        keys = (("x_wins", "X wins"), ("draws", "draws"), ("o_wins", "O wins"))
        colours = (X_COLOUR, DRAW_COLOUR, O_COLOUR)  # coloured like the marks on the boards
        names = [f"{row['x']} (X) vs {row['o']} (O)" for row in rows]
    else:
        keys = (("wins", "wins"), ("draws", "draws"), ("losses", "losses"))
        colours = (WIN_COLOUR, DRAW_COLOUR, LOSS_COLOUR)
        _check_player_rows(rows)
        names = [str(row["name"]) for row in rows]
    return names, [(label, colour, [row[key] for row in rows])
                   for (key, label), colour in zip(keys, colours)]


def _check_player_rows(rows: list[dict]) -> None:
    for row in rows:
        missing = [key for key in ("name", "wins", "draws", "losses") if key not in row]
        if missing:
            raise ValueError(f"a tournament row has x, o, x_wins, draws and o_wins, or "
                             f"name, wins, draws and losses; this one lacks "
                             f"{', '.join(missing)}")


def _rows(rows) -> list[dict]:
    """Accept a list of dicts, or a mapping name -> number, as rows."""
    if isinstance(rows, Mapping):
        return [{"name": name, "nodes": count} for name, count in rows.items()]
    return [dict(row) for row in rows]


def _tidy(ax) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
