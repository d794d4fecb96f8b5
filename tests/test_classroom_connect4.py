"""The class tournament on any board: games by name (boards.named), the example Connect Four
class in its sandboxes, the same table serially, on processes and on Dask, and the command line
(tournament --game connect4 / mnk:M,N,K)."""
from __future__ import annotations

import json
from dataclasses import astuple

import pytest

from ttt_lib import BitBoard, ConnectFour, MNKBoard
from ttt_lib.boards.named import game_name, position_from_text, start_position
from ttt_lib.classroom import (EXAMPLE_CONNECT4_AGENTS, Limits, class_tournament, load_folder,
                               open_executor)
from ttt_lib.cli import main
from ttt_lib.errors import InvalidBoardError
from ttt_lib.studies.ladder import round_robin

LIMITS = Limits(move_time=0.8, memory_mb=128)  # a margin for a busy machine
BUILTINS = ["greedy"]


@pytest.mark.parametrize("game, kind, size", [
    ("tictactoe", BitBoard, (3, 3, 3)), ("connect4", ConnectFour, (6, 7, 4)),
    ("connect4:5,4", ConnectFour, (4, 5, 4)), ("connect4:5,4,3", ConnectFour, (4, 5, 3)),
    ("mnk:4,5,3", MNKBoard, (4, 5, 3))])
def test_games_by_name_and_back(game, kind, size):
    start = start_position(game, first="O")
    assert type(start) is kind and (start.m, start.n, start.k) == size and start.to_move == -1
    later = start.play(start.moves()[1]).play(start.moves()[0])
    name = game_name(later)
    assert start_position(name, "O") == start
    assert position_from_text(name, later.to_text(), "O") == later


@pytest.mark.parametrize("game, message", [
    ("chess", "unknown game 'chess'"), ("mnk", "unknown game 'mnk'"),
    ("connect4:7", "2 or 3 whole numbers"), ("mnk:3,x,3", "3 whole numbers"),
    ("connect4:9,9", "at most 64")])
def test_bad_game_names_are_refused(game, message):
    with pytest.raises(InvalidBoardError, match=message):
        start_position(game)


def test_a_position_of_another_size_is_refused():
    with pytest.raises(InvalidBoardError, match="not a connect4:5,4 position"):
        position_from_text("connect4:5,4", ConnectFour().to_text())
    with pytest.raises(TypeError, match="no game name"):
        game_name("....")


@pytest.fixture(scope="module")
def serial():
    roster = load_folder(EXAMPLE_CONNECT4_AGENTS, LIMITS)
    return class_tournament(BUILTINS, roster, games=2, seed=3, limits=LIMITS, game="connect4",
                            secret="replayed")


def test_the_example_class_plays_connect_four(serial):
    assert serial.labels == ("greedy", "careless", "centre", "leftmost")
    assert all(r.games == 2 for r in serial.results) and len(serial.results) == 12
    # careless loses games by illegal moves (full columns); the others never forfeit
    assert serial.forfeits and {f.agent for f in serial.forfeits} == {"careless"}
    assert all(f.reason.startswith("illegal move ") for f in serial.forfeits)
    for f in serial.forfeits:  # a forfeit loses the game
        pair = serial.table.pair(f.x, f.o)
        assert (pair.o_wins if f.side == "X" else pair.x_wins) >= 1
    board = serial.leaderboard()
    assert board.rows[-1].agent in ("careless", "leftmost")


@pytest.mark.parametrize("kind", ["processes", "dask"])
def test_every_executor_gives_the_serial_connect_four_table(serial, kind):
    roster = load_folder(EXAMPLE_CONNECT4_AGENTS, LIMITS)
    with open_executor(kind, workers=2) as executor:
        result = class_tournament(BUILTINS, roster, games=2, seed=3, limits=LIMITS,
                                  executor=executor, game="connect4", secret="replayed")
    assert result.as_dict() == serial.as_dict()


def test_built_in_pairs_give_the_ladders_counts():
    agents = ["greedy", "random", ("mcts", {"playouts": 20})]
    mine = class_tournament(agents, games=3, seed=11, game="connect4:5,4")
    theirs = round_robin(agents, ConnectFour(5, 4), games=3, seed=11)
    assert sorted(map(astuple, mine.table.results)) == sorted(map(astuple, theirs))


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game", ["connect4", "mnk:4,4,3"])
def test_the_command_plays_any_game(capsys, game):
    status, out, _ = run(capsys, "tournament", "--agents", "greedy,random", "--games", "2",
                         "--game", game, "--json")
    table = json.loads(out)
    assert status == 0 and table["agents"] == ["greedy", "random"]
    expected = class_tournament(["greedy", "random"], games=2, seed=0, game=game)
    assert table == expected.as_dict()


def test_the_class_command_plays_connect_four(capsys, tmp_path):
    status, out, err = run(capsys, "tournament", "--game", "connect4", "--agents-from",
                           str(EXAMPLE_CONNECT4_AGENTS), "--agents", "greedy", "--games", "1",
                           "--move-time", "0.8", "--secret", "a",  # careless forfeits
                           "--csv", str(tmp_path / "t.csv"))
    assert status == 0 and "centre" in out and "Forfeits" in out
    assert (tmp_path / "t.csv").read_text().count("\n") == 5  # a header and four agents


@pytest.mark.parametrize("argv", [
    ["--agents", "greedy,random", "--game", "go"],
    ["--agents-from", str(EXAMPLE_CONNECT4_AGENTS), "--game", "mnk:3,3"]])
def test_a_bad_game_exits_2_with_one_line(capsys, argv):
    status, out, err = run(capsys, "tournament", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and "game" in err, err
