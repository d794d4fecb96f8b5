"""The course's own worked solutions are right: every cell tagged ``solution`` that calls a
checker has a stored verdict, and it is ``Right:``. (nbval re-runs the cells and compares, so
a stored "Not yet" would stay "Not yet" unnoticed; this test reads what the course shows.)"""
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHECK = re.compile(r"\bcheck_\d\d_\w+\(")


def verdicts(cell) -> list[str]:
    text = "".join(output.get("text", "") for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")
    return [line for line in text.splitlines() if line.startswith(("Right:", "Not yet:"))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name[:2])
def test_every_solution_cell_says_right(path):
    nb = nbformat.read(str(path), as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "solution" not in cell.metadata.get("tags", []) \
                or not CHECK.search(cell.source):
            continue
        said = verdicts(cell)
        assert said, f"{path.name} cell {index} calls a checker but shows no verdict"
        assert all(line.startswith("Right:") for line in said), f"{path.name} cell {index}: {said}"
