"""A matplotlib figure described from what it holds, for a ``Picture`` made without a
description (a notebook's own plot): each panel's title and axes, its labelled series with their
points (when few enough to read out), its bars and the numbers written on it."""
from __future__ import annotations

from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator

MAX_POINTS = 12   # a series with more points is summed up by its range


def describe_figure(figure: Figure) -> str:
    """'Chart: <title>. Panel 1: ...' from the figure's own texts and data."""
    parts = []
    title = figure._suptitle.get_text() if figure._suptitle is not None else ""
    panels = [ax for ax in figure.axes if ax.get_label() != "<colorbar>"]
    for i, ax in enumerate(panels, 1):
        text = _panel_text(ax)
        if text:
            parts.append(f"panel {i}: {text}" if len(panels) > 1 else text)
    return "Chart" + (f": {title}" if title else "") + ". " + " ".join(parts)


def _panel_text(ax) -> str:
    """One panel: title, axes, series, bars, written numbers."""
    words = [f"{ax.get_title()}." if ax.get_title() else ""]
    if ax.images:
        words.append("An image.")
    if ax.axison and (ax.lines or ax.containers or ax.collections):
        words.append(f"x axis {_axis_name(ax.get_xlabel(), ax.get_xscale())}, "
                     f"y axis {_axis_name(ax.get_ylabel(), ax.get_yscale())}.")
    words += [_series_text(line) for line in ax.lines if not line.get_label().startswith("_")]
    words += [_bars_text(ax, bars) for bars in ax.containers if isinstance(bars, BarContainer)]
    written = [t.get_text().replace("\n", " ") for t in ax.texts if t.get_text().strip()]
    if written:
        words.append("Written on it: " + ", ".join(written[:40]) + ".")
    return " ".join(word for word in words if word)


def _axis_name(label: str, scale: str) -> str:
    """An axis by its label, with its log scale said once (a label may say it already)."""
    name = label or "unlabelled"
    if scale == "log" and "log scale" not in name:
        name += " (log scale)"
    return name


def _series_text(line) -> str:
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    if len(xs) <= MAX_POINTS:
        points = ", ".join(f"{_num(x)}: {_num(y)}" for x, y in zip(xs, ys))
        return f"Series {line.get_label()}: {points}."
    return (f"Series {line.get_label()}: {len(xs)} points, x from {_num(min(xs))} to "
            f"{_num(max(xs))}, y from {_num(min(ys))} to {_num(max(ys))}, last {_num(ys[-1])}.")


def _bars_text(ax, bars: BarContainer) -> str:
    """Each bar as 'where: size' (x and height, or y and width for horizontal bars)."""
    label = bars.get_label()
    name = "" if label.startswith("_") else f" {label}"
    if bars.orientation == "vertical":
        axis, pairs = ax.xaxis, [(p.get_x() + p.get_width() / 2, p.get_height()) for p in bars]
    else:
        axis, pairs = ax.yaxis, [(p.get_y() + p.get_height() / 2, p.get_width()) for p in bars]
    names = _categories(axis)
    ticks = _ticks(axis)
    return f"Bars{name}: " + ", ".join(
        f"{names.get(round(at)) or _category(at, ticks)}: {_num(size)}"
        for at, size in pairs[:MAX_POINTS * 3]) + "."


def _categories(axis) -> dict:
    """Position -> name on an axis of categories (bars drawn at strings), else empty."""
    mapping = getattr(axis.get_units(), "_mapping", None) or {}
    return {position: str(label) for label, position in mapping.items()}


def _ticks(axis) -> list[tuple[float, str]]:
    """(position, label) of the ticks the plot's author set (``set_xticks``: the categories
    the bars stand for); none for ticks the axis placed itself, which name no category."""
    if not isinstance(axis.get_major_locator(), FixedLocator):
        return []
    locations = [float(at) for at in axis.get_majorticklocs()]
    texts = [label.get_text() for label in axis.get_ticklabels()]
    if len(texts) != len(locations) or not any(texts):
        texts = list(axis.get_major_formatter().format_ticks(locations))
    return [(at, " ".join(text.split())) for at, text in zip(locations, texts) if text]


def _category(at: float, ticks: list[tuple[float, str]]) -> str:
    """The label of the tick a bar drawn at ``at`` belongs to: the nearest one, when it lies
    within half the gap between ticks (grouped bars sit beside their tick); else the number."""
    if not ticks:
        return _num(at)
    nearest, label = min(ticks, key=lambda tick: abs(tick[0] - at))
    gaps = [b[0] - a[0] for a, b in zip(ticks, ticks[1:]) if b[0] > a[0]]
    return label if abs(nearest - at) < (min(gaps) / 2 if gaps else 0.5) else _num(at)


def _num(value) -> str:
    value = float(value)
    return f"{value:,.0f}" if value.is_integer() else f"{value:,.3g}"
