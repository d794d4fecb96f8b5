"""ttt_lib.learn without networks: masks, judging, the Q-table, TD values, files, the command."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from ttt_lib.agents import PerfectAgent, RandomAgent
from ttt_lib.arena import play_game
from ttt_lib.boards.bit import BitBoard
from ttt_lib.boards.list import ListBoard
from ttt_lib.cli import solve_json
from ttt_lib.game import TreeNode
from ttt_lib.learn import masks
from ttt_lib.learn.agents import QTableAgent, TDAgent
from ttt_lib.learn.odds import exact_odds, odds_table, perfect_choices, random_choices
from ttt_lib.learn.policy import (LearnError, exact_values, learning_curve, mistakes,
                                  optimal_share, policy_table, positions, text_key, value_pairs)
from ttt_lib.learn.qtable import QTable
from ttt_lib.learn.store import ModelFileError, load, save
from ttt_lib.learn.td import TDValues
from ttt_lib.learn.train import train_command, trained
from ttt_lib.symmetry import PERMUTATIONS, transform


@pytest.fixture(scope="module")
def solution() -> dict:
    """The CLI's own solver (a separate implementation): non-terminal positions only."""
    rows = json.loads(solve_json())
    return {text: row for text, row in rows.items() if row["best"]}


# ------------------------------------------------------------------------- masks, judging

def test_masks_follow_the_mover_and_the_symmetries():
    board = BitBoard.from_text("XO./.X./...")
    mine, theirs = masks.masks_of(board)  # O to move
    assert (mine, theirs) == (1 << 1, 1 << 0 | 1 << 4)
    cells = board.cells()
    for s, perm in enumerate(PERMUTATIONS):
        image = transform(cells, perm)
        x = sum(1 << c for c, d in enumerate(image) if d == 1)
        o = sum(1 << c for c, d in enumerate(image) if d == 2)
        assert masks.IMAGE[s][theirs] == x and masks.IMAGE[s][mine] == o
        for move in board.moves():
            moved = transform(board.play(move).cells(), perm)
            assert moved[masks.MOVE_TO[s][move]] == 2


def test_after_scores_a_win_and_a_draw():
    assert masks.after(0b011, 0b11000, 2) == (0b11000, 0b111, 1.0)
    full = BitBoard.from_text("XOX/XOO/OX.")  # X to move, last cell, no line
    mine, theirs = masks.masks_of(full)
    assert masks.after(mine, theirs, 8)[2] == 0.0
    assert masks.after(0, 0, 4) == (0, 1 << 4, None)


def test_the_judge_counts_the_4520_positions_of_the_independent_solver(solution):
    assert len(positions()) == 4520 == len(solution)
    assert {text_key(state) for state in positions()} == set(solution)
    exact = exact_values()
    assert all(exact[text] == row["value"] for text, row in solution.items())


def test_optimal_share_agrees_with_the_independent_solver(solution):
    def first_move(state):
        return state.moves()[0]
    expected = sum(min(BitBoard.from_text(text).moves()) in row["best"]
                   for text, row in solution.items()) / len(solution)
    assert optimal_share(first_move) == pytest.approx(expected)
    assert 0 < expected < 1
    assert optimal_share(lambda s: solution[text_key(s)]["best"][-1]) == 1.0
    wrong = mistakes(first_move)
    assert len(wrong) == round((1 - expected) * 4520)
    assert all(move not in solution[text]["best"] for text, move, _ in wrong)


# ------------------------------------------------------------------------------ learners

@pytest.mark.parametrize("cls", [QTable, TDValues])
def test_learning_is_deterministic_for_a_seed(cls):
    one, two, other = cls(seed=3).train(300), cls(seed=3).train(300), cls(seed=4).train(300)
    table = "q" if cls is QTable else "v"
    assert getattr(one, table) == getattr(two, table)
    assert getattr(one, table) != getattr(other, table)
    assert policy_table(one.best_move) == policy_table(two.best_move)


@pytest.mark.parametrize("cls, games, least", [(QTable, 3000, 0.95), (TDValues, 3000, 0.95)])
def test_a_short_training_already_plays_mostly_optimal_moves(cls, games, least):
    untrained = optimal_share(cls(seed=0).best_move)
    learned = optimal_share(cls(seed=0).train(games).best_move)
    assert learned >= least > untrained


def test_the_q_values_of_a_trained_table_approach_the_exact_values(solution):
    pairs = value_pairs(QTable(seed=0).train(5000))
    movers = [1 if text.count("X") == text.count("O") else -1 for text in map(text_key,
                                                                              positions())]
    assert [exact for exact, _ in pairs] == [m * solution[text_key(s)]["value"]
                                             for m, s in zip(movers, positions())]
    errors = sorted(abs(exact - learned) for exact, learned in pairs)
    assert errors[len(errors) // 2] < 0.05  # the median position is close
    assert len(pairs) == 4520 and errors[-1] > 0  # a few are not learned yet


def test_a_td_move_is_judged_by_minus_the_value_where_it_leads():
    learner = TDValues(seed=0).train(500)
    board = BitBoard.from_text("X../.O./...")
    values = learner.move_values(*masks.masks_of(board))
    assert values == {move: -learner.value(board.play(move)) for move in board.moves()}
    assert len(set(values.values())) > 1


def test_a_learning_curve_judges_without_changing_the_training():
    curve = learning_curve(QTable(seed=5), 900, 300)
    assert [games for games, _ in curve] == [0, 300, 600, 900]
    assert curve[0][1] == optimal_share(QTable(seed=5).best_move)
    assert curve[-1][1] == optimal_share(QTable(seed=5).train(900).best_move)
    assert curve[-1][1] > curve[0][1]


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_pure_self_play_and_all_games_against_random_both_learn(share):
    assert optimal_share(QTable(seed=0, random_share=share).train(2000).best_move) > 0.9


def test_without_symmetry_the_table_is_larger():
    shared, plain = QTable(seed=0).train(500), QTable(seed=0, symmetric=False).train(500)
    assert len(shared.q) < len(plain.q)


def test_schedules_and_options_are_checked():
    with pytest.raises(LearnError, match="alpha"):
        QTable(alpha=(0.5, 2))
    with pytest.raises(TypeError, match="epsilon"):
        TDValues(epsilon="high")
    with pytest.raises(LearnError, match="games"):
        QTable().train(-1)
    with pytest.raises(TypeError, match="seed"):
        QTable(seed=1.5)


# --------------------------------------------------------------------------------- files

@pytest.mark.parametrize("cls", [QTable, TDValues])
def test_a_saved_model_round_trips(cls, tmp_path):
    learner = cls(seed=1).train(400)
    save(learner, tmp_path / "m.json")
    again = load(tmp_path / "m.json")
    assert type(again) is cls and again.options() == learner.options()
    assert again.games == 400
    assert (again.q == learner.q) if cls is QTable else (again.v == learner.v)
    assert policy_table(again.best_move) == policy_table(learner.best_move)


@pytest.mark.parametrize("text, reason", [
    ("not json", "not JSON"),
    ('{"format": "other"}', "format"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "qtable", "options": {},'
     ' "games": 1, "model": {"5": [0, 0]}}', "9 values"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "td", "options": {},'
     ' "games": 1, "model": {"999999999": 0.5}}', "key"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "td", "options": {},'
     ' "games": 1, "model": {"5": NaN}}', "finite"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "td",'
     ' "options": {"alpha": 7}, "games": 1, "model": {}}', "alpha"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "chess", "options": {},'
     ' "games": 1, "model": {}}', "chess"),
    ('{"format": "ttt_lib learned player", "version": 1, "kind": "td", "options": {}}',
     "missing 'games'"),
])
def test_a_corrupt_file_is_refused_clearly(tmp_path, text, reason):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ModelFileError, match=reason):
        load(path)
    with pytest.raises(ModelFileError, match="cannot read"):
        load(tmp_path / "missing.json")


# ------------------------------------------------------------------------------- command

def test_train_writes_the_policy_of_every_position_and_the_model(tmp_path, solution):
    out, err = io.StringIO(), io.StringIO()
    policy, model = tmp_path / "policy.json", tmp_path / "model.json"
    status = train_command("qtable", seed=2, games=1500, policy_path=str(policy),
                           save_path=str(model), out=out, err=err)
    assert status == 0
    moves = json.loads(policy.read_text())
    assert set(moves) == set(solution)
    assert all(move in BitBoard.from_text(text).moves() for text, move in moves.items())
    share = sum(move in solution[text]["best"] for text, move in moves.items()) / 4520
    assert f"{share:.2%} of the 4,520 positions" in out.getvalue()
    assert "game 1,500 of 1,500" in err.getvalue()
    assert policy_table(load(model).best_move) == moves


class Interrupting(io.StringIO):
    """A stderr on which the user presses Ctrl-C after a few progress lines."""

    pressed = False

    def write(self, text):
        if self.getvalue().count("game") >= 3 and not self.pressed:
            self.pressed = True
            raise KeyboardInterrupt
        return super().write(text)


def test_ctrl_c_stops_training_cleanly(tmp_path, monkeypatch):
    monkeypatch.setattr("ttt_lib.learn.train.time.monotonic", iter(range(0, 10**6)).__next__)
    out, err = io.StringIO(), Interrupting()
    status = train_command("td", games=1000, save_path=str(tmp_path / "m.json"), out=out, err=err)
    assert status == 130 and not (tmp_path / "m.json").exists()
    assert out.getvalue() == ""
    assert re.search(r"\ninterrupted after \d games\n$", err.getvalue())


def test_train_refuses_bad_arguments_before_training(tmp_path):
    err = io.StringIO()
    with pytest.raises(LearnError, match="unknown learner 'chess'"):
        train_command("chess", games=1)
    with pytest.raises(LearnError, match="games"):
        train_command("qtable", games=-3, err=err)
    with pytest.raises(LearnError, match="no folder"):
        train_command("qtable", games=5, policy_path=str(tmp_path / "nowhere" / "p.json"),
                      err=err)
    with pytest.raises(LearnError, match="is a folder"):
        train_command("qtable", games=5, save_path=str(tmp_path), err=err)
    assert err.getvalue() == ""


# -------------------------------------------------------------------------------- agents

def test_the_learned_agents_never_lose_to_perfect_play():
    for agent_class in (QTableAgent, TDAgent):
        for game in range(10):
            me, perfect = agent_class(games=10_000, seed=game), PerfectAgent(seed=game)
            assert play_game(me, perfect, seed=game).result >= 0
            assert play_game(perfect, me, seed=game).result <= 0
    assert trained("qtable", 0, 10_000) is trained("qtable", 0, 10_000)  # trained once


def test_an_agent_loads_a_saved_model_of_its_kind(tmp_path):
    save(QTable(seed=0).train(200), tmp_path / "q.json")
    agent = QTableAgent(path=str(tmp_path / "q.json"))
    assert agent.choose(ListBoard()) in range(9)
    with pytest.raises(LearnError, match="holds a qtable model"):
        TDAgent(path=str(tmp_path / "q.json"))
    with pytest.raises(LearnError, match="not both"):
        QTableAgent(games=10, path=str(tmp_path / "q.json"))
    with pytest.raises(TypeError, match="3x3"):
        agent.choose(TreeNode([1, [2, 3]]))
    assert play_game(agent, RandomAgent(seed=1), seed=1).result in (-1, 0, 1)


def test_importing_learn_loads_no_numpy():
    code = ("import sys, ttt_lib.learn, ttt_lib.learn.agents, ttt_lib.learn.train;"
            "print('numpy' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


# ---------------------------------------------------------------------------- exact odds

def test_exact_odds_of_random_play_agree_with_the_arena():
    from ttt_lib.arena import random_play_probabilities
    assert exact_odds(random_choices, random_choices) == random_play_probabilities()
    assert exact_odds(perfect_choices(), perfect_choices()) == {
        "x_wins": 0, "o_wins": 0, "draws": 1}


def test_a_player_of_first_moves_loses_to_perfect_play_and_a_learned_one_does_not():
    first = lambda state: state.moves()[:1]  # noqa: E731
    as_x = exact_odds(first, perfect_choices())
    assert as_x["o_wins"] > 0 and sum(as_x.values()) == 1
    table = odds_table(trained("qtable", 0, 10_000))
    assert table["perfect", "X"]["o_wins"] == table["perfect", "O"]["x_wins"] == 0
    assert table["random", "X"]["x_wins"] > 0.9 and table["random", "O"]["x_wins"] == 0
    assert all(sum(odds.values()) == 1 for odds in table.values())
