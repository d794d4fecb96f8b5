"""A weak player: always the first free cell, reading the board row by row."""


def choose(state):
    return state.moves()[0]
