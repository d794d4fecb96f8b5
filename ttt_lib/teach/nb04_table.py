"""Notebook 04's write-it transposition table search (``check_04_transposition``): negamax
alpha-beta with a table, judged over sessions of related searches sharing one table."""
from __future__ import annotations

import random
import time
from functools import lru_cache

from ..boards.bit import BitBoard
from ..game import MAX
from ..search.pruning import INF, AlphaBeta, bound_flag
from .core import case_seed, cases_cache, unanswered, write_it
from .judge import SEARCHES, call_limited, failure_of
from .tables import (Counted, Expanded, ForgetfulTable, Search, TooMuchSearch, WatchedTable,
                     expected_text, right_result, table_search, value_hint, where_text)

__all__ = ["transposition_04_sessions", "mover_value", "alphabeta_04_expansions",
           "check_04_transposition"]

# The student's ``fn(state, alpha, beta, table)`` is negamax alpha-beta with a transposition
# table. Each session is a few searches of related positions (a root, one of its children,
# the same marks with the other player to move, the root again in wider windows) with one
# table carried from search to search, so a bound stored as if it were the value, or a key
# blind to whose turn it is, gives a wrong value later. Then the nodes: with a table that
# forgets, it must prune as alpha-beta does; with its table, it must expand fewer positions.

EDGES_04 = (-INF, -2, -1, -0.5, 0, 0.5, 1, 2, INF)  # the windows' bounds
PRUNE_04 = 1.0  # with a table that forgets: at most this many times alpha-beta's expansions
HINT_04_SECONDS = 5.0  # the most a wrong function is run again for the fingerprint of its mistake


def _root(rng: random.Random, first: str, empty: int) -> BitBoard:
    """A seeded unfinished position with ``empty`` empty cells, ``first`` opening."""
    state = BitBoard(first)
    while state.cells().count(0) > empty and state.moves():
        state = state.play(rng.choice(state.moves()))
    return state if not state.is_terminal() else _root(rng, first, empty)


def _session(rng: random.Random, root: BitBoard) -> tuple[Search, ...]:
    """A root searched in a random window, then one of its children, the same marks with
    the other player to move (when that can arise), the root again, and both in full."""
    def window() -> tuple:
        return tuple(sorted(rng.sample(EDGES_04, 2)))
    children = [root.play(m) for m in root.moves() if not root.play(m).is_terminal()]
    searches = [Search(root, *window())]
    searches += [Search(rng.choice(children), *window())] if children else []
    twin = None
    if root.cells().count(0) % 2:  # as many X's as O's: either side may open
        twin = BitBoard.from_cells(root.cells(), "O" if root.first == MAX else "X")
        searches.append(Search(twin, *window()))
    searches += [Search(root, *window()), Search(root, -INF, INF)]
    return tuple(searches + ([Search(twin, -INF, INF)] if twin else []))


@cases_cache
def transposition_04_sessions() -> tuple[tuple[Search, ...], ...]:
    """The sessions the table search is judged on, smallest first: for 3 to 7 empty cells
    and each opener, two seeded roots (O to move at the root in half of them)."""
    rng, sessions = random.Random(case_seed(25)), []
    for empty in range(3, 8):
        for first in ("X", "O"):
            sessions += [_session(rng, _root(rng, first, empty)) for _ in range(2)]
    return tuple(sessions)


@lru_cache(maxsize=None)
def mover_value(state: BitBoard) -> int:
    """The exact value of ``state`` for the player to move (the checker's own table search
    from the full window, which the tests hold to ttt_lib's ``solve``)."""
    return table_search(state, -INF, INF, {})


def _run_session(fn, session: tuple, table: dict, expanded: Expanded,
                 hint: bool = True) -> str | None:
    """Run the searches of ``session`` with one table; why the first wrong one is wrong."""
    got = []
    for i, search in enumerate(session):
        state = Counted(search.state, expanded)
        try:
            got.append(call_limited(fn, (state, search.alpha, search.beta, table)))
        except NotImplementedError:
            return "write the function (it still raises NotImplementedError)."
        except TooMuchSearch:
            raise
        except Exception as error:  # the student's bug, reported, never a traceback
            return f"{where_text(session[:i + 1])}, {failure_of(error)}"
        value = mover_value(search.state)
        if not right_result(value, got[-1], search.alpha, search.beta):
            player = "X" if search.state.to_move == MAX else "O"
            return (f"{where_text(session[:i + 1])}: the value for the player to move ({player}) "
                    f"is {value}, {expected_text(value, search.alpha, search.beta)}; your "
                    f"function gave {got[-1]!r}."
                    + (f" {_hint(fn, session[:i + 1], got, table)}" if hint else ""))
    return None


def _hint(fn, searches: tuple, got: list, table: dict) -> str:
    """The hint for a wrong last result of ``searches``, from the typical mistake that agrees
    with ``fn`` on them and on every session (``fn`` run again, a fresh table each)."""
    evidence, deadline = [(searches, got)], time.monotonic() + HINT_04_SECONDS
    for session in transposition_04_sessions():
        if time.monotonic() > deadline:  # a slow function: the evidence so far will do
            break
        results: list = []
        try:
            fresh: dict = {}
            for search in session:
                results.append(call_limited(fn, (search.state, search.alpha, search.beta, fresh)))
        except Exception:  # what it answered before it failed is evidence enough
            pass
        evidence.append((session[:len(results)], results))
    return value_hint(evidence, table, mover_value)


def _expansions(fn, make_table, limit: int | None = None) -> tuple[int, list, str | None]:
    """Positions ``fn`` expands over every session, each with a table ``make_table()``
    carried through it (stopped past ``limit``): (count, the tables, why it failed or None)."""
    expanded, tables = Expanded(limit), []
    try:
        for session in transposition_04_sessions():
            tables.append(make_table())
            failed = _run_session(fn, session, tables[-1], expanded, make_table is WatchedTable)
            if failed:
                return expanded.count, tables, failed
    except TooMuchSearch:
        pass
    return expanded.count, tables, None


@cases_cache
def alphabeta_04_expansions() -> int:
    """Positions plain alpha-beta expands over every search of the sessions (the checker's
    own table search with a table that stores nothing: the tests hold it to ttt_lib's)."""
    expanded = Expanded()
    for search in (s for session in transposition_04_sessions() for s in session):
        table_search(Counted(search.state, expanded), search.alpha, search.beta, ForgetfulTable())
    return expanded.count


TABLE_04_FORBIDS = (*SEARCHES, bound_flag, *((AlphaBeta, name) for name in (
    "search", "search_with_table", "search_fail_hard", "root")))


def _table_hint(tables: list) -> str:
    """Why the table saved nothing, from what the function did with it."""
    if not any(tables):
        return "It never stores anything in table: store each result (with its flag)."
    if not sum(table.reads for table in tables):
        return "It never looks in table: look the position up before searching it."
    if not sum(table.found for table in tables):
        return ("It looks in table but never finds a position again: store and look up by "
                "the same key, state.key() or the state itself.")
    return "Use every entry that settles the window, instead of searching the position again."


@write_it(forbids=TABLE_04_FORBIDS, task="the table search")
def check_04_transposition(fn) -> None:
    """Judge ``fn(state, alpha, beta, table) -> value for the player to move`` (negamax
    alpha-beta, fail-soft or fail-hard, with a transposition table) on the sessions of
    ``transposition_04_sessions()``, one table carried through each session: the value
    (exact inside the window, else a bound on the right side); with a table that forgets,
    at most alpha-beta's expansions; with its table, fewer than with one that forgets."""
    if unanswered(fn, "look the position up in table first; else search it as alpha-beta "
                      "does and store the value with a flag: exact, lower or upper bound."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    tabled, tables, failed = _expansions(fn, WatchedTable)
    if failed:
        return print(f"Not yet: {failed}")
    plain, searches = alphabeta_04_expansions(), sum(map(len, transposition_04_sessions()))
    forgetting, _, failed = _expansions(fn, ForgetfulTable, int(PRUNE_04 * plain))
    if failed:
        return print(f"Not yet: with a table that stores nothing, {failed} Do not count on "
                     "an entry being there: the table may not have it.")
    if forgetting > PRUNE_04 * plain:
        return print(f"Not yet: the values are right, but with a table that stores nothing "
                     f"your search expands more positions than alpha-beta ({plain:,} over the "
                     "same searches): it should prune as alpha-beta does. Pass each child the "
                     "window (-beta, -alpha), raise alpha to the best value so far, and stop "
                     "once alpha >= beta.")
    if tabled >= forgetting:
        return print(f"Not yet: the values are right, but your search expands {tabled:,} "
                     f"positions with its table and {forgetting:,} with a table that stores "
                     f"nothing: the table saves nothing. {_table_hint(tables)}")
    print(f"Right: your table search gives the right value in all {searches} searches "
          f"({len(tables)} sessions, one table carried through each, O to move in half), and "
          f"expands {tabled:,} positions with its table against {forgetting:,} with a table "
          f"that stores nothing (alpha-beta: {plain:,}).")
