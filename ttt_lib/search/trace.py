"""What observing a search gives: ``Stats`` (how much work) and ``Trace`` (every step).

Both are filled from outside by ``observe.py`` (``count_nodes``, ``trace_calls``); no search
knows about them. A ``Trace`` prints in the classic lecture format, each line a statement of
what the observed calls did.
"""
from __future__ import annotations

import math
from fractions import Fraction
from collections.abc import Hashable
from dataclasses import asdict, dataclass

Path = tuple


@dataclass
class Stats:
    """How much work a search did.

    nodes: positions searched: finished ones looked at, unfinished ones whose children were
    searched (for the library's own searches, also a depth limit's evaluations);
    leaves: the nodes with no child searched (finished games, depth-limit evaluations);
    cutoffs: nodes that returned with moves left unsearched (a cut-off, as the course defines
    it; a window that closes at the last move cuts nothing);
    table_hits: calls answered without a search: a transposition table's answer (for a
    function watched from outside, any return on an unfinished position with no child
    searched: its own table, or an early return);
    researches: children searched a second time in a row (PVS's failed zero-window tests).
    """

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    researches: int = 0

    def add(self, other: "Stats") -> None:
        """Add ``other``'s counts to these."""
        for name, count in other.as_dict().items():
            setattr(self, name, getattr(self, name) + count)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True)
class TraceEvent:
    """One step of a search.

    kind: "enter", "leaf", "best", "improve" (a bound of the parent's own variables
    tightened), "loosen" (one moved back), "departure" (the child is searched with a wider
    window than the textbook's), "cutoff" (the node returns with moves unsearched), "exit",
    or "hit" (the call answered without a search: a table, or an early return);
    path: the moves from the search's root to the node the event is about (for "best",
    "improve", "loosen" and "departure" the child, for "cutoff" the node whose remaining
    children are pruned);
    depth: the indentation of the printed line (``len(path)``, one more for "cutoff");
    name/key: the node's name in the trace and its ``key()``;
    alpha/beta: the window ("enter": as received; "exit", "cutoff": the node's own variables
    as it returned), None where there is none or it cannot be read; parent: for "best",
    "improve", "loosen" and "departure", the node whose best child or bound changed; bound:
    "alpha" or "beta" ("hit": "early" for an answer seen only from outside); value: best so
    far ("enter"), the value returned ("leaf", "exit", "hit"), the new best or bound, the
    textbook's bound ("departure"), the number of moves left ("cutoff", whose bound says
    "move" or, at a chance node, "outcome"); note: the sentence of a "departure".
    """

    kind: str
    depth: int
    name: str
    key: Hashable = None
    alpha: float | None = None
    beta: float | None = None
    value: float | None = None
    parent: str | None = None
    bound: str | None = None
    path: Path = ()
    note: str = ""


def node_name(state) -> str:
    """A node's name in a trace: a textbook node's label, else the board's text."""
    name = getattr(state, "name", None)
    return name if isinstance(name, str) else state.to_text()


class Trace:
    """The events of one search; ``str(trace)`` is the printed trace.

    Each line is indented two spaces per depth::

        A -999 999 -999                      a node entered: name, alpha, beta, best so far
          D leaf value 7                     a leaf's value: X's in max/min form, the
                                             player to move's in negamax form
          D now best child of B              its value is the best B has seen so far
          D improved alpha( B ) to -7        B's own alpha variable moved after D
          alpha >= beta, prune remaining children of C
                                             C returned with moves unsearched
        C -3 -5 -3                           the node left: name, alpha, beta (its own
                                             variables then), value returned
        F table value 3                      a transposition table answered the node

    A line starting "... is searched with" says that a child received a wider window than
    the textbook's bookkeeping passes on, and how it should have been narrowed.

    ``infinity`` is how an infinite bound is printed (the slides use 999); ``form`` is
    "maxmin" or "negamax", as the observer found the search written.
    """

    def __init__(self, infinity: float = 999) -> None:
        self.events: list[TraceEvent] = []
        self.infinity = infinity
        self.form = "maxmin"

    def number(self, value: float) -> str:
        """``value`` as printed: infinity as ``infinity``, a fraction exactly (``14/5``)."""
        if isinstance(value, Fraction) and value.denominator != 1:
            return str(value)
        if math.isinf(value):
            value = math.copysign(self.infinity, value)
        return str(int(value)) if float(value).is_integer() else f"{value:g}"

    def window(self, event: TraceEvent) -> str:
        """An enter or exit line after the name: alpha, beta and value (value alone if the
        search has no window)."""
        n = self.number
        if event.alpha is None or event.beta is None:
            return f"value {n(event.value)}" if event.kind == "exit" else ""
        return f"{n(event.alpha)} {n(event.beta)} {n(event.value)}"

    def line(self, event: TraceEvent) -> str:
        n = self.number
        text = {
            "enter": lambda e: f"{e.name} {self.window(e)}".rstrip(),
            "exit": lambda e: f"{e.name} {self.window(e)}",
            "leaf": lambda e: f"{e.name} leaf value {n(e.value)}",
            "best": lambda e: f"{e.name} now best child of {e.parent}",
            "improve": lambda e: f"{e.name} improved {e.bound}( {e.parent} ) to {n(e.value)}",
            "loosen": lambda e: f"{e.name} moved {e.bound}( {e.parent} ) back to {n(e.value)}",
            "departure": lambda e: e.note,
            "cutoff": self.cutoff,
            "hit": lambda e: (f"{e.name} table value {n(e.value)}" if e.bound != "early" else
                              f"{e.name} answered {n(e.value)} without a search (its "
                              f"table, or an early return)"),
        }[event.kind](event)
        return "  " * event.depth + text

    def cutoff(self, event: TraceEvent) -> str:
        """The slides' line when the node's window closed; else what is known: moves left."""
        if event.alpha is not None and event.beta is not None and event.alpha >= event.beta:
            return f"alpha >= beta, prune remaining children of {event.name}"
        left, noun = event.value, event.bound or "move"
        return f"{event.name} returns with {left} {noun}{'' if left == 1 else 's'} unsearched"

    def lines(self) -> list[str]:
        return [self.line(event) for event in self.events]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __len__(self) -> int:
        return len(self.events)

    def visited(self) -> list[Hashable]:
        """Keys of the nodes the search entered, in order (the rest were pruned)."""
        return [e.key for e in self.events if e.kind == "enter"]


def compare_traces(mine: Trace, reference: Trace) -> str | None:
    """None if the two traces print the same lines, else a sentence naming the first line
    where they differ (numbered from 1), with both versions. Two searches written in
    different forms (max/min, negamax) differ in form first, and the sentence says so."""
    if not isinstance(mine, Trace) or not isinstance(reference, Trace):
        raise TypeError("compare_traces takes two Trace objects (from trace_calls)")
    lines = first_difference(mine.lines(), reference.lines())
    if mine.form != reference.form:
        return (f"the two are written in different forms: yours in {FORM_NAMES[mine.form]}, "
                f"the reference in {FORM_NAMES[reference.form]}, so their numbers are not "
                f"comparable line by line" + (f"; {lines}" if lines else ""))
    return lines


FORM_NAMES = {"maxmin": "max/min form (every value X's)",
              "negamax": "negamax form (every value the player to move's)"}


def first_difference(ours: list[str], theirs: list[str]) -> str | None:
    """The first line where two printed traces differ, as a sentence, or None."""
    for number, (a, b) in enumerate(zip(ours, theirs), 1):
        if a != b:
            return f"line {number} differs: yours {a.strip()!r}, reference {b.strip()!r}"
    if len(ours) == len(theirs):
        return None
    number = min(len(ours), len(theirs)) + 1
    extra = (f"yours goes on with {ours[number - 1].strip()!r}" if len(ours) > len(theirs)
             else f"yours stops; the reference goes on with {theirs[number - 1].strip()!r}")
    return f"line {number} differs: {extra}"
