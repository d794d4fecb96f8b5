"""What the notebook tools share: the course plan, reading and writing notebooks, titles.

The tools run as scripts (``python tools/navigation.py``), so this module is imported by its
plain name; it needs nbformat (installed with the ``notebooks`` extra), nothing from ttt_lib.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
INDEX = "00_index.ipynb"

# The course in order: file, planned title (used until the notebook exists), the question it
# answers (shown in the index's map). Titles of existing notebooks come from their cell 0.
PLAN = (
    ("00_index.ipynb", "00 · Game-tree search through tic-tac-toe",
     "What is in the course, and how do I work through it?"),
    ("01_boards_and_game_trees.ipynb", "01 · Boards and game trees",
     "How do we store a position, and how big is the tree of all games?"),
    ("02_minimax_and_negamax.ipynb", "02 · Minimax and negamax",
     "What is a position worth when both sides play perfectly?"),
    ("03_alpha_beta_pruning.ipynb", "03 · Alpha-beta pruning",
     "Which branches can a search skip without changing its answer?"),
    ("04_making_search_fast.ipynb", "04 · Transposition tables, symmetry and move ordering",
     "How much search do remembering, symmetry and a good move order save?"),
    ("05_depth_limits_and_the_horizon.ipynb", "05 · Depth limits, heuristics and the horizon",
     "What can a search decide when it cannot look to the end of the game?"),
    ("06_counting_states_and_symmetry.ipynb", "06 · Counting states and symmetry",
     "How many positions and games are there, what does symmetry save, and what are the odds\n     of random play?"),
    ("07_monte_carlo_and_uct.ipynb", "07 · Monte Carlo and UCT",
     "Can random playouts find good moves without searching the whole tree?"),
    ("08_agents_and_tournaments.ipynb", "08 · Agents, tournaments and playing the computer",
     "How do the players compare, and can you beat the computer?"),
    ("09_chance.ipynb", "09 · Chance",
     "What is a move worth when dice, or a slipping hand, decide part of the game?"),
    ("10_learning_to_play.ipynb", "10 · Learning to play",
     "Can a player learn perfect play from its own games, and how do we know it did?"),
    ("11_beyond_3x3.ipynb", "11 · Beyond 3x3",
     "What happens to search, and to playing many games, when the board grows?"),
    ("12_capstone_connect_four.ipynb", "12 · Capstone: Connect Four",
     "Can your agent beat a ladder of searches on a game too big to solve?"),
)

NOTEBOOK_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$")


class UsageError(Exception):
    """Bad command-line input: the tools report it on one line and exit with status 2."""


def course_notebooks(folder: Path) -> list[Path]:
    """The notebooks of the course in ``folder`` (``NN_topic.ipynb``), in order."""
    return sorted(p for p in folder.glob("*.ipynb") if NOTEBOOK_NAME.match(p.name))


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def dumps(nb: nbformat.NotebookNode) -> str:
    """The notebook as JupyterLab saves it (1-space indent, sorted keys, final newline)."""
    return nbformat.writes(nb) + "\n"


def write_if_changed(nb: nbformat.NotebookNode, path: Path) -> bool:
    """Write ``nb`` unless the file already holds exactly that text; True if written."""
    text = dumps(nb)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def title(nb: nbformat.NotebookNode, path: Path) -> str:
    """The text of the first heading in cell 0 (a markdown cell), e.g. '05 · Counting...'."""
    if nb.cells and nb.cells[0].cell_type == "markdown":
        for line in nb.cells[0].source.splitlines():
            match = HEADING.match(line)
            if match:
                return match.group(1)
    raise UsageError(f"{path.name}: cell 0 must be a markdown cell starting with a '# ' heading")


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def main(run, argv: list[str] | None = None) -> int:
    """Run a tool's ``run(argv)``, turning ``UsageError`` into one line and exit status 2."""
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"{Path(run.__code__.co_filename).name}: {error}", file=sys.stderr)
        return 2


def parser(prog: str, description: str):
    """An argparse parser whose errors become ``UsageError`` (one line, exit status 2)."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str):
            raise UsageError(message)

    return Parser(prog=prog, description=description)
