"""One vocabulary over the course, and notebooks that fit a sitting: "the player to move" and "the player who just moved" are
spelled out (no bare "mover" in any notebook's prose or printed text), and every link to
notebook 00's conventions table or references lands on a heading that is there."""
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MOVER = re.compile(r"(?<![\w.`])movers?(?![\w(`])", re.IGNORECASE)  # a word, not an identifier
ANCHOR = re.compile(r"00_index\.ipynb#([\w-]+)")


def printed(cell) -> str:
    """What a code cell printed (streams), not the code listings it displays."""
    return "".join(output.get("text", "") for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_no_bare_mover(path):
    nb = nbformat.read(str(path), as_version=4)
    found = [(index, match.group(0)) for index, cell in enumerate(nb.cells)
             for match in MOVER.finditer(cell.source if cell.cell_type == "markdown"
                                         else printed(cell))]
    assert not found, f"{path.name}: say 'the player to move' or 'who just moved': {found}"


def test_the_rule_sees_the_word_and_spares_identifiers():
    assert MOVER.search("the mover's score") and MOVER.search("Movers win")
    assert not any(MOVER.search(text) for text in
                   ("node.mover", "best_for_mover(state)", "`mover`", "removers"))


def test_links_to_the_index_land_on_its_headings():
    index = nbformat.read(str(ROOT / "notebooks" / "00_index.ipynb"), as_version=4)
    headings = {line.lstrip("#").strip().replace(" ", "-") for cell in index.cells
                if cell.cell_type == "markdown" for line in cell.source.splitlines()
                if line.startswith("#")}
    assert {"Conventions", "References"} <= headings
    for path in NOTEBOOKS:
        text = "".join(cell.source for cell in nbformat.read(str(path), as_version=4).cells
                       if cell.cell_type == "markdown")
        assert set(ANCHOR.findall(text)) <= headings, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_a_notebook_fits_a_sitting(path):
    """At most 40 code cells in a notebook; Monte Carlo and UCT (07), the longest topic, at
    most 30 code cells and about 2,000 words of prose."""
    nb = nbformat.read(str(path), as_version=4)
    code = sum(cell.cell_type == "code" for cell in nb.cells)
    assert code <= (30 if path.name.startswith("07") else 40), (path.name, code)
    if path.name.startswith("07"):
        words = sum(len(cell.source.split()) for cell in nb.cells if cell.cell_type == "markdown"
                    and "navigation" not in cell.metadata.get("tags", []))
        assert words <= 2200, words
