"""A weak player: always the leftmost column that is not full."""


def choose(state):
    return state.moves()[0]
