"""Exact odds of a learned player against random and perfect play, both sides.

A tournament estimates a player's results from games; here they are computed exactly. Each
player is a function giving the moves it chooses among, uniformly, in a position: a learned
player's equally valued best moves (it breaks ties at random), every legal move for the
random player, the optimal moves for the perfect one. Averaging the results over those
choices, position by position, gives the exact probabilities as fractions.
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ..boards.bit import BitBoard
from ..game import MAX, Game
from ..search.exact import best_moves
from .masks import masks_of

Chooser = Callable[[Game], list]
OUTCOMES = ("x_wins", "o_wins", "draws")


def learned_choices(learner) -> Chooser:
    """The moves a learned player picks among: all of its best-valued ones (for ``zero``,
    whose search is deterministic, its one move)."""
    if learner.kind == "zero":
        return lambda state: [learner.best_move(state)]

    def choices(state: Game) -> list:
        values = learner.move_values(*masks_of(state))
        top = max(values.values())
        return [move for move, value in values.items() if value == top]

    return choices


def random_choices(state: Game) -> list:
    """Every legal move: the random player."""
    return state.moves()


def perfect_choices() -> Chooser:
    """The optimal moves (a fresh memo table shared by the calls): the perfect player."""
    table: dict = {}
    return lambda state: best_moves(state, table)


def exact_odds(x_player: Chooser, o_player: Chooser,
               start: Game | None = None) -> dict[str, Fraction]:
    """The exact chances of X winning, O winning and a draw from ``start`` (the empty board),
    each player choosing uniformly among the moves its function gives."""
    memo: dict = {}

    def odds(state: Game) -> tuple[Fraction, Fraction, Fraction]:
        key = state.key()
        if key not in memo:
            if state.is_terminal():
                result = state.utility()
                memo[key] = tuple(Fraction(int(result == r)) for r in (1, -1, 0))
            else:
                moves = (x_player if state.to_move == MAX else o_player)(state)
                children = [odds(state.play(move)) for move in moves]
                memo[key] = tuple(sum(c[i] for c in children) / len(moves) for i in range(3))
        return memo[key]

    return dict(zip(OUTCOMES, odds(BitBoard() if start is None else start)))


def odds_table(learner) -> dict[tuple[str, str], dict[str, Fraction]]:
    """A learned player's exact odds against random and perfect play, as X and as O:
    keyed by (opponent, the learner's side)."""
    me, table = learned_choices(learner), {}
    for name, opponent in (("random", random_choices), ("perfect", perfect_choices())):
        table[name, "X"] = exact_odds(me, opponent)
        table[name, "O"] = exact_odds(opponent, me)
    return table
