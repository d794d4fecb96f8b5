"""A careless player: a random column, full or not. When it picks a full column it has made an
illegal move, and loses that game by forfeit."""
import random


def choose(state):
    return random.randrange(state.columns)
