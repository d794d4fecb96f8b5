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


def test_the_deadline_agent_beats_greedy_but_not_mcts_1000_with_confidence():
    """What notebook 12 says of the stored games: the deadline agent at 0.2 s is above greedy
    with 95% confidence; against MCTS-1000 its gap's interval holds 0 (the issue hoped for a
    confirmed margin there too: a better agent, re-run through the study, would change this)."""
    ratings = stored_ratings(STUDY)
    assert ratings == fit_ratings(LABELS, pair_results(STUDY["records"]))
    assert ratings.gap(DEADLINE, "greedy")[1] > 0
    gap, low, high = ratings.gap(DEADLINE, "mcts(playouts=1000)")
    assert low < 0 < high, (gap, low, high)


def test_the_calibration_counts_nodes_per_processor_second():
    figures = calibrate(0.2, games=1, budget=100)
    assert figures["nodes"] > 0 and figures["seconds"] > 0
    assert figures["rate"] == figures["nodes"] / figures["seconds"]
    assert figures["budget"] % 100 == 0 and figures["budget"] >= 100
