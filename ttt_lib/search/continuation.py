"""Heuristic continuation: search past the depth limit where the position is not quiet.

A depth-limited search scores whatever stands at its limit, even a position where a player
can win at once or must block: the threat decides the game one move later, beyond the
horizon. Heuristic continuation asks a second question at the limit: is this position *quiet*
enough to score? A rule, ``forced(state)``, names the moves that cannot wait (none: the
position is quiet). Only those are searched past the limit, at most ``extra`` moves further;
then the heuristic scores what stands there. Chess programs search captures this way
(*quiescence search*).

- ``threats``: the default rule for boards with ``cells()`` and ``lines()`` (3x3, m,n,k,
  Connect Four): a move that wins at once, else the moves that block the opponent's win;
- ``nothing_forced``: every position is quiet: the plain depth limit;
- ``Continuation``: the rules a search ends by (evaluation, forced moves, how far past the
  limit, move order); ``PLAIN`` is the plain depth limit;
- ``alphabeta_continued``: depth-limited alpha-beta (negamax form) with the second test;
- ``continued_choice``: X's value and every best move at the root.

The searches hold nothing but the algorithm: count their nodes from outside.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..checks import (BOARD, DEPTH, FUNCTION, GAME, MOVES, NUMBER, also_legal_moves, also_window,
                     argument_checks, check_count, instance)
from ..errors import IllegalMoveError
from ..game import Game
from .pruning import INF, SearchOptionError
from .ordering import DIGIT_OF, Ordering, _board, line_score

WIN = 10 ** 6  # a finished game's score: beyond any heuristic score (as in depthlimit.py)
Evaluate = Callable[[Game], float]
Forced = Callable[[Game], list]


def threats(state) -> list:
    """The moves that cannot wait: one that wins at once, else those that block the
    opponent's immediate win; none in a quiet position."""
    cells, lines = _board(state)
    fills = playable(state)
    mine, theirs, blocks = DIGIT_OF[state.to_move], DIGIT_OF[-state.to_move], []
    for line in lines:
        marks = [cells[cell] for cell in line]
        if marks.count(0) != 1 or line[marks.index(0)] not in fills:
            continue
        move = fills[line[marks.index(0)]]
        if marks.count(mine) == len(line) - 1:
            return [move]  # a win at once: nothing else matters
        if marks.count(theirs) == len(line) - 1 and move not in blocks:
            blocks.append(move)
    return blocks


def playable(state) -> dict:
    """Each cell a move fills now -> that move: a move is its cell on most boards; where
    pieces fall (Connect Four), ``landing_cell`` says which cell a move fills."""
    land = getattr(state, "landing_cell", None)
    return {land(move) if land else move: move for move in state.moves()}


def nothing_forced(state) -> list:
    """Every position is quiet: no continuation, the plain depth limit."""
    return []


@dataclass(frozen=True)
class Continuation:
    """How a depth-limited search ends. At the limit a position is scored by ``evaluate``
    (X's view) unless ``forced`` names moves that cannot wait: those are searched, at most
    ``extra`` moves past the limit. ``order`` sorts the moves before the limit (None: the
    game's own order). A finished game scores ``win`` times its result."""

    evaluate: Evaluate = line_score
    forced: Forced = threats
    extra: int = 4
    order: Ordering | None = None
    win: float = WIN


PLAIN = Continuation(forced=nothing_forced, extra=0)  # the plain depth limit


def alphabeta_continued(state: Game, depth: int, alpha: float, beta: float,
                        rules: Continuation) -> float:
    """The value of ``state`` for the player to move, looking ``depth`` moves ahead, then
    searching only the forced moves, at most ``rules.extra`` moves further."""
    if state.is_terminal():
        return state.to_move * state.utility() * rules.win
    if depth > 0:
        moves = state.moves() if rules.order is None else rules.order(state, state.moves())
    else:  # at the limit or past it: only what cannot wait
        moves = rules.forced(state) if depth > -rules.extra else []
    if not moves:  # quiet, or too far past the limit: the heuristic's guess
        return state.to_move * rules.evaluate(state)
    best = -INF
    for move in moves:
        value = -alphabeta_continued(state.play(move), depth - 1, -beta, -max(alpha, best),
                                     rules)
        best = max(best, value)
        if best >= beta:
            break
    return best


def remembered(fn: Callable[[Game], object]) -> Callable[[Game], object]:
    """``fn`` (an evaluation or a ``forced`` rule) answering from a table, by ``key()``, for a
    position it has seen: the same answers, sooner (tic-tac-toe reaches most positions by many
    move orders). One table per search keeps the memory bounded."""
    table: dict = {}

    def lookup(state):
        key = state.key()
        if key not in table:
            table[key] = fn(state)
        return table[key]

    return lookup


Search = Callable[[Game, int, float, float], float]


def root_choice(state: Game, depth: int, search: Search, moves: list) -> tuple[float, list]:
    """The best value for the player to move and every move reaching it, searched in the
    order ``moves``.

    Each move after the first is searched in a window just below the best so far, so a move
    that only ties still comes back exact and is kept.
    """
    best, best_moves = -INF, []
    for move in moves:
        value = -search(state.play(move), depth - 1, -INF, -math.nextafter(best, -INF))
        if value > best:
            best, best_moves = value, [move]
        elif value == best:
            best_moves.append(move)
    return best, best_moves


def continued_choice(state: Game, depth: int,
                     rules: Continuation = Continuation()) -> tuple[float, list]:
    """X's value of ``state`` and its best moves (sorted), looking ``depth`` (at least 1) moves
    ahead and ending as ``rules`` say (by default: the line score, and the threats searched
    at most 4 moves past the limit; ``PLAIN``: no continuation)."""
    check_continuation(state, depth, rules)

    def search(child, left, alpha, beta):
        return alphabeta_continued(child, left, alpha, beta, rules)

    value, moves = root_choice(state, depth, search, state.moves())
    return state.to_move * value, sorted(moves)


def check_continuation(state: Game, depth: int, rules: Continuation) -> None:
    """The public entries' arguments, checked once (never per node)."""
    if not isinstance(state, Game):
        raise TypeError(f"a search needs a game state, not {type(state).__name__}")
    if state.is_terminal():
        raise IllegalMoveError("the game is over: there is no move to choose")
    check_count(depth, "depth (moves looked ahead)", least=1)
    if not isinstance(rules, Continuation):
        raise TypeError(f"rules is a Continuation, not {type(rules).__name__}")
    check_count(rules.extra, "extra (moves searched past the limit)", least=0)
    for name in ("evaluate", "forced", "order"):
        fn = getattr(rules, name)
        if not callable(fn) and not (name == "order" and fn is None):
            raise TypeError(f"{name} is a function of a state, not {type(fn).__name__}")


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
CONTINUED = dict(state=GAME, depth=DEPTH, rules=instance(Continuation, "a Continuation"))
argument_checks(alphabeta_continued, SearchOptionError, **CONTINUED, alpha=NUMBER,
                beta=NUMBER, also=also_window)
argument_checks(continued_choice, SearchOptionError, **CONTINUED)
argument_checks(root_choice, SearchOptionError, state=GAME, depth=DEPTH, search=FUNCTION,
                moves=MOVES, also=also_legal_moves)
for _rule in (threats, nothing_forced):
    argument_checks(_rule, SearchOptionError, state=BOARD)

__all__ = ["PLAIN", "Continuation", "SearchOptionError", "alphabeta_continued",
           "continued_choice", "nothing_forced", "root_choice", "threats"]
