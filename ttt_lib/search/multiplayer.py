"""Max^n: the search for games of more than two players, or of two whose scores are not opposite.

Minimax and negamax rest on one number serving both players: what one wins the other loses
(zero-sum). With three players, or two whose payoffs do not add up to a constant, a position
needs one payoff per player. Max^n backs up such vectors: the player to move picks the child
whose vector is best *in its own entry*, the first of equals (Luckhardt and Irani's max^n,
taught in AIMA's section on multiplayer games).

A state of ``players`` players has ``to_move`` as the index of the player to move (0, 1, 2...)
and ``utility()`` as the tuple of payoffs at a finished game. A two-player state of the usual
protocol works too: X (+1) is player 0, O (-1) player 1, and X's score ``u`` stands for the
payoffs ``(u, -u)``, so max^n gives minimax's value there.

- ``maxn``: the payoff vector of a state with every player choosing for itself;
- ``maxn_choice``: that vector and every move of the player to move that reaches it.
"""
from __future__ import annotations

from ..checks import GAME, argument_checks
from ..game import MAX, Game
from .pruning import SearchOptionError


def mover(state: Game) -> int:
    """The index of the player to move: ``to_move`` itself where the state says how many
    ``players`` there are, else 0 for X (+1) and 1 for O (-1)."""
    if hasattr(state, "players"):
        return state.to_move
    return 0 if state.to_move == MAX else 1


def payoffs(state: Game) -> tuple:
    """Each player's payoff at a finished game: ``utility()`` when it is a tuple, else X's
    score ``u`` as ``(u, -u)``, the two-player zero-sum case."""
    score = state.utility()
    return tuple(score) if isinstance(score, tuple) else (score, -score)


def maxn(state: Game) -> tuple:
    """The max^n value of ``state``: one payoff per player, the player to move taking the
    child best for itself (the first of equals)."""
    if state.is_terminal():
        return payoffs(state)
    me, best = mover(state), None
    for move in state.moves():
        value = maxn(state.play(move))
        if best is None or value[me] > best[me]:
            best = value
    return best


def maxn_choice(state: Game) -> tuple[tuple, list]:
    """The max^n value of ``state`` and every move of the player to move that gets it its
    best payoff (ties by that player's entry alone)."""
    me = mover(state)
    values = {move: maxn(state.play(move)) for move in state.moves()}
    if not values:
        return payoffs(state), []
    top = max(value[me] for value in values.values())
    best = [move for move, value in values.items() if value[me] == top]
    return values[best[0]], best


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
argument_checks(maxn, SearchOptionError, state=GAME)
argument_checks(maxn_choice, SearchOptionError, state=GAME)

__all__ = ["maxn", "maxn_choice"]
