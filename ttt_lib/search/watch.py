"""Watching a search: one observer argument carries all instrumentation.

Each search takes a ``watch`` and reports what happens through single calls inside the
algorithm (``watch.enter(...)``, ``watch.leaf(...)``, ``watch.cutoff(...)``). The default,
``QUIET``, does nothing, so the algorithm reads the same with or without instrumentation:

- ``Stats`` counts (nodes, leaves, cut-offs, table hits, re-searches);
- ``Trace`` records every event, with the path of moves to its node, and prints it in the
  classic lecture format;
- ``Watchers(stats, trace)`` passes each event to both.

``path`` is the tuple of moves from the search's root to the node an event is about; its
length is the node's depth. Searches that never trace (plain minimax) leave it out.
Events that carry a value (``leaf``, ``hit``) return it, so a search can write
``return watch.leaf(state, value, path)``.
"""
from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import asdict, dataclass

Path = tuple


class Watch:
    """An observer that ignores every event: the default of every search (``QUIET``).

    A new observer subclasses it and overrides the events it cares about.
    """

    def enter(self, state, path: Path = (), alpha=None, beta=None, best=None) -> None:
        """A node is searched (not answered from a table)."""

    def leaf(self, state, value: float, path: Path = ()) -> float:
        """A terminal position (or the depth limit) is scored ``value``; returns it."""
        return value

    def hit(self, state, value: float, flag: str, path: Path = ()) -> float:
        """A transposition table answered ``state`` (``flag``: exact, lower, upper)."""
        return value

    def new_best(self, child, parent, path: Path) -> None:
        """``child`` (at ``path``) is now ``parent``'s best child."""

    def improve(self, child, parent, path: Path, bound: str, value: float) -> None:
        """``child`` (at ``path``) moved ``parent``'s ``bound`` ("alpha"/"beta") to ``value``."""

    def cutoff(self, state, alpha: float, beta: float, path: Path = ()) -> None:
        """alpha >= beta at ``state``: its remaining children are pruned."""

    def research(self, state, path: Path = ()) -> None:
        """A zero-window test of ``state`` failed high: it is searched again (PVS)."""

    def exit(self, state, path: Path, alpha, beta, best) -> None:
        """The search of ``state`` is over: its final window and best value."""


QUIET = Watch()


@dataclass
class Stats(Watch):
    """How much work a search did.

    nodes: positions expanded or evaluated (table hits not included);
    leaves: terminal positions (or depth-limit evaluations) reached;
    cutoffs: times alpha >= beta stopped a node's remaining children;
    table_hits: positions answered from a transposition table;
    researches: zero-window tests that failed high and were searched again (PVS).
    """

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    researches: int = 0

    def enter(self, state, path: Path = (), alpha=None, beta=None, best=None) -> None:
        self.nodes += 1

    def leaf(self, state, value: float, path: Path = ()) -> float:
        self.leaves += 1
        return value

    def hit(self, state, value: float, flag: str, path: Path = ()) -> float:
        self.table_hits += 1
        return value

    def cutoff(self, state, alpha: float, beta: float, path: Path = ()) -> None:
        self.cutoffs += 1

    def research(self, state, path: Path = ()) -> None:
        self.researches += 1

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
    parent: for "best" and "improve", the node whose best child or bound changed;
    bound: for "improve", "alpha" or "beta"; for "hit", the entry's flag ("exact", "lower",
    "upper"); value: best so far, leaf value, new bound or stored value.
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


class Trace(Watch):
    """Collects the events of one search; ``str(trace)`` is the printed trace.

    Each line is indented two spaces per depth::

        A -999 999 -999                      a node entered: name, alpha, beta, best so far
          D leaf value 7                     a leaf's value: X's in max/min form, the
                                             mover's in negamax form (as every number)
          D now best child of B
          D improved alpha( B ) to -7        the parent's bound moved
          alpha >= beta, prune remaining children of C
        C -3 -5 -3                           the node left: name, alpha, beta, best
        F table value 3 (exact)              a transposition table answered the node

    ``infinity`` is how an infinite bound is printed (the slides use 999).
    """

    def __init__(self, infinity: float = 999) -> None:
        self.events: list[TraceEvent] = []
        self.infinity = infinity

    def _record(self, kind: str, state, path: Path, depth: int | None = None, **fields) -> None:
        depth = len(path) if depth is None else depth
        self.events.append(TraceEvent(kind, depth, node_name(state), state.key(), path=path,
                                      **fields))

    # The calls a search makes -------------------------------------------------------------
    def enter(self, state, path: Path = (), alpha=None, beta=None, best=None) -> None:
        self._record("enter", state, path, alpha=alpha, beta=beta, value=best)

    def leaf(self, state, value: float, path: Path = ()) -> float:
        self._record("leaf", state, path, value=value)
        return value

    def hit(self, state, value: float, flag: str, path: Path = ()) -> float:
        self._record("hit", state, path, value=value, bound=flag)
        return value

    def new_best(self, child, parent, path: Path) -> None:
        self._record("best", child, path, parent=node_name(parent))

    def improve(self, child, parent, path: Path, bound: str, value: float) -> None:
        self._record("improve", child, path, value=value, parent=node_name(parent), bound=bound)

    def cutoff(self, state, alpha: float, beta: float, path: Path = ()) -> None:
        self._record("cutoff", state, path, len(path) + 1, alpha=alpha, beta=beta)

    def exit(self, state, path: Path, alpha, beta, best) -> None:
        self._record("exit", state, path, alpha=alpha, beta=beta, value=best)

    # Printing --------------------------------------------------------------------------------
    def number(self, value: float) -> str:
        if math.isinf(value):
            value = math.copysign(self.infinity, value)
        return str(int(value)) if float(value).is_integer() else f"{value:g}"

    def line(self, event: TraceEvent) -> str:
        n = self.number
        text = {
            "enter": lambda e: f"{e.name} {n(e.alpha)} {n(e.beta)} {n(e.value)}",
            "exit": lambda e: f"{e.name} {n(e.alpha)} {n(e.beta)} {n(e.value)}",
            "leaf": lambda e: f"{e.name} leaf value {n(e.value)}",
            "best": lambda e: f"{e.name} now best child of {e.parent}",
            "improve": lambda e: f"{e.name} improved {e.bound}( {e.parent} ) to {n(e.value)}",
            "cutoff": lambda e: f"alpha >= beta, prune remaining children of {e.name}",
            "hit": lambda e: f"{e.name} table value {n(e.value)} ({e.bound})",
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


class Watchers(Watch):
    """Several observers watching one search, e.g. ``Watchers(Stats(), Trace())``."""

    def __init__(self, *watchers: Watch) -> None:
        self.watchers = watchers

    def enter(self, state, path: Path = (), alpha=None, beta=None, best=None) -> None:
        for w in self.watchers:
            w.enter(state, path, alpha, beta, best)

    def leaf(self, state, value: float, path: Path = ()) -> float:
        for w in self.watchers:
            w.leaf(state, value, path)
        return value

    def hit(self, state, value: float, flag: str, path: Path = ()) -> float:
        for w in self.watchers:
            w.hit(state, value, flag, path)
        return value

    def new_best(self, child, parent, path: Path) -> None:
        for w in self.watchers:
            w.new_best(child, parent, path)

    def improve(self, child, parent, path: Path, bound: str, value: float) -> None:
        for w in self.watchers:
            w.improve(child, parent, path, bound, value)

    def cutoff(self, state, alpha: float, beta: float, path: Path = ()) -> None:
        for w in self.watchers:
            w.cutoff(state, alpha, beta, path)

    def research(self, state, path: Path = ()) -> None:
        for w in self.watchers:
            w.research(state, path)

    def exit(self, state, path: Path, alpha, beta, best) -> None:
        for w in self.watchers:
            w.exit(state, path, alpha, beta, best)


def watching(stats: Stats | None = None, trace: Trace | None = None,
             watch: Watch | None = None) -> Watch:
    """The one observer for a public entry point's ``stats=`` / ``trace=`` / ``watch=``:
    ``QUIET`` when none is given, the one given, or ``Watchers`` of them all."""
    if stats is trace is watch is None:  # the common case, kept cheap
        return QUIET
    chosen = [w for w in (watch, stats, trace) if w is not None and w is not QUIET]
    if not chosen:
        return QUIET
    return chosen[0] if len(chosen) == 1 else Watchers(*chosen)
