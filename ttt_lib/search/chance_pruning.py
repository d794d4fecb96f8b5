"""Star1 (Ballard 1983): alpha-beta through chance nodes, given bounds on the utilities.

Alpha-beta cannot cut at a chance node without knowing how far the unseen outcomes can pull
the average. If every utility lies in ``[low, high]``, it can: after some outcomes, the node's
value lies between ``total + left * low`` and ``total + left * high`` (``total`` the weighted
sum so far, ``left`` the probability not yet searched). Star1 gives each outcome the window
that keeps the node inside the parent's ``(alpha, beta)``, and stops as soon as one outcome
leaves it. Decision nodes are alpha-beta (max/min form, fail-soft), so the value is
expectiminimax's, and the nodes searched a subset of its.

``ChanceTrace`` is the course's ``Trace`` printing exact fractions (``14/5``); ``star1`` and
``star2`` take ``stats=``/``trace=`` and observe the search from outside.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..checks import GAME, NUMBER, also_window, argument_checks, maybe
from ..game import MAX, Game, is_chance
from .pruning import SearchOptionError
from .observe import observed
from .trace import Stats, Trace

INF = math.inf


class Star1:
    """Expectiminimax with Star1 pruning; every utility must lie in ``[low, high]``."""

    def __init__(self, low: float, high: float) -> None:
        if not low < high:
            raise SearchOptionError(f"Star1 needs utility bounds low < high, not {low}, {high}")
        self.low, self.high = low, high

    def value(self, state: Game) -> Fraction:
        """X's expected value of ``state``, searched in the window ``(low, high)``."""
        return Fraction(self.search(state, self.low, self.high))

    def search(self, state: Game, alpha, beta):
        """Alpha-beta at MAX and MIN nodes (fail-soft); chance nodes go to ``chance``."""
        if is_chance(state):
            return self.chance(state, alpha, beta)
        if state.is_terminal():
            return self.bounded(state)
        maximizing = state.to_move == MAX
        best = -INF if maximizing else INF
        for move in state.moves():
            value = self.search(state.play(move), alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def chance(self, state: Game, alpha, beta):
        """A chance node's value, or a bound on it outside ``(alpha, beta)``."""
        low, high = self.low, self.high
        total, left = Fraction(0), Fraction(1)  # sum of p * value so far; p not yet searched
        for p, child in state.outcomes():
            if not p:
                continue
            left -= p
            floor = (alpha - total - left * high) / p    # at or below it: fail low
            ceiling = (beta - total - left * low) / p    # at or above it: fail high
            value = self.search(child, max(floor, low), min(ceiling, high))
            total += p * value
            if value <= floor or value >= ceiling:
                total += left * (high if value <= floor else low)  # the bound that failed
                break
        return total

    def bounded(self, state: Game) -> Fraction:
        """A leaf's utility, checked against the bounds Star1 relies on."""
        value = state.utility()
        if not self.low <= value <= self.high:
            raise SearchOptionError(
                f"utility {value} lies outside the bounds [{self.low}, {self.high}] Star1 "
                f"was given")
        return Fraction(value)

    def observed(self, state: Game, stats: Stats | None, trace: Trace | None) -> Fraction:
        """``value(state)``, observed from outside when ``stats`` or ``trace`` is given."""
        if type(self) is Star1:  # every call goes through self.search and self.chance, so
            searches, wrappers = [self.search, self.chance], ()  # counting can patch them
        else:                    # Star2's probes call Star1.search through the class
            searches = [Star1.search, Star1.chance, type(self).chance]
            wrappers = () if type(self).search is Star1.search else (type(self).search,)
        return observed(lambda: self.value(state), searches, wrappers, stats, trace)


def star1(state: Game, low: float = -1, high: float = 1, *, stats: Stats | None = None,
          trace: Trace | None = None) -> Fraction:
    """X's expected value of ``state`` by Star1, every utility in ``[low, high]``."""
    return Star1(low, high).observed(state, stats, trace)


class Star2(Star1):
    """Star1 with a probing phase first (Ballard's Star2).

    Before a chance node's outcomes are searched in full, the first move of each outcome that
    is a MAX or MIN node is searched: its value bounds that node from below (MAX) or above
    (MIN), and the bounds together may already settle the chance node outside
    ``(alpha, beta)``. A probed value is exact and kept, so the full search reuses it: no node
    is searched twice, and Star2 never searches more nodes than expectiminimax.
    """

    def __init__(self, low: float, high: float) -> None:
        super().__init__(low, high)
        self.probed: dict = {}  # key of a probed position -> its exact value

    def search(self, state: Game, alpha, beta):
        if state.key() in self.probed:  # searched by a probe already
            return self.probed.pop(state.key())
        return super().search(state, alpha, beta)

    def chance(self, state: Game, alpha, beta):
        bound = self.probe(state, alpha, beta)
        return super().chance(state, alpha, beta) if bound is None else bound

    def probe(self, state: Game, alpha, beta):
        """The chance node's bound if the probes settle it outside ``(alpha, beta)``, else None."""
        low, high = self.low, self.high
        lower = upper = Fraction(0)  # sums of p times each probed node's lower/upper bound
        left = Fraction(1)
        for p, child in state.outcomes():
            if lower + left * low >= beta or upper + left * high <= alpha:
                break
            left -= p
            if not p or child.is_terminal() or is_chance(child):
                lower, upper = lower + p * low, upper + p * high
                continue
            first = child.play(child.moves()[0])
            if child.to_move == MAX:  # the first move's value is a lower bound
                ceiling = (beta - lower - left * low) / p
                value = Star1.search(self, first, low, min(ceiling, high))
                lower, upper, exact = lower + p * value, upper + p * high, value < ceiling
            else:                     # an upper bound
                floor = (alpha - upper - left * high) / p
                value = Star1.search(self, first, max(floor, low), high)
                lower, upper, exact = lower + p * low, upper + p * value, value > floor
            if exact:
                self.probed[first.key()] = value
        return self.settled(alpha, beta, lower + left * low, upper + left * high)

    def settled(self, alpha, beta, lower, upper):
        """``lower`` if it reaches ``beta``, ``upper`` if it falls to ``alpha``, else None."""
        if lower < beta and upper > alpha:
            return None
        return lower if lower >= beta else upper


def star2(state: Game, low: float = -1, high: float = 1, *, stats: Stats | None = None,
          trace: Trace | None = None) -> Fraction:
    """X's expected value of ``state`` by Star2, every utility in ``[low, high]``."""
    return Star2(low, high).observed(state, stats, trace)


class ChanceTrace(Trace):
    """A ``Trace`` whose numbers are exact: a fraction prints as ``14/5``, not ``2.8``."""

    def number(self, value) -> str:
        if isinstance(value, Fraction) and value.denominator != 1:
            return str(value)
        return super().number(value)


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
WINDOW = dict(low=NUMBER, high=NUMBER, also=also_window)
for _search in (star1, star2):
    argument_checks(_search, SearchOptionError, state=GAME, **WINDOW,
                    stats=maybe(Stats, "a Stats"), trace=maybe(Trace, "a Trace"))
for _engine in (Star1, Star2):
    argument_checks(_engine, SearchOptionError, **WINDOW)
argument_checks(ChanceTrace, SearchOptionError, infinity=NUMBER)
