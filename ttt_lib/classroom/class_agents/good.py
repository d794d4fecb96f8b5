"""A sound rule-based player: win if it can, block if it must, else centre, corner, side.

An agent file defines one agent: a subclass of ttt_lib's Agent (like this one) or a plain
function choose(state). The tournament builds it with a seed for each game.
"""
from ttt_lib.player import Agent

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
CENTRE, CORNERS, SIDES = (4,), (0, 2, 6, 8), (1, 3, 5, 7)


def completing(board: str, mark: str) -> list:
    """The free cells that would give ``mark`` three in a row."""
    return [cell for line in LINES for cell in line
            if board[cell] == "." and sum(board[c] == mark for c in line) == 2]


class Good(Agent):
    name = "good"

    def choose(self, state):
        board = state.to_text().replace("/", "")  # nine characters: X, O or .
        me, them = ("X", "O") if state.to_move == 1 else ("O", "X")
        for cells in (completing(board, me), completing(board, them), CENTRE, CORNERS, SIDES):
            free = [cell for cell in cells if cell in state.moves()]
            if free:
                return self.rng.choice(free)
