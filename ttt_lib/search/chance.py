"""Expectiminimax: the value of a game with dice, where MAX, MIN and chance take turns.

At MAX's nodes the largest child value counts, at MIN's the smallest, as in minimax; at a
chance node (``is_chance()``), the average of its outcomes weighted by their probabilities.
All values are X's, and exact: the probabilities are ``Fraction``s, so the expected values are
too. On a tree without chance nodes expectiminimax *is* minimax.

``expectiminimax`` is the textbook recursion over the whole tree; ``expectiminimax_memo``
remembers each position's value by ``key()`` (a chance game repeats positions too), and
``chance_value`` / ``best_chance_moves`` are the solver built on it.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from numbers import Rational

from ..checks import FLAG, GAME, TABLE, argument_checks, maybe, optional
from ..errors import SearchOptionError
from ..game import MAX, Game, is_chance
from .observe import observed
from .trace import Stats

MISSING = object()  # what a table returns for a position it does not hold


def expectiminimax(state: Game) -> Fraction:
    """X's expected value of ``state``: max at MAX, min at MIN, the average at chance nodes."""
    if state.is_terminal():
        return Fraction(state.utility())
    if is_chance(state):
        return sum(p * expectiminimax(child) for p, child in state.outcomes())
    values = [expectiminimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


def expectiminimax_memo(state: Game, table: dict[Hashable, Fraction],
                        symmetry: bool = False) -> Fraction:
    """``expectiminimax`` that remembers each position's value in ``table`` by ``key()``
    (by ``canonical_key()`` with ``symmetry``: one entry for all symmetric positions)."""
    key = state.canonical_key() if symmetry else state.key()
    value = table.get(key, MISSING)  # one look-up when the position is known
    if value is MISSING:
        value = table[key] = expectiminimax_step(state, table, symmetry)
    return value


def expectiminimax_step(state: Game, table: dict[Hashable, Fraction],
                        symmetry: bool = False) -> Fraction:
    """``expectiminimax`` of one position, its children looked up through the table."""
    if state.is_terminal():
        return Fraction(state.utility())
    if is_chance(state):
        return weighted_sum((p, expectiminimax_memo(child, table, symmetry))
                            for p, child in state.outcomes())
    values = [expectiminimax_memo(state.play(move), table, symmetry) for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


def weighted_sum(pairs: Iterable[tuple[Rational, Rational]]) -> Fraction:
    """The exact sum of ``p * value`` over ``(p, value)`` pairs, as a Fraction: kept as one
    whole-number numerator over one denominator and reduced once at the end, which is much
    cheaper than adding Fractions (each addition reduces its result)."""
    top, bottom = 0, 1
    for p, value in pairs:
        times, over = p.numerator * value.numerator, p.denominator * value.denominator
        if over == bottom:
            top += times
        else:
            top, bottom = top * over + times * bottom, bottom * over
    return Fraction(top, bottom)


def memo_observed(run, stats: Stats | None):
    """``run()``, its work added to ``stats`` if given (positions searched, table hits)."""
    return observed(run, [expectiminimax_step], [expectiminimax_memo], stats)


def chance_value(state: Game, table: dict | None = None, stats: Stats | None = None, *,
                 symmetry: bool = False) -> Fraction:
    """X's exact expected value of ``state`` under best play by both sides, each position
    (each symmetry class, with ``symmetry``) searched once; ``table`` may be shared between
    calls on the same game."""
    table = {} if table is None else table
    return Fraction(memo_observed(lambda: expectiminimax_memo(state, table, symmetry), stats))


def best_chance_moves(state: Game, table: dict | None = None, stats: Stats | None = None, *,
                      symmetry: bool = False) -> list:
    """All moves of the player to move with the best expected value, sorted (empty at a
    terminal state; a chance node has outcomes, not moves, and raises ``ChanceNodeError``)."""
    if state.is_terminal():
        return []
    table = {} if table is None else table
    values = memo_observed(lambda: {move: expectiminimax_memo(state.play(move), table, symmetry)
                                    for move in state.moves()}, stats)
    pick = max if state.to_move == MAX else min
    best = pick(values.values())
    return sorted(move for move, value in values.items() if value == best)


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
CHANCE = dict(state=GAME, table=optional(TABLE), stats=maybe(Stats, "a Stats"), symmetry=FLAG)
argument_checks(chance_value, SearchOptionError, **CHANCE)
argument_checks(best_chance_moves, SearchOptionError, **CHANCE)
argument_checks(expectiminimax, SearchOptionError, state=GAME)
argument_checks(expectiminimax_memo, SearchOptionError, state=GAME, table=TABLE, symmetry=FLAG)
