"""The ladder: seeded round robins on any board, and Bradley-Terry ratings with intervals,
checked against independent computations (Newton's method of the classroom leaderboard, a
two-player closed form, a brute-force maximum of the likelihood, a numeric Hessian)."""
import itertools
import math
from concurrent.futures import ProcessPoolExecutor

import pytest

from ttt_lib import BitBoard, ConnectFour
from ttt_lib.arena import ArenaError, PairResult
from ttt_lib.classroom.leaderboard import bradley_terry
from ttt_lib.studies.ladder import (ELO, fisher_information, fit_ratings, mm_fit, round_robin,
                                    tally)

TABLE = [PairResult("a", "b", 3, 1, 2), PairResult("b", "a", 2, 2, 1),
         PairResult("a", "c", 1, 4, 0), PairResult("c", "b", 0, 3, 3),
         PairResult("b", "c", 2, 2, 0), PairResult("c", "a", 5, 0, 1)]


def log_likelihood(theta, points, games, prior=1.0):
    """Written out directly: points_i log p_i - n_ij log(p_i + p_j), the prior's draw too."""
    p = [math.exp(t) for t in theta]
    total = sum((w + prior / 2) * math.log(v) - prior * math.log(v + 1)
                for w, v in zip(points, p))
    for i, j in itertools.combinations(range(len(p)), 2):
        total -= games[i][j] * math.log(p[i] + p[j])
    return total


def test_mm_agrees_with_the_leaderboards_newton_method():
    labels = ["a", "b", "c"]
    ratings = fit_ratings(labels, TABLE)
    newton = bradley_terry(labels, TABLE)
    for i, label in enumerate(labels):
        assert ELO * ratings.log_strengths[i] == pytest.approx(newton[label], abs=1e-6)


def test_mm_finds_the_brute_force_maximum_of_the_likelihood():
    points, games = tally(["a", "b", "c"], TABLE)
    theta = mm_fit(points, games)
    best, centre, step = None, [0.0, 0.0, 0.0], 1.0
    for _ in range(30):  # a grid around the best point so far, finer each round
        grid = [[c + step * k for k in range(-4, 5)] for c in centre]
        best = max(itertools.product(*grid), key=lambda t: log_likelihood(t, points, games))
        centre, step = list(best), step / 2
    assert theta == pytest.approx(best, abs=1e-6)


def test_two_players_without_a_prior_have_the_closed_form():
    # a beats b in 7 of 10: log(p_a / p_b) = log(7 / 3); variance 1 / (n p (1 - p))
    ratings = fit_ratings(["b", "a"], [PairResult("a", "b", 7, 3, 0)], prior=0)
    gap, low, high = ratings.gap("a", "b")
    assert gap == pytest.approx(ELO * math.log(7 / 3), abs=1e-6)
    half = 1.96 * ELO / math.sqrt(10 * 0.7 * 0.3)
    assert (low, high) == pytest.approx((gap - half, gap + half), abs=1e-6)
    assert ratings.rating("b") == 0 and ratings.interval("a") == pytest.approx((low, high))


def test_the_covariance_is_the_inverse_of_the_numeric_hessian():
    points, games = tally(["a", "b", "c"], TABLE)
    theta = mm_fit(points, games)
    h, n = 1e-4, 3
    for i, j in itertools.product(range(n), repeat=2):
        def at(di, dj):
            t = list(theta)
            t[i] += di
            t[j] += dj
            return log_likelihood(t, points, games)
        second = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
        assert fisher_information(theta, games)[i][j] == pytest.approx(-second, abs=1e-4)


def test_a_perfect_record_keeps_a_finite_rating_and_the_order():
    results = [PairResult("strong", "weak", 10, 0, 0), PairResult("weak", "strong", 0, 10, 0)]
    ratings = fit_ratings(["weak", "strong"], results)
    gap, low, high = ratings.gap("strong", "weak")
    assert 0 < low < gap < high < math.inf
    assert "strong" in ratings.format().splitlines()[3]


def test_round_robin_is_seeded_and_the_same_on_processes():
    agents = ["random", "greedy"]
    serial = round_robin(agents, ConnectFour(4, 4), games=3, seed=5)
    assert serial == round_robin(agents, ConnectFour(4, 4), games=3, seed=5)
    with ProcessPoolExecutor(2) as pool:
        assert serial == round_robin(agents, ConnectFour(4, 4), games=3, seed=5, executor=pool)
    assert [(r.x, r.o, r.games) for r in serial] == [("random", "greedy", 3),
                                                     ("greedy", "random", 3)]
    other = [round_robin(agents, ConnectFour(5, 4), games=6, seed=s) for s in range(4)]
    assert len({tuple(r) for r in other}) > 1  # the seed matters


def test_round_robin_on_tic_tac_toe_and_its_errors():
    results = round_robin(["greedy", ("mcts", {"playouts": 50})], BitBoard(), games=2)
    assert sum(r.games for r in results) == 4
    with pytest.raises(TypeError, match="start is a board"):
        round_robin(["random", "greedy"], "empty", games=2)
    with pytest.raises(ArenaError, match="games"):
        round_robin(["random", "greedy"], BitBoard(), games=0)
    with pytest.raises(ArenaError, match="two or more different agents"):
        round_robin(["random", "random"], BitBoard())
    with pytest.raises(ArenaError, match="anchor"):
        fit_ratings(["a", "b"], TABLE[:2], anchor="z")
