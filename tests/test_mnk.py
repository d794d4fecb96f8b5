"""MNKBoard: the m,n,k-game on the same protocol as the 3x3 boards."""
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttt_lib import BitBoard, IllegalMoveError, InvalidBoardError
from ttt_lib.game import reachable
from ttt_lib.boards.mnk import MNKBoard, symmetries, winning_lines
from ttt_lib.boards.tictactoe import LINES
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.exact import solve, solve_all
from ttt_lib.search import Stats
from ttt_lib.symmetry import SYMMETRIES

SHAPES = [(3, 3, 3), (4, 4, 3), (4, 4, 4), (3, 5, 3), (5, 3, 4), (1, 5, 2), (2, 2, 1), (6, 7, 4)]


# ------------------------------------------------------------ independent reference checks

def runs_of_k(cells, m, n, k):
    """Which digits (1 X, 2 O) have k in a row, found by walking the grid cell by cell."""
    grid = [cells[r * n:(r + 1) * n] for r in range(m)]
    found = set()
    for r in range(m):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                stones = [grid[r + i * dr][c + i * dc] for i in range(k)
                          if 0 <= r + i * dr < m and 0 <= c + i * dc < n]
                if len(stones) == k and stones[0] != 0 and len(set(stones)) == 1:
                    found.add(stones[0])
    return found


def window_count(m, n, k):
    """Windows of k: along rows, columns and the two diagonal directions."""
    if k == 1:
        return m * n
    return (m * (n - k + 1) + n * (m - k + 1)
            + 2 * max(0, m - k + 1) * max(0, n - k + 1))


def random_game(m, n, k, rng, first="X"):
    """The positions of one random game, from the empty board to its end."""
    state = MNKBoard(m, n, k, first)
    states = [state]
    while not state.is_terminal():
        state = state.play(rng.choice(state.moves()))
        states.append(state)
    return states


# ----------------------------------------------------------------------------- the shape

@pytest.mark.parametrize("m, n, k", SHAPES)
def test_windows_are_every_straight_run_of_k_cells(m, n, k):
    lines = winning_lines(m, n, k)
    assert len(lines) == len(set(lines)) == window_count(m, n, k)
    for line in lines:
        cells = [divmod(cell, n) for cell in line]
        steps = {(r1 - r0, c1 - c0) for (r0, c0), (r1, c1) in zip(cells, cells[1:])}
        assert len(line) == k and len(steps) <= 1
        assert steps <= {(0, 1), (1, 0), (1, 1), (1, -1)}


def test_3x3_shape_matches_the_tic_tac_toe_tables():
    assert winning_lines(3, 3, 3) == LINES
    assert symmetries(3, 3) == SYMMETRIES
    assert MNKBoard(3, 3, 3).lines() == LINES


@pytest.mark.parametrize("m, n, count", [(3, 3, 8), (4, 4, 8), (3, 5, 4), (5, 3, 4),
                                         (6, 7, 4), (1, 4, 2), (4, 1, 2), (1, 1, 1)])
def test_symmetries_form_a_group_that_keeps_the_windows(m, n, count):
    perms = list(symmetries(m, n).values())
    assert len(perms) == len(set(perms)) == count
    identity = tuple(range(m * n))
    assert perms[0] == identity
    for p in perms:
        assert sorted(p) == list(identity)
        for q in perms:
            assert tuple(p[j] for j in q) in perms  # closed under composition
    for k in range(1, max(m, n) + 1):
        windows = {frozenset(line) for line in winning_lines(m, n, k)}
        for p in perms:
            assert {frozenset(p[i] for i in line) for line in windows} == windows


# -------------------------------------------------------- agreement with the 3x3 BitBoard

def test_mnk_333_reaches_the_same_positions_as_the_bitboard(all_bitboards):
    mnk = list(reachable(MNKBoard(3, 3, 3)).values())
    assert [s.to_text() for s in mnk] == [b.to_text() for b in all_bitboards]


def test_mnk_333_agrees_with_the_bitboard_on_every_position(all_bitboards):
    for bit in all_bitboards:
        mnk = MNKBoard.from_text(bit.to_text(), k=3)
        assert mnk.to_text() == bit.to_text()
        assert mnk.cells() == bit.cells()
        assert mnk.moves() == bit.moves()
        assert mnk.winner() == bit.winner()
        assert mnk.is_terminal() == bit.is_terminal()
        assert mnk.utility() == bit.utility()
        assert mnk.to_move == bit.to_move
        assert mnk.over_reason() == bit.over_reason()
        assert str(mnk) == str(bit)
        assert mnk.svg() == bit.svg()
        for move in bit.moves():
            assert mnk.play(move).to_text() == bit.play(move).to_text()


def test_mnk_333_symmetry_classes_are_the_bitboards(all_bitboards):
    def classes(key_of):
        groups = defaultdict(set)
        for bit in all_bitboards:
            groups[key_of(bit)].add(bit.to_text())
        return sorted(sorted(group) for group in groups.values())

    mnk = classes(lambda b: MNKBoard.from_text(b.to_text(), k=3).canonical_key())
    assert mnk == classes(BitBoard.canonical_key)
    assert len(mnk) == 765


def test_mnk_333_with_o_opening_matches_the_bitboard():
    mnk = [s.to_text() for s in reachable(MNKBoard(3, 3, 3, first="O")).values()]
    assert mnk == [b.to_text() for b in reachable(BitBoard(first="O")).values()]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.integers(-2, 10), st.none(), st.booleans(), st.text(max_size=1)),
                max_size=12),
       st.sampled_from(["X", "O"]), st.sampled_from([None, "X", "O", "Z"]))
def test_mnk_333_refuses_moves_exactly_like_the_bitboard(sequence, first, player):
    mnk, bit = MNKBoard(3, 3, 3, first), BitBoard(first)
    for move in sequence:
        try:
            expected = bit.play(move, player=player)
        except IllegalMoveError as error:
            with pytest.raises(IllegalMoveError) as raised:
                mnk.play(move, player=player)
            assert str(raised.value) == str(error)
            continue
        mnk, bit = mnk.play(move, player=player), expected
        assert mnk.to_text() == bit.to_text()
        player = None if player is None else ("O" if player == "X" else "X")


# ------------------------------------------------------------------ larger boards

@pytest.mark.parametrize("m, n, k", SHAPES)
def test_random_games_follow_the_rules(m, n, k):
    rng = random.Random(m * 100 + n * 10 + k)
    for _ in range(30):
        for state in random_game(m, n, k, rng, first=rng.choice("XO")):
            cells = state.cells()
            runs = runs_of_k(cells, m, n, k)
            assert state.winner() == ({1: "X", 2: "O"}[runs.pop()] if runs else None)
            full = 0 not in cells
            assert state.is_terminal() == (state.winner() is not None or full)
            assert state.moves() == ([] if state.is_terminal()
                                     else [i for i, d in enumerate(cells) if d == 0])
            assert state.utility() == {"X": 1, "O": -1, None: 0}[state.winner()]
            again = MNKBoard.from_text(state.to_text(), k=k, first=state.first)
            assert again == state and again.key() == state.key()
            assert again.to_move == state.to_move and again.winner() == state.winner()


@pytest.mark.parametrize("m, n, k", [(4, 4, 3), (3, 5, 3), (4, 4, 4)])
def test_canonical_key_is_the_smallest_key_among_the_images(m, n, k):
    rng = random.Random(7)
    perms = list(symmetries(m, n).values())
    for _ in range(20):
        for state in random_game(m, n, k, rng):
            cells = state.cells()
            images = [MNKBoard.from_cells([cells[j] for j in p], m, n, k) for p in perms]
            assert state.canonical_key() == min(image.key() for image in images)
            assert all(image.canonical_key() == state.canonical_key() for image in images)


def test_keys_tell_positions_and_openers_apart():
    x_first = reachable(MNKBoard(2, 5, 3))
    o_first = reachable(MNKBoard(2, 5, 3, first="O"))
    assert len({s.key() for s in x_first.values()}) == len(x_first)
    assert not set(x_first) & set(o_first)
    assert len({MNKBoard(4, 4, 3), MNKBoard(4, 4, 3), MNKBoard(4, 4, 4)}) == 2


def test_text_grid_and_svg_of_a_4x4_board():
    board = MNKBoard(4, 4, 3).play(5).play(0).play(6).play(1).play(7)
    assert board.to_text() == "OO../.XXX/..../...."
    assert board.winner() == "X" and board.winning_line() == (5, 6, 7)
    assert str(board).splitlines()[:3] == [" O | O |   |", "---+---+---+---", "   | X | X | X"]
    assert repr(board) == "MNKBoard.from_text('OO../.XXX/..../....', k=3)"
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<circle") == 2 and svg.count("<path") == 3
    assert 'stroke-opacity="0.6"' in svg
    wide = MNKBoard(2, 4, 2).svg(size=80)
    assert 'width="80" height="40"' in wide


def test_slashless_text_needs_the_shape():
    board = MNKBoard.from_text("X..O............", k=3, m=4, n=4)
    assert board.to_text() == "X..O/..../..../...."
    assert MNKBoard.from_text("x..o/..../..../....", k=3) == board
    assert board.m == board.n == 4 and board.k == 3
    row = MNKBoard.from_text("X.O..", k=2)
    assert (row.m, row.n, row.to_text()) == (1, 5, "X.O..")


# ------------------------------------------------------------------ precise errors

@pytest.mark.parametrize("text, options, fragment", [
    (42, {}, "a string, not int"),
    ("X...", {"m": 4}, "needs both m and n (or none, for a single row); got m=4, n=None"),
    ("", {}, "row 1 of '' is empty"),
    ("", {"m": 0, "n": 0}, "m is a positive whole number, not 0"),
    ("X...", {"m": 4, "n": 4}, "4 rows of 4 cells make 16 cells; 'X...' has 4"),
    ("..../..../....", {"m": 4}, "expected 4 rows separated by '/'; '..../..../....' has 3"),
    ("..../.../..../....", {}, "row 2 of '..../.../..../....' has 3 cells, expected 4"),
    ("..../..../..../....", {"n": 5}, "row 1 of '..../..../..../....' has 4 cells, expected 5"),
    ("..../..../..../", {}, "row 4 of '..../..../..../' is empty"),
    ("X.Z./..../..../....", {}, "unknown character 'Z' for cell 2"),
    ("..../..../..../...-", {}, "unknown character '-' for cell 15"),
    ("XX../..../..../....", {}, "X opens, so it has as many marks as O or one more; "
                                "this position has 2 X and 0 O"),
    ("XXXX/OOOO/..../....", {"k": 4}, "both X and O have four in a row"),
    ("XXX./OO../O.../....", {}, "X has three in a row but the other side moved since"),
    ("X.../..../..../....", {"first": "O"}, "O opens, so it has as many marks as X or one "
                                             "more; this position has 1 X and 0 O"),
    ("XXX./OO.O/O..O/XXX.", {}, "X has three in a row twice with no cell in common"),
    ("..../..../..../....", {"k": 5}, "k=5 in a row cannot fit on 4 rows of 4 cells"),
    ("..../..../..../....", {"k": 0}, "k is a positive whole number, not 0"),
])
def test_invalid_boards_name_the_problem(text, options, fragment):
    options = {"k": 3, **options}
    with pytest.raises(InvalidBoardError) as raised:
        MNKBoard.from_text(text, **options)
    assert fragment in str(raised.value)


def test_a_win_with_one_common_cell_is_valid():
    # X's last move at cell 5 completed a row and a diagonal at once
    board = MNKBoard.from_text("X.OO/XXX./O.X./O...", k=3)
    assert board.winner() == "X" and board.is_terminal()


@pytest.mark.parametrize("args, fragment", [
    ((0, 4, 3), "m is a positive whole number, not 0"),
    ((4, "4", 3), "n is a positive whole number, not '4'"),
    ((4, 4, True), "k is a positive whole number, not True"),
    ((2, 3, 4), "k is at most 3"),
])
def test_bad_shapes_name_the_problem(args, fragment):
    with pytest.raises(InvalidBoardError, match=fragment):
        MNKBoard(*args)


@pytest.mark.parametrize("move, fragment", [
    (0, "cell 0 is occupied by X"),
    (16, "cell 16 is off the board: cells are numbered 0..15"),
    (-1, "cell -1 is off the board"),
    ("4", "a move is a cell number 0..15, not '4'"),
    ((1, 1), "not (1, 1)"),
])
def test_illegal_moves_name_the_problem(move, fragment):
    with pytest.raises(IllegalMoveError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        MNKBoard(4, 4, 4).play(0).play(move)


def test_wrong_player_and_game_over():
    board = MNKBoard(4, 4, 3).play(0)
    with pytest.raises(IllegalMoveError, match="it is O's turn, not X's"):
        board.play(4, player="X")
    assert board.play(4, player="O").to_text() == "X.../O.../..../...."
    won = MNKBoard.from_text("XXX./OO../..../....", k=3)
    with pytest.raises(IllegalMoveError, match=r"the game is over \(X has won\)"):
        won.play(15)
    assert won.moves() == []
    drawn = MNKBoard.from_text("XOX/XOO/OXX", k=3)
    with pytest.raises(IllegalMoveError, match=r"the board is full"):
        drawn.play(4)


@settings(max_examples=1000, deadline=None)
@given(st.text(st.sampled_from("XOxo./ Z"), max_size=22), st.sampled_from([2, 3, 4]))
def test_parsing_raises_only_invalid_board_errors(text, k):
    try:
        board = MNKBoard.from_text(text, k=k)
    except InvalidBoardError:
        return
    assert MNKBoard.from_text(board.to_text(), k=k) == board


# ----------------------------------------------------- the searches, unchanged, on MNKBoard

def test_alphabeta_on_mnk_333_matches_the_bitboard_solver_everywhere(all_bitboards):
    mnk_table, bit_table = {}, {}
    for bit in all_bitboards:
        mnk = MNKBoard.from_text(bit.to_text(), k=3)
        expected = solve(bit, bit_table)
        assert alphabeta(mnk, table=mnk_table, symmetry=True, ordering="threats") == expected


def test_alphabeta_with_speed_ups_matches_memoised_negamax_on_2x5():
    values = solve_all(MNKBoard(2, 5, 3))
    table = {}
    for key, state in reachable(MNKBoard(2, 5, 3)).items():
        assert alphabeta(state, table=table, symmetry=True, ordering="heuristic") == values[key]


@pytest.mark.parametrize("options", [
    {"table": True},
    {"symmetry": True},
    {"symmetry": True, "ordering": "heuristic"},
    {"symmetry": True, "ordering": "threats"},
])
def test_4x4_with_three_in_a_row_is_a_first_player_win(options):
    assert alphabeta(MNKBoard(4, 4, 3), **options) == 1


def test_4x4_with_three_in_a_row_is_won_by_whoever_opens():
    assert alphabeta(MNKBoard(4, 4, 3, first="O"), symmetry=True, ordering="heuristic") == -1


@pytest.mark.parametrize("options", [{"symmetry": True}, {"symmetry": True, "ordering": "threats"}])
def test_4x4_with_four_in_a_row_is_a_draw(options):
    stats, table = Stats(), {}
    assert alphabeta(MNKBoard(4, 4, 4), stats=stats, table=table, **options) == 0
    assert 0 < len(table) <= stats.nodes


def test_boards_survive_pickling_for_process_pools():
    import pickle
    board = MNKBoard(5, 5, 4).play(12).play(0)
    copy = pickle.loads(pickle.dumps(board))
    assert copy == board and copy.canonical_key() == board.canonical_key()
    assert len(pickle.dumps(board)) < 1000  # the shape travels as (m, n, k), not its tables
