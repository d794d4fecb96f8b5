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

from collections.abc import Hashable
from fractions import Fraction

from ..game import MAX, Game, is_chance
from .watch import QUIET, Path, Stats, Watch, watching


def expectiminimax(state: Game, watch: Watch = QUIET, path: Path = ()) -> Fraction:
    """X's expected value of ``state``: max at MAX, min at MIN, the average at chance nodes.

    ``path`` is the moves (at a chance node, the outcome's index) from the search's root.
    """
    watch.enter(state, path)
    if state.is_terminal():
        return watch.leaf(state, Fraction(state.utility()), path)
    if is_chance(state):
        return sum(p * expectiminimax(child, watch, path + (i,))
                   for i, (p, child) in enumerate(state.outcomes()))
    values = [expectiminimax(state.play(move), watch, path + (move,))
              for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


def expectiminimax_memo(state: Game, table: dict[Hashable, Fraction],
                        watch: Watch = QUIET, symmetry: bool = False) -> Fraction:
    """``expectiminimax`` that remembers each position's value in ``table`` by ``key()``
    (by ``canonical_key()`` with ``symmetry``: one entry for all symmetric positions)."""
    key = state.canonical_key() if symmetry else state.key()
    if key in table:
        return watch.hit(state, table[key], "exact")
    watch.enter(state)
    if state.is_terminal():
        value = watch.leaf(state, Fraction(state.utility()))
    elif is_chance(state):
        value = sum(p * expectiminimax_memo(child, table, watch, symmetry)
                    for p, child in state.outcomes())
    else:
        values = [expectiminimax_memo(state.play(move), table, watch, symmetry)
                  for move in state.moves()]
        value = max(values) if state.to_move == MAX else min(values)
    table[key] = value
    return value


def chance_value(state: Game, table: dict | None = None, stats: Stats | None = None, *,
                 watch: Watch | None = None, symmetry: bool = False) -> Fraction:
    """X's exact expected value of ``state`` under best play by both sides, each position
    (each symmetry class, with ``symmetry``) searched once; ``table`` may be shared between
    calls on the same game."""
    table = {} if table is None else table
    return Fraction(expectiminimax_memo(state, table, watching(stats, watch=watch), symmetry))


def best_chance_moves(state: Game, table: dict | None = None, stats: Stats | None = None, *,
                      watch: Watch | None = None, symmetry: bool = False) -> list:
    """All moves of the player to move with the best expected value, sorted (empty at a
    terminal state; a chance node has outcomes, not moves, and raises ``ChanceNodeError``)."""
    if state.is_terminal():
        return []
    table, watch = {} if table is None else table, watching(stats, watch=watch)
    values = {move: expectiminimax_memo(state.play(move), table, watch, symmetry)
              for move in state.moves()}
    pick = max if state.to_move == MAX else min
    best = pick(values.values())
    return sorted(move for move, value in values.items() if value == best)
