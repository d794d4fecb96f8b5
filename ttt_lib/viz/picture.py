"""What the drawing functions return: a ``Picture`` (a matplotlib figure shown as PNG) or an
``SVG`` (text), both with a short repr that is the same on every run.

Every picture is deterministic: the same call gives the same SVG or PNG bytes on every run, so
notebook outputs can be compared. Figures are built with ``matplotlib.figure.Figure`` (never
through ``pyplot``), so a notebook shows each picture once, as the ``Picture`` a function
returns.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from ..boards.alt import described_svg, image_bundle
from .figure_text import describe_figure

# Fixed so that pictures are byte-for-byte reproducible (no random ids, no dates, no versions).
_RC = {"svg.hashsalt": "ttt-search", "svg.fonttype": "path", "font.family": "DejaVu Sans",
       "path.simplify": True}
_METADATA = {"svg": {"Date": None, "Creator": "ttt_lib"}, "png": {"Software": None},
             "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}}


class Picture:
    """A matplotlib figure that shows itself in a notebook as deterministic PNG, described.

    ``png()`` and ``svg()`` give the bytes and text, ``save(path)`` writes a file (format from
    the suffix), ``figure`` is the matplotlib ``Figure`` for further changes. ``description``
    is the short text a screen reader reads (the ``alt``; without one, it is read from the
    figure: titles, axes, labelled series, bars, written numbers), ``details`` a longer one
    (one line per node of a tree: ``print(picture.details)``). A notebook shows the PNG as an
    HTML ``<img>`` with the description as ``alt``, the plain PNG beside it.
    """

    def __init__(self, figure: Figure, description: str = "", details: str = "") -> None:
        self.figure = figure
        self.description = description or describe_figure(figure)  # a notebook's own plot
        self.details = details

    def png(self) -> bytes:
        return figure_bytes(self.figure, "png")

    def svg(self) -> str:
        return figure_bytes(self.figure, "svg").decode()

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_bytes(figure_bytes(self.figure, path.suffix.lstrip(".").lower() or "png"))
        return path

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return image_bundle("image/png", self.png(), self.description, repr(self))

    def __repr__(self) -> str:  # the text a saved notebook stores beside the PNG: no address
        width, height = self.figure.get_size_inches() * self.figure.dpi
        return f"<Picture {width:.0f}x{height:.0f}>"


def figure_bytes(figure: Figure, fmt: str = "png", dpi: int = 100) -> bytes:
    """Render ``figure`` as ``fmt`` ('png', 'svg' or 'pdf') with nothing that varies by run."""
    if fmt not in _METADATA:
        raise ValueError(f"pictures are saved as png, svg or pdf, not {fmt!r}")
    buffer = io.BytesIO()
    with matplotlib.rc_context(_RC):
        figure.savefig(buffer, format=fmt, dpi=dpi, metadata=_METADATA[fmt],
                       facecolor="white")
    return buffer.getvalue()


class SVG:
    """SVG text that a notebook displays as a picture; ``str(svg)`` is the text.

    With a ``description`` the SVG gets ``role="img"`` and it as its ``<title>`` (``details``
    as its ``<desc>``); a notebook shows it as an HTML ``<img>`` with that ``alt`` (visible in
    an untrusted notebook too), the plain SVG beside it.
    """

    def __init__(self, data: str, description: str = "", details: str = "") -> None:
        self.data = described_svg(data, description, details) if description else data
        self.description = description
        self.details = details

    def _repr_svg_(self) -> str:
        return self.data

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return image_bundle("image/svg+xml", self.data.encode(), self.description, repr(self))

    def __str__(self) -> str:
        return self.data

    def __repr__(self) -> str:  # stored as a notebook's text output: the same on every run
        return f"<SVG, {len(self.data):,} characters>"


def side_by_side(*pictures: Picture, names: list[str] | None = None) -> Picture:
    """``pictures`` in one row, as one ``Picture`` described panel by panel: each panel named
    (``names``, else 'left' and 'right', or 'panel 1', 'panel 2' ...) with its own description,
    so a reader hears what each shows, not that it is an image."""
    from matplotlib.image import imread

    if not pictures or not all(isinstance(p, Picture) for p in pictures):
        raise TypeError("side_by_side takes one or more Pictures")
    if names is None:
        names = ["left", "right"] if len(pictures) == 2 else \
            [f"panel {i}" for i in range(1, len(pictures) + 1)]
    if len(names) != len(pictures):
        raise ValueError(f"names: {len(names)} names for {len(pictures)} pictures")
    images = [imread(io.BytesIO(picture.png())) for picture in pictures]
    widths = [image.shape[1] for image in images]
    figure = Figure(figsize=(sum(widths) / 100, max(image.shape[0] for image in images) / 100))
    for ax, image in zip(figure.subplots(1, len(images), width_ratios=widths, squeeze=False)[0],
                         images):
        ax.imshow(image)
        ax.axis("off")
    figure.subplots_adjust(0, 0, 1, 1, 0, 0)
    said = "; ".join(f"{name}, {picture.description.rstrip('.')}"
                     for name, picture in zip(names, pictures))
    details = "\n".join(f"{name}:\n{picture.details}" for name, picture in zip(names, pictures)
                        if picture.details)
    return Picture(figure, f"{len(pictures)} pictures side by side. {said}.", details)
