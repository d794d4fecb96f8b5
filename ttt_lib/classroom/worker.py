"""The tournament's side of a student's agent: a game sandbox forked from the student's box
(``box``), asked for moves against a clock, and every way it can fail turned into a
``Forfeit`` with a short reason.

The move clock: where the box has a cgroup, a move may use ``move_time`` seconds of the
box's own CPU time (all its processes together), read from the cgroup, so a neighbour's load
cannot make it forfeit; a wall-clock backstop (``WALL_FACTOR`` times that, plus
``WALL_GRACE``) ends a move that sleeps or waits. Without a cgroup the clock is the wall
clock. Either way the reason is "exceeded" the move time (a hang's reason must not depend on
which clock a busy machine ran out first). The box is thawed only while it is asked
something.

A box is a plain subprocess, not ``multiprocessing``, so any worker can start one: a process
pool's, a Dask worker's. What it contains, and what it does not: see ``jail``, ``box`` and
the README's "What is contained, and what is not".
"""
from __future__ import annotations

import json
import os
import select
import time
from dataclasses import dataclass

from ..boards.named import game_name
from ..game import Game, player_name
from ..player import Agent
from ..safetext import shorten
from .box import Box, BoxGone
from .channel import REPLY_BYTES, decode
from .entrant import (BROWSER_ROSTER, CannotStart, ClassroomError, Entrant, Forfeit,
                      Limits, require_processes, seconds_text)
from .jail import kill, pid_of, proc_field

MEMORY_SHARE = 0.9  # out of time with this share of its memory in use: it hit the limit
WALL_FACTOR = 3.0  # the wall-clock backstop of a move timed by CPU: this many times ...
WALL_GRACE = 0.5  # ... the move time, plus this (seconds)
POLL = 0.02  # how often a move's CPU time is read while it thinks (at most; seconds)

__all__ = ["BROWSER_ROSTER", "Box", "CannotStart", "ClassroomError", "Entrant", "Forfeit",
           "Limits", "Sandbox", "StudentAgent", "require_processes", "seconds_text"]


@dataclass
class Sandbox:
    """One student's agent in a game sandbox of its own, forked from the student's box on
    first use and again after a fatal forfeit."""

    entrant: Entrant
    limits: Limits
    box: Box | None = None
    pidfd: int | None = None  # a handle on the process that cannot name another one
    to_child: int | None = None
    from_child: int | None = None
    buffer: bytes = b""

    def start(self) -> None:
        for attempt in (1, 2):
            box = Box.get(self.entrant, self.limits)
            try:
                self.pidfd, self.to_child, self.from_child = box.fork()
            except BoxGone:  # its zygote died (its box ends): a new box, once
                Box.discard(box)
                if attempt == 2:
                    raise Forfeit("broke its sandbox", fatal=True) from None
                continue
            self.box, self.buffer = box, b""
            return

    def ask(self, request: dict, seconds: float, doing: str = "moving") -> dict:
        """The sandbox's answer to ``request`` within ``seconds``, or a ``Forfeit``. The box
        runs only meanwhile; a new game first ends what the last one left running."""
        if self.to_child is None:
            self.start()
        box = self.box
        if request.get("op") == "new_game":
            box.sweep(self.pidfd)
        ooms = box.oom_kills()
        box.thaw()
        try:
            data = (json.dumps(request) + "\n").encode()
            while data:
                data = data[os.write(self.to_child, data):]
            line = self._line(seconds, doing)
        except Forfeit:
            self.close()
            raise
        except OSError:  # the pipe broke: the process is gone
            line = b""
        finally:
            box.freeze()
        if not line:
            self.close()
            if box.oom_kills() > ooms:
                raise Forfeit("exceeded the memory limit", fatal=True)
            raise Forfeit(f"crashed {WHILE[doing]}", fatal=True)
        answer = decode(line)
        if answer is None:
            self.close()
            raise Forfeit("sent a malformed answer", fatal=True)
        if answer.get("fatal"):
            self.close()
            raise Forfeit(str(answer.get("error", "failed")), fatal=True)
        return answer

    def _line(self, seconds: float, doing: str) -> bytes:
        """One line from the sandbox ('' if it closed its end) within ``seconds`` of the
        box's CPU time and the wall-clock backstop (without a cgroup: ``seconds`` of wall
        clock)."""
        clock = self.box.cpu_seconds()
        wall = seconds if clock is None else seconds * WALL_FACTOR + WALL_GRACE
        deadline = time.monotonic() + wall
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            wait = left
            if clock is not None:
                used = self.box.cpu_seconds() - clock
                if used > seconds:
                    raise Forfeit(self._late(seconds, doing), fatal=True)
                wait = min(left, max(seconds - used, POLL / 4), POLL)
            if left <= 0:  # the same reason, whichever clock ran out first
                raise Forfeit(self._late(seconds, doing), fatal=True)
            ready = select.select([self.from_child, self.pidfd], [], [], max(wait, 0))[0]
            if not ready:
                continue
            if self.from_child not in ready:
                return b""  # it ended (children it left may hold its pipe open)
            chunk = os.read(self.from_child, REPLY_BYTES)
            if not chunk:
                return b""
            self.buffer += chunk
            if len(self.buffer) > REPLY_BYTES:
                raise Forfeit("sent a malformed answer (too long)", fatal=True)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _late(self, seconds: float, doing: str) -> str:
        """Out of time; at its memory limit, whatever the timing, that is the reason."""
        peak = proc_field(pid_of(self.pidfd), "VmPeak").split()
        if peak and int(peak[0]) >= MEMORY_SHARE * (self.limits.memory_mb << 10):
            return "exceeded the memory limit"
        return f"exceeded {seconds_text(seconds)}" + (" when built" if doing == "starting"
                                                      else "")

    def close(self) -> None:
        """Kill the sandbox (through its pidfd) and let go of its pipes."""
        kill(self.pidfd)
        for name in ("to_child", "from_child", "pidfd"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)
        if self.box is not None:
            self.box.release()
            self.box = None


WHILE = {"moving": "while moving", "starting": "when built"}


class StudentAgent(Agent):
    """The student's agent as the game loop sees it: ``choose`` sends the position as text to
    the sandbox and reads the move back, or raises ``Forfeit``."""

    def __init__(self, entrant: Entrant, limits: Limits) -> None:
        super().__init__(seed=0)
        self.name, self.limits = entrant.label, limits
        self.sandbox = Sandbox(entrant, limits)

    def new_game(self, seed: int) -> None:
        """A fresh agent: its constructor has the time of a move."""
        answer = self.sandbox.ask({"op": "new_game", "seed": seed}, self.limits.move_time,
                                  "starting")
        if "error" in answer:
            raise Forfeit(f"{answer['error']} when built")

    def choose(self, state: Game):
        request = {"op": "move", "text": state.to_text(), "first": player_name(state.first),
                   "game": game_name(state)}
        answer = self.sandbox.ask(request, self.limits.move_time, "moving")
        if "error" in answer:
            raise Forfeit(str(answer["error"]))
        move = answer.get("move")
        if "malformed" in answer or isinstance(move, bool) or not isinstance(move, int):
            raise Forfeit(f"malformed answer {shorten(str(answer.get('malformed', answer)), 60)}")
        if move not in state.moves():
            raise Forfeit(f"illegal move {shorten(str(move), 40)}")
        return move

    def close(self) -> None:
        self.sandbox.close()
