"""``solve --json``'s one-pass table against the library's searches, position by position."""
import json
import subprocess
import sys

from ttt_lib import BitBoard
from ttt_lib.bench import plain
from ttt_lib.cli import main, solve_json
from ttt_lib.game import player_name, reachable
from ttt_lib.search.exact import best_moves, solve


def test_every_row_agrees_with_solve_and_best_moves():
    table = json.loads(solve_json())
    states = reachable(BitBoard())
    assert len(table) == len(states) == 5478
    memo: dict = {}
    for state in states.values():
        row = table[state.to_text().replace("/", "")]
        assert row == {"to_move": player_name(state.to_move), "value": solve(state, memo),
                       "best": best_moves(state, memo)}


def test_the_text_is_json_as_json_dumps_writes_it():
    text = solve_json()
    assert text == json.dumps(json.loads(text))


def test_the_plain_script_writes_the_same_table(tmp_path):
    path = tmp_path / "plain.json"
    subprocess.run([sys.executable, plain.__file__, "solve", str(path)], check=True)
    assert json.loads(path.read_text()) == json.loads(solve_json())


def test_solve_without_a_destination_is_a_usage_error(capsys):
    assert main(["solve"]) == 2
    needs = "solve needs --json PATH (or --mnk M N K, or --connect4 C R [K])"
    assert needs in capsys.readouterr().err


def test_solve_json_without_a_path_prints_the_table(capsys):
    assert main(["solve", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 5478
