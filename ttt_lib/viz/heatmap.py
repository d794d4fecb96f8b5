"""A round robin as one picture: a grid with X's agent down the side and O's agent across the
top, each cell coloured by the X agent's score and labelled with its wins, draws and losses."""
from __future__ import annotations

from collections.abc import Mapping

from matplotlib.colors import LinearSegmentedColormap, to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .describe import describe_heatmap
from .picture import Picture
from .style import INK, PRUNED_FILL, SCORE_LOW, SCORE_MID, WHITE, WIN_COLOUR, ink_on

FIELDS = ("x", "o", "x_wins", "o_wins", "draws")
# score 0 (every game lost) vermillion, 1/2 (all draws, or as many wins as losses) pale, 1
# bluish green; each cell also writes its score, so the colour is never the only cue
SCORE_COLOURS = LinearSegmentedColormap.from_list(
    "ttt_score", [SCORE_LOW, SCORE_MID, WIN_COLOUR])


def tournament_heatmap(result, *, title: str | None = None) -> Picture:
    """Rows are X's agent and columns O's agent, both in the order the agents first appear.

    A cell's colour is the row agent's score as X, (wins + draws/2) / games, and its text the
    score and the counts ``W`` wins, ``D`` draws, ``L`` losses. ``result`` is an
    ``arena.TournamentResult``, its ``as_dict()``, or anything with ``.results`` whose items
    have ``x``, ``o``, ``x_wins``, ``o_wins`` and ``draws``. A pair not played stays blank.
    """
    cells = _cells(result)
    order = list(dict.fromkeys(name for pair in cells for name in pair))
    rows = [name for name in order if any(x == name for x, _ in cells)]
    columns = [name for name in order if any(o == name for _, o in cells)]
    figure = Figure(figsize=(1.3 * len(columns) + 2.6, 0.9 * len(rows) + 1.7))
    ax = figure.add_subplot()
    image = ax.imshow(_scores(cells, rows, columns), cmap=SCORE_COLOURS, vmin=0, vmax=1,
                      aspect="auto")
    size = 10 if len(columns) <= 6 else 9
    for (x, o), counts in cells.items():
        _label(ax, rows.index(x), columns.index(o), counts, size)
    _blank_unplayed(ax, cells, rows, columns)
    ax.set_xticks(range(len(columns)), [_wrapped(name) for name in columns])
    ax.set_yticks(range(len(rows)), rows)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("O's agent (columns)")
    ax.set_ylabel("X's agent (rows)")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    bar = figure.colorbar(image, ax=ax, fraction=0.06, pad=0.03)
    bar.set_label("X agent's score: (wins + draws/2) / games", fontsize=8)
    bar.ax.tick_params(labelsize=8)
    if title:
        ax.set_title(title, pad=10)
    figure.tight_layout()
    description, details = describe_heatmap(cells, rows, columns)
    return Picture(figure, (f"{title}. " if title else "") + description, details)


def score(x_wins: int, o_wins: int, draws: int) -> float:
    """The X agent's score: a win counts 1, a draw 1/2, a loss 0, over the games played."""
    games = x_wins + o_wins + draws
    if games == 0:
        raise ValueError("a pair with no games has no score")
    return (x_wins + draws / 2) / games


def _cells(result) -> dict[tuple[str, str], tuple[int, int, int]]:
    """``{(x, o): (x_wins, o_wins, draws)}`` in the order played, checked."""
    items = result.get("results") if isinstance(result, Mapping) else getattr(
        result, "results", None)
    if items is None or isinstance(items, (str, bytes)):
        raise TypeError(f"tournament_heatmap takes a TournamentResult (or anything with "
                        f".results), not {type(result).__name__}")
    cells: dict[tuple[str, str], tuple[int, int, int]] = {}
    for item in items:
        x, o, x_wins, o_wins, draws = (_field(item, name) for name in FIELDS)
        if (str(x), str(o)) in cells:
            raise ValueError(f"the pair {x} (X) against {o} (O) appears twice")
        counts = (x_wins, o_wins, draws)
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts):
            raise ValueError(f"{x} (X) against {o} (O): counts are whole numbers >= 0, "
                             f"not {counts}")
        cells[str(x), str(o)] = counts
    if not cells:
        raise ValueError("tournament_heatmap needs at least one result")
    return cells


def _field(item, name: str):
    value = item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)
    if value is None:
        raise ValueError(f"each result has {', '.join(FIELDS)}; this one lacks {name}: "
                         f"{item!r}")
    return value


def _scores(cells, rows: list[str], columns: list[str]) -> list[list[float]]:
    """The score grid; a pair not played (or with no games) is NaN, drawn blank."""
    grid = [[float("nan")] * len(columns) for _ in rows]
    for (x, o), counts in cells.items():
        if sum(counts):
            grid[rows.index(x)][columns.index(o)] = score(*counts)
    return grid


def _label(ax, row: int, column: int, counts: tuple[int, int, int], size: int) -> None:
    """The score and W/D/L counts, in ink or white, whichever reads better on the colour."""
    wins, losses, draws = counts
    if not sum(counts):
        ax.text(column, row, "no games", ha="center", va="center", fontsize=size - 1, color=INK)
        return
    value = score(wins, losses, draws)
    ink = score_ink(value)
    ax.text(column, row - 0.16, f"{value:.2f}", ha="center", va="center",
            fontsize=size + 2, color=ink, fontweight="bold")
    ax.text(column, row + 0.2, f"W {wins} D {draws} L {losses}", ha="center", va="center",
            fontsize=size, color=ink)


def score_ink(value: float) -> str:
    """The text colour for a cell of score ``value``: ink or white, whichever has the higher
    contrast on the cell's colour (so at least 4.58:1)."""
    return ink_on(to_hex(SCORE_COLOURS(value)))


def _blank_unplayed(ax, cells, rows: list[str], columns: list[str]) -> None:
    """Grey squares where two agents never met (NaN would otherwise show the background)."""
    for r, x in enumerate(rows):
        for c, o in enumerate(columns):
            if (x, o) not in cells:
                ax.add_patch(_square(r, c))
                ax.text(c, r, "not played", ha="center", va="center", fontsize=7, color=INK)


def _wrapped(name: str, width: int = 12) -> str:
    """A long column label on two lines, broken before its options: 'mcts\\n(playouts=100)'."""
    return name.replace("(", "\n(", 1) if len(name) > width else name


def _square(row: int, column: int) -> Rectangle:
    return Rectangle((column - 0.5, row - 0.5), 1, 1, facecolor=PRUNED_FILL, edgecolor=WHITE)
