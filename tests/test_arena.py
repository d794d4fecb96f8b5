import json
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import pytest

import ttt_lib.arena as arena
from ttt_lib import BitBoard, IllegalMoveError, ListBoard
from ttt_lib.agents import Agent, UnknownAgentError, make_agent
from ttt_lib.arena import (Turn, play_game, play_pairs, play_turn, random_play_probabilities,
                           seat, tournament, turns, wilson_interval)
from ttt_lib.cli import main


# ------------------------------------------------------------------------------ one game

def test_a_game_record_replays_to_its_final_position():
    record = play_game("random", "perfect", seed=4)
    state = BitBoard()
    for move in record.moves:
        state = state.play(move)
    assert state == record.final and state.is_terminal()
    assert record.result == state.utility()
    assert record.winner == state.winner()
    assert (record.x, record.o) == ("random", "perfect")


def test_the_same_seed_replays_the_same_game():
    games = [play_game("random", ("mcts", {"playouts": 50}), seed=s).moves for s in range(6)]
    assert games == [play_game("random", ("mcts", {"playouts": 50}), seed=s).moves
                     for s in range(6)]
    assert len({tuple(moves) for moves in games}) > 1


def test_o_can_open_and_agents_can_be_objects():
    record = play_game(make_agent("perfect", seed=1), make_agent("random", seed=2), first="O")
    assert record.final.first == -1
    assert len(record.moves) == bin(record.final.x | record.final.o).count("1")
    assert record.x == "perfect" and record.o == "random"


def test_a_game_can_start_from_a_given_position():
    start = ListBoard.from_text("XX./OO./...")
    record = play_game("perfect", "perfect", start=start)
    assert record.moves == [2] and record.result == 1 and record.winner == "X"


def test_an_illegal_choice_names_the_agent():
    class Cheat(Agent):
        name = "cheat"

        def choose(self, state):
            return 0

    with pytest.raises(IllegalMoveError, match="<cheat agent> chose an illegal move: cell 0 is "
                                               "occupied"):
        play_game(Cheat(), Cheat())


def test_turns_are_the_moves_of_play_game_one_at_a_time():
    for seed, first in [(0, "X"), (3, "O"), (5, "X")]:
        game = list(turns("random", ("mcts", {"playouts": 30}), seed=seed, first=first))
        assert [turn.move for turn in game] == play_game(
            "random", ("mcts", {"playouts": 30}), seed=seed, first=first).moves
        state = BitBoard(first=first)
        for turn in game:
            assert isinstance(turn, Turn) and turn.before == state
            assert turn.mover == state.to_move and turn.after == state.play(turn.move)
            assert turn.agent.name == ("random" if turn.mover == 1 else "mcts")
            state = turn.after
        assert state.is_terminal()


def test_seat_builds_the_agents_with_seeds_derived_from_the_game_seed():
    x, o = seat("random", ("flat-mc", {"playouts": 3}), seed=11)
    assert (x.name, o.name, o.playouts) == ("random", "flat-mc", 3)
    assert x.rng.random() == make_agent("random", seed=arena.derive_seed(11, "X")).rng.random()
    assert o.rng.random() == make_agent("flat-mc", seed=arena.derive_seed(11, "O")).rng.random()
    mine = make_agent("perfect")
    assert seat(mine, "random")[0] is mine
    assert seat("random", "random")[0].rng.random() == seat("random", "random", 0)[0].rng.random()


def test_turns_refuses_a_bad_agent_before_the_first_move():
    with pytest.raises(UnknownAgentError, match="unknown agent 'nobody'"):
        turns("random", "nobody")  # no iteration needed


def test_a_finished_start_has_no_turns():
    start = BitBoard.from_text("XXX/OO./...")
    assert list(turns("random", "random", start=start)) == []
    record = play_game("random", "random", start=start)
    assert record.moves == [] and record.final == start and record.winner == "X"


def test_play_turn_plays_the_agent_s_move():
    state = BitBoard.from_text("XX./OO./...")
    move, after = play_turn(state, make_agent("perfect"))
    assert move == 2 and after == state.play(2) and after.winner() == "X"


# ---------------------------------------------------------------------- the tournament

def test_as_dict_has_exactly_the_shape_of_the_cli_contract():
    result = tournament(["random", "perfect"], games=8, seed=3)
    data = result.as_dict()
    assert list(data) == ["games", "seed", "results"]
    assert data["games"] == 8 and data["seed"] == 3
    assert [(r["x"], r["o"]) for r in data["results"]] == [
        ("random", "random"), ("random", "perfect"), ("perfect", "random"),
        ("perfect", "perfect")]
    for row in data["results"]:
        assert list(row) == ["x", "o", "x_wins", "o_wins", "draws"]
        assert row["x_wins"] + row["o_wins"] + row["draws"] == 8
    assert json.loads(json.dumps(data)) == data


def test_the_cli_prints_the_same_table(capsys):
    assert main(["tournament", "--agents", "random,perfect", "--games", "8", "--seed", "3",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == tournament(["random", "perfect"], 8, 3).as_dict()


def test_the_table_is_readable():
    result = tournament(["random", ("flat-mc", {"playouts": 5})], games=10, seed=1)
    text = result.format()
    lines = text.splitlines()
    assert "10 games per ordered pair, seed 1" in lines[0] and "95%" in lines[0]
    assert len(lines) == 3 + 4
    for pair, line in zip(result.results, lines[3:]):
        assert line.split()[:2] == [pair.x, pair.o]
        assert f"{pair.x_wins} {pair.x_wins / 10:.1%}" in " ".join(line.split())


def test_results_have_rates_and_wilson_intervals():
    pair = tournament(["random"], games=200, seed=0).results[0]
    assert pair.games == 200
    assert sum(pair.rates().values()) == pytest.approx(1)
    for outcome, (low, high) in pair.intervals().items():
        assert low <= pair.rates()[outcome] <= high


def test_wilson_interval_matches_published_values():
    # 5 of 10 and 0 of 10 at 95%: (0.2366, 0.7634) and (0, 0.2775)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_the_same_seed_gives_the_same_table_with_or_without_a_process_pool(monkeypatch):
    agents = ["random", "heuristic", ("mcts", {"playouts": 30})]
    with ProcessPoolExecutor(2) as pool:
        pooled = tournament(agents, games=12, seed=7, executor=pool).as_dict()
    monkeypatch.setattr(arena, "POOL_THRESHOLD_SECONDS", float("inf"))
    serial = tournament(agents, games=12, seed=7).as_dict()
    again = tournament(agents, games=12, seed=7).as_dict()
    monkeypatch.setattr(arena, "POOL_THRESHOLD_SECONDS", 0.0)
    automatic_pool = tournament(agents, games=12, seed=7).as_dict()
    assert serial == again == pooled == automatic_pool
    assert serial != tournament(agents, games=12, seed=8).as_dict()


def test_a_pair_plays_the_same_games_whoever_else_is_in_the_tournament():
    alone = tournament(["random"], games=30, seed=2).pair("random", "random")
    crowded = tournament(["heuristic", "random"], games=30, seed=2).pair("random", "random")
    assert alone == crowded


def test_each_game_is_the_game_play_game_would_play():
    spec = ("flat-mc", {"playouts": 5})
    results = [play_game("random", spec, arena.derive_seed(4, "random", "flat-mc(playouts=5)",
                                                        number)).result for number in range(20)]
    pair = play_pairs([("random", spec)], games=20, seed=4).results[0]
    assert (pair.x_wins, pair.o_wins, pair.draws) == (
        results.count(1), results.count(-1), results.count(0))


# -------------------------------------------------------------- exact odds of random play

def brute_force_odds(state, chance=Fraction(1)):
    """Walk every game (no memo), multiplying the chance of each random move."""
    if state.is_terminal():
        winner = state.winner()
        return {"x_wins": chance if winner == "X" else 0, "o_wins": chance if winner == "O"
                else 0, "draws": chance if winner is None else 0}
    moves = state.moves()
    total = {"x_wins": 0, "o_wins": 0, "draws": 0}
    for move in moves:
        for key, value in brute_force_odds(state.play(move), chance / len(moves)).items():
            total[key] += value
    return total


@pytest.mark.parametrize("text", ["X../.O./...", "XO./.../...", "X../.../..O", "XOX/.O./..."])
def test_random_play_odds_match_a_walk_of_every_game(text):
    state = ListBoard.from_text(text)
    assert random_play_probabilities(BitBoard.from_text(text)) == brute_force_odds(state)


def test_random_play_odds_from_the_empty_board_are_exact_fractions():
    odds = random_play_probabilities()
    assert all(isinstance(p, Fraction) for p in odds.values())
    assert sum(odds.values()) == 1
    # Random play does not see symmetry: walk every game after a corner, an edge and the
    # centre opening, and weigh them 4 : 4 : 1.
    corner, edge, centre = (brute_force_odds(BitBoard().play(m)) for m in (0, 1, 4))
    assert odds == {k: (4 * corner[k] + 4 * edge[k] + centre[k]) / 9 for k in odds}


def test_random_against_random_matches_the_exact_odds():
    pair = tournament(["random"], games=20_000, seed=2024).pair("random", "random")
    exact = random_play_probabilities()
    for outcome, (low, high) in pair.intervals().items():
        assert low <= exact[outcome] <= high, outcome


# ----------------------------------------------------------------------------- errors

def test_bad_tournament_arguments_are_named():
    with pytest.raises(UnknownAgentError, match="unknown agent 'nobody'; choose one of: "):
        tournament(["random", "nobody"], games=2)
    with pytest.raises(UnknownAgentError, match="agent 'mcts' has no option 'plays'"):
        tournament([("mcts", {"plays": 3})], games=2)
    with pytest.raises(ValueError, match="playouts .* >= 2, not 0"):
        tournament([("mcts", {"playouts": 0})], games=2)
    with pytest.raises(ValueError, match="the arena seeds each game's agents itself"):
        tournament([("random", {"seed": 3})], games=2)
    with pytest.raises(ValueError, match="a name or a \\(name, options\\) pair, not 3"):
        tournament([3], games=2)
    with pytest.raises(ValueError, match="games .* >= 1, not 0"):
        tournament(["random"], games=0)
    with pytest.raises(ValueError, match="at least one agent"):
        tournament([], games=2)


# ------------------------------------------------------------------------ strength (slow)

PERFECT_OPPONENTS = ["random", "alphabeta", "heuristic", "expectimax", ("flat-mc", {}),
                     ("mcts", {"playouts": 200})]


@pytest.mark.slow
def test_perfect_never_loses_to_anything():
    pairs = [(p, "perfect") for p in PERFECT_OPPONENTS] + [("perfect", p)
                                                          for p in PERFECT_OPPONENTS]
    result = play_pairs(pairs, games=4, seed=5)  # 48 seeded games: expectimax's are costly
    for pair in result.results:
        lost = pair.x_wins if pair.o == "perfect" else pair.o_wins
        assert lost == 0, (pair.x, pair.o)


@pytest.mark.slow
def test_mcts_with_1000_playouts_never_loses_to_perfect_and_beats_random():
    mcts = ("mcts", {"playouts": 1000})
    pairs = [(mcts, "perfect"), ("perfect", mcts), (mcts, "random"), ("random", mcts)]
    with ProcessPoolExecutor(2) as pool:
        result = play_pairs(pairs, games=25, seed=0, executor=pool)
    label = "mcts(playouts=1000)"
    as_x, as_o = result.pair(label, "perfect"), result.pair("perfect", label)
    assert as_x.o_wins == 0 and as_o.x_wins == 0  # neither MCTS nor perfect ever loses
    beat_random = result.pair(label, "random").x_wins + result.pair("random", label).o_wins
    assert beat_random > 25  # most of the 50 games
    assert result.pair(label, "random").o_wins == result.pair("random", label).x_wins == 0
