"""Swiss rounds for a large class (classroom/swiss.py) and their leaderboard picture
(viz/ratings.py): pairings, ratings against known strengths, intervals against an
independent inverse, the class tournament and the command line."""
import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

from ttt_lib.arena import PairResult
from ttt_lib.classroom import ClassroomError, Limits
from ttt_lib.classroom.leaderboard import PRIOR_GAMES
from ttt_lib.classroom.swiss import (first_pairings, rate, standard_errors, swiss_games,
                                     swiss_pairings, swiss_tournament)
from ttt_lib.viz import rating_leaderboard


def by_index(number, pairs):
    """A class where the higher-numbered agent always wins, as X and as O."""
    found = []
    for a, b in pairs:
        for x, o in ((a, b), (b, a)):
            x_wins = int(int(x[1:]) > int(o[1:]))
            found.append(PairResult(x, o, x_wins, 1 - x_wins, 0))
    return found


def test_every_round_pairs_every_agent_once_and_an_odd_one_sits_out_once():
    labels = [f"a{i}" for i in range(11)]
    rounds, seen = [], []

    def record(number, pairs):
        rounds.append(pairs)
        return by_index(number, pairs)

    swiss_games(labels, 10, record, seed=3)
    for pairs in rounds:
        paired = [label for pair in pairs for label in pair]
        assert len(paired) == len(set(paired)) == 10
        seen += sorted(set(labels) - set(paired))
    assert sorted(seen) == labels[:0] + sorted(set(seen)) and len(seen) == len(set(seen)) == 10


def test_later_rounds_pair_agents_of_equal_points_and_avoid_repeats():
    labels = [f"a{i}" for i in range(8)]
    points = {label: float(i // 2) for i, label in enumerate(labels)}
    pairs = swiss_pairings(labels, points, set(), set(), seed=0)
    assert sorted(tuple(sorted(p)) for p in pairs) == [("a0", "a1"), ("a2", "a3"),
                                                       ("a4", "a5"), ("a6", "a7")]
    met = {frozenset(("a6", "a7"))}
    again = swiss_pairings(labels, points, met, set(), seed=0)
    assert frozenset(("a6", "a7")) not in {frozenset(p) for p in again}
    assert sorted(first_pairings(labels, 1)) != sorted(first_pairings(labels, 2))


def rank_correlation(ranked: list[str]) -> float:
    """Spearman's, of a ranking (best first) with the agents' numbers (higher is stronger)."""
    n = len(ranked)
    gaps = [(n - 1 - place) - int(label[1:]) for place, label in enumerate(ranked)]
    return 1 - 6 * sum(g * g for g in gaps) / (n * (n * n - 1))


def test_ratings_rank_a_class_of_known_order_closer_with_more_rounds():
    labels = [f"a{i}" for i in range(24)]
    found = {}
    for rounds in (4, 8, 12):
        results = swiss_games(labels, rounds, by_index, seed=1)
        assert sum(r.games for r in results) == rounds * 24
        ranked = [row.agent for row in rate(labels, results).rows]
        assert ranked[0] == "a23" and ranked[-1] == "a0"
        found[rounds] = rank_correlation(ranked)
    assert found[4] < found[8] < found[12] and found[12] > 0.99, found


def test_the_intervals_come_from_the_inverse_information_matrix():
    labels = ["a", "b", "c", "d"]
    results = [PairResult("a", "b", 3, 1, 2), PairResult("b", "c", 2, 2, 0),
               PairResult("c", "a", 1, 4, 1), PairResult("d", "a", 0, 2, 0)]
    ratings = {row.agent: row.rating for row in rate(labels, results).rows}
    scale = 400 / np.log(10)
    theta = np.array([ratings[label] / scale for label in labels])
    information = np.diag(PRIOR_GAMES * np.exp(-theta) / (1 + np.exp(-theta)) ** 2)
    for r in results:
        i, j = labels.index(r.x), labels.index(r.o)
        p = 1 / (1 + np.exp(theta[j] - theta[i]))
        w = r.games * p * (1 - p)
        information[[i, j], [i, j]] += w
        information[i, j] -= w
        information[j, i] -= w
    expected = scale * np.sqrt(np.diag(np.linalg.inv(information)))
    found = standard_errors(labels, results, ratings)
    assert [found[label] for label in labels] == pytest.approx(list(expected), rel=1e-9)
    row = {row.agent: row for row in rate(labels, results).rows}["d"]
    assert row.high - row.low == pytest.approx(2 * 1.96 * found["d"])


def test_a_class_of_built_ins_in_swiss_rounds():
    result = swiss_tournament(["random", "greedy", "perfect", ("mcts", {"playouts": 10}),
                               "heuristic"], rounds=3, games=1, seed=2,
                              limits=Limits(isolated=False))
    assert result.rounds == 3 and len(result.labels) == 5
    games = sum(r.games for r in result.table.results)
    assert games == 3 * 2 * 2  # two pairings a round, a game each way
    board = result.leaderboard()
    assert [row.agent for row in board.rows][-1] == "random" or board.rows[-1].rating <= 0
    assert "Ratings" in result.format() and result.as_dict()["format"] == "swiss"
    assert board.csv().splitlines()[0] == "rank,agent,games,points,rating,low,high"
    again = swiss_tournament(["random", "greedy", "perfect", ("mcts", {"playouts": 10}),
                              "heuristic"], rounds=3, games=1, seed=2,
                             limits=Limits(isolated=False))
    assert again.as_dict() == result.as_dict()


@pytest.mark.parametrize("rounds, error", [(0, ClassroomError), (1.5, TypeError)])
def test_bad_rounds_are_refused(rounds, error):
    with pytest.raises(error, match="rounds"):
        swiss_games(["a", "b"], rounds, by_index)


def ttt(*args):
    return subprocess.run([sys.executable, "-m", "ttt_lib", *map(str, args)],
                          capture_output=True, text=True, timeout=240)


def test_the_command_line_plays_swiss_rounds_and_draws_the_ratings(tmp_path):
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "first.py").write_text(
        "def choose(state):\n    return state.moves()[0]\n")
    done = ttt("tournament", "--agents-from", tmp_path / "agents", "--agents",
               "random,greedy,perfect", "--format", "swiss", "--rounds", "2", "--games", "1",
               "--no-isolation", "--json", "--plot", tmp_path / "board.png", "--csv",
               tmp_path / "board.csv")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["format"] == "swiss" and found["rounds"] == 2
    assert {row["agent"] for row in found["leaderboard"]} == {"random", "greedy", "perfect",
                                                              "first"}
    assert (tmp_path / "board.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "board.csv").read_text().startswith("rank,agent,games")


@pytest.mark.parametrize("args, words", [
    (["--rounds", "3"], "--rounds needs --format swiss"),
    (["--format", "ladder"], "--format is round-robin or swiss"),
    (["--format", "swiss", "--rounds", "0"], "--rounds must be between"),
])
def test_bad_swiss_options_exit_2_with_one_line(tmp_path, args, words):
    done = ttt("tournament", "--agents-from", tmp_path, "--agents", "random,greedy", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, \
        done.stderr


def rows_of(n):
    return [{"agent": f"agent{i:03d}", "rating": 300 - 4 * i, "low": 200 - 4 * i,
             "high": 400 - 4 * i} for i in range(n)]


def test_the_leaderboard_picture_at_150_agents_has_three_columns_and_says_what_it_shows():
    picture = rating_leaderboard(rows_of(150), title="a class")
    axes = picture.figure.axes
    assert len(axes) == 3
    labels = [tick.get_text() for ax in axes for tick in ax.get_yticklabels()]
    assert labels[0] == "1. agent000" and labels[-1] == "150. agent149" and len(labels) == 150
    assert picture.description.startswith("a class. Ratings of 150 agents, best first: top "
                                          "agent000 +300 [+200 to +400]")
    assert "Median 95% interval width 200" in picture.description
    assert "50 other agents reach the top agent's interval" in picture.description
    assert len(picture.details.splitlines()) == 150
    assert picture.png()[:4] == b"\x89PNG"


def test_a_small_class_takes_one_column():
    assert len(rating_leaderboard(rows_of(12)).figure.axes) == 1


@pytest.mark.parametrize("bad, error", [
    ("text", TypeError), ([], ValueError), ([{"agent": "a", "rating": 1}], ValueError),
    ([{"agent": "a", "rating": 9, "low": 0, "high": 5}], ValueError)])
def test_bad_rows_are_refused(bad, error):
    with pytest.raises(error):
        rating_leaderboard(bad)


def test_pairs_of_a_round_are_distinct():
    labels = [f"a{i}" for i in range(6)]
    pairs = first_pairings(labels, 0)
    assert len({frozenset(p) for p in pairs}) == 3
    assert not any(a == b for a, b in itertools.chain(pairs))
