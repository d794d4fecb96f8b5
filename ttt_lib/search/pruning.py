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

Nothing here observes anything: ``count_nodes`` and ``trace_calls`` (``observe.py``) watch
any of these searches from outside, and ``alphabeta``'s ``stats=``/``trace=`` call them.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from ..checks import (DEPTH, FLAG, FUNCTION, GAME, NUMBER, ORDERING, argument_checks, also_window,
                     check_choice, check_depth_limit, check_table, check_window, choice, maybe,
                     optional)
from ..errors import IllegalMoveError, SearchOptionError
from ..game import MAX, Game
from .ordering import Killers, Ordering, ordering_function
from .observe import observed
from .report import ReportRow
from .trace import Stats, Trace, node_name

INF = math.inf
EXACT, LOWER, UPPER = "exact", "lower", "upper"
FORMS = ("negamax", "maxmin")
FAILS = ("soft", "hard")


def alphabeta(state: Game, alpha: float = -INF, beta: float = INF, *,
              stats: Stats | None = None, trace: Trace | None = None, form: str = "negamax",
              fail: str = "soft", table: dict | bool | None = None, symmetry: bool = False,
              ordering: str | Ordering | None = None, killers: bool = False) -> float:
    """X's value of ``state`` by alpha-beta; ``alpha``/``beta`` bound it from X's side.

    Exact when the true value lies strictly inside the window, which the default window and
    the game's own bounds (-1, 1) both guarantee. Options (all independent):

    - ``form``: "negamax" (one rule for both sides) or "maxmin" (the textbook two-sided form);
    - ``fail``: "soft" (return the best value found) or "hard" (clamp it to the window);
    - ``table``: a dict kept between searches (or True for a fresh one): transpositions;
    - ``symmetry``: key the table by ``canonical_key()``, so symmetric positions share entries;
    - ``ordering``: None, "heuristic" (line score), "threats" (win, block, rest) or a function;
    - ``killers``: try the moves that closed the window at the same depth first;
    - ``stats`` / ``trace``: observe the search from outside (``count_nodes``, ``trace_calls``).

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
        value = observed(lambda: alphabeta_maxmin(state, alpha, beta), [alphabeta_maxmin], (),
                        stats, trace)
        return value if fail == "soft" else clamp(value, alpha, beta)
    engine = AlphaBeta(fail=fail, table=table, symmetry=symmetry, ordering=ordering,
                       killers=killers)
    return engine.observed(lambda: engine.value(state, alpha, beta), stats, trace)


def alphabeta_maxmin(state: Game, alpha: float = -INF, beta: float = INF) -> float:
    """X's value of ``state``, max/min form (fail-soft): MAX raises alpha, MIN lowers beta."""
    if state.is_terminal():
        return state.utility()
    maximizing = state.to_move == MAX
    best = -INF if maximizing else INF
    for move in state.moves():
        value = alphabeta_maxmin(state.play(move), alpha, beta)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


class AlphaBeta:
    """Alpha-beta in negamax form, each speed-up a switch (see ``alphabeta`` for the options).

    ``search`` is the algorithm. It enters each child through ``visit``: ``search`` itself,
    or ``search`` behind the wrappers of two variants, ``search_with_table`` (the
    transposition table) and ``search_fail_hard`` (clamp into the window). The other variants
    are small methods ``search`` calls: ``ordered_moves`` (move ordering and killer moves),
    ``cut`` (the killers' record of a move that closed the window) and ``horizon`` (the
    depth limit).

    ``depth`` and ``evaluate`` turn it into a depth-limited search: positions ``depth`` moves
    below the root are scored by ``evaluate`` (X's view), and terminal positions by
    ``win`` times their utility, so that a real win outweighs every heuristic score.
    """

    def __init__(self, *, fail: str = "soft", table: dict | bool | None = None,
                 symmetry: bool = False, ordering: str | Ordering | None = None,
                 killers: bool | Killers = False, depth: int | None = None,
                 evaluate: Callable[[Game], float] | None = None, win: float = 1) -> None:
        check_choice("fail", fail, FAILS)
        self.table = check_table(table, symmetry, depth)
        self.depth, self.evaluate, self.win = check_depth_limit(depth, evaluate), evaluate, win
        self.symmetry = symmetry
        self.order = ordering_function(ordering)
        self.killers = Killers() if killers is True else (killers or None)
        self.unordered = self.order is None and self.killers is None
        self.horizon_reached = False
        # How the search enters each position: through the table if any, clamped if fail-hard.
        self.visit_soft = self.search if self.table is None else self.search_with_table
        self.visit = self.visit_soft if fail == "soft" else self.search_fail_hard

    def value(self, state: Game, alpha: float = -INF, beta: float = INF) -> float:
        """X's value of ``state`` searched in the window ``(alpha, beta)`` (X's view)."""
        check_window(alpha, beta)
        if state.to_move == MAX:
            return self.visit(state, alpha, beta)
        return -self.visit(state, -beta, -alpha)

    def root(self, state: Game, moves: list | None = None) -> tuple[float, list]:
        """X's value of ``state`` and all its optimal moves, sorted.

        After the first move, each move is searched in a window that starts just below the
        best value so far: a move that only ties still comes back exact, and is kept.
        ``moves`` sets the order (by default the engine's own ordering).
        """
        if state.is_terminal():
            raise IllegalMoveError(
                f"the game is over at {node_name(state)}: there is no move to choose")
        best, best_moves = -INF, []
        for move in self.ordered_moves(state, 0) if moves is None else moves:
            floor = math.nextafter(best, -INF)
            value = -self.visit(state.play(move), -INF, -floor, 1)
            if value > best:
                best, best_moves = value, [move]
            elif value == best:
                best_moves.append(move)
        return state.to_move * best, sorted(best_moves)

    def search(self, state: Game, alpha: float, beta: float, ply: int = 0) -> float:
        """The value of ``state`` for the player to move, in the window ``(alpha, beta)``;
        ``ply`` is how many moves below the search's root ``state`` lies."""
        if state.is_terminal():
            return state.to_move * state.utility() * self.win
        if ply == self.depth:
            return self.horizon(state)
        best = -INF
        for move in state.moves() if self.unordered else self.ordered_moves(state, ply):
            value = -self.visit(state.play(move), -beta, -alpha, ply + 1)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        self.cut(state, ply, move)
                        break
        return best

    def search_with_table(self, state: Game, alpha: float, beta: float, ply: int = 0) -> float:
        """``search`` through the transposition table: a stored answer that settles the window
        is returned as it is; otherwise the position is searched and the result stored.

        An exact value always settles it; a lower bound at or above beta, or an upper bound at
        or below alpha, tells the parent all it needs (the node fails high, or low).
        """
        key = table_key(state, self.symmetry)
        entry = self.table.get(key)
        if entry is not None:
            value, flag = entry
            if (flag == EXACT or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)):
                return value
        value = self.search(state, alpha, beta, ply)
        flag = EXACT if state.is_terminal() else bound_flag(value, alpha, beta)
        self.table[key] = (value, flag)
        return value

    def search_fail_hard(self, state: Game, alpha: float, beta: float, ply: int = 0) -> float:
        """Fail-hard: the fail-soft value clamped into the window ``[alpha, beta]``."""
        return clamp(self.visit_soft(state, alpha, beta, ply), alpha, beta)

    def horizon(self, state: Game) -> float:
        """The depth limit: ``evaluate``'s guess, for the player to move, instead of a search."""
        self.horizon_reached = True
        return state.to_move * self.evaluate(state)

    def ordered_moves(self, state: Game, ply: int) -> list:
        """``state``'s moves in the order to search them: ordering first, then killers."""
        moves = state.moves()
        if self.order is not None:
            moves = self.order(state, moves)
        if self.killers is not None:
            moves = self.killers.first(state, ply, moves)
        return moves

    def cut(self, state: Game, ply: int, move) -> None:
        """The window closed (a cut-off if moves are left): with killer moves, remember the
        move that closed it at this ply."""
        if self.killers is not None:
            self.killers.record(state, ply, move)

    def observed(self, run: Callable[[], object], stats: Stats | None = None,
                trace: Trace | None = None, root: bool = False):
        """``run()`` (a call of this engine), observed from outside when ``stats`` or
        ``trace`` is given; with ``root``, ``root()`` counts as a node too."""
        nodes = [self.search] + ([self.root] if root else [])
        return observed(run, nodes, (self.search_with_table, self.search_fail_hard), stats,
                        trace)


def bound_flag(value: float, alpha: float, beta: float) -> str:
    """What a fail-soft result searched in ``(alpha, beta)`` says about the true value."""
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT


def clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


def table_key(state: Game, symmetry: bool) -> Hashable:
    """The key a table uses for ``state``: its own, or that of its symmetry class."""
    return state.canonical_key() if symmetry else state.key()


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
WINDOW = dict(state=GAME, alpha=NUMBER, beta=NUMBER, also=also_window)
OBSERVERS = dict(stats=maybe(Stats, "a Stats"), trace=maybe(Trace, "a Trace"))
argument_checks(alphabeta, SearchOptionError, **WINDOW, **OBSERVERS,
                form=choice(*FORMS), fail=choice(*FAILS), symmetry=FLAG, ordering=ORDERING,
                killers=FLAG)
argument_checks(alphabeta_maxmin, SearchOptionError, **WINDOW)
argument_checks(AlphaBeta, SearchOptionError, fail=choice(*FAILS), symmetry=FLAG,
                ordering=ORDERING,  # killers: True, False or any object with Killers' methods
                depth=optional(DEPTH), evaluate=optional(FUNCTION), win=NUMBER)

# The node-count report's rows from this module (see ``ttt_lib.studies.nodes``), each after
# the one before it; the first comes after the memoised negamax (``exact.py``).
REPORT_ROWS = [ReportRow(name, alphabeta, options, after) for after, name, options in [
    ("negamax + memo", "alpha-beta (max/min)", {"form": "maxmin"}),
    ("alpha-beta (max/min)", "alpha-beta (negamax)", {}),
    ("alpha-beta (negamax)", "alpha-beta fail-hard", {"fail": "hard"}),
    ("alpha-beta fail-hard", "alpha-beta, window (-1, 1)", {"alpha": -1, "beta": 1}),
    ("alpha-beta, window (-1, 1)", "alpha-beta + table", {"table": True}),
    ("alpha-beta + table", "alpha-beta + symmetric table", {"symmetry": True}),
    ("alpha-beta + symmetric table", "alpha-beta + heuristic order", {"ordering": "heuristic"}),
    ("alpha-beta + heuristic order", "alpha-beta + threat order", {"ordering": "threats"}),
    ("alpha-beta + threat order", "alpha-beta + killers", {"killers": True}),
    ("PVS + heuristic order", "sym. table + threats + killers",
     {"symmetry": True, "ordering": "threats", "killers": True}),
    ("sym. table + threats + killers", "sym. table + heuristic order",
     {"symmetry": True, "ordering": "heuristic"}),
    ("sym. table + heuristic order", "sym. table + heuristic, (-1, 1)",
     {"symmetry": True, "ordering": "heuristic", "alpha": -1, "beta": 1}),
]]
