"""The tournament's side of a sandbox: start one for a student's file, ask it for moves with a
deadline, and turn every way it can fail into a ``Forfeit`` with a short reason.

Each student has a box (``jail``: a bubblewrap sandbox of their own, or with
``Limits(isolated=False)`` a plain process) per tournament process, holding a zygote,
``python -m ttt_lib.classroom.sandbox --zygote``, that has loaded the student's file once and
forks a game sandbox per request in milliseconds (a fresh interpreter takes a few tenths of
a second, and a tournament restarts a sandbox after every hang or crash). A box is a plain
subprocess, not ``multiprocessing``, so any worker can start one: a process pool's, a Dask
worker's.

What a box contains: a student's agent sees only its own box's processes and files (the
package and Python read-only, an empty home), has no network, no capability, no inherited
environment, and dies with its box; it is killed through a pidfd, which cannot name another
process once it has ended. What it does not: it shares the machine's CPUs and memory with
the others (the limits bound each sandbox, not their sum), and with ``--no-isolation`` only
the limits and the protocol remain, as in any process of your own.
"""
from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from ..arena import processes_available
from ..errors import NOT_IN_A_BROWSER, ProcessesUnavailable
from ..boards.named import game_name
from ..game import Game, player_name
from ..player import Agent
from . import jail
from .jail import kill, pid_of, proc_field
from .sandbox import READY  # the zygote's last word on stderr before the student's code
from ..safetext import printable, shorten

LOAD_SECONDS = 10.0  # starting a box: Python, the package and the student file's top level
FORK_SECONDS = 5.0  # a zygote forks in milliseconds
REPLY_BYTES = 1 << 16  # a longer answer is malformed
MAX_BOXES = 12  # boxes kept per process; the least recently used idle one closes first
MEMORY_SHARE = 0.9  # out of time with this share of its memory in use: it hit the limit
REASON_CHARACTERS = 160  # a longer reason is shortened in the middle


class ClassroomError(ValueError):
    """A bad folder, agent list or limit for a class tournament, or no way to run one."""


class CannotStart(ClassroomError):
    """A box that does not start at all (not the student's doing): the run stops."""


class Limits(NamedTuple):
    """What a student's agent may use: wall-clock seconds per move, memory, CPU seconds over
    a sandbox's life (a sandbox that runs out is restarted), and whether it is boxed."""

    move_time: float = 1.0
    memory_mb: int = 512
    cpu_seconds: int = 600
    isolated: bool = True  # in a bubblewrap box (False: ``--no-isolation``)


class Entrant(NamedTuple):
    """A player of the tournament as data: a built-in agent's name and options, or a
    student's file (its name and source). Tasks carry these, never live objects."""

    label: str
    builtin: str | None = None
    options: tuple = ()
    filename: str | None = None
    source: str | None = None


class Forfeit(Exception):
    """A student's agent lost the game by failing; ``fatal``: its sandbox must restart."""

    def __init__(self, reason: str, fatal: bool = False) -> None:
        reason = printable(shorten(reason, REASON_CHARACTERS))
        super().__init__(reason)
        self.reason, self.fatal = reason, fatal


def seconds_text(seconds: float) -> str:
    return f"{seconds:g} s"


# What a browser's Python says instead of loading or playing a class's agents.
BROWSER_ROSTER = (f"{NOT_IN_A_BROWSER}: a class's agents each run in a process of their own, "
                  f"which a browser's Python cannot start; run this notebook in JupyterLab or "
                  f"on Colab for them")


def require_processes() -> None:
    """Students' agents run in processes of their own: not in a browser's Python
    (``ProcessesUnavailable``, a ``RuntimeError``: the platform lacks them, no value is wrong)."""
    if not processes_available():
        raise ProcessesUnavailable(BROWSER_ROSTER)


class BoxGone(Exception):
    """The box's zygote is gone or does not answer (a sandbox of the student's killed it)."""


class Box:
    """One student's box with its zygote (see ``sandbox.zygote``), loaded once, kept for
    the life of this process (at most ``MAX_BOXES`` at a time) and ended with it."""

    _open: OrderedDict[tuple, Box] = OrderedDict()
    _failed: dict[tuple, str] = {}  # a file that cannot load is not loaded again
    _lock = threading.Lock()

    def __init__(self, entrant: Entrant, limits: Limits) -> None:
        require_processes()
        if limits.isolated:
            jail.require("a student's agent")
        self.lock, self.users, self.zygote, self.folder = threading.Lock(), 0, None, None
        self.retired = False  # out of the registry: closes when its last sandbox does
        self.link, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.errors = tempfile.TemporaryFile()  # what the zygote says if it cannot start
        argv = [sys.executable, "-I", "-m", "ttt_lib.classroom.sandbox",
                "--zygote", str(theirs.fileno())]
        if limits.isolated:
            command, home, cwd = jail.box_command(argv), jail.HOME, "/"
        else:
            command, home = argv, tempfile.mkdtemp(prefix="ttt-box-")
            self.folder = cwd = home
        with tempfile.TemporaryFile() as source:  # the student's file: the zygote's stdin
            source.write((entrant.source or "").encode("utf-8", errors="replace"))
            source.seek(0)
            self.process = subprocess.Popen(
                command, pass_fds=[theirs.fileno()], stdin=source,
                stdout=subprocess.DEVNULL, stderr=self.errors, cwd=cwd,
                env=jail.environment(home), start_new_session=True)
        theirs.close()
        self.agent = self._load(entrant, limits)

    def _load(self, entrant: Entrant, limits: Limits) -> str:
        request = {"op": "load", "filename": entrant.filename or entrant.label,
                   "memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                   "move_time": limits.move_time, "isolated": limits.isolated}
        try:
            try:
                self.link.send(json.dumps(request).encode())
            except OSError:
                raise BoxGone("gone") from None
            answer, self.zygote = self._receive(LOAD_SECONDS)
        except BoxGone as gone:
            if str(gone) != "late":
                try:  # all it had to say
                    self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            why = self.why_stopped()
            self.close()
            if str(gone) == "late":
                raise Forfeit(f"exceeded {seconds_text(LOAD_SECONDS)} when loaded",
                              fatal=True) from None
            if why:
                raise CannotStart(f"the sandbox could not start: {why}") from None
            raise Forfeit("crashed when loaded", fatal=True) from None
        if not isinstance(answer.get("agent"), str):
            self.close()
            raise Forfeit(str(answer.get("error", "sent a malformed answer")), fatal=True)
        return answer["agent"]

    def _receive(self, seconds: float) -> tuple[dict, int]:
        """The zygote's next answer and the pidfd that comes with it, or ``BoxGone``."""
        if not select.select([self.link], [], [], seconds)[0]:
            raise BoxGone("late")
        try:
            message, fds, _, _ = socket.recv_fds(self.link, REPLY_BYTES, 2)
        except OSError:
            message, fds = b"", []
        try:
            answer = json.loads(message) if message and len(fds) == 1 else None
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            for fd in fds:
                os.close(fd)
            raise BoxGone("broken")
        return answer, fds[0]

    def why_stopped(self) -> str:
        """The last line the zygote wrote to its stderr if it stopped before running the
        student's code ('' if it got that far: it says ``READY`` first)."""
        self.errors.seek(0)
        lines = self.errors.read()[-2000:].decode(errors="replace").strip().splitlines()
        if not lines or lines[-1] == READY:
            return ""
        return printable(lines[-1])

    def stopped(self) -> bool:
        """Its zygote was stopped (a SIGSTOP from one of the student's sandboxes)."""
        return self.zygote is not None and \
            proc_field(pid_of(self.zygote), "State")[:1] in ("T", "t")

    def fork(self) -> tuple[int, int, int]:
        """A new sandbox: (its pidfd, its stdin, its stdout)."""
        with self.lock:
            if self.stopped():
                raise Forfeit("stopped the process that starts its sandboxes", fatal=True)
            child_in, to_child = os.pipe()
            from_child, child_out = os.pipe()
            try:
                socket.send_fds(self.link, [b'{"op": "fork"}'], [child_in, child_out])
                answer, pidfd = self._receive(FORK_SECONDS)
            except (OSError, BoxGone):
                os.close(to_child)
                os.close(from_child)
                raise BoxGone("gone") from None
            finally:
                os.close(child_in)
                os.close(child_out)
            self.users += 1
            return pidfd, to_child, from_child

    def release(self) -> None:
        """One of its sandboxes has ended."""
        with self.lock:
            self.users -= 1
            last = self.retired and self.users == 0
        if last:
            self.close()

    def retire(self) -> None:
        with self.lock:
            self.retired = True
            idle = self.users == 0
        if idle:
            self.close()

    def close(self) -> None:
        """End the box and everything in it."""
        if self.link.fileno() == -1:
            return  # closed already
        kill(self.zygote)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for fd in (self.zygote,):
            if fd is not None:
                os.close(fd)
        self.zygote = None
        self.link.close()
        self.errors.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    @classmethod
    def get(cls, entrant: Entrant, limits: Limits) -> Box:
        """The student's box in this process, started (and the file loaded) if need be."""
        key = (entrant.label, entrant.filename, entrant.source, limits)
        with cls._lock:
            if key in cls._failed:
                raise Forfeit(cls._failed[key], fatal=True)
            box = cls._open.pop(key, None)
            stopped = box is not None and box.stopped()
            if box is not None and box.process.poll() is None and not stopped:
                cls._open[key] = box
                return box
            if box is not None:
                box.retire()
            if stopped:
                raise Forfeit("stopped the process that starts its sandboxes", fatal=True)
            idle = [k for k, b in cls._open.items() if b.users == 0]
            for old in idle[:max(0, len(cls._open) + 1 - MAX_BOXES)]:
                cls._open.pop(old).retire()
            try:
                cls._open[key] = Box(entrant, limits)
            except Forfeit as forfeit:
                cls._failed[key] = forfeit.reason
                raise
            return cls._open[key]

    @classmethod
    def discard(cls, box: Box) -> None:
        """Take ``box`` out of use: it closes once its last sandbox has."""
        with cls._lock:
            for key in [k for k, b in cls._open.items() if b is box]:
                del cls._open[key]
        box.retire()

    @classmethod
    def close_all(cls) -> None:
        with cls._lock:
            while cls._open:
                cls._open.popitem()[1].retire()

    @classmethod
    def forget(cls) -> None:
        """In a forked copy of this process (a process pool's worker): the parent's boxes
        are not ours to use."""
        cls._open, cls._failed, cls._lock = OrderedDict(), {}, threading.Lock()


os.register_at_fork(after_in_child=Box.forget)
atexit.register(Box.close_all)


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
        """The sandbox's answer to ``request`` within ``seconds``, or a ``Forfeit``."""
        if self.to_child is None:
            self.start()
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
        if not line:
            self.close()
            raise Forfeit(f"crashed {WHILE[doing]}", fatal=True)
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self.close()
            raise Forfeit("sent a malformed answer", fatal=True)
        if answer.get("fatal"):
            self.close()
            raise Forfeit(str(answer.get("error", "failed")), fatal=True)
        return answer

    def _line(self, seconds: float, doing: str) -> bytes:
        """One line from the sandbox ('' if it closed its end), waiting at most ``seconds``."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready = select.select([self.from_child, self.pidfd], [], [], max(left, 0))[0]
            if not ready:
                raise Forfeit(self._late(seconds, doing), fatal=True)
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
