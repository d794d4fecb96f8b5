"""Exact values by minimax: the textbook forms, and the memoised solver behind ``perfect``.

``minimax`` is the max/min form: X (MAX) takes the largest child value, O (MIN) the smallest,
all values from X's point of view. ``negamax`` is the same search written once for both sides:
a position's value *for the player to move* is the best of minus the opponent's values after
each move. Both visit the whole tree (549,946 nodes from the empty board).

``negamax_memo`` remembers each position's value by ``key()``: a wrapper around the search of
one position (``negamax_step``), which turns those 549,946 nodes into 5,478 evaluations;
``solve``, ``best_moves`` and ``solve_all`` are built on it.

Nothing here counts anything: ``count_nodes(minimax, state)`` (``observe.py``) watches from
outside, and ``solve``/``best_moves`` take ``stats=`` as a convenience that does the same.
"""
from __future__ import annotations

from collections.abc import Hashable

from ..checks import FUNCTION, GAME, TABLE, argument_checks, maybe, optional
from ..errors import SearchOptionError
from ..game import MAX, Game, reachable
from .observe import observed
from .report import ReportRow
from .trace import Stats


def minimax(state: Game) -> float:
    """X's value of ``state``: MAX takes the largest child value, MIN the smallest."""
    if state.is_terminal():
        return state.utility()
    values = [minimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


def negamax(state: Game) -> float:
    """The value of ``state`` for the player to move (not for X): +1 means they win.

    One rule serves both sides: my value is the best of minus my opponent's values.
    X's value is ``state.to_move * negamax(state)``.
    """
    if state.is_terminal():
        return state.to_move * state.utility()
    return max(-negamax(state.play(move)) for move in state.moves())


def negamax_memo(state: Game, table: dict[Hashable, float]) -> float:
    """Exact value of ``state`` for the player to move, remembered in ``table``."""
    key = state.key()
    if key not in table:
        table[key] = negamax_step(state, table)
    return table[key]


def negamax_step(state: Game, table: dict[Hashable, float]) -> float:
    """``negamax`` of one position, its children looked up through ``negamax_memo``."""
    if state.is_terminal():
        return state.to_move * state.utility()
    return max(-negamax_memo(state.play(move), table) for move in state.moves())


def memo_observed(run, stats: Stats | None):
    """``run()``, its work added to ``stats`` if given (positions searched, table hits)."""
    return observed(run, [negamax_step], [negamax_memo], stats)


def solve(state: Game, table: dict | None = None, stats: Stats | None = None) -> float:
    """Exact value of ``state`` for X (MAX): +1 win, 0 draw, -1 loss under perfect play."""
    table = {} if table is None else table
    return state.to_move * memo_observed(lambda: negamax_memo(state, table), stats)


def best_moves(state: Game, table: dict | None = None, stats: Stats | None = None) -> list:
    """All optimal moves for the player to move, sorted (empty at a terminal state)."""
    if state.is_terminal():
        return []
    table = {} if table is None else table
    values = memo_observed(lambda: {move: -negamax_memo(state.play(move), table)
                                    for move in state.moves()}, stats)
    best = max(values.values())
    return sorted(move for move, value in values.items() if value == best)


def move_values(state: Game, value_of=solve, **options) -> dict:
    """Each legal move's value for X: ``value_of(state.play(move), **options)``.

    ``value_of`` is any search returning X's value (``solve``, ``minimax``, ``alphabeta``...),
    so agents can choose a move with whichever search they are built on.
    """
    return {move: value_of(state.play(move), **options) for move in state.moves()}


def solve_all(root: Game) -> dict[Hashable, float]:
    """The exact value for X of every position reachable from ``root``, keyed by ``key()``.

    The values come from one shared memo table, so each position is searched once.
    """
    table: dict[Hashable, float] = {}
    return {key: solve(state, table) for key, state in reachable(root).items()}


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
MEMO = dict(state=GAME, table=optional(TABLE), stats=maybe(Stats, "a Stats"))
for _search in (minimax, negamax):
    argument_checks(_search, SearchOptionError, state=GAME)
for _search in (negamax_memo, negamax_step):
    argument_checks(_search, SearchOptionError, state=GAME, table=TABLE)
argument_checks(solve, SearchOptionError, **MEMO)
argument_checks(best_moves, SearchOptionError, **MEMO)
argument_checks(move_values, SearchOptionError, state=GAME, value_of=FUNCTION)
argument_checks(solve_all, SearchOptionError, root=GAME)

# The node-count report's rows from this module (see ``ttt_lib.studies.nodes``).
REPORT_ROWS = [
    ReportRow("minimax", minimax, {}, after=None),
    ReportRow("negamax", negamax, {}, after="minimax", view="mover"),
    ReportRow("negamax + memo", solve, {}, after="negamax"),
]
