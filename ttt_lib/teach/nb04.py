"""Exercises of notebook 04: transposition tables, symmetry and move ordering."""
from __future__ import annotations

import random
import time
from functools import lru_cache

from ..boards.bit import BitBoard
from ..game import MAX, reachable
from ..search.pruning import INF, AlphaBeta, alphabeta, bound_flag
from ..search.ordering import Killers, heuristic_order, line_score, threat_order
from ..search.principal_variation import pvs
from ..search.trace import Stats
from .core import case_seed, cases_cache, is_int, unanswered, verdict, word_in, write_it
from .judge import SEARCHES, call_limited, failure_of
from .tables import (Counted, Expanded, ForgetfulTable, Search, TooMuchSearch, WatchedTable,
                     expected_text, right_result, table_search, value_hint, where_text)

__all__ = ["BOARD_04_LINE_SCORE", "BOARD_04_SPEEDUP", "SPEEDUPS_04", "ORDERING_04_FACTOR",
           "speedup_nodes", "ordering_04_positions", "check_04_line_score", "check_04_speedup",
           "check_04_ordering", "transposition_04_sessions", "mover_value",
           "alphabeta_04_expansions", "check_04_transposition"]

BOARD_04_LINE_SCORE = "X../.X./O.O"
BOARD_04_SPEEDUP = "XO./.O./..X"

# Each speed-up on its own: the options of ``alphabeta``, or PVS (no options).
SPEEDUPS_04 = {
    "table": {"table": True},
    "symmetric table": {"symmetry": True},
    "heuristic order": {"ordering": "heuristic"},
    "threat order": {"ordering": "threats"},
    "killers": {"killers": True},
    "PVS": None,
}


def speedup_nodes(text: str, name: str) -> int:
    """The nodes exact search from ``text`` visits with one speed-up (a key of SPEEDUPS_04)."""
    return _speedup_nodes(text)[name]


@lru_cache(maxsize=None)
def _speedup_nodes(text: str) -> dict[str, int]:
    board, counts = BitBoard.from_text(text), {}
    for name, options in SPEEDUPS_04.items():
        stats = Stats()
        if options is None:
            pvs(board, stats=stats)
        else:
            alphabeta(board, stats=stats, **options)
        counts[name] = stats.nodes
    return counts


def _line_scores(text: str) -> dict[str, int]:
    """The right line score and the ones that common slips give."""
    board = BitBoard.from_text(text)
    cells, lines = board.cells(), board.lines()
    slips = {"right": line_score(board), "ten_to_count": 0, "mixed_lines": 0}
    for line in lines:
        marks = [cells[cell] for cell in line]
        xs, os = marks.count(1), marks.count(2)
        slips["ten_to_count"] += (10 ** xs if xs and not os else 0) - \
            (10 ** os if os and not xs else 0)
        slips["mixed_lines"] += (10 ** (xs - 1) if xs else 0) - (10 ** (os - 1) if os else 0)
    return slips


def check_04_line_score(answer) -> None:
    """``line_score`` of ``X../.X./O.O``, worked out by hand."""
    scores = _line_scores(BOARD_04_LINE_SCORE)
    expected = scores["right"]
    first_hint = ("go through the 8 lines: a line with only X's marks scores 1, 10 or 100 for "
                  "1, 2 or 3 marks, one with only O's the same negated, any other 0.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the score is one int.")
    if answer == -expected and expected:
        hint = "the sign is the wrong way round: the score is from X's point of view."
    elif answer == scores["ten_to_count"]:
        hint = "a line with k marks of one side is worth 10 ** (k - 1): a single mark counts 1."
    elif answer == scores["mixed_lines"]:
        hint = "a line holding both X and O can never be completed by either: it scores 0."
    else:
        hint = "list the 3 rows, 3 columns and 2 diagonals, and score each one separately."
    verdict(answer == expected,
            f"line_score is {expected}: the lines held by one side alone, weighted by how "
            "full they are.", hint)


def check_04_speedup(answer) -> None:
    """Which single speed-up (a key of ``SPEEDUPS_04``) lets exact search from
    ``XO./.O./..X`` visit the fewest nodes."""
    counts = _speedup_nodes(BOARD_04_SPEEDUP)
    expected = min(counts, key=counts.get)
    first_hint = ("look at the position first: what must X do? Then count each speed-up's "
                  "nodes with a Stats().")
    if unanswered(answer, first_hint):
        return
    named = word_in(answer, SPEEDUPS_04)
    if named is None:
        return verdict(False, "", "answer with one of the names in SPEEDUPS_04 "
                                  "(print(list(SPEEDUPS_04)) shows them).")
    answer = named
    hint = (f"with {answer} the search visits {counts[answer]} nodes; another speed-up "
            "does better. O threatens a line: which speed-up notices that?")
    why = {"threat order": "X must block at once, and the threat order tries the block first",
           "heuristic order": "the line score puts the strongest moves first"}
    verdict(answer == expected,
            f"{expected} wins here with {counts[expected]} nodes"
            + (f": {why[expected]}." if expected in why else "."), hint)


# ---------------------------------------------------------------- the write-it exercise

ORDERING_04_FACTOR = 1.5  # the target: at most this many times the line heuristic's nodes
ORDERING_04_NAMED = ("XX./OO./...", "XO./.O./..X", "X../.O./..X")  # positions the notebook shows


class NotAnOrdering(Exception):
    """The student's ordering returned something other than a reordering of the moves."""

    def __init__(self, state, moves: list, got) -> None:
        super().__init__(f"not a reordering of {moves}")
        self.state, self.moves, self.got = state, moves, got


class TooManyNodes(Exception):
    """The search with the student's ordering passed its node budget (far worse than plain)."""


@cases_cache
def ordering_04_positions() -> tuple[BitBoard, ...]:
    """The positions the ordering is judged on, smallest search first: a seeded sample of 8
    unfinished positions for each number of marks from 7 down to 1, the notebook's positions,
    and the empty board last."""
    by_marks: dict[int, list[BitBoard]] = {}
    for state in reachable(BitBoard()).values():
        if not state.is_terminal():
            by_marks.setdefault(9 - state.cells().count(0), []).append(state)
    rng, chosen = random.Random(case_seed(4)), {}
    for marks in range(7, 0, -1):
        pool = sorted(by_marks[marks], key=lambda state: state.to_text())
        chosen.update((state.to_text(), state) for state in rng.sample(pool, 8))
    chosen.update((text, BitBoard.from_text(text)) for text in ORDERING_04_NAMED)
    return (*sorted(chosen.values(), key=lambda state: state.cells().count(0)), BitBoard())


def _reordering_error(moves: list, got) -> str | None:
    """Why ``got`` is not a reordering of ``moves``, or None when it is one."""
    if not isinstance(got, (list, tuple)):
        return f"return a list of moves, not a {type(got).__name__}."
    for move in got:
        if move not in moves:
            return f"move {move!r} is not one of state.moves()."
        if list(got).count(move) > 1:
            return f"move {move} comes twice: list every move exactly once."
    missing = [move for move in moves if move not in got]
    return f"it left out {missing}: return every move, best first." if missing else None


class _CountingAlphaBeta(AlphaBeta):
    """Alpha-beta that counts the nodes it searches as it goes (the checker's budget)."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.nodes = 0

    def search(self, state, alpha: float, beta: float, ply: int = 0) -> float:
        self.nodes += 1
        return super().search(state, alpha, beta, ply)


def _nodes(order, state, budget: int) -> int:
    """Nodes alpha-beta visits from ``state`` with ``order(state) -> moves`` deciding the
    order, stopped with ``TooManyNodes`` past ``budget``."""

    def ordering(node, moves: list) -> list:
        if engine.nodes > budget:
            raise TooManyNodes()
        got = order(node)
        if _reordering_error(moves, got):
            raise NotAnOrdering(node, moves, got)
        got = list(got)
        if all(type(mine) is int for mine in got):
            return got
        return [next(move for move in moves if move == mine) for mine in got]  # numpy's ints

    engine = _CountingAlphaBeta(ordering=ordering)
    engine.value(state)
    return engine.nodes


@cases_cache
def _library_nodes() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per position of ``ordering_04_positions``: nodes with plain order, with the line
    heuristic."""
    positions = ordering_04_positions()
    plain = tuple(_nodes(lambda s: s.moves(), state, 10 ** 7) for state in positions)
    line = tuple(_nodes(lambda s: heuristic_order(s, s.moves()), state, 10 ** 7)
                 for state in positions)
    return plain, line


def _run(fn, budgets: list[int]) -> tuple[list[int], str | None]:
    """Node counts of ``fn`` over the positions (a count over its budget is cut short), or
    the verdict line of the first position where it fails."""
    counts = []
    for state, budget in zip(ordering_04_positions(), budgets):
        try:
            counts.append(call_limited(_nodes, (fn, state, budget)))
        except TooManyNodes:
            counts.append(budget + 1)
        except NotImplementedError:
            return counts, "Not yet: write the function (it still raises NotImplementedError)."
        except NotAnOrdering as bad:
            return counts, (f"Not yet: on {bad.state!r} (moves {bad.moves}) your function "
                            f"returned {bad.got!r}: {_reordering_error(bad.moves, bad.got)}")
        except Exception as error:  # the student's bug, reported, never a traceback
            return counts, f"Not yet: on {state!r} {failure_of(error)}"
    return counts, None


def _ordering_hint(fn, yours: int, plain: int, budgets: list[int]) -> str:
    """What is likely wrong with an ordering that misses the target."""
    if yours >= plain:
        flipped, failed = _run(lambda state: list(reversed(fn(state))), budgets)
        if not failed and sum(flipped) < plain:
            return ("That is worse than plain order, and the same order reversed does far "
                    f"better ({sum(flipped):,} nodes): it puts the worst moves first. Sort "
                    "best first (reverse=True), scoring for the player to move.")
        return ("That is no better than plain order: the best move should come first, e.g. "
                "a winning move, then a block, then the moves that open the most lines.")
    return ("Your order helps, but not enough: score each move for the player to move "
            "(for O, the move that is worst for X is best), and put wins and blocks first.")


@write_it(forbids=(*SEARCHES, heuristic_order, threat_order, (Killers, "first")),
          task="the order")
def check_04_ordering(fn) -> None:
    """Judge ``fn(state) -> state's moves, most promising first``: alpha-beta with it, over
    ``ordering_04_positions()``, must visit at most ``ORDERING_04_FACTOR`` times the nodes it
    visits with the library's line-heuristic order."""
    if unanswered(fn, "return state.moves() sorted best first for the player to move, e.g. "
                      "by the line score of the position each move leads to."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    plain, line = _library_nodes()
    budgets = [2 * count + 100 for count in plain]
    counts, failed = _run(fn, budgets)
    if failed:
        return print(failed)
    yours, target = sum(counts), int(ORDERING_04_FACTOR * sum(line))
    if yours > target:
        worst = max(range(len(counts)), key=lambda i: counts[i] - line[i])
        cut = ["at least " if count > budget else "" for count, budget in zip(counts, budgets)]
        return print(
            f"Not yet: over the {len(counts)} positions alpha-beta with your order visits "
            f"{max(cut)}{yours:,} nodes; the target is at most {target:,} "
            f"({ORDERING_04_FACTOR:g} times the line heuristic's {sum(line):,}; plain order: "
            f"{sum(plain):,}). Worst: {ordering_04_positions()[worst]!r}, {cut[worst]}"
            f"{counts[worst]:,} nodes against the line heuristic's {line[worst]:,}. "
            + _ordering_hint(fn, yours, sum(plain), budgets))
    print(f"Right: your order puts good moves first: with it alpha-beta visits {yours:,} "
          f"nodes over the {len(counts)} positions, against {sum(line):,} with the line "
          f"heuristic and {sum(plain):,} with plain order.")


# ------------------------------------------------- the write-it table search (transpositions)
#
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
