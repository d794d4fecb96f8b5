"""Judging a table search: alpha-beta with a transposition table, written by the student.

A table search ``fn(state, alpha, beta, table)`` is judged over a few searches with one table
carried from search to search (``Search``): each result must be right for its window
(``right_result``: exact inside it, a bound on the right side outside it), and the work it
does is counted from outside, through the states it is handed (``Counted``, ``Expanded``) and
the table (``WatchedTable`` counts the look-ups; ``ForgetfulTable`` stores nothing, for a
search as if without a table). When a value is wrong, ``value_hint`` replays the typical
mistakes (``TABLE_MISTAKES``, each a switch of ``table_search``) on the same searches and gives
the hint of the one that gives the same wrong value, and none when none does.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from ..game import MAX
from ..search.pruning import EXACT, INF, LOWER, UPPER, bound_flag, clamp
from .judge import exact_number

__all__ = ["Counted", "Expanded", "ForgetfulTable", "Search", "TABLE_MISTAKES", "TableMistake",
           "TooMuchSearch", "WatchedTable", "edge", "expected_text", "fingerprint", "right_result",
           "table_search", "value_hint", "where_text"]


# ------------------------------------------------------------------ watching from outside

class Expanded:
    """How many positions a search expanded: unfinished ones whose moves it asked for; past
    ``limit`` (if any), the next one raises ``TooMuchSearch``."""

    def __init__(self, limit: int | None = None) -> None:
        self.count, self.limit = 0, limit


class TooMuchSearch(Exception):
    """A search expanded more positions than its ``Expanded`` allows."""


class Counted:
    """A state that passes every call on and counts its expansion in ``expanded`` (once per
    visit); equal to (and hashed as) the state it wraps, so a table keyed by the state
    itself works as with the real one."""

    __slots__ = ("state", "expanded", "done")
    AHEAD = True  # a grading box gets the children with the moves (see faces): play is pure

    def __init__(self, state, expanded: Expanded) -> None:
        self.state, self.expanded, self.done = state, expanded, False

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def moves(self) -> list:
        if not self.done and not self.state.is_terminal():
            self.done, expanded = True, self.expanded
            expanded.count += 1
            if expanded.limit is not None and expanded.count > expanded.limit:
                raise TooMuchSearch()
        return self.state.moves()

    def play(self, move) -> "Counted":
        return Counted(self.state.play(move), self.expanded)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def utility(self):
        return self.state.utility()

    def key(self) -> Hashable:
        return self.state.key()

    def __getattr__(self, name: str):  # cells(), lines(), to_text(), canonical_key()...
        if name in Counted.__slots__:
            raise AttributeError(name)
        return getattr(self.state, name)

    def __eq__(self, other) -> bool:
        return self.state == (other.state if isinstance(other, Counted) else other)

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return repr(self.state)


class WatchedTable(dict):
    """The dict a table search is handed: a plain dict that counts the look-ups made in it
    (``reads``) and those that found an entry (``found``)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = self.found = 0

    def _read(self, key) -> bool:
        self.reads += 1
        hit = dict.__contains__(self, key)
        self.found += hit
        return hit

    def get(self, key, default=None):
        return dict.get(self, key, default) if self._read(key) else default

    def __getitem__(self, key):
        self._read(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key) -> bool:
        return self._read(key)

    def setdefault(self, key, default=None):
        self._read(key)
        return dict.setdefault(self, key, default)


class ForgetfulTable(dict):
    """A dict that stores nothing: a table search handed one searches as if it had none."""

    def __setitem__(self, key, value) -> None:
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs) -> None:
        pass


# ------------------------------------------------------------------------ what is right

@dataclass(frozen=True)
class Search:
    """One search of a session: a position and the window it is searched in."""

    state: object
    alpha: float
    beta: float

    def __str__(self) -> str:
        return f"{self.state!r} from the window ({edge(self.alpha)}, {edge(self.beta)})"


def edge(bound: float) -> str:
    """A window's bound as the student would type it."""
    return f"{'-' if bound < 0 else ''}math.inf" if math.isinf(bound) else f"{bound:g}"


def right_result(value, got, alpha: float, beta: float) -> bool:
    """Whether ``got`` is a right result of searching a position worth ``value`` (for the
    player to move) in the window: exactly ``value`` strictly inside it, else a bound between
    ``value`` and the window (fail-soft), the window's edge included (fail-hard). Any real
    number counts (numpy's too), compared exactly; bools do not."""
    got = exact_number(got)
    if got is None:
        return False
    if alpha < value < beta:
        return got == value
    return value <= got <= alpha if value <= alpha else beta <= got <= value


def expected_text(value, alpha: float, beta: float) -> str:
    """What a search in the window must return when the value is ``value``."""
    if alpha < value < beta or value in (alpha, beta):
        side = "inside the window" if alpha < value < beta else "at the window's edge"
        return f"{side}, so the result is exactly {value}"
    if value < alpha:
        return f"below alpha, so the result is an upper bound from {value} to {edge(alpha)}"
    return f"above beta, so the result is a lower bound from {edge(beta)} to {value}"


def where_text(searches: tuple) -> str:
    """The last of ``searches``, after the ones before it with the same table."""
    before = "; ".join(str(search) for search in searches[:-1])
    return (f"searching {searches[-1]}" + (f" after {before}, with the same table"
                                           if before else " with an empty table"))


# ------------------------------------------------------------- the typical mistakes, replayed

@dataclass(frozen=True)
class TableMistake:
    """A typical wrong table search, as switches of ``table_search`` (defaults: right)."""

    hint: str = ""
    blind: bool = False     # entries keyed by the marks alone, whoever is to move
    checked: bool = True    # a stored bound is used only when it settles the window
    swapped: bool = False   # ... against the wrong edge of the window
    x_leaf: bool = False    # a finished game scored utility() (X's view), not the mover's
    x_view: bool = False    # X's value returned at the root, not the mover's
    raised: bool = False    # the flag set against alpha as the loop raised it


RIGHT = TableMistake()


def table_search(state, alpha: float, beta: float, table: dict, hard: bool = False,
                 mistake: TableMistake = RIGHT) -> float:
    """Negamax alpha-beta through ``table`` (fail-soft, or with ``hard`` fail-hard), with
    ``mistake`` in it: the checker's replay of a typical wrong version."""
    if mistake.x_view:
        inner = replace(mistake, x_view=False)
        if state.to_move == MAX:
            return table_search(state, alpha, beta, table, hard, inner)
        return -table_search(state, -beta, -alpha, table, hard, inner)
    key = state.to_text() if mistake.blind else state.key()
    entry = table.get(key)
    if entry is not None and _settles(*entry, alpha, beta, mistake):
        return entry[0]
    if state.is_terminal():
        value = state.utility() * (1 if mistake.x_leaf else state.to_move)
        table[key] = (value, EXACT)
        return value
    best, low = -INF, alpha
    for move in state.moves():
        best = max(best, -table_search(state.play(move), -beta, -low, table, hard, mistake))
        low = max(low, best)
        if low >= beta:
            break
    value = clamp(best, alpha, beta) if hard else best
    table[key] = (value, bound_flag(value, low if mistake.raised else alpha, beta))
    return value


def _settles(value, flag: str, alpha: float, beta: float, mistake: TableMistake) -> bool:
    if flag == EXACT or not mistake.checked:
        return True
    low, high = (beta, alpha) if mistake.swapped else (alpha, beta)
    return (flag == LOWER and value >= high) or (flag == UPPER and value <= low)


_UNCHECKED = ("It returned a stored bound that does not settle this search: a lower bound "
              "settles it only when it is >= beta, an upper bound only when it is <= alpha; "
              "otherwise search the position.")
_NO_FLAG = ("It used a stored bound as if it were the value: a result is exact only strictly "
            "inside the window it was searched in, outside it is only a bound. Store a flag "
            "with each value (exact, lower or upper) and use a bound only when it settles "
            "the window (a lower bound >= beta, an upper bound <= alpha).")
TABLE_MISTAKES = [
    TableMistake("The same marks with the other player to move (in a game the other side "
                 "opened) are another position: think of whose turn it is, and key the table "
                 "by state.key() or the state itself, not by the marks alone.", blind=True),
    TableMistake("A result is flagged against the window the position was searched in: "
                 "compare it with the alpha the function was called with (keep it before "
                 "the loop raises alpha), and with beta.", raised=True),
    TableMistake(_UNCHECKED, checked=False),
    TableMistake(_UNCHECKED, swapped=True),
    TableMistake("That is X's value; return the value for the player to move (negamax: the "
                 "largest of minus the children's values).", x_view=True),
    TableMistake("A finished game is worth to_move * utility() to the player to move: "
                 "utility() is X's score.", x_leaf=True),
]


def _replay(mistake: TableMistake, hard: bool, searches: tuple) -> list:
    table: dict = {}
    return [table_search(s.state, s.alpha, s.beta, table, hard, mistake) for s in searches]


def _agrees(search: Search, value, got, value_of: Callable) -> bool:
    """Whether a replayed ``value`` and the student's ``got`` tell the same story: the same
    number, or both right for the search (a fail-soft and a fail-hard bound, say)."""
    if exact_number(got) is not None and value == exact_number(got):
        return True
    exact = value_of(search.state)
    return (right_result(exact, value, search.alpha, search.beta)
            and right_result(exact, got, search.alpha, search.beta))


def fingerprint(evidence: list, value_of: Callable) -> TableMistake | None:
    """The first typical mistake that, fail-soft or fail-hard, agrees with the student's
    results on every search of ``evidence`` ((searches, results) pairs, one table each):
    wrong where they are wrong, with the same values, and right where they are right."""
    def agrees(mistake: TableMistake, hard: bool, searches: tuple, results: list) -> bool:
        replayed = _replay(mistake, hard, searches)
        return all(_agrees(*case, value_of) for case in zip(searches, replayed, results))

    for mistake in TABLE_MISTAKES:
        for hard in (False, True):
            if all(agrees(mistake, hard, *pair) for pair in evidence):
                return mistake
    return None


def value_hint(evidence: list, table: dict, value_of: Callable) -> str:
    """What is likely wrong when the last result of ``evidence[0]`` is wrong; ``evidence``
    holds (searches, the student's results) pairs, ``table`` is the student's table of the
    first and ``value_of(state)`` the exact value for the player to move."""
    last = evidence[0][1][-1]
    if last is None:
        return "It returned None: does every path through the function end in return?"
    if exact_number(last) is None:
        return "Return the value alone, a number."
    mistake = fingerprint(evidence, value_of)
    if mistake is not None and mistake.hint == _UNCHECKED and table and all(
            isinstance(entry, numbers.Real) for entry in table.values()):
        return _NO_FLAG
    return mistake.hint if mistake is not None else (
        "Check each part: a finished game is worth to_move * utility(); a position is worth "
        "the largest of minus its children's values; an entry is used only when it settles "
        "the window (exact: always; a lower bound: when >= beta; an upper bound: when <= "
        "alpha); a result is stored with the flag its own window gives it.")
