"""One picture vocabulary: a cell *marked* (a chosen move, a line, an aim) is drawn and said
apart from the move *just played*; every bar is named by its category, not by where it was
drawn; a textbook tree's description carries its shape and leaf values; pictures side by side
are each named by what they show. Checked on the library's pictures and on every stored
picture description of the course's notebooks."""
import html
import json
import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from ttt_lib import BitBoard
from ttt_lib.boards import MNKBoard
from ttt_lib.game import TreeNode
from ttt_lib.viz import Picture, board_grid, draw_tree, side_by_side

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_marked_cells_on_an_empty_board_are_marked_not_just_played():
    picture = board_grid([BitBoard()] * 2, highlight=[[0, 3, 6], [4]])
    assert "just played" not in picture.description
    assert "cells 0, 3 and 6 marked" in picture.description
    assert "cell 4 marked" in picture.description
    text = str(picture)
    assert text.count("data-marked=") == 4  # a frame per marked cell ...
    assert "<circle" not in text            # ... and no dot: the dot is the last move's cue


def test_the_move_just_played_keeps_its_tint_dot_and_words():
    picture = board_grid(["X........", "X...O...."], highlight="changes")
    assert "cell 4 marked as just played" in picture.description
    assert "data-marked" not in str(picture)


def test_windows_on_an_m_n_k_board_are_framed_in_its_own_cells():
    picture = board_grid([MNKBoard(3, 5, 3)], highlight=[[5, 6, 7]])
    assert picture.description.endswith("cells 5, 6 and 7 marked")
    frames = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)"[^>]*data-marked', str(picture))
    rows = {float(y) for _, y in frames}
    assert len(frames) == 3 and len(rows) == 1  # one row: cells 5 to 7 of 5 columns


def test_an_empty_board_is_never_said_to_have_a_move_just_played():
    """Over every stored description of the course's notebooks (the alt texts and SVG
    titles): a board with no mark on it has nothing just played."""
    found = []
    for path in NOTEBOOKS:
        for text in stored_descriptions(path):
            for part in re.split(r"(?:board \d+, )", text):
                if "empty board" in part and "just played" in part:
                    found.append((path.name, part[:120]))
    assert not found, found


def test_bars_are_named_by_their_category_not_their_offset():
    figure = Figure()
    ax = figure.add_subplot()
    for shift, label in zip((-0.25, 0, 0.25), ("X wins", "O wins", "draws")):
        ax.bar([5 + shift, 6 + shift], [1440, 7], width=0.25, label=label)
    ax.set_xticks([5, 6])
    text = Picture(figure).description
    assert "Bars X wins: 5: 1,440, 6: 7." in text and "4.75" not in text
    plain = Figure()
    plain.add_subplot().bar([0.8, 2.2], [1, 2])  # no categories set: the positions are said
    assert "0.8: 1, 2.2: 2" in Picture(plain).description


def test_every_stored_bar_label_is_a_category():
    """No stored description names a bar by a fractional plotting offset ('4.75: 1,440')."""
    offsets = []
    for path in NOTEBOOKS:
        for text in stored_descriptions(path):
            for bars in re.findall(r"Bars[^:]*: ([^.]*(?:\.\d[^.]*)*)\.", text):
                offsets += [(path.name, bar) for bar in bars.split(", ")
                            if re.fullmatch(r"−?-?\d+\.\d+: .*", bar)]
    assert not offsets, offsets


def test_a_textbook_tree_is_described_with_its_shape_and_leaf_values():
    tree = TreeNode([[3, 12], [8, 2]], labels=True)
    text = draw_tree(tree, values=False).description
    assert "children, left to right: A: B, C; B: D 3, E 12; C: F 8, G 2" in text


def test_side_by_side_names_each_panel_by_what_it_shows():
    tree = [[3, 12], [8, 2]]
    joined = side_by_side(draw_tree(tree, title="minimax values"),
                          draw_tree(tree, title="negamax values"))
    assert "An image" not in joined.description
    assert "left, minimax values" in joined.description
    assert "right, negamax values" in joined.description
    with pytest.raises(TypeError):
        side_by_side("not a picture")


def stored_descriptions(path: Path) -> list[str]:
    """The alt texts and SVG titles stored in a notebook's outputs."""
    texts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            page = "".join(data.get("text/html", []))
            svg = "".join(data.get("image/svg+xml", []))
            texts += [html.unescape(t) for t in re.findall(r'alt="([^"]*)"', page)]
            texts += [html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)[:1]]
    return texts


def notebook_text(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells) + "\n".join(
        "".join(output.get("text", "")) for cell in cells for output in cell.get("outputs", []))


def test_board_sizes_are_rows_by_columns_everywhere():
    """One convention, stated in notebook 11: rows x columns (m x n). The library's words
    follow it, Connect Four's 6 rows of 7 columns are 6x7, and a size written beside its rows
    and columns agrees with them."""
    eleven = notebook_text(ROOT / "notebooks" / "11_beyond_3x3.ipynb")
    assert "Board sizes are\nwritten rows x columns throughout" in eleven
    assert MNKBoard(3, 5, 3).describe().startswith("3x5 board")
    for path in NOTEBOOKS:
        text = notebook_text(path)
        assert "7x6" not in text, f"{path.name}: Connect Four's board is 6x7 (rows x columns)"
        for a, b, rows, columns in re.findall(
                r"(\d+)x(\d+)[^.\n]{0,40}?\b(\d+) rows of (\d+)", text):
            assert (a, b) == (rows, columns), f"{path.name}: {a}x{b} beside {rows} rows of {columns}"


def test_a_chance_tree_is_described_with_each_outcomes_probability():
    from ttt_lib.game import Chance
    text = draw_tree([Chance(("1/4", 8), ("3/4", 2)), 3]).description
    assert "B: D 8 with probability 1/4, E 2 with probability 3/4" in text


def test_moves_just_played_can_be_named_for_boards_that_do_not_follow_each_other():
    picture = board_grid(["X...O....", "XX..O...."], played=[[4], [1]])
    assert "cell 4 marked as just played" in picture.description
    assert "cell 1 marked as just played" in picture.description
    assert str(picture).count("<circle") >= 2  # the dot of each move, beside the tint
    assert "data-marked" not in str(picture)
    with pytest.raises(ValueError, match="not both"):
        board_grid(["X........"], highlight="changes", played=[[0]])
    with pytest.raises(ValueError, match="one list per board"):
        board_grid(["X........"], played=[[0], [1]])


def test_a_log_scale_is_said_once_even_when_the_label_says_it():
    figure = Figure()
    ax = figure.add_subplot()
    ax.plot([1, 2], [10, 1000], label="nodes")
    ax.set_yscale("log")
    ax.set_ylabel("nodes searched (log scale)")
    ax.set_xscale("log")
    text = Picture(figure).description
    assert text.count("(log scale)") == 2, text  # the y label's own, the x axis's added
    assert "y axis nodes searched (log scale)." in text
    assert "x axis unlabelled (log scale)" in text


def test_no_stored_description_says_log_scale_twice():
    doubled = [(path.name, text[:100]) for path in NOTEBOOKS
               for text in stored_descriptions(path) if "(log scale) (log scale)" in text]
    assert not doubled, doubled


def test_a_tree_with_values_says_its_inner_nodes_values_too():
    tree = TreeNode([[3, 12], [8, 2]], labels=True)
    text = draw_tree(tree).description
    assert "A: B 3, C 2; B: D 3, E 12; C: F 8, G 2" in text
    assert "A: B, C;" in draw_tree(tree, values=False).description  # nothing drawn, nothing said
