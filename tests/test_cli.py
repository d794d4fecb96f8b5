import io
import json
import subprocess
import sys

import pytest

from ttt_lib import BitBoard
from ttt_lib.arena import play_game, turns
from ttt_lib.cli import main
from ttt_lib.game import player_name


def run(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", *args], capture_output=True,
                          text=True, timeout=120)


def test_selfplay_perfect_play_ends_tied():
    result = run("selfplay")
    assert result.returncode == 0
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "Tied."
    assert sum(line.startswith("Move ") for line in lines) == 9
    assert "after searching 5,478 positions" in result.stdout


def test_selfplay_is_reproducible_with_a_seed(capsys):
    outputs = []
    for _ in range(2):
        assert main(["selfplay", "--x", "random", "--o", "random", "--seed", "7"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].rstrip().endswith(("X wins.", "O wins.", "Tied."))


def test_perfect_never_loses_to_random(capsys):
    for seed in range(10):
        main(["selfplay", "--x", "random", "--o", "perfect", "--first", "O", "--seed", str(seed)])
        assert not capsys.readouterr().out.rstrip().endswith("X wins.")


def printed_game(*args) -> tuple[list[str], str]:
    """The blocks ``selfplay`` prints, one per move ("Move n: ..." and the board), and the
    result line."""
    out = io.StringIO()
    assert main(["selfplay", *args], out=out) == 0
    _header, *moves, result = out.getvalue().rstrip("\n").split("\n\n")
    return moves, result


@pytest.mark.parametrize("x, o, seed, first", [
    ("random", "random", 5, "X"), ("random", "random", 0, "O"), ("random", "random", 12, "X"),
    ("random", "perfect", 3, "X"), ("perfect", "random", 1, "O"), ("perfect", "perfect", 2, "X"),
    ("heuristic", "random", 4, "O"), ("random", "flat-mc", 6, "X"), ("mcts", "random", 7, "O"),
    ("alphabeta", "expectimax", 8, "X"),  # expectimax answers (its opening move costs 2 s)
])
def test_selfplay_prints_exactly_the_game_play_game_plays(x, o, seed, first):
    record = play_game(x, o, seed=seed, first=first)
    blocks, result = printed_game("--x", x, "--o", o, "--seed", str(seed), "--first", first)
    assert len(blocks) == len(record.moves)
    state = BitBoard(first=first)
    for number, (block, move) in enumerate(zip(blocks, record.moves), 1):
        line, board = block.split("\n", 1)
        assert line.startswith(f"Move {number}: {player_name(state.to_move)} takes cell {move}")
        state = state.play(move)
        assert board == str(state)
    assert state == record.final
    assert result == (f"{record.winner} wins." if record.winner else "Tied.")


def test_selfplay_prints_each_search_s_node_count():
    blocks, _ = printed_game("--x", "perfect", "--o", "random", "--seed", "9")
    searched = [turn.agent.stats for turn in turns("perfect", "random", seed=9)]
    for block, stats in zip(blocks, searched):
        line = block.split("\n", 1)[0]
        if stats is None:
            assert "searching" not in line
        else:
            assert line.endswith(f" after searching {stats.nodes:,} positions")
    assert blocks[0].split("\n", 1)[0].endswith("after searching 5,478 positions")


@pytest.mark.parametrize("args, fragment", [
    (["selfplay", "--x", "nobody"], "unknown agent 'nobody'; choose one of:"),
    (["selfplay", "--first", "Z"], "invalid choice: 'Z'"),
    (["selfplay", "--seed", "x"], "invalid int value: 'x'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "required: command"),
    (["nodes", "--opener", "O"], "--opener only applies with --first-move"),
    (["tournament", "--agents", "random", "--games", "0"], "--games must be at least 1"),
])
def test_bad_arguments_exit_2_with_one_line(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert fragment in result.stderr


def test_count_json(capsys):
    assert main(["count", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["positions"]["total"] == 5478
    assert counts["games"]["total"] == 255168


def test_solve_json_matches_design(tmp_path, capsys, all_bitboards):
    path = tmp_path / "solved.json"
    assert main(["solve", "--json", str(path)]) == 0
    table = json.loads(path.read_text())
    assert len(table) == 5478
    assert table["........."] == {"to_move": "X", "value": 0, "best": list(range(9))}
    assert table["X.O......"]["to_move"] == "X"
    assert table["X........"] == {"to_move": "O", "value": 0, "best": [4]}
    assert table["XXX/OO./...".replace("/", "")] == {"to_move": "O", "value": 1, "best": []}
    for row in table.values():
        assert row["value"] in (-1, 0, 1) and row["best"] == sorted(row["best"])


def test_solve_to_an_unwritable_path_exits_2(capsys):
    assert main(["solve", "--json", "/nonexistent/dir/x.json"]) == 2
    assert "cannot write" in capsys.readouterr().err
