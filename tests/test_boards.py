import pytest

from ttt_lib import BitBoard, IllegalMoveError, InvalidBoardError, ListBoard
from ttt_lib.boards.bit import CELL_MASK

BOARDS = [ListBoard, BitBoard]


def test_both_boards_reach_the_same_positions(all_bitboards, all_listboards):
    assert len(all_bitboards) == len(all_listboards) == 5478
    assert [b.to_text() for b in all_bitboards] == [b.to_text() for b in all_listboards]


def test_both_boards_agree_on_every_position(all_bitboards):
    for bit in all_bitboards:
        lst = bit.to_listboard()
        assert lst.to_text() == bit.to_text()
        assert lst.moves() == bit.moves()
        assert lst.winner() == bit.winner()
        assert lst.is_terminal() == bit.is_terminal()
        assert lst.utility() == bit.utility()
        assert lst.to_move == bit.to_move
        assert lst.code() == bit.code()
        assert lst.canonical_key()[0] == min(
            BitBoard.from_cells(f).code() for f in _forms(bit))
        assert str(lst) == str(bit)
        assert lst.svg() == bit.svg()
        assert BitBoard.from_board(lst) == bit == lst
        for move in bit.moves():
            assert lst.play(move).to_text() == bit.play(move).to_text()


def _forms(board):
    from ttt_lib.symmetry import symmetric_forms
    return symmetric_forms(board.cells())


def test_text_and_code_round_trip_for_every_position(all_bitboards):
    for board in all_bitboards:
        for cls in BOARDS:
            assert cls.from_text(board.to_text()).to_text() == board.to_text()
            assert cls.from_text(board.to_text().replace("/", "")) == board
            assert cls.from_code(board.code()) == board
            assert cls.from_text(board.to_text().lower()) == board
        assert BitBoard.from_bits(board.bits) == board


def test_bit_layout_follows_the_literature():
    # cell (r, c) is bit 3*(2-r) + (2-c); X in the upper nine bits
    board = BitBoard.from_text("X../.../..O")
    assert board.bits == (1 << 8) << 9 | 1
    assert CELL_MASK[4] == 1 << 4


@pytest.mark.parametrize("cls", BOARDS)
def test_grid_svg_and_repr(cls):
    board = cls.from_text("X.O/X../O..")
    assert str(board) == " X |   | O\n---+---+---\n X |   |\n---+---+---\n O |   |"
    assert repr(board) == f"{cls.__name__}.from_text('X.O/X../O..')"
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<circle") == 2 and svg.count("<path") == 2
    assert "matplotlib" not in svg


@pytest.mark.parametrize("cls", BOARDS)
def test_won_position_svg_strikes_the_line(cls):
    svg = cls.from_text("XXX/OO./...").svg()
    assert 'stroke-opacity="0.6"' in svg


@pytest.mark.parametrize("cls", BOARDS)
@pytest.mark.parametrize("text, fragment", [
    ("X.O/X../O", "11 characters"),
    ("X.O|X..|O..", "expected '/' at position 3"),
    ("X.O/X../O..X", "has 12"),
    ("", "length 0"),
    ("XZO......", "unknown character 'Z' for cell 1"),
    ("XX.......", "2 X and 0 O"),
    ("O........", "0 X and 1 O"),
    ("XXX/OOO/...", "both X and O have three in a row"),
    ("XXX/OO./O..", "should have ended at X's win"),
    ("OOO/XX./X.X", "should have ended at O's win"),
])
def test_invalid_text_names_the_problem(cls, text, fragment):
    with pytest.raises(InvalidBoardError, match=fragment.replace("(", r"\(")):
        cls.from_text(text)


@pytest.mark.parametrize("cls", BOARDS)
def test_non_string_text_is_an_invalid_board(cls):
    with pytest.raises(InvalidBoardError, match="a string, not int"):
        cls.from_text(42)


@pytest.mark.parametrize("cls", BOARDS)
@pytest.mark.parametrize("move, fragment", [
    (0, "cell 0 is occupied by X"),
    (9, "cell 9 is off the board"),
    (-1, "cell -1 is off the board"),
    ("4", "not '4'"),
    (True, "not True"),
    (None, "not None"),
])
def test_illegal_moves_name_the_problem(cls, move, fragment):
    with pytest.raises(IllegalMoveError, match=fragment):
        cls.from_text("X../.../...").play(move)


@pytest.mark.parametrize("cls", BOARDS)
def test_wrong_player_and_game_over(cls):
    board = cls.from_text("X../.../...")
    with pytest.raises(IllegalMoveError, match="it is O's turn, not X's"):
        board.play(4, player="X")
    assert board.play(4, player="O").to_text() == "X../.O./..."
    with pytest.raises(IllegalMoveError, match="the game is over \\(X has won\\)"):
        cls.from_text("XXX/OO./...").play(8)
    with pytest.raises(IllegalMoveError, match="the board is full"):
        cls.from_text("XOX/XOO/OXX").play(0) if False else cls.from_text("XOX/XOO/OXX").play(4)


@pytest.mark.parametrize("cls", BOARDS)
def test_errors_are_value_errors(cls):
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(InvalidBoardError, ValueError)


@pytest.mark.parametrize("cls", BOARDS)
def test_o_can_open(cls):
    board = cls(first="O")
    assert board.to_move == -1
    board = board.play(4)
    assert board.to_text() == ".../.O./..." and board.to_move == 1
    assert cls.from_text("O........", first="O").to_move == 1
    with pytest.raises(InvalidBoardError, match="O opens"):
        cls.from_text("X........", first="O")
    with pytest.raises(InvalidBoardError, match="opener is 'X' or 'O'"):
        cls(first="Z")
    assert repr(board).endswith("first='O')")


def test_o_opener_reaches_the_mirror_image_positions():
    from ttt_lib.game import reachable
    swap = str.maketrans("XO", "OX")
    x_first = {b.to_text() for b in reachable(BitBoard()).values()}
    o_first = {b.to_text() for b in reachable(ListBoard(first="O")).values()}
    assert {t.translate(swap) for t in x_first} == o_first


@pytest.mark.parametrize("cls", BOARDS)
def test_states_are_immutable_and_hashable(cls):
    board = cls()
    child = board.play(4)
    assert board.to_text() == ".../.../..." and child.to_text() == ".../.X./..."
    assert len({cls(), cls(), child}) == 2
    assert board.key() != child.key()
    assert cls.from_text("X........").canonical_key() == cls.from_text("........X").canonical_key()
