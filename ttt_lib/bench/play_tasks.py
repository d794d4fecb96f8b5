"""The figures of play: random playouts per second, one MCTS move, and iterative deepening
against a budget of positions (the cost of its clock)."""
from __future__ import annotations

import random
from types import ModuleType

from ..boards.bit import BitBoard
from ..search.continuation import PLAIN, continued_choice
from ..search.deepening import iterative_deepening
from ..search.monte_carlo import mcts, random_playout
from ..studies.horizon import counted_choice
from .measure import best_of, expect, figure


def playouts_per_second(plain: ModuleType, quick: bool) -> dict:
    """Random games from the empty board, as many as possible."""
    count, repeat = (2000, 2) if quick else (20000, 3)
    empty = BitBoard()

    def ours():
        rng = random.Random(0)
        return [random_playout(empty, rng) for _ in range(count)]

    def baseline():
        rng, board = random.Random(0), plain.new_board()
        return [plain.random_playout(board, "X", rng) for _ in range(count)]

    t_plain, results_plain = best_of(repeat, baseline)
    t_ours, results = best_of(repeat, ours)
    expect(set(results) <= {-1, 0, 1} and set(results_plain) <= {-1, 0, 1},
           "a playout returned something other than +1, 0 or -1")
    rate, plain_rate = count / t_ours, count / t_plain
    return figure("random playouts per second", {"plain": t_plain, "ours": t_ours},
                  rate / plain_rate, "ours / plain (playouts per second)",
                  ">= 20,000 playouts per second", rate >= 20000, playouts=count,
                  per_second={"plain": plain_rate, "ours": rate},
                  x_wins={"plain": results_plain.count(1) / count,
                          "ours": results.count(1) / count},
                  same_games=results == results_plain)


def mcts_move(plain: ModuleType, quick: bool) -> dict:
    """One MCTS/UCT move from the empty board with a fixed number of playouts."""
    playouts, repeat = (200, 2) if quick else (1000, 5)
    t_plain, plain_move = best_of(repeat, lambda: plain.run_mcts(playouts, seed=0))
    t_ours, move = best_of(repeat, lambda: mcts(BitBoard(), playouts, seed=0))
    expect(move in range(9) and plain_move in [(r, c) for r in range(3) for c in range(3)],
           f"MCTS chose {move!r} and {plain_move!r}")
    return figure(f"{playouts:,}-playout MCTS move", {"plain": t_plain, "ours": t_ours},
                  t_plain / t_ours, "plain / ours", playouts=playouts,
                  moves={"plain": 3 * plain_move[0] + plain_move[1], "ours": move})


def deadline_search(plain: ModuleType, quick: bool) -> dict:
    """Iterative deepening against a budget of positions from the empty board, against the same
    rounds searched bare (no clock, no wrapped state): positions per second, the clock's cost."""
    budget, repeat = (5_000, 2) if quick else (50_000, 5)
    t_clock, result = best_of(repeat, lambda: iterative_deepening(BitBoard(), nodes=budget))
    depths = [r.depth for r in result.rounds]
    counted = [counted_choice(BitBoard(), depth, PLAIN) for depth in depths]  # untimed
    t_bare, bare = best_of(repeat, lambda: [continued_choice(BitBoard(), depth, PLAIN)
                                            for depth in depths])
    expect(bare == [(r.value, sorted(r.best_moves)) for r in result.rounds]
           and [moves for moves, _ in counted] == [moves for _, moves in bare],
           "the rounds against the clock and the bare rounds disagree")
    clocked_rate = sum(r.nodes for r in result.rounds) / t_clock
    bare_rate = sum(nodes for _, nodes in counted) / t_bare
    return figure(f"iterative deepening to depth {depths[-1]} against a {budget:,}-position "
                  "budget", {"bare rounds": t_bare, "against the clock": t_clock},
                  bare_rate / clocked_rate, "bare / against the clock (positions per second: "
                  "the cost of a clock read at every position)",
                  "the clock costs <= 2x", bare_rate / clocked_rate <= 2, depths=depths,
                  budget=budget, per_second={"bare": bare_rate, "against the clock":
                                             clocked_rate})
