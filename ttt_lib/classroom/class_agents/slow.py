"""A careful player that takes far too long to answer a centre opening: it ponders for ten
seconds, and the tournament's clock (one second a move by default) runs out first."""
import time


def choose(state):
    moves = state.moves()
    if len(moves) == 8 and 4 not in moves:  # the opponent opened in the centre
        time.sleep(10)
    for move in moves:  # otherwise: win at once if it can, else the first free cell
        if state.play(move).winner():
            return move
    return moves[0]
