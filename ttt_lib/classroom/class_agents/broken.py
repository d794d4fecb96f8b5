"""A player with a bug: it shares its attention among the free corners, and divides by zero
once every corner is taken."""
from ttt_lib.player import Agent


class Broken(Agent):
    name = "broken"

    def choose(self, state):
        moves = state.moves()
        corners = [cell for cell in (0, 2, 6, 8) if cell in moves]
        share = 1 / len(corners)  # ZeroDivisionError when no corner is left
        if share > 0.3:
            return self.rng.choice(corners)
        return self.rng.choice(moves)
