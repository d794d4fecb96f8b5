"""Pictures that say what they show: a board's description in words, an SVG with ``role="img"``,
a ``<title>`` and a ``<desc>``, and the display bundle every picture of the course uses.

A notebook output holds the plain picture (``image/svg+xml`` or ``image/png``) for any front end
and, beside it, an HTML ``<img>`` of the same bytes with the description as its ``alt``:
JupyterLab shows that one first, even in an untrusted notebook (where it refuses stored SVG
outputs), nbconvert's HTML and the slide decks keep its ``alt``. Everything here is deterministic:
no ids, no dates, the same base64 on every run.
"""
from __future__ import annotations

import base64
import html
from collections.abc import Sequence

from ..game import MAX
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT

def escape(text: str) -> str:
    """``text`` safe inside XML or HTML markup: ``&``, ``<`` and ``>`` as entities (what
    ``xml.sax.saxutils.escape`` does, without its import of ``urllib.request``, ``ssl`` and
    ``email``, a tenth of a second in every process that draws a board)."""
    return html.escape(text, quote=False)


def quoteattr(text: str) -> str:
    """``text`` escaped and quoted as an attribute value, exactly as
    ``xml.sax.saxutils.quoteattr`` writes it (double quotes unless the text holds one)."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


_NAMES_3X3 = ("top left", "top centre", "top right", "middle left", "centre", "middle right",
              "bottom left", "bottom centre", "bottom right")


def cell_place(cell: int, m: int = 3, n: int = 3) -> str:
    """Where a cell is, in words: 'centre' on 3x3, 'row 2, column 3' on any other board."""
    if (m, n) == (3, 3):
        return _NAMES_3X3[cell]
    row, column = divmod(cell, n)
    return f"row {row + 1}, column {column + 1}"


def numbers_text(cells: Sequence[int]) -> str:
    """'cell 4', 'cells 0 and 4', 'cells 0, 4 and 8'."""
    cells = [str(cell) for cell in cells]
    if len(cells) == 1:
        return f"cell {cells[0]}"
    return f"cells {', '.join(cells[:-1])} and {cells[-1]}"


def describe_cells(cells: Sequence[int], m: int = 3, n: int = 3, *, to_move: int | None = None,
                   line: Sequence[int] | None = None, marked: Sequence[int] = ()) -> str:
    """A position in words: 'X in cells 0 and 4, O in cell 8; O to move'.

    ``to_move`` (+1 X, -1 O) is said unless the game is over; ``line`` is a winning line's
    cells; ``marked`` cells are the ones the picture marks (the last move).
    """
    xs = [i for i, digit in enumerate(cells) if digit == X_DIGIT]
    os = [i for i, digit in enumerate(cells) if digit == O_DIGIT]
    size = "" if (m, n) == (3, 3) else f"{m}x{n} board: "
    parts = [f"X in {numbers_text(xs)}" if xs else "", f"O in {numbers_text(os)}" if os else ""]
    text = size + (", ".join(part for part in parts if part) or "empty board")
    if line:
        winner = "X" if cells[line[0]] == X_DIGIT else "O"
        text += f"; {winner} has won along {numbers_text(sorted(line))}"
    elif EMPTY not in cells:
        text += "; the board is full, a draw"
    elif to_move is not None:
        text += f"; {'X' if to_move == MAX else 'O'} to move"
    if marked:
        text += f"; {numbers_text(sorted(marked))} marked as just played"
    return text


def described_svg(svg: str, description: str, details: str = "") -> str:
    """``svg`` with ``role="img"`` on its root and a ``<title>`` (and ``<desc>``) first inside."""
    head, rest = svg.split(">", 1)
    if 'role="img"' not in head:
        head += ' role="img"'
    text = f"<title>{escape(description)}</title>"
    if details:
        text += f"<desc>{escape(details)}</desc>"
    return f"{head}>{text}{rest}"


def image_bundle(mime: str, data: bytes, description: str, plain: str) -> dict[str, str]:
    """The display bundle of a picture: the plain image and an HTML ``<img>`` of the same
    bytes with the description as its ``alt``, plus a text fallback."""
    encoded = base64.b64encode(data).decode("ascii")
    html = f'<img src="data:{mime};base64,{encoded}" alt={quoteattr(description)}>'
    image = data.decode() if mime == "image/svg+xml" else encoded
    return {mime: image, "text/html": html, "text/plain": plain}


def details_html(details: str) -> str:
    """A longer text a student can expand under a picture (the widgets show one)."""
    if not details:
        return ""
    return ("<details><summary>The picture in words</summary>"
            f'<pre style="white-space:pre-wrap">{escape(details)}</pre></details>')
