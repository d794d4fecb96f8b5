"""The grid base: one set of rules, texts and pictures for ListBoard, BitBoard and MNKBoard."""
import hashlib
import itertools
import random

import pytest

from ttt_lib import BitBoard, IllegalMoveError, InvalidBoardError, ListBoard, MNKBoard
from ttt_lib.boards.grid import GridBoard
from ttt_lib.boards.picture import (GRID_COLOUR, HIGHLIGHT_COLOUR, LINE_COLOUR, MARK_INSET,
                                    O_COLOUR, X_COLOUR, BoardSketch, board_sketch, grid_svg,
                                    sketch_svg)
from ttt_lib.boards.alt import described_svg
from ttt_lib.boards.tictactoe import svg
from ttt_lib.game import reachable

KINDS = [ListBoard.from_text, BitBoard.from_text,
         lambda text, first="X": MNKBoard.from_text(text, k=3, first=first)]


def outcome(make):
    """What a call gives: the board's text, or the exception's class and message."""
    try:
        return make().to_text()
    except (InvalidBoardError, IllegalMoveError) as error:
        return type(error).__name__, str(error)


# ------------------------------------------------------------------ the rules, written once

@pytest.mark.parametrize("first", ["X", "O"])
def test_every_raw_3x3_board_gets_the_same_verdict_from_every_kind(first):
    for cells in itertools.product(".XO", repeat=9):
        text = "".join(cells[:3]) + "/" + "".join(cells[3:6]) + "/" + "".join(cells[6:])
        verdicts = {outcome(lambda: kind(text, first)) for kind in KINDS}
        assert len(verdicts) == 1, (text, verdicts)


@pytest.mark.parametrize("text, fragment", [
    ("XX./.../...", "this position has 2 X and 0 O"),
    ("XXX/OOO/...", "both X and O have three in a row; the game ends at the first"),
    ("XXX/OO./O..", "X has three in a row but the other side moved since"),
    ("OOO/XX./X.X", "the game should have ended at O's win"),
])
def test_impossible_positions_name_the_same_problem_on_every_kind(text, fragment):
    messages = set()
    for kind in KINDS:
        with pytest.raises(InvalidBoardError) as raised:
            kind(text)
        messages.add(str(raised.value))
    assert len(messages) == 1 and fragment in messages.pop()


@pytest.mark.parametrize("cells", [(1,) * 8, (0,) * 10, (3,) + (0,) * 8])
def test_malformed_cells_are_refused_alike(cells):
    makers = [ListBoard.from_cells, BitBoard.from_cells,
              lambda c: MNKBoard.from_cells(c, 3, 3, 3)]
    messages = set()
    for make in makers:
        with pytest.raises(InvalidBoardError, match="a 3x3 position is 9 cells of 0, 1 or 2"):
            make(cells)
        messages.add(outcome(lambda: make(cells)))
    assert len(messages) == 1


def test_refused_moves_give_the_same_message_on_every_kind(all_bitboards):
    tries = [(move, None) for move in (-1, 9, "4", None, True, 1.5, 0, 4, 8)]
    tries += [(4, player) for player in ("X", "O", "Z", 1, -1)]
    for bit in all_bitboards[::3]:
        boards = [bit, bit.to_listboard(), MNKBoard.from_board(bit)]
        for move, player in tries:
            results = {outcome(lambda: board.play(move, player=player)) for board in boards}
            assert len(results) == 1, (bit, move, player, results)


def test_every_kind_reports_the_same_reasons_and_lines(all_bitboards):
    for bit in all_bitboards:
        lst, mnk = bit.to_listboard(), MNKBoard.from_board(bit)
        assert bit.over_reason() == lst.over_reason() == mnk.over_reason()
        assert bit.winning_line() == lst.winning_line() == mnk.winning_line()
        assert bit.sketch() == lst.sketch() == mnk.sketch()
        assert (bit.m, bit.n, bit.k) == (lst.m, lst.n, lst.k) == (3, 3, 3)


# ------------------------------------------------------------------------ conversions

def test_boards_convert_through_the_base(all_bitboards):
    for bit in all_bitboards[::7]:
        lst = ListBoard.from_board(bit)
        mnk = MNKBoard.from_board(lst)
        assert BitBoard.from_board(mnk) == bit == lst == bit.to_listboard()
        assert lst.to_bitboard() == bit and mnk == MNKBoard.from_text(bit.to_text(), k=3)
    opened_by_o = ListBoard(first="O").play(4)
    assert BitBoard.from_board(opened_by_o).to_move == opened_by_o.to_move == 1


def test_a_3x3_board_holds_only_tic_tac_toe():
    with pytest.raises(InvalidBoardError, match="not a 4x4 board with k=3"):
        BitBoard.from_board(MNKBoard(4, 4, 3))
    with pytest.raises(InvalidBoardError, match="not a 3x3 board with k=2"):
        ListBoard.from_board(MNKBoard(3, 3, 2))


def test_every_board_kind_is_registered_for_conversions():
    for cls in (ListBoard, BitBoard, MNKBoard):
        assert GridBoard.kinds[cls.__name__] is cls and issubclass(cls, GridBoard)


def test_kinds_of_board_stay_apart_in_equality():
    bit = BitBoard().play(4)
    assert bit == ListBoard().play(4) and hash(bit) == hash(ListBoard().play(4))
    assert MNKBoard(3, 3, 3).play(4) != bit  # another game's board, as before


# --------------------------------------------------------------------- sketch and SVG

def test_colours_are_defined_once():
    # Okabe-Ito vermillion (darkened to 4.98:1 on white) and blue since issue 36
    assert (X_COLOUR, O_COLOUR, GRID_COLOUR, HIGHLIGHT_COLOUR, LINE_COLOUR) == (
        "#c04a00", "#0072b2", "#444444", "#fff3b0", "#222222")
    assert MARK_INSET == 0.22


def test_a_sketch_holds_what_the_picture_shows():
    board = BitBoard.from_text("XO./XO./X..")
    sketch = board.sketch(highlight=(8, 2))
    assert sketch == BoardSketch(rows=3, columns=3, crosses=((0, 0), (1, 0), (2, 0)),
                                 noughts=((0, 1), (1, 1)), highlight=((2, 2), (0, 2)),
                                 line=((0, 0), (2, 0)))
    wide = MNKBoard.from_text("X.O./.X../..O.", k=3).sketch()
    assert (wide.rows, wide.columns, wide.line) == (3, 4, None)
    assert board_sketch((0,) * 6, 2, 3).crosses == () and board_sketch((0,) * 6, 2, 3).line is None


def test_board_svg_is_drawn_from_the_sketch():
    board = MNKBoard(4, 4, 3).play(5).play(0).play(6).play(1).play(7)
    assert board.svg(80, (3,)) == described_svg(sketch_svg(board.sketch((3,)), 80),
                                                board.describe((3,)))
    assert board.svg() == described_svg(grid_svg(board.cells(), 4, 4, (5, 6, 7)),
                                        "4x4 board: X in cells 5, 6 and 7, O in cells 0 and 1; "
                                        "X has won along cells 5, 6 and 7")
    three = BitBoard.from_text("XXX/OO./...")
    assert three.svg() == described_svg(svg((1, 1, 1, 2, 2, 0, 0, 0, 0)), three.describe())


def test_svg_bytes_are_pinned():
    # digests of the pictures as issue 36 left them (Okabe-Ito colours, a dot on the last
    # move): a change of any byte must be deliberate
    digest = hashlib.sha256()
    for first in "XO":
        for board in reachable(BitBoard(first)).values():
            digest.update(svg(board.cells()).encode())
            digest.update(svg(board.cells(), 40, (0, 4, 4)).encode())
    assert digest.hexdigest() == (
        "6be8e3e79137530b7570800b86897b15228cef2d4fb88dc74c973b2949ede823")
    digest, rng = hashlib.sha256(), random.Random(20)
    for m, n, k in [(4, 4, 3), (3, 5, 3), (5, 3, 2), (1, 4, 2), (1, 1, 1), (6, 7, 4)]:
        for _ in range(50):
            board = MNKBoard(m, n, k)
            while not board.is_terminal() and rng.random() < 0.9:
                board = board.play(rng.choice(board.moves()))
            highlight = tuple(rng.sample(range(m * n), min(2, m * n)))
            for size in (96, 50, 123):
                digest.update(grid_svg(board.cells(), m, n, board.winning_line(), size,
                                       highlight).encode())
                digest.update(grid_svg(board.cells(), m, n, None, size).encode())
    assert digest.hexdigest() == (
        "1f19bc7c091eb0a4957912a2bb16ec781be5a8acdb1cc7c52c8ed0034c0872ef")


def test_every_kind_survives_pickling():
    import pickle
    for board in (ListBoard().play(4), BitBoard(first="O").play(0), MNKBoard(4, 4, 3).play(5)):
        copy = pickle.loads(pickle.dumps(board))
        assert copy == board and copy.shape is board.shape and copy.to_move == board.to_move


def test_markup_escapes_as_the_standard_library_does():
    """alt.py's escape and quoteattr write what xml.sax.saxutils writes (it is not imported:
    it pulls in urllib.request, ssl and email), on seeded strings of the awkward characters."""
    from xml.sax import saxutils

    from ttt_lib.boards.alt import escape, quoteattr

    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice("ab<>&\"'\n\r\t ") for _ in range(rng.randrange(10)))
        assert escape(text) == saxutils.escape(text), text
        assert quoteattr(text) == saxutils.quoteattr(text), text
