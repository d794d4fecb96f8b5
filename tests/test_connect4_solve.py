"""The Connect Four solver: exact values against independent searches, its figures, its errors,
and ``solve --connect4 C R [K]`` on the command line."""
import io
import json
import signal
import subprocess
import sys
import time

from _processes import interruptible
import pytest

from ttt_lib import ConnectFour, InvalidBoardError
from ttt_lib.bench import connect4_plain
from ttt_lib.cli import main
from ttt_lib.search.pruning import alphabeta
from ttt_lib.studies import connect4_solve
from ttt_lib.studies.connect4_solve import (Connect4Solver, SolveProgress, format_figures,
                                            solve_connect4, threat_cells, threat_cells_4)
from ttt_lib.studies.mnk_solve import BoardTooLargeError


# ------------------------------------------------------------ an independent plain search

def plain_value(columns, rows, k):
    """X's value of the empty board by a plain memoised negamax over columns of digits
    (bottom first): no bitboards, no bounds, no symmetry, no ordering (it stops only at a
    win, the best value there is); a move wins if the pieces through it in some direction
    number at least k."""
    memo = {}

    def wins(cols, column, digit):
        row = len(cols[column]) - 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < columns and 0 <= r < len(cols[c]) and cols[c][r] == digit:
                    count, c, r = count + 1, c + sign * dc, r + sign * dr
            if count >= k:
                return True
        return False

    def value(cols, digit):
        if cols in memo:
            return memo[cols]
        best = None  # None: the board is full
        for c in range(columns):
            if len(cols[c]) < rows:
                child = cols[:c] + (cols[c] + (digit,),) + cols[c + 1:]
                found = 1 if wins(child, c, digit) else -value(child, 3 - digit)
                best = found if best is None else max(best, found)
                if best == 1:
                    break  # nothing beats a win
        memo[cols] = 0 if best is None else best
        return memo[cols]

    return value(((),) * columns, 1)


SMALL = [(3, 3, 3), (4, 3, 3), (3, 4, 3), (4, 4, 3), (5, 3, 3), (6, 3, 3), (3, 5, 3),
         (4, 5, 3), (5, 4, 3), (4, 3, 4), (3, 5, 4), (2, 2, 2), (1, 1, 1), (3, 2, 2),
         (4, 2, 3)]


@pytest.mark.parametrize("columns, rows, k", SMALL)
def test_small_boards_agree_with_the_plain_search(columns, rows, k):
    assert solve_connect4(columns, rows, k)["value"] == plain_value(columns, rows, k)


def test_four_by_four_is_a_draw_by_both_searches():
    figures = solve_connect4(4, 4)
    assert figures["value"] == plain_value(4, 4, 4) == 0
    assert connect4_plain.solve(4, 4, 4)[0] == 0  # the bench's baseline agrees too


def test_four_columns_of_five_agree_with_alphabeta_on_the_board():
    """4x5, four in a row, by the course's alpha-beta (a table keyed up to the mirror) on
    ConnectFour positions: the same value, a draw, through none of the solver's code."""
    assert solve_connect4(4, 5)["value"] == alphabeta(ConnectFour(4, 5), table={},
                                                      symmetry=True) == 0


def test_six_columns_of_four_is_a_win_for_o():
    """6x4, four in a row: O wins. (The bench's plain memoised negamax agrees, once run by
    hand: 94.9 million positions and 10.7 GB, far too much for a test.)"""
    figures = solve_connect4(6, 4)
    assert figures["value"] == -1
    assert 0 < figures["positions"] <= figures["nodes"]


def test_figures_count_the_work():
    solver = Connect4Solver(4, 4)
    figures = solver.solve()
    assert set(figures) == {"columns", "rows", "k", "value", "nodes", "positions", "seconds"}
    assert figures["positions"] == len(solver.table) > 0
    assert figures["nodes"] >= figures["positions"] and figures["seconds"] > 0
    text = format_figures(figures)
    assert text.startswith("Connect Four, 4 columns x 4 rows, k=4: a draw; X's value 0")
    assert f"nodes {figures['nodes']:,}" in text


def test_the_table_keys_positions_up_to_the_mirror():
    """Keys up to the mirror: the table holds one entry for a position and its mirror."""
    solver = Connect4Solver(5, 4)
    solver.solve()
    for key in list(solver.table)[:2000]:
        assert key <= solver.mirror(key)


def test_threat_cells_of_four_match_the_general_rule():
    """The unrolled four-in-a-row threats against the general k loop, over random games."""
    import random
    rng = random.Random(5)
    for columns, rows in ((7, 6), (5, 4), (8, 7)):
        board, height = ConnectFour(columns, rows), rows + 1
        fast, full = threat_cells_4(height), board.geometry.full
        while not board.is_terminal():
            for mine in (board.x, board.o):
                empty = full ^ (board.x | board.o)
                assert fast(mine, empty) == threat_cells(mine, empty, height, 4)
            board = board.play(rng.choice(board.moves()))


def test_progress_is_reported(monkeypatch):
    monkeypatch.setattr(connect4_solve, "PROGRESS_EVERY", 64)
    seen = []
    solve_connect4(4, 4, progress=lambda solver: seen.append(solver.nodes))
    assert seen and seen == sorted(seen) and seen[0] == 64
    out = io.StringIO()
    line = SolveProgress(out, after=0)
    line(Connect4Solver(4, 4))
    line.close()
    assert "nodes/s" in out.getvalue() and out.getvalue().endswith("\n")


@pytest.mark.parametrize("arguments, error, message", [
    (("5", 4), TypeError, "columns is a whole number, not str"),
    ((5, 4, 4.0), TypeError, "k is a whole number, not float"),
    ((0, 4), InvalidBoardError, "columns is a positive whole number, not 0"),
    ((4, 4, 5), InvalidBoardError, "k=5 in a row cannot fit"),
    ((7, 6), BoardTooLargeError, r"columns\*rows is at most 30 cells .* not 7\*6=42"),
])
def test_solver_arguments_are_checked(arguments, error, message):
    with pytest.raises(error, match=message):
        Connect4Solver(*arguments)
    assert issubclass(BoardTooLargeError, ValueError)


# ------------------------------------------------------------------------ the command line

def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_json_figures():
    status, out = run(["solve", "--connect4", "4", "4", "--json"])
    figures = json.loads(out)
    assert status == 0
    expected = solve_connect4(4, 4)
    assert {k: v for k, v in figures.items() if k != "seconds"} == {
        k: v for k, v in expected.items() if k != "seconds"}


def test_cli_text_figures_and_k():
    status, out = run(["solve", "--connect4", "4", "3", "3"])
    assert status == 0
    assert out.startswith("Connect Four, 4 columns x 3 rows, k=3: X (the first player) wins; "
                          "X's value 1")
    assert "positions stored" in out


def test_cli_json_to_a_file(tmp_path):
    path = tmp_path / "c4.json"
    status, out = run(["solve", "--connect4", "3", "3", "3", "--json", str(path)])
    assert status == 0 and out.strip() == f"wrote {path}"
    assert json.loads(path.read_text())["value"] == 0


@pytest.mark.parametrize("argv, fragment", [
    (["--connect4", "4"], "--connect4 takes C R [K] (columns, rows, and k, 4 unless given), "
                          "not 1 number"),
    (["--connect4", "4", "4", "4", "4"], "not 4 numbers"),
    (["--connect4", "4", "x"], "invalid int value: 'x'"),
    (["--connect4", "0", "4"], "columns is a positive whole number, not 0"),
    (["--connect4", "4", "4", "5"], "k=5 in a row cannot fit"),
    (["--connect4", "7", "6"], "columns*rows is at most 30 cells"),
    (["--connect4", "5000", "5000"], "columns is at most 19"),
    (["--connect4", "9", "7"], "columns * (rows + 1) is at most 64"),
    (["--connect4", "4", "4", "--mnk", "3", "3", "3"], "solve takes --mnk or --connect4, "
                                                       "not both"),
])
def test_cli_bad_arguments_exit_2_with_one_line(argv, fragment, capsys):
    start = time.perf_counter()
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - start < 1


def interrupted_solve(*arguments: str) -> tuple[int, str, str]:
    """``python -m ttt_lib solve ARGUMENTS --json`` sent Ctrl-C once its progress line shows:
    (exit status, stdout, stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ttt_lib", "solve", *arguments, "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **interruptible())
    shown, deadline = "", time.monotonic() + 120  # each solve takes far longer than this
    while "nodes/s" not in shown and time.monotonic() < deadline:  # the progress line,
        char = process.stderr.read(1)  # shown 2 s into the solve
        if not char:
            break
        shown += char
    time.sleep(0.5)  # not while the line is being written
    process.send_signal(signal.SIGINT)
    err = shown + process.stderr.read()  # the same stream (communicate() would skip what
    out = process.stdout.read()  # its reader already holds); both are a few lines
    process.wait(timeout=60)
    return process.returncode, out, err


def test_cli_ctrl_c_stops_cleanly_with_the_figures_so_far():
    returncode, out, err = interrupted_solve("--connect4", "6", "5")
    assert returncode == 130
    figures = json.loads(out)
    assert figures["value"] is None and figures["nodes"] > 0
    assert (figures["columns"], figures["rows"], figures["k"]) == (6, 5, 4)
    assert "nodes/s" in err
    assert err.rstrip().splitlines()[-1].startswith("stopped (Ctrl-C) after")
    assert "Traceback" not in err
