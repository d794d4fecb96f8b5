"""ConnectFour: gravity on the game protocol, its texts and errors, and the searches on it."""
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttt_lib
from ttt_lib import ConnectFour, IllegalMoveError, InvalidBoardError, MNKBoard
from ttt_lib.agents import make_agent
from ttt_lib.arena import play_game
from ttt_lib.boards import ConnectFour as BoardsConnectFour
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.depthlimit import WIN, depth_limited
from ttt_lib.search.monte_carlo import mcts
from ttt_lib.search.exact import minimax, negamax_memo
from ttt_lib.search.principal_variation import pvs
from ttt_lib.search.trace import Stats

SIZES = [(7, 6, 4), (4, 3, 3), (5, 4, 4), (3, 5, 3), (6, 7, 4), (2, 2, 2), (8, 7, 4), (1, 4, 3)]


# ------------------------------------------------------------ independent reference checks

def naive_winners(cells, columns, rows, k):
    """The digits (1 X, 2 O) with k in a row, walking the grid cell by cell and direction
    by direction (no bit tricks, no window tables)."""
    found = set()
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = [cells[(r + i * dr) * columns + c + i * dc] for i in range(k)
                       if 0 <= r + i * dr < rows and 0 <= c + i * dc < columns]
                if len(run) == k and run[0] != 0 and len(set(run)) == 1:
                    found.add(run[0])
    return found


def naive_drop(cells, columns, rows, column, digit):
    """``cells`` (row-major, top row first) with ``digit`` on the lowest empty cell of
    ``column``."""
    cells = list(cells)
    for row in reversed(range(rows)):
        if cells[row * columns + column] == 0:
            cells[row * columns + column] = digit
            return tuple(cells)
    raise AssertionError("full column")


def play(board, moves):
    for move in moves:
        board = board.play(move)
    return board


def random_game(board, rng):
    """Every position of one random game from ``board``."""
    positions = [board]
    while not board.is_terminal():
        board = board.play(rng.choice(board.moves()))
        positions.append(board)
    return positions


# ----------------------------------------------------------------------------- rules

def test_exported_from_the_package_and_the_boards():
    assert ttt_lib.ConnectFour is BoardsConnectFour is ConnectFour
    assert "ConnectFour" in ttt_lib.__all__ and "ConnectFour" in dir(ttt_lib)


def test_the_empty_board_and_its_defaults():
    board = ConnectFour()
    assert (board.columns, board.rows, board.k, board.to_move) == (7, 6, 4, 1)
    assert board.moves() == list(range(7))
    assert board.to_text() == "/".join(["......."] * 6)
    assert not board.is_terminal() and board.winner() is None and board.utility() == 0
    assert ConnectFour(first="O").to_move == -1


def test_pieces_fall_to_the_lowest_empty_row():
    board = play(ConnectFour(4, 3, 3), [1, 1, 2, 1])
    assert board.to_text() == ".O../.O../.XX."
    assert board.moves() == [0, 2, 3]  # column 1 is full
    assert board.landing_cell(2) == 6 and board.landing_cell(0) == 8


def test_moves_leave_the_board_unchanged():
    board = ConnectFour(5, 4)
    after = board.play(2)
    assert board == ConnectFour(5, 4) and after != board and after.to_move == -1


@pytest.mark.parametrize("columns, rows, k", [(7, 6, 4), (5, 4, 4), (4, 3, 3), (6, 4, 4)])
@pytest.mark.parametrize("direction", ["row", "column"])
def test_a_line_along_a_row_or_a_column_wins(columns, rows, k, direction):
    """X makes k in a row along the bottom row (O stacking on X's pieces) or up column 0
    (O stacking in the last column); the game ends on the k-th piece."""
    if direction == "row":
        moves = [c for i in range(k) for c in (i, i)][:-1]
    else:
        moves = [c for _ in range(k) for c in (0, columns - 1)][:-1]
    board = play(ConnectFour(columns, rows, k), moves[:-1])
    assert not board.is_terminal()
    board = board.play(moves[-1])
    assert board.winner() == "X" and board.utility() == 1 and board.is_terminal()
    assert board.moves() == [] and board.over_reason() == "X has won"
    line = board.winning_line()
    assert len(line) == k and all(board.cells()[cell] == 1 for cell in line)
    assert naive_winners(board.cells(), columns, rows, k) == {1}


def naive_directions(cells, columns, rows, k):
    """(digit, direction) for every line of k, found cell by cell."""
    found = set()
    for r in range(rows):
        for c in range(columns):
            for name, (dr, dc) in DIRECTIONS.items():
                run = [cells[(r + i * dr) * columns + c + i * dc] for i in range(k)
                       if 0 <= r + i * dr < rows and 0 <= c + i * dc < columns]
                if len(run) == k and run[0] != 0 and len(set(run)) == 1:
                    found.add((run[0], name))
    return found


DIRECTIONS = {"row": (0, 1), "column": (1, 0), "falling": (1, 1), "rising": (1, -1)}


@pytest.mark.parametrize("columns, rows, k", [(7, 6, 4), (5, 4, 4), (4, 3, 3), (6, 4, 4),
                                              (5, 5, 3)])
def test_random_games_end_on_lines_in_all_four_directions(columns, rows, k):
    """Seeded random games until both sides have won along each of the four directions: at
    every move the bitboard's verdict is the naive grid walk's."""
    rng, seen = random.Random(4), set()
    for _ in range(3000):
        board = ConnectFour(columns, rows, k)
        while not board.is_terminal():
            board = board.play(rng.choice(board.moves()))
            lines = naive_directions(board.cells(), columns, rows, k)
            assert {digit for digit, _ in lines} == {"X": {1}, "O": {2}, None: set()}[
                board.winner()]
        seen |= naive_directions(board.cells(), columns, rows, k)
        if len(seen) == 8:
            break
    assert seen == {(digit, name) for digit in (1, 2) for name in DIRECTIONS}


def test_a_full_board_with_no_line_is_a_draw():
    board = ConnectFour.from_text("OOXX/XXOO/OOXX/XXOO")
    assert board.is_terminal() and board.winner() is None and board.utility() == 0
    assert board.moves() == [] and board.over_reason() == "the board is full"
    assert naive_winners(board.cells(), 4, 4, 4) == set()
    with pytest.raises(IllegalMoveError, match=r"game is over \(the board is full\)"):
        board.play(0)


def test_random_games_end_as_the_rules_say():
    rng = random.Random(32)
    for columns, rows, k in SIZES:
        for _ in range(20):
            last = random_game(ConnectFour(columns, rows, k), rng)[-1]
            winners = naive_winners(last.cells(), columns, rows, k)
            assert len(winners) <= 1
            assert last.utility() == {frozenset(): 0, frozenset({1}): 1,
                                      frozenset({2}): -1}[frozenset(winners)]
            assert last.winner() or 0 not in last.cells()


# ------------------------------------------------------------------- texts and identity

def test_text_round_trips():
    rng = random.Random(7)
    for columns, rows, k in SIZES:
        for board in random_game(ConnectFour(columns, rows, k), rng):
            again = ConnectFour.from_text(board.to_text(), k)
            assert again == board and hash(again) == hash(board)
            assert eval(repr(board), {"ConnectFour": ConnectFour}) == board
            assert again.to_move == board.to_move and again.winner() == board.winner()


def test_text_is_read_top_row_first_and_o_can_open():
    board = ConnectFour.from_text("..../..O./.XX.", k=3)
    assert board.cells()[9:11] == (1, 1) and board.to_move == -1
    opened = ConnectFour.from_text("..../..../..O.", k=3, first="O")
    assert opened.to_move == 1 and opened == ConnectFour(4, 3, 3, first="O").play(2)
    assert "first='O'" in repr(opened) and "k=3" in repr(opened)


def test_the_grid_and_the_picture_come_from_the_base():
    board = play(ConnectFour(4, 3, 3), [0, 1])
    assert str(board).splitlines()[-1] == " X | O |   |"
    svg = board.svg(size=120)
    assert svg.startswith("<svg") and svg.count("<path") == 1 and svg.count("<circle") == 1
    sketch = board.sketch()
    assert sketch.crosses == ((2, 0),) and sketch.noughts == ((2, 1),)
    won = play(ConnectFour(4, 3, 3), [0, 0, 1, 1, 2])
    assert won.sketch().line == ((2, 0), (2, 2)) and "<line x1" in won.svg()


def test_conversion_from_an_mnk_board_obeys_gravity():
    board = MNKBoard.from_text("..../.O../.XX.", k=3)
    assert ConnectFour.from_board(board) == ConnectFour.from_text("..../.O../.XX.", k=3)
    assert MNKBoard.from_board(ConnectFour.from_board(board)) == board
    with pytest.raises(InvalidBoardError, match="floats above an empty cell"):
        ConnectFour.from_board(MNKBoard.from_text("X.../..../....", k=3))
    with pytest.raises(TypeError, match="not str"):
        ConnectFour.from_board("X...")


def test_boards_travel_to_other_processes():
    """Pickled (as a class tournament's processes need), a board keeps its shared geometry."""
    board = play(ConnectFour(5, 4), [2, 2, 1])
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.geometry is board.geometry
    assert again.play(3).winner() is None and again.moves() == board.moves()


def test_boards_of_different_sizes_or_k_differ():
    assert ConnectFour(4, 4, 3) != ConnectFour(4, 4, 4) != ConnectFour(4, 3, 3)
    assert ConnectFour(4, 4, 3).key() != ConnectFour(4, 4, 3, first="O").key()


def test_canonical_key_is_the_smaller_of_the_position_and_its_mirror():
    rng = random.Random(11)
    for columns, rows, k in SIZES:
        for board in random_game(ConnectFour(columns, rows, k), rng):
            mirror = board.mirror()
            flipped = "/".join(row[::-1] for row in board.to_text().split("/"))
            assert mirror.to_text() == flipped and mirror.winner() == board.winner()
            assert mirror.canonical_key() == board.canonical_key()
            assert board.canonical_key() == min(board.key(), mirror.key())
    asymmetric = ConnectFour().play(0)
    assert asymmetric.key() != asymmetric.mirror().key()


# ------------------------------------------------------------------------------ errors

@pytest.mark.parametrize("move, message", [
    (-1, r"column -1 is off the board: columns are numbered 0..6"),
    (7, r"column 7 is off the board: columns are numbered 0..6"),
    ("3", r"a move is a column number 0..6, not '3'"),
    (3.0, r"a move is a column number 0..6, not 3.0"),
    (True, r"a move is a column number 0..6, not True"),
])
def test_bad_moves_are_refused_by_name(move, message):
    with pytest.raises(IllegalMoveError, match=message):
        ConnectFour().play(move)


def test_a_full_column_is_refused():
    board = play(ConnectFour(), [3] * 6)
    assert 3 not in board.moves()
    with pytest.raises(IllegalMoveError, match=r"column 3 is full: it holds 6 pieces"):
        board.play(3)
    with pytest.raises(IllegalMoveError, match=r"column 3 is full"):
        board.landing_cell(3)


def test_moves_after_the_game_and_out_of_turn_are_refused():
    won = play(ConnectFour(4, 3, 3), [0, 0, 1, 1, 2])
    with pytest.raises(IllegalMoveError, match=r"column 3 cannot be played: the game is over "
                                               r"\(X has won\)"):
        won.play(3)
    with pytest.raises(IllegalMoveError, match=r"it is X's turn, not O's"):
        ConnectFour().play(0, player="O")
    assert ConnectFour().play(0, player="X") == ConnectFour().play(0)


@pytest.mark.parametrize("text, k, message", [
    ("X.../X.../XO../XO..", 4, r"4 X and 2 O"),  # wrong counts
    ("..../..../..../OO..", 4, r"X opens, so it has as many marks as O or one more"),
    ("X.../..../..../O...", 4, r"row 0, column 0 \(rows counted from the top\) floats"),
    ("..../.O../..../X...", 4, r"row 1, column 1 .* floats above an empty cell"),
    ("XXX/OOO", 3, r"both X and O have three in a row"),
    ("OO../XXXX/OOOX/OXXO", 4, r"the other side moved since"),
    ("O./XO/XX/XO/XO", 4, r"a piece was dropped on the winning move since"),
    ("X./O.", 2, r"no order of moves reaches this position"),
    ("X.A/...", 3, r"unknown character 'A' for cell 2"),
    ("X../..", 3, r"row 2 of 'X../..' has 2 cells, expected 3"),
    ("X..//...", 3, r"row 2 of 'X..//...' is empty"),
])
def test_impossible_and_malformed_texts_are_refused(text, k, message):
    with pytest.raises(InvalidBoardError, match=message):
        ConnectFour.from_text(text, k)


def test_order_check_finds_a_way_when_one_exists():
    """X opened in the one column where its piece is at the bottom; with an O under every X
    piece, X had nowhere to open."""
    board = ConnectFour.from_text("XX.X/OOXO", k=4)
    assert board.to_move == -1 and board == play(ConnectFour(4, 2, 4), [2, 0, 0, 1, 1, 3, 3])
    with pytest.raises(InvalidBoardError, match="no order of moves reaches this position"):
        ConnectFour.from_text("XXX./OOO.", k=4)


def test_from_cells_checks_its_input():
    assert ConnectFour.from_cells([0] * 4 + [1, 2, 0, 0], 4, 2, 2).to_text() == "..../XO.."
    with pytest.raises(InvalidBoardError, match=r"8 cells of 0, 1 or 2"):
        ConnectFour.from_cells([0] * 7, 4, 2, 2)
    with pytest.raises(TypeError, match=r"sequence of 8 digits"):
        ConnectFour.from_cells("....XO..", 4, 2, 2)
    with pytest.raises(InvalidBoardError, match="a board text is a string"):
        ConnectFour.from_text(42)


@pytest.mark.parametrize("arguments, error, message", [
    ((7.0, 6, 4), TypeError, r"columns is a whole number, not float"),
    ((7, "6", 4), TypeError, r"rows is a whole number, not str"),
    ((7, 6, True), TypeError, r"k is a whole number, not bool"),
    ((0, 6, 4), InvalidBoardError, r"columns is a positive whole number, not 0"),
    ((7, -1, 4), InvalidBoardError, r"rows is a positive whole number, not -1"),
    ((9, 7, 4), InvalidBoardError, r"columns \* \(rows \+ 1\) is at most 64 .* not 9 \* 8 = 72"),
    ((4, 3, 5), InvalidBoardError, r"k=5 in a row cannot fit on 4 columns of 3 rows"),
    ((20, 1, 4), InvalidBoardError, r"columns is at most 19"),
    ((7, 6, 4, "Z"), InvalidBoardError, r"the opener is 'X' or 'O', not 'Z'"),
])
def test_constructor_arguments_are_checked(arguments, error, message):
    with pytest.raises(error, match=message):
        ConnectFour(*arguments)
    assert issubclass(InvalidBoardError, ValueError)


def test_the_largest_board_fits_one_word():
    board = play(ConnectFour(8, 7, 4), [7] * 7)
    assert 7 not in board.moves() and board.to_text().split("/")[0] == ".......X"


# ------------------------------------------------------------------ the property test

@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIZES), st.lists(st.integers(0, 10 ** 6), max_size=60),
       st.sampled_from(["X", "O"]))
def test_random_legal_games_agree_with_a_naive_grid(size, choices, first):
    """Play the moves hypothesis picks (each an index into the legal moves) on the bitboard
    and on a plain list of cells: the cells, the winner and the end of the game agree at every
    step, and each position reads back from its text."""
    columns, rows, k = size
    board = ConnectFour(columns, rows, k, first=first)
    cells, mover = (0,) * (columns * rows), 1 if first == "X" else 2
    for choice in choices:
        if board.is_terminal():
            break
        move = board.moves()[choice % len(board.moves())]
        board, cells = board.play(move), naive_drop(cells, columns, rows, move, mover)
        mover = 3 - mover
        assert board.cells() == cells
        winners = naive_winners(cells, columns, rows, k)
        assert {"X": {1}, "O": {2}, None: set()}[board.winner()] == winners
        assert board.is_terminal() == bool(winners or 0 not in cells)
        assert ConnectFour.from_text(board.to_text(), k, first=first) == board


# --------------------------------------------------------- the course's searches run on it

def test_minimax_and_alphabeta_agree_on_a_tiny_board():
    state = ConnectFour(3, 3, 3)
    value = minimax(state)
    assert value == negamax_memo(state, {}) * state.to_move
    for options in ({}, {"table": True}, {"table": True, "symmetry": True},
                    {"table": True, "ordering": "heuristic"}, {"killers": True}):
        assert alphabeta(state, **options) == value, options
    assert pvs(state) == value


def test_alphabeta_with_table_and_symmetry_on_four_by_three():
    """4 columns x 3 rows, three in a row: X wins (the solver's and a plain search's value,
    see test_connect4_solve); the mirror table stores fewer positions."""
    state = ConnectFour(4, 3, 3)
    plain, mirrored = {}, {}
    assert alphabeta(state, table=plain) == 1
    assert alphabeta(state, table=mirrored, symmetry=True) == 1
    assert len(mirrored) < len(plain)


def test_depth_limited_search_scores_windows_of_connect_four():
    """X's open three on the bottom row: O blocks one end, X wins at the other, two moves
    ahead; one move ahead, the line score of the windows of four only estimates."""
    state = play(ConnectFour(), [3, 3, 4, 4, 5])
    stats = Stats()
    assert depth_limited(state, 2, stats=stats) == WIN
    assert stats.nodes > 1
    assert abs(depth_limited(state, 1)) < WIN


def test_mcts_and_agents_play_legal_games():
    state = play(ConnectFour(5, 4), [2, 2, 1])
    move = mcts(state, 200, seed=1)
    assert move in state.moves()
    record = play_game(make_agent("mcts", playouts=50, seed=3), make_agent("random", seed=4),
                       start=ConnectFour(5, 4))
    board = ConnectFour(5, 4)
    for move in record.moves:
        board = board.play(move)  # every move legal, in turn
    assert board.is_terminal() and board == record.final


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("XOxo./ Z"), max_size=30), st.integers(1, 6),
       st.one_of(st.integers(-3, 9), st.none(), st.booleans(), st.text(max_size=1),
                 st.floats(allow_nan=False)))
def test_any_text_or_move_is_parsed_or_refused_by_name(text, k, move):
    """Random texts and moves: a board, or one of the package's errors (never an IndexError
    or a KeyError from inside)."""
    try:
        board = ConnectFour.from_text(text, k)
    except InvalidBoardError:
        return
    assert ConnectFour.from_text(board.to_text(), k) == board
    try:
        after = board.play(move)
    except IllegalMoveError as error:
        assert str(error)
        return
    assert after.cells().count(0) == board.cells().count(0) - 1
