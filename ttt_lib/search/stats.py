"""Counters that searches fill in when they are given a ``Stats`` (and skip when not)."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class Stats:
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

    def as_dict(self) -> dict[str, int]:
        return asdict(self)
