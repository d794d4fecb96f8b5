"""An alpha-beta trace on the drawn tree: what the search has seen after its first events.

Every ``TraceEvent`` carries its ``path``, the moves from the search's root to the node it is
about, and a drawn tree names its nodes by the same paths, so each event lands on its node
directly. A drawing may stop at a depth limit while the search went deeper: such events
belong to their deepest drawn ancestor.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from ..search.trace import Trace, TraceEvent, node_name
from .trees import NodePath, as_state


@dataclass
class TraceSnapshot:
    """What an alpha-beta trace has shown of the drawn tree after its first events.

    visited: nodes reached so far; pruned: nodes the search will never reach (below a
    cut-off; once the search is over, also below a transposition-table answer); cuts: the
    (parent, child) edges a cut-off skipped; bounds: the latest (alpha, beta) of each node
    entered; values: each node's value as the trace reports it (leaf values, then best so
    far); current: the node the last event is about; line: that event's printed trace line.
    """

    visited: set = field(default_factory=set)
    pruned: set = field(default_factory=set)
    cuts: set = field(default_factory=set)
    bounds: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    current: NodePath | None = None
    line: str = ""


def trace_paths(root, trace: Trace, upto: int | None = None) -> list[NodePath]:
    """The tree node (move path) each event of ``trace`` is about, in order (the first
    ``upto`` events only, if given), checked to start at ``root``."""
    events = trace.events[:upto]
    _check_root(as_state(root), events)
    return [event.path for event in events]


def trace_snapshot(graph: nx.DiGraph, trace: Trace, step: int | None = None) -> TraceSnapshot:
    """The state of the drawn tree after events ``0..step`` of ``trace`` (all by default)."""
    events = trace.events
    step = len(events) - 1 if step is None else step
    if not -1 <= step < len(events):
        raise ValueError(f"step {step} is outside the trace's events 0..{len(events) - 1}")
    seen = events[:step + 1]
    _check_root(graph.nodes[()]["state"], seen)
    snap = TraceSnapshot()
    for event in seen:
        _check_drawn(graph, event)
        _apply_event(snap, event, graph)
    if seen:
        snap.current, snap.line = seen[-1].path, trace.line(seen[-1])
    if seen and step == len(events) - 1:  # the search is over: what it skipped is pruned
        snap.pruned |= {node for node in graph if node not in snap.visited}
    return snap


def drawn_ancestor(graph: nx.DiGraph, path: NodePath | None) -> NodePath | None:
    """``path`` itself, or its deepest ancestor in the drawing (the search went deeper)."""
    while path is not None and path not in graph:
        path = path[:-1]
    return path


def _check_root(root, events: list[TraceEvent]) -> None:
    if events and events[0].key != root.key():
        raise ValueError(f"the trace starts at {events[0].name}, not at this root: "
                         f"was it recorded from another position?")


def _check_drawn(graph: nx.DiGraph, event: TraceEvent) -> None:
    """Raise unless ``event`` is about a drawn node (the same position) or lies below one
    where the drawing stops."""
    path = event.path
    if path in graph:
        drawn = graph.nodes[path]["state"]
        if drawn.key() != event.key:
            raise ValueError(f"the trace names {event.name} at moves {list(path)}, where the "
                             f"drawing has {node_name(drawn)}: was it recorded from this root?")
    elif _expanded(graph, drawn_ancestor(graph, path)):
        raise ValueError(f"the trace reaches moves {list(path)}, which are not in the "
                         f"drawing: was it recorded from this root?")


def _expanded(graph: nx.DiGraph, node: NodePath) -> bool:
    """Whether the drawing shows all of ``node``'s children (it does not stop there)."""
    return graph.out_degree(node) > 0 or graph.nodes[node]["state"].is_terminal()


def _apply_event(snap: TraceSnapshot, event: TraceEvent, graph: nx.DiGraph) -> None:
    """What one event changes in the picture."""
    kind, path = event.kind, event.path
    if kind in ("enter", "leaf", "hit"):
        snap.visited.add(path)
    if kind in ("enter", "exit"):
        snap.bounds[path] = (event.alpha, event.beta)
    if kind in ("leaf", "hit") or (kind == "exit" and event.value is not None):
        snap.values[path] = event.value
    elif kind == "improve" and path[:-1] in snap.bounds:
        alpha, beta = snap.bounds[path[:-1]]
        snap.bounds[path[:-1]] = (event.value, beta) if event.bound == "alpha" \
            else (alpha, event.value)
    elif kind == "cutoff" and path in graph:
        for child in graph.successors(path):
            if child not in snap.visited:
                snap.cuts.add((path, child))
                snap.pruned |= {child} | nx.descendants(graph, child)
