"""Expectimax: the best play against an opponent who is not perfect, but predictable.

Minimax assumes the opponent always finds the best reply. Against a player who moves at
random, or errs now and then, that is too pessimistic: a move that sets a trap is worth more
than a safe one. Expectimax models the opponent as a probability distribution over its moves
(``opponent_model(state) -> {move: probability}``) and scores their positions by the average
over it, weighted by the probabilities; at its own positions the player still takes the best.

With exact probabilities (``fractions.Fraction``) the expected values are exact too, so they
can be compared with minimax's: against ``epsilon_perfect(0)`` expectimax *is* minimax. A game
with chance nodes of its own (``is_chance()``, see ``expectiminimax``) is averaged there too.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

from ..checks import FUNCTION, GAME, PLAYER, STATE, argument_checks, is_real, maybe, short
from ..errors import SearchOptionError
from ..game import MAX, Game, is_chance
from .exact import best_moves
from .observe import observed
from .trace import Stats, node_name

OpponentModel = Callable[[Game], dict]


class OpponentModelError(ValueError):
    """An opponent model that gave no proper probability distribution over the legal moves."""


def expectimax(state: Game, player: int, opponent_model: OpponentModel, *,
               stats: Stats | None = None) -> float:
    """``expectimax_search``, checked; ``stats`` observes it from outside."""
    nested = {code.co_name: code for code in expectimax_search.__code__.co_consts
              if hasattr(code, "co_name")}
    return observed(lambda: expectimax_search(state, player, opponent_model),
                    [nested["search"]], [nested["value"]], stats)


def expectimax_search(state: Game, player: int, opponent_model: OpponentModel) -> float:
    """X's expected value of ``state`` when ``player`` (+1 X, -1 O) plays its best against
    an opponent who moves as ``opponent_model`` says.

    At ``player``'s positions the best move for ``player`` counts; at the opponent's, the
    probability-weighted average. A position's value depends only on the position, so each
    is computed once.
    """
    known: dict[Hashable, float] = {}

    def value(node: Game) -> float:  # each position once
        key = node.key()
        if key not in known:
            known[key] = search(node)
        return known[key]

    def search(node: Game) -> float:
        if node.is_terminal():
            return node.utility()
        if is_chance(node):  # the game's own chance: the outcomes' weighted average
            return sum(p * value(child) for p, child in node.outcomes())
        if node.to_move == player:
            pick = max if player == MAX else min
            return pick(value(node.play(move)) for move in node.moves())
        chances = checked(opponent_model(node), node)
        return sum(p * value(node.play(move)) for move, p in chances.items() if p)

    return value(state)


def uniform_random(state: Game) -> dict:
    """Every legal move equally likely."""
    moves = state.moves()
    return {move: Fraction(1, len(moves)) for move in moves}


def epsilon_perfect(epsilon: float | Fraction) -> OpponentModel:
    """A player who moves at random with probability ``epsilon``, else plays a random
    optimal move: ``epsilon_perfect(0)`` is perfect, ``epsilon_perfect(1)`` uniform random."""
    if not is_real(epsilon):
        raise TypeError(f"epsilon is a probability (a number), not {type(epsilon).__name__}")
    if not 0 <= epsilon <= 1:
        raise SearchOptionError(f"epsilon is a probability in [0, 1], not {short(epsilon)}")
    if isinstance(epsilon, int):
        epsilon = Fraction(epsilon)  # keep 0 and 1 exact
    table: dict = {}  # the solver's values, shared by every call of this model

    def model(state: Game) -> dict:
        moves, good = state.moves(), best_moves(state, table)
        return {move: epsilon / len(moves) + ((1 - epsilon) / len(good) if move in good else 0)
                for move in moves}

    return model


def checked(chances: dict, state: Game) -> dict:
    """``chances`` if it is a probability distribution over ``state``'s legal moves."""
    legal = set(state.moves())
    strange = [move for move in chances if move not in legal]
    if strange:
        raise OpponentModelError(
            f"the opponent model gave illegal move(s) {strange} in {node_name(state)}")
    if any(p < 0 for p in chances.values()):
        raise OpponentModelError(f"the opponent model gave a negative probability: {chances}")
    total = sum(chances.values())
    if abs(total - 1) > 1e-9:
        raise OpponentModelError(f"the opponent model's probabilities add up to {total}, not 1")
    return chances


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
argument_checks(expectimax, SearchOptionError, state=GAME, player=PLAYER,
                opponent_model=FUNCTION, stats=maybe(Stats, "a Stats"))
argument_checks(expectimax_search, SearchOptionError, state=GAME, player=PLAYER,
                opponent_model=FUNCTION)
argument_checks(uniform_random, SearchOptionError, state=STATE)
argument_checks(epsilon_perfect, SearchOptionError)  # checks epsilon itself
