"""A large class's leaderboard as one picture: every agent's rating and its 95% interval, best
first, in columns of at most 50 agents side by side (so 150 agents stay readable), all on one
rating scale. The round robin's heatmap (``heatmap.py``) stays the picture for small groups."""
from __future__ import annotations

import math
from collections.abc import Mapping

from matplotlib.figure import Figure

from .picture import Picture
from .style import EDGE_COLOUR, INK, MUTED_INK, X_COLOUR

PER_COLUMN = 50
FIELDS = ("agent", "rating", "low", "high")


def rating_leaderboard(ratings, *, title: str | None = None,
                       per_column: int = PER_COLUMN) -> Picture:
    """Each agent a dot at its rating with a bar over its 95% interval, ranked best first
    (rank and name on the left), top to bottom, then the next column. ``ratings`` is a
    ``classroom.swiss.Ratings``, its ``as_dicts()``, or rows with ``agent``, ``rating``,
    ``low`` and ``high`` (Elo scale)."""
    rows = _rows(ratings)
    if isinstance(per_column, bool) or not isinstance(per_column, int):
        raise TypeError(f"per_column is a whole number, not {type(per_column).__name__}")
    if per_column < 1:
        raise ValueError(f"per_column must be at least 1, not {per_column}")
    columns = math.ceil(len(rows) / per_column)
    tall = min(len(rows), per_column)
    figure = Figure(figsize=(4.6 * columns + 0.6, 0.19 * tall + 1.5))
    axes = figure.subplots(1, columns, squeeze=False)[0]
    low = min(row[2] for row in rows)
    high = max(row[3] for row in rows)
    margin = 0.04 * (high - low or 1)
    for column, ax in enumerate(axes):
        part = rows[column * per_column:(column + 1) * per_column]
        _column(ax, part, column * per_column, tall)
        ax.set_xlim(low - margin, high + margin)
    axes[0].set_ylabel("rank and agent (best first)")
    figure.supxlabel("rating (Bradley-Terry, Elo scale); bar: 95% interval", fontsize=9)
    if title:
        figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    description, details = describe_ratings(rows)
    return Picture(figure, (f"{title}. " if title else "") + description, details)


def _column(ax, part: list[tuple], first: int, tall: int) -> None:
    positions = range(len(part))
    for y, (_, rating, low, high) in zip(positions, part):
        ax.plot([low, high], [y, y], color=MUTED_INK, linewidth=1.2, solid_capstyle="butt")
        ax.plot([rating], [y], marker="o", markersize=3.5, color=X_COLOUR)
    ax.set_yticks(list(positions), [f"{first + i + 1}. {name}" for i, (name, *_) in
                                    enumerate(part)], fontsize=7)
    ax.set_ylim(tall - 0.5, -0.5)  # best at the top, every column the same height
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color=EDGE_COLOUR, alpha=0.3, linewidth=0.6)  # faint, decorative
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.axvline(0, color=INK, linewidth=0.6, linestyle=":")


def describe_ratings(rows: list[tuple]) -> tuple[str, str]:
    """A short text (how many, the top and the bottom, how wide the intervals are, how many
    share the leader's interval) and one line per agent."""
    widths = sorted(high - low for _, _, low, high in rows)
    median = widths[len(widths) // 2]
    top = rows[0]
    tied = sum(1 for _, _, _, high in rows[1:] if high >= top[2])
    short = (f"Ratings of {len(rows)} agents, best first: top {_line(top)}; bottom "
             f"{_line(rows[-1])}. Median 95% interval width {median:.0f} rating points; "
             f"{tied} other agent{'s' * (tied != 1)} reach the top agent's interval.")
    details = "\n".join(f"{rank}. {_line(row)}" for rank, row in enumerate(rows, 1))
    return short, details


def _line(row: tuple) -> str:
    name, rating, low, high = row
    return f"{name} {rating:+.0f} [{low:+.0f} to {high:+.0f}]"


def _rows(ratings) -> list[tuple[str, float, float, float]]:
    items = getattr(ratings, "rows", ratings)
    if isinstance(items, (str, bytes, Mapping)) or not hasattr(items, "__iter__"):
        raise TypeError(f"rating_leaderboard takes Ratings or a list of rows, not "
                        f"{type(ratings).__name__}")
    rows = []
    for item in items:
        values = [item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)
                  for name in FIELDS]
        if any(v is None for v in values):
            raise ValueError(f"each row has {', '.join(FIELDS)}; this one does not: {item!r}")
        name, rating, low, high = str(values[0]), *map(float, values[1:])
        if not low <= rating <= high or not all(map(math.isfinite, (rating, low, high))):
            raise ValueError(f"{name}: the rating {rating} lies outside its interval "
                             f"[{low}, {high}]")
        rows.append((name, rating, low, high))
    if not rows:
        raise ValueError("rating_leaderboard needs at least one row")
    return rows
