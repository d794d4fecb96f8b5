"""The argument checks the fuzz relies on, one by one, and the serial fallback of a browser."""
from __future__ import annotations

import concurrent.futures
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from ttt_lib import BitBoard, InvalidBoardError, ListBoard, MNKBoard
from ttt_lib import arena
from ttt_lib.agents import AgentError, MCTSAgent, make_agent
from ttt_lib.arena import ArenaError, SerialExecutor, process_pool, tournament
from ttt_lib.boards.alt import described_svg
from ttt_lib.boards.tictactoe import svg


def test_bits_outside_the_eighteen_or_on_both_sides_are_refused():
    board = BitBoard().play(0).play(8)
    assert BitBoard.from_bits(board.bits) == board
    for bits, message in ((1 << 18, "0..262143"), (-1, "0..262143"),
                          ((1 << 9) | 1, "both X and O")):
        with pytest.raises(InvalidBoardError, match=message):
            BitBoard.from_bits(bits)
    with pytest.raises(TypeError, match="bits is an int"):
        BitBoard.from_bits("x")


def test_pictures_refuse_sizes_and_cells_off_the_board():
    board = ListBoard().play(4)
    assert board.svg(10).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="10"')
    for size in (0, -5, 10_001, float("nan")):
        with pytest.raises(InvalidBoardError, match="size is a number of pixels"):
            board.svg(size)
    with pytest.raises(TypeError, match="size is a number of pixels, not str"):
        board.svg("a")
    with pytest.raises(InvalidBoardError, match="highlight cell 9 is off the board"):
        board.svg(96, [9])
    with pytest.raises(TypeError, match="cells is a sequence of 9 digits"):
        svg(5)
    assert described_svg(svg(board.cells()), board.describe()) == board.svg()  # + its words


def test_conversions_and_codes_refuse_what_is_not_a_board():
    with pytest.raises(TypeError, match="board is a ListBoard, BitBoard or MNKBoard, not int"):
        BitBoard.from_board(5)
    with pytest.raises(TypeError, match="code is an int"):
        ListBoard.from_code("1")
    with pytest.raises(InvalidBoardError, match="9 cells of 0, 1 or 2"):
        ListBoard.from_cells([[1]] * 9)
    assert ListBoard.from_cells(iter([1] + [0] * 8)) == ListBoard().play(0)
    assert BitBoard.from_board(MNKBoard(3, 3, 3).play(4)) == BitBoard().play(4)


def test_agent_options_are_checked_when_the_agent_is_built():
    with pytest.raises(TypeError, match="seed is an int or None, not list"):
        make_agent("random", seed=[1])
    with pytest.raises(TypeError, match="killers is True or False"):
        make_agent("alphabeta", killers="yes")
    with pytest.raises(AgentError, match="unknown ordering 'best'"):
        make_agent("alphabeta", ordering="best")
    with pytest.raises(AgentError, match="epsilon is a probability in \\[0, 1\\], not 2"):
        make_agent("expectimax", epsilon=2)
    with pytest.raises(AgentError, match="at most 1,000,000 and >= 2, not 1000001"):
        MCTSAgent(playouts=1_000_001)
    with pytest.raises(TypeError, match="state is a game position"):
        make_agent("random").choose("X........")


def test_tournament_counts_are_bounded():
    with pytest.raises(ArenaError, match="at most 1,000,000 and >= 1, not 1000001"):
        tournament(["random"], games=1_000_001)
    with pytest.raises(TypeError, match="agents is a list"):
        tournament("random")
    with pytest.raises(ArenaError, match="at least one \\(X agent, O agent\\) pair"):
        arena.play_pairs([])


@pytest.mark.parametrize("argv, message", [
    (["--games", "1000000000000000000000000000000"], "--games must be at most 1,000,000"),
    (["--agents", "random,perfect,random"], "--agents names 'random' twice"),
])
def test_cli_bounds_the_tournament(argv, message):
    command = [sys.executable, "-m", "ttt_lib", "tournament", "--agents", "random", *argv]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


def test_where_processes_are_missing_tournaments_play_serially(monkeypatch):
    """As in Pyodide: the pool is a SerialExecutor and the table is the one of a real pool."""
    agents = ["random", ("mcts", {"playouts": 20})]
    with ProcessPoolExecutor(2) as pool:
        expected = tournament(agents, games=6, seed=5, executor=pool)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(arena, "POOL_THRESHOLD_SECONDS", 0.0)  # a pool would be wanted

    def no_processes(*args, **kwargs):
        raise AssertionError("a process pool was started")

    # arena imports the pool where it starts one (Pyodide cannot import it at all)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_processes)
    assert not arena.processes_available()
    pool = process_pool(2)
    assert isinstance(pool, SerialExecutor)
    with pool:
        assert tournament(agents, games=6, seed=5, executor=pool) == expected
    assert tournament(agents, games=6, seed=5) == expected


def test_a_serial_executor_keeps_a_task_error_for_its_result():
    future = SerialExecutor().submit(int, "x")
    with pytest.raises(ValueError):
        future.result()
    assert SerialExecutor().submit(pow, 2, 10).result() == 1024
