"""Every figure in a notebook's prose is computed in the notebook: a number in a markdown cell
must appear in the notebook's stored outputs or in its own code (a definition, such as a
budget of games). Left out as no figures: code spans, shapes (3x3), k=4, years, exercise and
notebook numbers, a reference's volume, pages and report number, and small counts up to 12
(rows, moves, cells). The few definitions the
prose states without code are listed in DEFINED, each with why."""
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?!\w)")
NOT_FIGURES = re.compile(r"`[^`]*`|\]\([^)]*\)|\b\d+x\d+\b|\b[mnk]\s*=\s*\d+|\b(?:19|20)\d\d\b"
                         r"|Exercise \d+|notebooks? \d\d|\d\d ·|\b\d+% (?:interval|confidence)"
                         r"|\(\d+%\)|\b\d+ points?\)"
                         # a reference's volume(issue), pages, series number and report number
                         r"|\b\d+\(\d+(?:-\d+)?\)|\bpages\s+\d+-\d+|Computer\s+Science\s+\d+|\bIR-\d+|doi:\S+")
DEFINED = {  # notebook: {number: why it is no computed figure}
    "05": {"0.01": "the clock a node budget stands in for", "0.1": "the same"},
    "08": {"400": "the Elo scale's definition"},
    "10": {"18": "the network's inputs, two per cell", "64": "its hidden units"},
    "11": {"95": "the confidence level of an interval"},
}


def numbers(text: str) -> set[str]:
    return {number.replace(",", "") for number in NUMBER.findall(text)}


def computed(nb) -> set[str]:
    """The numbers of every stored text output and of the code itself."""
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts.append(cell.source.replace("_", ""))  # 5_000 is 5000
        for output in cell.get("outputs", []):
            texts.append(output.get("text", ""))
            texts += [value for kind, value in output.get("data", {}).items()
                      if kind.startswith("text/")]
    return numbers("\n".join(texts))


def stated(nb) -> list[tuple[int, str]]:
    """(cell number, number) of the figures the prose states."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and "navigation" not in cell.metadata.get("tags", []):
            for number in numbers(NOT_FIGURES.sub("", cell.source)):
                if "." in number or int(number) > 12:
                    found.append((index, number))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_every_figure_in_the_prose_is_computed(path):
    nb = nbformat.read(str(path), as_version=4)
    known = computed(nb) | set(DEFINED.get(path.stem[:2], {}))
    typed = [(cell, number) for cell, number in stated(nb) if number not in known]
    assert not typed, f"{path.name}: figures in the prose that no output shows (cell, number): {typed}"


def test_the_check_sees_a_typed_figure():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("The plain search visits 549,946 nodes, `x = 77`, on 3x3."),
        nbformat.v4.new_code_cell("print(count)", outputs=[nbformat.v4.new_output(
            "stream", text="549,945 nodes\n")])])
    assert stated(nb) == [(0, "549946")] and "549946" not in computed(nb)


def test_a_references_volume_and_pages_are_no_figures():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "Source: *Machine Learning* 47(2-3), pages 235-256, 2002; report IR-163; "
        "[doi:10.1016/S0004-3702(83)80015-0](https://doi.org/10.1016/S0004-3702%2883%2980015-0); "
        "31 nodes.")])
    assert stated(nb) == [(0, "31")]


@pytest.mark.parametrize("prefix", sorted(DEFINED))
def test_every_definition_listed_is_still_stated(prefix):
    path = next(p for p in NOTEBOOKS if p.stem.startswith(prefix))
    assert set(DEFINED[prefix]) <= {number for _, number in stated(
        nbformat.read(str(path), as_version=4))}
