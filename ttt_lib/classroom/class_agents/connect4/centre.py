"""A sound Connect Four player: win if it can, block if it must, else the free column nearest
the centre (ties at random). It looks one move ahead by playing the columns out."""
from ttt_lib.player import Agent


def wins_now(state, move):
    """Does dropping a piece in ``move`` win at once for the player to move?"""
    return state.play(move).winner() is not None


def threatened(state, move, moves):
    """Could the opponent win by dropping a piece in ``move`` next? (We play some other column
    first: our piece there cannot be part of their line.)"""
    other = [m for m in moves if m != move]
    return bool(other) and state.play(other[0]).play(move).winner() is not None


class Centre(Agent):
    name = "centre"

    def choose(self, state):
        moves = state.moves()
        wins = [m for m in moves if wins_now(state, m)]
        if wins:
            return wins[0]
        blocks = [m for m in moves if threatened(state, m, moves)]  # no move of ours wins
        if blocks:
            return blocks[0]
        middle = (state.columns - 1) / 2
        nearest = min(abs(m - middle) for m in moves)
        return self.rng.choice([m for m in moves if abs(m - middle) == nearest])
