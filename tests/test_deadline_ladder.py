"""The stored study of the deadline agent at 0.2 s a move (ttt_lib.studies.deadline_ladder):
its games are the round robin's, a sample replays to the stored results, and the ratings fitted
from them say what notebook 12 says."""
from __future__ import annotations

import pytest

from ttt_lib import ConnectFour
from ttt_lib.arena import derive_seed, normalize_spec, play_game, spec_label
from ttt_lib.studies.deadline_ladder import (agents, calibrate, load, pair_results,
                                             stored_ratings, tasks)
from ttt_lib.studies.ladder import fit_ratings

STUDY = load()
LABELS = [spec_label(normalize_spec(spec)) for spec in agents(STUDY["nodes"])]
DEADLINE = LABELS[2]


def test_the_study_holds_every_game_of_the_round_robin():
    assert STUDY["seconds"] == 0.2 and DEADLINE == f"deepening(nodes={STUDY['nodes']}, " \
                                                    f"seconds=None)"
    games = STUDY["games"]
    expected = [(spec_label(x), spec_label(o), seed)
                for _, x, o, seed, _ in tasks(agents(STUDY["nodes"]), games)]
    assert [(r["x"], r["o"], r["seed"]) for r in STUDY["records"]] == expected
    assert all(r["result"] in (-1, 0, 1) for r in STUDY["records"])
    assert expected[0][2] == derive_seed(0, LABELS[0], LABELS[1], 0)  # as round_robin seeds
    assert sum(p.games for p in pair_results(STUDY["records"])) == 6 * games


# a cheap game (greedy against the deadline agent: a few seconds); the study's own run is the
# check of the rest, as every game is seeded and counted in nodes
SAMPLE = [r for r in STUDY["records"] if {r["x"], r["o"]} == {"greedy", DEADLINE}]


@pytest.mark.parametrize("record", SAMPLE[:1], ids=lambda r: f"{r['x']} v {r['o']}")
def test_a_sample_of_the_games_replays_to_the_stored_result(record):
    specs = {spec_label(normalize_spec(s)): s for s in agents(STUDY["nodes"])}
    game = play_game(specs[record["x"]], specs[record["o"]], seed=record["seed"],
                     start=ConnectFour())
    assert game.result == record["result"]


def test_the_deadline_agent_beats_greedy_and_mcts_1000_with_confidence():
    """What notebook 12 says of the stored games: the deadline agent at 0.2 s is above greedy
    and above MCTS-1000, the 95% interval of each gap above 0 (as the issue asks)."""
    ratings = stored_ratings(STUDY)
    assert ratings == fit_ratings(LABELS, pair_results(STUDY["records"]))
    for other in ("greedy", "mcts(playouts=1000)"):
        gap, low, high = ratings.gap(DEADLINE, other)
        assert 0 < low < gap < high, (other, gap, low, high)


def test_the_deadline_agent_won_most_of_its_games_against_each():
    """The record behind the ratings, counted straight from the stored games."""
    for other in ("greedy", "mcts(playouts=1000)"):
        games = [r for r in STUDY["records"] if {r["x"], r["o"]} == {DEADLINE, other}]
        won = sum(r["result"] == (1 if r["x"] == DEADLINE else -1) for r in games)
        assert len(games) == 2 * STUDY["games"] and won > 3 * len(games) / 4, (other, won)


def test_the_stored_budget_is_the_calibrations():
    calibration = STUDY["calibration"]
    assert STUDY["nodes"] == calibration["budget"] == round(0.2 * calibration["rate"], -2)
    assert calibration["first"]["budget"] == round(0.2 * calibration["first"]["rate"], -2)


def test_the_calibration_counts_nodes_per_processor_second():
    figures = calibrate(0.2, games=1, budget=100)
    assert figures["nodes"] > 0 and figures["seconds"] > 0
    assert figures["rate"] == figures["nodes"] / figures["seconds"]
    assert figures["budget"] % 100 == 0 and figures["budget"] >= 100
