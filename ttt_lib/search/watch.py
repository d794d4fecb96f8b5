"""The old home of ``Stats`` and ``Trace``, kept for imports not yet moved to ``trace.py``.

Searches no longer take an observer: ``observe.py`` watches them from outside.
"""
from .trace import Stats, Trace, TraceEvent, node_name

__all__ = ["Stats", "Trace", "TraceEvent", "node_name"]
