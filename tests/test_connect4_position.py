"""The Connect Four position solver (``solve_position``, 7x6 included): values against the plain
memoised negamax, the course's alpha-beta and an independent C++ solver, its errors, a game's
mistakes, and ``solve --connect4 C R --moves DIGITS`` on the command line."""
import io
import json
import random
import sys

import pytest

from ttt_lib import ConnectFour, IllegalMoveError, InvalidBoardError
from ttt_lib.errors import SearchOptionError
from ttt_lib.bench import connect4_plain
from ttt_lib.bench.connect4_positions import (QUICK_POSITIONS, connect4_positions,
                                              seeded_game)
from ttt_lib.cli import main
from ttt_lib.search.pruning import alphabeta
from ttt_lib.studies import connect4_solve
from ttt_lib.studies.connect4_game import (MovesSolve, game_mistakes, game_states,
                                           game_values, position_after, value_within)
from ttt_lib.studies.connect4_score import ScoreSolver, position_score, truncated_half
from ttt_lib.studies.connect4_solve import PositionSolver, solve_position
from test_connect4_solve import interrupted_solve


def random_position(rng, columns, rows, discs, k=4, first="X"):
    """The board after up to ``discs`` random moves (fewer if the game ends first), and the
    moves (columns from 0)."""
    board, moves = ConnectFour(columns, rows, k, first=first), []
    while len(moves) < discs and not board.is_terminal():
        column = rng.choice(board.moves())
        board, moves = board.play(column), moves + [column]
    return board, moves


def plain_value(board, moves):
    """X's value by the bench's plain memoised negamax (no pruning, no threats, no table of
    bounds: none of the solver's code)."""
    if board.is_terminal():
        return board.utility()
    value, _ = connect4_plain.solve_moves(board.columns, board.rows, moves, board.k)
    return value * board.to_move


# ------------------------------------------------------------ values against other searches

@pytest.mark.parametrize("columns, rows, discs, count, seed", [
    (5, 4, 9, 10, 2), (6, 5, 18, 10, 4), (6, 5, 22, 12, 5), (4, 5, 8, 10, 6),
    (6, 4, 12, 8, 7)])
def test_small_boards_agree_with_the_plain_negamax(columns, rows, discs, count, seed):
    rng = random.Random(seed)
    solver = PositionSolver(columns, rows)  # one table for every position: reuse is safe
    for _ in range(count):
        board, moves = random_position(rng, columns, rows, discs)
        expected = plain_value(board, moves)
        assert solve_position(board) == expected, moves
        assert solver.value(board) == expected, moves


@pytest.mark.parametrize("columns, rows, k, first", [(4, 4, 3, "X"), (5, 4, 3, "O"),
                                                     (4, 4, 4, "O"), (3, 5, 3, "O")])
def test_other_k_and_o_first_agree_with_the_courses_alphabeta(columns, rows, k, first):
    """Other k and O opening: the course's alpha-beta on the board itself (through none of
    the solver's code) gives the same value from X's side."""
    rng = random.Random(columns * rows + k)
    for _ in range(10):
        discs = rng.randrange(columns * rows // 3, columns * rows)
        board, _ = random_position(rng, columns, rows, discs, k, first)
        assert solve_position(board) == alphabeta(board, table={}), board.to_text()


def test_many_disc_7x6_positions_agree_with_the_plain_negamax():
    for seed in range(6):
        moves = seeded_game(seed, 30 + seed % 3 * 2)
        board = position_after("".join(str(column + 1) for column in moves))
        assert solve_position(board) == plain_value(board, moves), moves


def test_a_solve_counts_its_own_work():
    solver, board = PositionSolver(), position_after("5263474452367541157717215432")
    first = solver.solve(board)
    assert first["value"] == 0 and first["nodes"] == solver.nodes > 0
    assert first["positions"] == solver.positions > 0 and first["seconds"] > 0
    again = solver.solve(board)  # the table already holds the answer's bounds
    assert again["value"] == 0 and again["nodes"] < first["nodes"]


def test_a_value_is_the_best_of_its_childrens():
    """Consistency on 7x6 positions of 26 to 32 discs: the mover's value is the best of its
    children's, each child solved by its own solver."""
    rng = random.Random(11)
    for _ in range(6):
        board, _ = random_position(rng, 7, 6, rng.randrange(26, 33))
        if board.is_terminal():
            continue
        children = [solve_position(board.play(column)) for column in board.moves()]
        best = max(children) if board.to_move == 1 else min(children)
        assert solve_position(board) == best


# Pascal Pons' move strings (columns from 1) of seeded 7x6 positions of 16 to 37 discs, with
# the score that the BitBully C++ solver (PyPI ``bitbully`` 0.0.79, ``null_window`` without an
# opening book) gave for the player to move: Pons' distance score, positive a win. Recorded
# once; the live check below recomputes such scores wherever bitbully is installed.
BITBULLY_SCORES = [
    ("2447265634535517", 3), ("572534165252356225", 3), ("52146146625664557421", -5),
    ("22571121625534643276", -3), ("57253416525235622513", 3),
    ("5725341652523562251323", 3), ("265325665243545577677726", 0),
    ("535711357533273272164324", -6), ("26532566524354557767772644", 0),
    ("5263474452367541157717215432", 0), ("422541121127211667767757334426", -2),
    ("647244531276612154262233776763", -5), ("7422341735647741166133573473242566", 1),
    ("2252576253462244111563365343671351441", -1)]


@pytest.mark.parametrize("moves, score", BITBULLY_SCORES)
def test_7x6_positions_agree_with_a_cpp_solver(moves, score):
    board = position_after(moves)
    mover = (score > 0) - (score < 0)
    assert solve_position(board) == mover * board.to_move
    assert position_score(board) == score  # Pons' distance score too


def test_7x6_positions_agree_with_bitbully_where_installed():
    bitbully = pytest.importorskip("bitbully")
    agent = bitbully.BitBully(opening_book=None)
    for seed in range(200, 210):
        moves = seeded_game(seed, 24 + seed % 4 * 2)
        score = agent.null_window(bitbully.Board.from_moves("".join(map(str, moves))))
        board = position_after("".join(str(column + 1) for column in moves))
        assert solve_position(board) == ((score > 0) - (score < 0)) * board.to_move, moves
        assert position_score(board) == score, moves


def plain_score(board, memo):
    """Pons' score for the player to move by a plain memoised negamax over the boards: a
    finished game scores minus the winner's (cells + 1 - discs before its winning disc) // 2,
    a full board 0, else the best of minus the children's scores."""
    key = board.x, board.o
    if key not in memo:
        cells, discs = board.columns * board.rows, (board.x | board.o).bit_count()
        if board.won:
            memo[key] = -((cells + 1 - (discs - 1)) // 2)
        elif discs == cells:
            memo[key] = 0
        else:
            memo[key] = max(-plain_score(board.play(column), memo) for column in board.moves())
    return memo[key]


@pytest.mark.parametrize("columns, rows, discs, seed", [(5, 4, 10, 1), (6, 5, 20, 2),
                                                        (4, 5, 10, 3), (6, 4, 14, 4)])
def test_scores_agree_with_a_plain_score_negamax(columns, rows, discs, seed):
    rng, solver = random.Random(seed), ScoreSolver(columns, rows)
    for _ in range(8):
        board, _ = random_position(rng, columns, rows, discs)
        expected = plain_score(board, {})
        assert position_score(board) == solver.score(board) == expected, board.to_text()
        assert solver.value(board) == solve_position(board)


def test_score_arguments_and_rounding():
    with pytest.raises(TypeError, match="state is a ConnectFour position, not str"):
        position_score("4453")
    with pytest.raises(InvalidBoardError, match="this solver takes 7x6"):
        ScoreSolver().score(ConnectFour(5, 4))
    assert [truncated_half(score) for score in (-5, -4, -1, 0, 1, 5)] == [-2, -2, 0, 0, 0, 2]
    assert position_score(position_after("445566")) == 18  # X wins with disc 7: (43 - 6) // 2
    assert position_score(position_after("4455667")) == -18  # ... as O, to move, sees it


def test_finished_games_are_their_result():
    assert solve_position(position_after("4455667")) == 1  # X has four in the bottom row
    assert solve_position(position_after("14253637")) == -1  # O's four across
    boards = (random_position(random.Random(seed), 4, 4, 16)[0] for seed in range(200))
    full = next(board for board in boards if board.is_terminal() and board.utility() == 0)
    assert solve_position(full) == 0 and full.over_reason() == "the board is full"


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("state", ["4453", None, [3, 3], 7])
def test_solve_position_takes_a_connect_four_board(state):
    with pytest.raises(TypeError, match="state is a ConnectFour position"):
        solve_position(state)


def test_a_solver_takes_only_its_own_board_size():
    with pytest.raises(InvalidBoardError, match="state is a 5x4 k=4 board; this solver "
                                                "takes 7x6 k=4"):
        PositionSolver().value(ConnectFour(5, 4))
    with pytest.raises(TypeError, match="not str"):
        PositionSolver().value("4453")
    assert issubclass(InvalidBoardError, ValueError)


@pytest.mark.parametrize("arguments, error, message", [
    (("7", 6), TypeError, "columns is a whole number, not str"),
    ((7, 6, 4.0), TypeError, "k is a whole number, not float"),
    ((0, 6), InvalidBoardError, "columns is a positive whole number, not 0"),
    ((9, 7), InvalidBoardError, r"columns \* \(rows \+ 1\) is at most 64"),
])
def test_solver_sizes_are_checked(arguments, error, message):
    for solver in (PositionSolver, ScoreSolver):
        with pytest.raises(error, match=message):
            solver(*arguments)


@pytest.mark.parametrize("moves, error, message", [
    (4453, TypeError, "moves is a string of column digits, not int"),
    ("4408", IllegalMoveError, "move 3 is '0', not a column 1..7"),
    ("448", IllegalMoveError, "move 3 is '8', not a column 1..7"),
    ("44 5", IllegalMoveError, "move 3 is ' ', not a column"),
    ("4444444", IllegalMoveError, r"move 7 \(column 4\) is played in a full column"),
    ("44556677", IllegalMoveError, r"move 8 \(column 7\) comes after the game is over "
                                   r"\(X has won\)"),
])
def test_move_strings_are_checked(moves, error, message):
    with pytest.raises(error, match=message):
        position_after(moves)


def test_move_strings_count_columns_from_one():
    board = position_after("4453")
    assert board.to_text().endswith("/...O.../..OXX..")
    assert position_after("") == ConnectFour()
    with pytest.raises(InvalidBoardError, match="a board of 10 columns"):
        position_after("1", 10, 5)


def test_game_moves_are_checked():
    with pytest.raises(TypeError, match="start is a ConnectFour position"):
        game_states("4453", [3])
    with pytest.raises(TypeError, match="moves is a sequence of column numbers, not str"):
        game_states(ConnectFour(), "4453")
    with pytest.raises(IllegalMoveError):
        game_states(ConnectFour(), [3, 9])
    with pytest.raises(TypeError, match="budget is a whole number of nodes, not str"):
        game_values(ConnectFour(), [3], budget="10")
    with pytest.raises(SearchOptionError, match="budget is a positive number of nodes, not 0"):
        game_mistakes(ConnectFour(), [3], budget=0)
    with pytest.raises(SearchOptionError, match="player is 'X', 'O' or None, not 'x'"):
        game_mistakes(ConnectFour(), [3], player="x")
    with pytest.raises(TypeError, match="player is 'X', 'O' or None, not int"):
        game_mistakes(ConnectFour(), [3], player=1)


# ------------------------------------------------------------------------ a game's mistakes

def test_a_small_games_mistakes_are_the_moves_that_lower_the_value():
    """4x4 games from four discs in, every position solvable: a move is a mistake exactly
    when the plain search finds its player's value lower after it, and the columns said to
    keep the value do keep it."""
    rng, found = random.Random(8), 0
    for _ in range(5):
        _, moves = random_position(rng, 4, 4, 16)
        start, played = game_states(ConnectFour(4, 4), moves[:4])[-1], moves[4:]
        states = game_states(start, played)
        values = [plain_value(state, moves[:index + 4]) for index, state in enumerate(states)]
        assert game_values(start, played) == values
        expected = [ply for ply in range(1, len(played) + 1)
                    if states[ply - 1].to_move * (values[ply] - values[ply - 1]) < 0]
        mistakes = game_mistakes(start, played)
        assert [mistake.ply for mistake in mistakes] == expected
        for player in "XO":  # one player's moves alone: that player's same mistakes
            assert game_mistakes(start, played, player=player) == [
                mistake for mistake in mistakes if mistake.player == player]
        found += len(mistakes)
        for mistake in mistakes:
            state, before = states[mistake.ply - 1], moves[:mistake.ply + 3]
            assert mistake.column == played[mistake.ply - 1] not in mistake.keeping
            assert mistake.player == "XO"[state.to_move == -1]
            assert mistake.before == values[mistake.ply - 1]
            assert mistake.after == values[mistake.ply]
            assert sorted(mistake.keeping) == [
                column for column in state.moves()
                if plain_value(state.play(column), before + [column]) == mistake.before]
    assert found  # random games do throw values away


def test_a_mistake_is_told_in_words():
    moves = [int(digit) - 1 for digit in "257771314744647214174561532615"]
    mistakes = game_mistakes(ConnectFour(), moves, budget=4_000)
    assert [mistake.describe() for mistake in mistakes] == [
        "move 28: O in column 6 turned a win into a loss (columns 1, 2, 3, 5 kept it)",
        "move 29: X in column 1 turned a win into a loss (column 6 kept it)"]


def test_positions_over_the_budget_are_not_known(monkeypatch):
    monkeypatch.setattr(connect4_solve, "PROGRESS_EVERY", 16)
    moves = seeded_game(3, 30)
    values = game_values(ConnectFour(), moves, budget=1000)
    known = [value for value in values if value is not None]
    assert values[0] is None and known and values[-len(known):] == known
    board = position_after("".join(str(column + 1) for column in moves[:16]))
    solver = PositionSolver()
    assert value_within(solver, board, 1000) is None and solver.progress is None


# ------------------------------------------------------------------------ the command line

def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_solves_the_position_after_the_moves():
    drawn, lost = "5263474452367541157717215432", "2252576253462244111563365343671351441"
    status, out = run(["solve", "--connect4", "7", "6", "--moves", drawn, "--json"])
    figures = json.loads(out)
    assert status == 0 and figures["value"] == 0 and figures["to_move"] == "X"
    assert figures["nodes"] > 0 and figures["seconds"] > 0 and figures["moves"] == drawn
    status, out = run(["solve", "--connect4", "7", "6", "--moves", lost])
    assert status == 0 and out.startswith(
        f"Connect Four, 7 columns x 6 rows, k=4, after moves {lost} (O to move): X wins with "
        f"best play; X's value 1")


def test_cli_help_says_columns_count_from_one(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "columns numbered from 1" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("argv, fragment", [
    (["--connect4", "7", "6", "--moves", "4448"], "move 4 is '8', not a column 1..7"),
    (["--connect4", "7", "6", "--moves", "4444444"], "is played in a full column"),
    (["--connect4", "7", "6", "--moves", "44556677"], "comes after the game is over"),
    (["--moves", "4453"], "--moves needs --connect4 C R [K]"),
])
def test_cli_bad_moves_exit_2_with_one_line(argv, fragment, capsys):
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_cli_ctrl_c_stops_a_position_cleanly_with_the_figures_so_far():
    returncode, out, err = interrupted_solve("--connect4", "7", "6", "--moves", "44")
    assert returncode == 130
    figures = json.loads(out)
    assert figures["value"] is None and figures["nodes"] > 0 and figures["moves"] == "44"
    assert err.rstrip().splitlines()[-1].startswith("stopped (Ctrl-C) after")
    assert "Traceback" not in err


def test_moves_solve_reports_its_work():
    solve = MovesSolve(5, 4, moves="33221154")
    figures = solve.solve()
    assert figures["value"] == plain_value(solve.state, [2, 2, 1, 1, 0, 0, 4, 3])
    assert figures["nodes"] == solve.nodes > 0 and figures["positions"] > 0


# --------------------------------------------------------------------------------- bench

def test_the_bench_task_agrees_and_reports_each_position():
    row = connect4_positions(None, quick=True)
    assert row["positions"] == [{"seed": seed, "discs": discs} for seed, discs in QUICK_POSITIONS]
    assert all(discs >= 16 for _, discs in QUICK_POSITIONS)
    assert len(row["searches"]) == 2 * len(QUICK_POSITIONS) and row["ratio"] > 0
