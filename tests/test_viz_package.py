"""The picture package: small modules, imports that point down, every name the course uses,
one source for board pictures, and the stable reprs notebooks store."""
import ast
import json
import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure

import ttt_lib.viz as viz
from ttt_lib import BitBoard, MNKBoard
from ttt_lib.boards import picture as grid  # the board picture's colours (boards/picture.py)
from ttt_lib.viz import style
from ttt_lib.viz.boards import draw_board, sketch_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ttt_lib" / "viz"
MODULES = sorted(PACKAGE.glob("*.py"))
ALLOWED = {"boards", "game", "search", "studies", "symmetry", "errors"}  # below the pictures


def test_the_old_module_is_gone_and_the_package_is_split():
    assert not (ROOT / "ttt_lib" / "viz.py").exists()
    assert {path.stem for path in MODULES} >= {"__init__", "style", "boards", "trees", "plots"}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_module_is_over_450_lines(path):
    assert len(path.read_text().splitlines()) <= 450


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_imports_only_point_down(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 2:  # from ..x import y
            assert node.module.split(".")[0] in ALLOWED, f"{path.name} imports {node.module}"
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert not (node.module or "").startswith("ttt_lib"), "relative imports inside"


def names_imported_from_viz() -> set[str]:
    """Every name notebooks, modules, tests and tools import from ttt_lib.viz."""
    names = set()
    sources = [*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("ttt_lib/**/*.py"),
               *ROOT.glob("tests/*.py"), *ROOT.glob("tools/**/*.py")]
    for path in sources:
        text = path.read_text()
        if path.suffix == ".ipynb":
            text = "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        for found in re.finditer(r"from (?:ttt_lib|\.)\.?viz import (\([^)]*\)|[^\n;]*)", text):
            listed = found[1].strip("()").replace("\n", " ").split(",")
            names |= {name.split(" as ")[0].strip() for name in listed if name.strip()}
    return names


def test_every_name_the_course_imports_is_still_there():
    names = names_imported_from_viz()
    assert {"draw_tree", "board_grid", "X_COLOUR", "as_state"} <= names
    assert not [name for name in names if not hasattr(viz, name)]
    assert not [name for name in viz.__all__ if not hasattr(viz, name)]


# ------------------------------------------------------------- one source for board pictures

def test_the_board_colours_are_the_boards_own():
    for name in ("X_COLOUR", "O_COLOUR", "GRID_COLOUR", "HIGHLIGHT_COLOUR", "MARK_INSET"):
        assert getattr(style, name) == getattr(grid, name)
    assert viz.X_COLOUR == grid.X_COLOUR and style.INK == grid.LINE_COLOUR


def test_the_tree_board_is_drawn_from_the_board_sketch():
    board = BitBoard.from_text("XXX/OO./...")
    sketch = sketch_of(board, 4)
    assert sketch == board.sketch((4,)) and sketch.line == ((0, 0), (0, 2))
    ax = Figure().add_subplot()
    draw_board(ax, sketch, (0.0, 0.0), 1.0)
    colours = [line.get_color() for line in ax.lines]
    assert colours.count(grid.X_COLOUR) == 2 * len(sketch.crosses)
    assert colours.count(grid.GRID_COLOUR) == 4 and colours[-1] == grid.LINE_COLOUR
    circles = [patch for patch in ax.patches if patch.get_fill() is False]
    assert len(circles) == len(sketch.noughts) == 2
    # the shaded last move: its tint and the dot that is its shape
    assert sum(1 for patch in ax.patches if patch.get_fill()) == 2


def test_a_rectangular_board_keeps_its_shape_in_a_tree():
    board = MNKBoard.from_text("XO../.X../....", k=3)
    sketch = sketch_of(board)
    assert (sketch.rows, sketch.columns) == (3, 4) and sketch.highlight == ()
    ax = Figure().add_subplot()
    draw_board(ax, sketch, (0.0, 0.0), 1.0)
    assert [line.get_color() for line in ax.lines].count(grid.GRID_COLOUR) == 3 + 2


# ----------------------------------------------------------------------- stored reprs

def test_reprs_stay_as_the_notebooks_store_them():
    assert repr(viz.draw_tree([1, 2])) == "<Picture 213x134>"
    assert repr(viz.draw_tree([[7, 5], [3, 1, 9]])) == "<Picture 423x208>"
    assert repr(viz.board_grid(["X........"])) == "<SVG, 751 characters>"
