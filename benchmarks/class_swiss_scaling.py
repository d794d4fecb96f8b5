"""How well Swiss rounds rank a class of 150, and at what price: a measurement, in process.

The class: 150 trivial agents of known strength. Agent ``s000`` ... ``s149`` plays, at each
move, a perfect move (one of the exact solver's best, at random) with probability
p = i / 149, and a random legal move otherwise; so its strength is known by construction,
in order. Every game is real tic-tac-toe, seeded from (seed, X, O, game number).

For each number of rounds asked, the Swiss format (``classroom.swiss.swiss_games``, one game
with each agent as X per pairing) plays the class, the ratings and intervals are fitted
(``classroom.swiss.rate``), and the figures are: games, seconds, Spearman's rank correlation
of the ratings with the known strengths, the median interval width, and how many agents'
intervals hold the rating the full round robin gives them. The full round robin (one game
each way for every pair: 22,350 games) is played once as the reference (``--no-round-robin``
skips it). ``--plot FILE.png`` draws the last Swiss leaderboard.

    python benchmarks/class_swiss_scaling.py [--agents 150] [--rounds 6,10,16] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from ttt_lib import BitBoard
from ttt_lib.arena import PairResult, derive_seed
from ttt_lib.classroom.swiss import rate, swiss_games
from ttt_lib.search import best_moves


class Noisy:
    """Perfect with probability ``p``, else a random legal move."""

    def __init__(self, p: float, table: dict) -> None:
        self.p, self.table = p, table

    def choose(self, state, rng: random.Random):
        if rng.random() < self.p:
            key = state.key()
            if key not in self.table:
                self.table[key] = best_moves(state, self.table.setdefault("memo", {}))
            return rng.choice(self.table[key])
        return rng.choice(state.moves())


def play(x: Noisy, o: Noisy, seed: int) -> int:
    """One game's result for X (+1, 0, -1)."""
    rng, state = random.Random(seed), BitBoard()
    while not state.is_terminal():
        state = state.play((x if state.to_move == 1 else o).choose(state, rng))
    return state.utility()


def counts(x: str, o: str, agents: dict, seed: int, numbers: range) -> PairResult:
    tally = [0, 0, 0]
    for number in numbers:
        result = play(agents[x], agents[o], derive_seed(seed, x, o, number))
        tally[0 if result > 0 else 1 if result < 0 else 2] += 1
    return PairResult(x, o, *tally)


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        found = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                found[order[k]] = (i + j) / 2
            i = j + 1
        return found
    ra, rb = ranks(a), ranks(b)
    mean = (len(a) - 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    return cov / (sum((x - mean) ** 2 for x in ra) * sum((y - mean) ** 2 for y in rb)) ** 0.5


def measure(n: int, rounds_list: list[int], seed: int, round_robin: bool, plot: str | None):
    table: dict = {}
    labels = [f"s{i:03d}" for i in range(n)]
    agents = {label: Noisy(i / (n - 1), table) for i, label in enumerate(labels)}
    strength = [i / (n - 1) for i in range(n)]
    figures = {"agents": n, "swiss": []}
    reference = None
    if round_robin:
        begun = time.perf_counter()
        results = [counts(x, o, agents, seed, range(1)) for x in labels for o in labels
                   if x != o]
        played = time.perf_counter() - begun
        ratings = rate(labels, results)
        seconds = time.perf_counter() - begun
        reference = {row.agent: row.rating for row in ratings.rows}
        figures["round_robin"] = {
            "games": sum(r.games for r in results), "seconds": round(seconds, 1),
            "seconds_playing": round(played, 1),
            "spearman_with_strength": round(spearman([reference[x] for x in labels],
                                                     strength), 3)}
    last = None
    for rounds in rounds_list:
        begun = time.perf_counter()

        def play_round(number, pairs):
            numbers = range(number, number + 1)
            return [counts(x, o, agents, seed, numbers) for a, b in pairs
                    for x, o in ((a, b), (b, a))]

        results = swiss_games(labels, rounds, play_round, seed)
        played = time.perf_counter() - begun
        last = rate(labels, results)
        seconds = time.perf_counter() - begun
        rating = {row.agent: row.rating for row in last.rows}
        widths = sorted(row.high - row.low for row in last.rows)
        entry = {"rounds": rounds, "games": sum(r.games for r in results),
                 "seconds": round(seconds, 1), "seconds_playing": round(played, 1),
                 "spearman_with_strength": round(spearman([rating[x] for x in labels],
                                                          strength), 3),
                 "median_interval_width": round(widths[len(widths) // 2])}
        if reference:
            entry["spearman_with_round_robin"] = round(
                spearman([rating[x] for x in labels], [reference[x] for x in labels]), 3)
            entry["intervals_holding_round_robin_rating"] = sum(
                row.low <= reference[row.agent] <= row.high for row in last.rows)
        figures["swiss"].append(entry)
        print(json.dumps(entry), file=sys.stderr)
    if plot and last is not None:
        from ttt_lib.viz import rating_leaderboard
        rating_leaderboard(last, title=f"{n} agents of known strength, {rounds_list[-1]} "
                                       f"Swiss rounds, seed {seed}").save(plot)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=150)
    parser.add_argument("--rounds", default="6,10,16")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-round-robin", action="store_true")
    parser.add_argument("--plot", metavar="FILE.png")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.agents, [int(r) for r in args.rounds.split(",")], args.seed,
                      not args.no_round_robin, args.plot)
    print(json.dumps(figures, indent=1) if args.json else json.dumps(figures))


if __name__ == "__main__":
    main()
