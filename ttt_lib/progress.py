"""A progress line for long runs: one line on a stream (stderr), rewritten in place.

The command-line contract (ARCHITECTURE.md, "Command line") has long runs show progress on
stderr; the m,n,k solver and the class tournament both draw theirs with ``ProgressLine``.
"""
from __future__ import annotations

import time


class ProgressLine:
    """One line on ``stream``, first shown ``after`` seconds into a run, then rewritten at most
    twice a second (and once more at the end); ``close()`` ends the line."""

    def __init__(self, stream, after: float = 2.0) -> None:
        self.stream, self.start, self.next, self.shown = stream, time.monotonic(), after, False

    def elapsed(self) -> float:
        """Seconds since the line was made."""
        return time.monotonic() - self.start

    def due(self, seconds: float, final: bool = False) -> bool:
        """Whether to write the line now, ``seconds`` into the run (``final``: the last
        update, written if the line is already showing)."""
        if seconds >= self.next or (self.shown and final):
            self.next = seconds + 0.5
            return True
        return False

    def write(self, text: str) -> None:
        self.stream.write("\r" + text)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.shown = False
