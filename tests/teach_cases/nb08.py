"""Right and wrong answers for the exercises of notebook 08."""
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from ttt_lib import teach
from ttt_lib.agents import Agent, RandomAgent
from ttt_lib.arena import play_pairs, wilson_interval


def pair(x, o):
    with ThreadPoolExecutor(max_workers=1) as here:
        result, = play_pairs([(x, o)], teach.RATE_08_GAMES, teach.RATE_08_SEED,
                             executor=here).results
    return result


ROW = pair(teach.RATE_08_X, teach.RATE_08_O)
REVERSED = pair(teach.RATE_08_O, teach.RATE_08_X)
RATE = Fraction(ROW.x_wins, ROW.games)
WRONG_RATES = [w for w in (ROW.x_wins, float(RATE * 100), Fraction(ROW.o_wins, ROW.games),
                           Fraction(ROW.draws, ROW.games), Fraction(REVERSED.x_wins, ROW.games),
                           Fraction(2 * ROW.x_wins + ROW.draws, 2 * ROW.games),  # the score
                           1.5, -0.5)
               if abs(w - RATE) > 0.01]


def completes(state, move, player):
    cells = list(state.cells())
    cells[move] = 1 if player == 1 else 2
    return any(all(cells[c] == cells[move] for c in line) for line in state.lines()
               if move in line)


class WinThenBlock(Agent):
    """Wins at once if it can, else blocks, else plays at random."""

    name = "win-then-block"

    def choose(self, state):
        moves = self.legal_moves(state)
        for player in (state.to_move, -state.to_move):
            urgent = [m for m in moves if completes(state, m, player)]
            if urgent:
                return self.rng.choice(urgent)
        return self.rng.choice(moves)


class WinOnly(Agent):
    """Wins when it can, but never blocks."""

    def choose(self, state):
        moves = self.legal_moves(state)
        wins = [m for m in moves if completes(state, m, state.to_move)]
        return (wins or moves)[0]


class BlockFirst(Agent):
    """Blocks even when it could win instead."""

    def choose(self, state):
        moves = self.legal_moves(state)
        for player in (-state.to_move, state.to_move):
            urgent = [m for m in moves if completes(state, m, player)]
            if urgent:
                return urgent[0]
        return moves[0]


class Illegal(Agent):
    def choose(self, state):
        return 9


class Crashes(Agent):
    def choose(self, state):
        raise RuntimeError("not written yet")


class Loops(Agent):
    def choose(self, state):
        while True:
            pass


class Unwritten(Agent):
    """The handout's student cell, as handed out."""

    def choose(self, state):
        raise NotImplementedError  # your code here


class NeedsArgument(WinThenBlock):
    def __init__(self, depth):
        super().__init__()


class RowsOnly(Agent):
    """Wins and blocks along rows only: columns and diagonals forgotten."""

    def choose(self, state):
        moves = self.legal_moves(state)
        rows = [line for line in state.lines() if line[1] - line[0] == 1]
        for player in (state.to_move, -state.to_move):
            digit = 1 if player == 1 else 2
            cells = state.cells()
            urgent = [m for m in moves for line in rows if m in line
                      and all(cells[c] == digit for c in line if c != m)]
            if urgent:
                return urgent[0]
        return moves[0]


def win_then_block(state):
    """The same rule as a plain function choose(state)."""
    moves = state.moves()
    for player in (state.to_move, -state.to_move):
        urgent = [m for m in moves if completes(state, m, player)]
        if urgent:
            return urgent[0]
    return moves[-1]


def games_needed():
    games = 1
    while wilson_interval(0, games)[1] >= teach.LOSS_08_BOUND:
        games += 1
    return games


CASES = [
    (teach.check_08_win_rate, RATE, WRONG_RATES),
    (teach.check_08_games_needed, games_needed(),
     [300, 301, games_needed() - 1, games_needed() + 1, 1000, 0]),
]

# The write-it exercise: agents the checker must confirm, and likely mistakes with the words
# their hints must contain (tests/test_teach.py).
WRITE_IT = [
    (teach.check_08_agent, [WinThenBlock, WinThenBlock(seed=3), win_then_block],
     {RandomAgent: "ttt_lib's RandomAgent", WinOnly: "block", BlockFirst: "look for your own win",
      RowsOnly: "block", Illegal: "not a legal move",
      Crashes: "raised RuntimeError", Crashes(): "raised RuntimeError", Loops: "ran for more than",
      Unwritten: "write the function", NeedsArgument: "give every argument a default",
      int: "needs a method choose"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.agents import PerfectAgent  # noqa: E402
from ttt_lib.search import threat_order  # noqa: E402


class NumpyWinThenBlock(WinThenBlock):
    """The same agent, its moves as np.int64."""

    def choose(self, state):
        return np.int64(super().choose(state))


class ThreatOrder(Agent):
    def choose(self, state):
        return threat_order(state, state.moves())[0]


class Perfect(PerfectAgent):  # the library's perfect player, renamed
    pass


WRITE_IT[0][1].append(NumpyWinThenBlock)
CHEATS = [(teach.check_08_agent, {ThreatOrder: "threat_order", Perfect: "PerfectAgent.choose"})]
