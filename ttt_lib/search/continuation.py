"""Heuristic continuation: search past the depth limit where the position is not quiet.

A depth-limited search scores whatever stands at its limit, even a position where a player
can win at once or must block: the threat decides the game one move later, beyond the
horizon. Heuristic continuation asks a second question at the limit: is this position *quiet*
enough to score? If not, the search goes on, at most ``extra`` moves past the limit, and
only then falls back on the heuristic. Chess programs ask the same question about captures
(*quiescence search*).

- ``no_threat``: the default rule for boards with ``cells()`` and ``lines()`` (3x3, m,n,k):
  quiet when no line is one mark short of a win for either side;
- ``alphabeta_continued``: depth-limited alpha-beta (negamax form) with the second test;
  with a rule that finds every position quiet (``always_quiet``) it is the plain depth limit;
- ``continued_choice``: X's value and every best move at the root.

The searches hold nothing but the algorithm: count their nodes from outside.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from ..errors import IllegalMoveError
from ..game import Game
from .alphabeta import INF, SearchOptionError
from .ordering import X_DIGIT, O_DIGIT, _board, line_score

WIN = 10 ** 6  # a finished game's score: beyond any heuristic score (as in depthlimit.py)
Evaluate = Callable[[Game], float]
Quiet = Callable[[Game], bool]


def no_threat(state) -> bool:
    """Quiet: no line has all its cells but one held by one side, and that one empty
    (nobody can win at once, so nobody must block)."""
    cells, lines = _board(state)
    for line in lines:
        marks = [cells[cell] for cell in line]
        if marks.count(0) == 1 and (marks.count(X_DIGIT) == len(line) - 1
                                    or marks.count(O_DIGIT) == len(line) - 1):
            return False
    return True


def always_quiet(state) -> bool:
    """Every position is quiet: no continuation, the plain depth limit."""
    return True


def alphabeta_continued(state: Game, depth: int, alpha: float, beta: float,
                        evaluate: Evaluate, quiet: Quiet, extra: int,
                        win: float = WIN) -> float:
    """The value of ``state`` for the player to move, looking ``depth`` moves ahead.

    At the depth limit a quiet position is scored by ``evaluate`` (X's view); one that is not
    quiet is searched further, at most ``extra`` moves past the limit.
    """
    if state.is_terminal():
        return state.to_move * state.utility() * win
    if depth <= 0 and (depth <= -extra or quiet(state)):
        return state.to_move * evaluate(state)
    best = -INF
    for move in state.moves():
        value = -alphabeta_continued(state.play(move), depth - 1, -beta, -max(alpha, best),
                                     evaluate, quiet, extra, win)
        best = max(best, value)
        if best >= beta:
            break
    return best


Search = Callable[[Game, int, float, float], float]


def root_choice(state: Game, depth: int, search: Search, moves: list) -> tuple[float, list]:
    """The mover's best value and every move reaching it, searched in the order ``moves``.

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


def continued_choice(state: Game, depth: int, evaluate: Evaluate = line_score,
                     quiet: Quiet = no_threat, extra: int = 2,
                     win: float = WIN) -> tuple[float, list]:
    """X's value of ``state`` and its best moves (sorted), looking ``depth`` (at least 1) moves
    ahead and continuing non-quiet positions at most ``extra`` moves past the limit."""
    check_continuation(state, depth, evaluate, quiet, extra)

    def search(child, left, alpha, beta):
        return alphabeta_continued(child, left, alpha, beta, evaluate, quiet, extra, win)

    value, moves = root_choice(state, depth, search, state.moves())
    return state.to_move * value, sorted(moves)


def check_continuation(state: Game, depth: int, evaluate, quiet, extra: int) -> None:
    """The public entries' arguments, checked once (never per node)."""
    if not isinstance(state, Game):
        raise TypeError(f"a search needs a game state, not {type(state).__name__}")
    if state.is_terminal():
        raise IllegalMoveError("the game is over: there is no move to choose")
    check_count(depth, "depth (moves looked ahead)", least=1)
    check_count(extra, "extra (moves searched past the limit)", least=0)
    for name, fn in (("evaluate", evaluate), ("quiet", quiet)):
        if not callable(fn):
            raise TypeError(f"{name} is a function of a state, not {type(fn).__name__}")


def check_count(value, what: str, least: int) -> None:
    """A count option is an int (TypeError otherwise) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a whole number, not {type(value).__name__}")
    if value < least:
        raise SearchOptionError(f"{what} is at least {least}, not {value!r}")


__all__ = ["WIN", "SearchOptionError", "alphabeta_continued", "always_quiet",
           "check_continuation", "check_count", "continued_choice", "no_threat", "root_choice"]
