"""Step-by-step traces of a search, printed like the classic lecture slides.

A search given a ``Trace`` reports each event through one method call; a search given none
skips the calls (``if trace is not None``), so tracing costs nothing when it is off. The
events are kept as data (for the TraceStepper widget and tree drawings) and printed one line
each, indented two spaces per depth::

    A -999 999 -999                      a node entered: name, alpha, beta, best so far
      D leaf value 7                     a leaf's value, for the player to move there
      D now best child of B
      D improved alpha( B ) to -7        the parent's bound moved
      alpha >= beta, prune remaining children of C
    C -3 -5 -3                           the node left: name, alpha, beta, best
    F table value 3 (exact)              a transposition table answered the node
"""
from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class TraceEvent:
    """One step of a search.

    kind: "enter", "leaf", "best", "improve", "cutoff", "exit", or "hit" (a transposition
    table answered the node without searching it);
    name/key: the node the line is about (for "cutoff", the node whose children are pruned);
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


def node_name(state) -> str:
    """A node's name in a trace: a textbook node's label, else the board's text."""
    name = getattr(state, "name", None)
    return name if isinstance(name, str) else state.to_text()


class Trace:
    """Collects the events of one search; ``str(trace)`` is the printed trace.

    ``infinity`` is how an infinite bound is printed (the slides use 999).
    """

    def __init__(self, infinity: float = 999) -> None:
        self.events: list[TraceEvent] = []
        self.infinity = infinity

    # The calls a search makes -------------------------------------------------------------
    def enter(self, state, depth: int, alpha: float, beta: float, best: float) -> None:
        self.events.append(TraceEvent("enter", depth, node_name(state), state.key(),
                                      alpha, beta, best))

    def leaf(self, state, depth: int, value: float) -> None:
        self.events.append(TraceEvent("leaf", depth, node_name(state), state.key(),
                                      value=value))

    def new_best(self, child, parent, depth: int) -> None:
        self.events.append(TraceEvent("best", depth, node_name(child), child.key(),
                                      parent=node_name(parent)))

    def improve(self, child, parent, depth: int, bound: str, value: float) -> None:
        self.events.append(TraceEvent("improve", depth, node_name(child), child.key(),
                                      value=value, parent=node_name(parent), bound=bound))

    def hit(self, state, depth: int, value: float, flag: str) -> None:
        self.events.append(TraceEvent("hit", depth, node_name(state), state.key(),
                                      value=value, bound=flag))

    def cutoff(self, state, depth: int, alpha: float, beta: float) -> None:
        self.events.append(TraceEvent("cutoff", depth + 1, node_name(state), state.key(),
                                      alpha, beta))

    def exit(self, state, depth: int, alpha: float, beta: float, best: float) -> None:
        self.events.append(TraceEvent("exit", depth, node_name(state), state.key(),
                                      alpha, beta, best))

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
