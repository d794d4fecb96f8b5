"""Alpha-beta pruning: minimax's value without searching the moves that cannot change it.

The window ``(alpha, beta)`` holds what the search still cares about: alpha is what the side
to move is already sure of elsewhere, beta what the opponent is sure of. Once a node's value
is known to reach beta, its remaining moves are pruned: the opponent will never let the game
get here. Three pieces, one implementation each:

- ``alphabeta_maxmin``: the max/min form of the textbooks (MAX raises alpha, MIN lowers beta);
- ``AlphaBeta``: the negamax form, with every speed-up switchable on its own: a transposition
  table (with bound flags), a symmetry-reduced table, move ordering, killer moves, a depth
  limit with a heuristic evaluation;
- ``alphabeta``: the entry point, returning X's value whichever form runs.

*Fail-soft* search returns the best value it found even when that lies outside the window
(a tighter bound); *fail-hard* clamps it into ``[alpha, beta]``. Both prune the same moves.
A result strictly inside the window is exact; one at or below alpha is an upper bound, one
at or above beta a lower bound. That is why a table entry records which of the three it is.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from ..errors import IllegalMoveError
from ..game import MAX, Game
from .ordering import Killers, Ordering, ordering_function
from .stats import Stats
from .trace import Trace, node_name

INF = math.inf
EXACT, LOWER, UPPER = "exact", "lower", "upper"
FORMS = ("negamax", "maxmin")
FAILS = ("soft", "hard")


class SearchOptionError(ValueError):
    """A search option that does not exist or does not fit with the others."""


def alphabeta(state: Game, alpha: float = -INF, beta: float = INF, *,
              stats: Stats | None = None, trace: Trace | None = None,
              form: str = "negamax", fail: str = "soft", table: dict | bool | None = None,
              symmetry: bool = False, ordering: str | Ordering | None = None,
              killers: bool = False) -> float:
    """X's value of ``state`` by alpha-beta; ``alpha``/``beta`` bound it from X's side.

    Exact when the true value lies strictly inside the window, which the default window and
    the game's own bounds (-1, 1) both guarantee. Options (all independent):

    - ``form``: "negamax" (one rule for both sides) or "maxmin" (the textbook two-sided form);
    - ``fail``: "soft" (return the best value found) or "hard" (clamp it to the window);
    - ``table``: a dict kept between searches (or True for a fresh one): transpositions;
    - ``symmetry``: key the table by ``canonical_key()``, so symmetric positions share entries;
    - ``ordering``: None, "heuristic" (line score), "threats" (win, block, rest) or a function;
    - ``killers``: try the moves that caused cut-offs at the same depth first.

    The speed-ups run in negamax form; the max/min form is the plain algorithm.
    """
    check_window(alpha, beta)
    check_choice("form", form, FORMS)
    check_choice("fail", fail, FAILS)
    if form == "maxmin":
        if table is not None or symmetry or ordering is not None or killers:
            raise SearchOptionError(
                "the speed-ups (table, symmetry, ordering, killers) run in negamax form; "
                "use form='negamax' or drop them")
        return alphabeta_maxmin(state, alpha, beta, stats=stats, trace=trace, fail=fail)
    engine = AlphaBeta(fail=fail, table=table, symmetry=symmetry, ordering=ordering,
                       killers=killers, stats=stats, trace=trace)
    return engine.value(state, alpha, beta)


def alphabeta_maxmin(state: Game, alpha: float = -INF, beta: float = INF, *,
                     stats: Stats | None = None, trace: Trace | None = None,
                     fail: str = "soft", depth: int = 0) -> float:
    """X's value of ``state``, max/min form: MAX raises alpha, MIN lowers beta.

    ``depth`` is how far ``state`` lies below the search's root (it indents the trace).
    """
    maximizing = state.to_move == MAX
    best = -INF if maximizing else INF
    if stats is not None:
        stats.nodes += 1
    if trace is not None:
        trace.enter(state, depth, alpha, beta, best)
    if state.is_terminal():
        if stats is not None:
            stats.leaves += 1
        if trace is not None:
            trace.leaf(state, depth, state.utility())
        return state.utility() if fail == "soft" else clamp(state.utility(), alpha, beta)
    alpha0, beta0 = alpha, beta
    for move in state.moves():
        child = state.play(move)
        value = alphabeta_maxmin(child, alpha, beta, stats=stats, trace=trace, fail=fail,
                                 depth=depth + 1)
        if maximizing and value > best:
            best = value
            if trace is not None:
                trace.new_best(child, state, depth + 1)
            if best > alpha:
                alpha = best
                if trace is not None:
                    trace.improve(child, state, depth + 1, "alpha", alpha)
        elif not maximizing and value < best:
            best = value
            if trace is not None:
                trace.new_best(child, state, depth + 1)
            if best < beta:
                beta = best
                if trace is not None:
                    trace.improve(child, state, depth + 1, "beta", beta)
        if alpha >= beta:
            if stats is not None:
                stats.cutoffs += 1
            if trace is not None:
                trace.cutoff(state, depth, alpha, beta)
            break
    if trace is not None:
        trace.exit(state, depth, alpha, beta, best)
    return best if fail == "soft" else clamp(best, alpha0, beta0)


class AlphaBeta:
    """Alpha-beta in negamax form, each speed-up a switch (see ``alphabeta`` for the options).

    ``depth`` and ``evaluate`` turn it into a depth-limited search: positions ``depth`` moves
    below the root are scored by ``evaluate`` (X's view), and terminal positions by
    ``win`` times their utility, so that a real win outweighs every heuristic score.
    """

    def __init__(self, *, fail: str = "soft", table: dict | bool | None = None,
                 symmetry: bool = False, ordering: str | Ordering | None = None,
                 killers: bool | Killers = False, depth: int | None = None,
                 evaluate: Callable[[Game], float] | None = None, win: float = 1,
                 stats: Stats | None = None, trace: Trace | None = None) -> None:
        check_choice("fail", fail, FAILS)
        if table is True or (symmetry and table is None):
            table = {}
        if table is not None and not isinstance(table, dict):
            raise SearchOptionError(f"table is None, True or a dict, not {table!r}")
        if depth is not None:
            if table is not None:
                raise SearchOptionError(
                    "a transposition table needs exact values; a depth-limited value depends "
                    "on the depth left, so use either a table or a depth limit")
            if evaluate is None:
                raise SearchOptionError("a depth limit needs an evaluate function")
            check_depth(depth)
        self.soft = fail == "soft"
        self.table = table
        self.symmetry = symmetry
        self.order = ordering_function(ordering)
        self.killers = Killers() if killers is True else (killers or None)
        self.depth, self.evaluate, self.win = depth, evaluate, win
        self.stats, self.trace = stats, trace
        self.horizon_reached = False

    def value(self, state: Game, alpha: float = -INF, beta: float = INF) -> float:
        """X's value of ``state`` searched in the window ``(alpha, beta)`` (X's view)."""
        check_window(alpha, beta)
        if state.to_move == MAX:
            return self.search(state, alpha, beta)
        return -self.search(state, -beta, -alpha)

    def root(self, state: Game, moves: list | None = None) -> tuple[float, list]:
        """X's value of ``state`` and all its optimal moves, sorted.

        After the first move, each move is searched in a window that starts just below the
        best value so far: a move that only ties still comes back exact, and is kept.
        ``moves`` sets the order (by default the engine's own ordering).
        """
        if state.is_terminal():
            raise IllegalMoveError(
                f"the game is over at {node_name(state)}: there is no move to choose")
        if self.stats is not None:
            self.stats.nodes += 1
        best, best_moves = -INF, []
        for move in self.ordered_moves(state, 0) if moves is None else moves:
            floor = math.nextafter(best, -INF)
            value = -self.search(state.play(move), -INF, -floor, 1)
            if value > best:
                best, best_moves = value, [move]
            elif value == best:
                best_moves.append(move)
        return state.to_move * best, sorted(best_moves)

    def search(self, state: Game, alpha: float, beta: float, depth: int = 0) -> float:
        """The value of ``state`` for the player to move, in the window ``(alpha, beta)``."""
        stats, trace = self.stats, self.trace
        if self.table is not None:
            key = table_key(state, self.symmetry)
            entry = self.table.get(key)
            if entry is not None:
                found = self.probe(state, entry, alpha, beta, depth)
                if found is not None:
                    return found
        if stats is not None:
            stats.nodes += 1
        if trace is not None:
            trace.enter(state, depth, alpha, beta, -INF)
        if state.is_terminal() or depth == self.depth:
            value = self.leaf(state, depth)
            return value if self.soft else clamp(value, alpha, beta)
        alpha0, beta0 = alpha, beta
        best = -INF
        for move in self.ordered_moves(state, depth):
            child = state.play(move)
            value = -self.search(child, -beta, -alpha, depth + 1)
            if value > best:
                best = value
                if trace is not None:
                    trace.new_best(child, state, depth + 1)
                if best > alpha:
                    alpha = best
                    if trace is not None:
                        trace.improve(child, state, depth + 1, "alpha", alpha)
            if alpha >= beta:
                if stats is not None:
                    stats.cutoffs += 1
                if self.killers is not None:
                    self.killers.record(state, depth, move)
                if trace is not None:
                    trace.cutoff(state, depth, alpha, beta)
                break
        if self.table is not None:
            self.table[key] = (best, bound_flag(best, alpha0, beta0))
        if trace is not None:
            trace.exit(state, depth, alpha, beta, best)
        return best if self.soft else clamp(best, alpha0, beta0)

    def leaf(self, state: Game, depth: int) -> float:
        """A terminal position's value, or the evaluation at the depth limit (mover's view)."""
        if state.is_terminal():
            value = state.to_move * state.utility() * self.win
        else:
            self.horizon_reached = True
            value = state.to_move * self.evaluate(state)
        if self.stats is not None:
            self.stats.leaves += 1
        if self.trace is not None:
            self.trace.leaf(state, depth, value)
        if self.table is not None:
            self.table[table_key(state, self.symmetry)] = (value, EXACT)
        return value

    def probe(self, state: Game, entry: tuple[float, str], alpha: float, beta: float,
              depth: int) -> float | None:
        """The stored answer if it settles this window, else None (search the node)."""
        value, flag = entry
        settled = (flag == EXACT or (flag == LOWER and value >= beta)
                   or (flag == UPPER and value <= alpha))
        if not settled:
            return None
        if self.stats is not None:
            self.stats.table_hits += 1
        if self.trace is not None:
            self.trace.hit(state, depth, value, flag)
        return value if self.soft else clamp(value, alpha, beta)

    def ordered_moves(self, state: Game, depth: int) -> list:
        moves = state.moves()
        if self.order is not None:
            moves = self.order(state, moves)
        if self.killers is not None:
            moves = self.killers.first(state, depth, moves)
        return moves


def bound_flag(value: float, alpha: float, beta: float) -> str:
    """What a fail-soft result searched in ``(alpha, beta)`` says about the true value."""
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT


def clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


def check_window(alpha: float, beta: float) -> None:
    if not alpha < beta:
        raise SearchOptionError(f"the window needs alpha < beta, got ({alpha}, {beta})")


def check_depth(depth: int, least: int = 0) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < least:
        raise SearchOptionError(f"a search depth is an int of at least {least}, not {depth!r}")


def check_choice(name: str, value, choices: tuple) -> None:
    if value not in choices:
        raise SearchOptionError(
            f"{name} is one of {', '.join(map(repr, choices))}, not {value!r}")


def table_key(state: Game, symmetry: bool) -> Hashable:
    """The key a table uses for ``state``: its own, or that of its symmetry class."""
    return state.canonical_key() if symmetry else state.key()
