"""What observing a search gives: ``Stats`` (how much work) and ``Trace`` (every step).

Both are filled from outside by ``observe.py`` (``count_nodes``, ``trace_calls``); no search
knows about them. A ``Trace`` prints in the classic lecture format.
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

    nodes: positions expanded or evaluated (table hits not included);
    leaves: terminal positions (or depth-limit evaluations) reached;
    cutoffs: nodes whose window closed, or that returned with moves left unsearched;
    table_hits: positions answered from a transposition table;
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

    kind: "enter", "leaf", "best", "improve", "cutoff", "exit", or "hit" (a transposition
    table answered the node without searching it);
    path: the moves from the search's root to the node the event is about (for "best" and
    "improve" the child, for "cutoff" the node whose remaining children are pruned);
    depth: the indentation of the printed line (``len(path)``, one more for "cutoff");
    name/key: the node's name in the trace and its ``key()``;
    alpha/beta: the window ("enter": as received; "exit", "cutoff": as it ended), None for a
    search without a window; parent: for "best" and "improve", the node whose best child or
    bound changed; bound: for "improve", "alpha" or "beta"; value: best so far ("enter"),
    the value returned ("leaf", "exit", "hit"), or the new best or bound.
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
          D now best child of B
          D improved alpha( B ) to -7        the parent's bound moved
          alpha >= beta, prune remaining children of C
        C -3 -5 -3                           the node left: name, alpha, beta, value
        F table value 3                      a transposition table answered the node

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
            "cutoff": lambda e: f"alpha >= beta, prune remaining children of {e.name}",
            "hit": lambda e: f"{e.name} table value {n(e.value)}",
        }[event.kind](event)
        return "  " * event.depth + text

    def lines(self) -> list[str]:
        return [self.line(event) for event in self.events]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __len__(self) -> int:
        return len(self.events)

    def visited(self) -> list[Hashable]:
        """Keys of the nodes the search entered, in order (the rest were pruned)."""
        return [e.key for e in self.events if e.kind == "enter"]


@dataclass(frozen=True)
class ReportRow:
    """One row a search module offers to the node-count report (``ttt_lib.studies.nodes``).

    A search module lists its rows in ``REPORT_ROWS``; the report collects every module's,
    sorted by ``place``. ``search(state, **options)`` is called on the position and observed
    from outside; ``view`` says whose value it returns: "x" (X's) or "mover" (the player to
    move's, turned into X's by the report).
    """

    name: str
    search: object
    options: dict
    place: float
    view: str = "x"


def compare_traces(mine: Trace, reference: Trace) -> str | None:
    """None if the two traces print the same lines, else a sentence naming the first line
    where they differ (numbered from 1), with both versions."""
    if not isinstance(mine, Trace) or not isinstance(reference, Trace):
        raise TypeError("compare_traces takes two Trace objects (from trace_calls)")
    ours, theirs = mine.lines(), reference.lines()
    for number, (a, b) in enumerate(zip(ours, theirs), 1):
        if a != b:
            return f"line {number} differs: yours {a.strip()!r}, reference {b.strip()!r}"
    if len(ours) == len(theirs):
        return None
    number = min(len(ours), len(theirs)) + 1
    extra = (f"yours goes on with {ours[number - 1].strip()!r}" if len(ours) > len(theirs)
             else f"yours stops; the reference goes on with {theirs[number - 1].strip()!r}")
    return f"line {number} differs: {extra}"
