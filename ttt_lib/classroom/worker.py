"""The tournament's side of a sandbox: start one for a student's file, ask it for moves with a
deadline, and turn every way it can fail into a ``Forfeit`` with a short reason.

Sandboxes are forked by a zygote, ``python -m ttt_lib.classroom.sandbox --zygote``, a plain
subprocess (not ``multiprocessing``, so any worker can start one: a process pool's, a Dask
worker's) that has imported what a sandbox needs and runs no student code. A fresh
interpreter per sandbox took 0.1-0.5 s to start (most of it importing ``ttt_lib``), a fork
takes milliseconds, and a tournament restarts a sandbox after every hang or crash.

A sandbox gets a minimal environment (no inherited variables, so no secrets), an empty
temporary directory as its working directory, a session of its own (a Ctrl-C in the terminal
reaches the tournament, which then stops its sandboxes), and no ``sys.path`` entry for the
current directory or the student's folder. It is killed through a pidfd, which cannot name
another process once it has ended. This contains mistakes (loops, crashes, runaway memory),
not a determined attacker: that needs an OS-level jail (a container, seccomp).
"""
from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

from ..arena import processes_available
from ..game import Game, player_name
from ..player import Agent

LOAD_SECONDS = 10.0  # starting Python and running a file's top level
REPLY_BYTES = 1 << 16  # a longer answer is malformed


class ClassroomError(ValueError):
    """A bad folder, agent list or limit for a class tournament, or no way to run one."""


class Limits(NamedTuple):
    """What a student's agent may use: wall-clock seconds per move, memory, CPU seconds over
    a sandbox's life (a sandbox that runs out is restarted)."""

    move_time: float = 1.0
    memory_mb: int = 512
    cpu_seconds: int = 600


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
        super().__init__(reason)
        self.reason, self.fatal = reason, fatal


def seconds_text(seconds: float) -> str:
    return f"{seconds:g} s"


def require_processes() -> None:
    """Students' agents run in processes of their own: not in a browser's Python."""
    if not processes_available():
        raise ClassroomError("a class tournament runs each student's agent in a process of "
                             "its own, and this Python (a browser's) cannot start one")


def minimal_env(home: str) -> dict[str, str]:
    """The sandboxes' whole environment: nothing inherited."""
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home,
            "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}


class Zygote:
    """``python -m ttt_lib.classroom.sandbox --zygote``: one per tournament process, started
    on first use; it forks each new sandbox (see ``sandbox.zygote``) and ends with us."""

    _current: Zygote | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        require_processes()
        self.link, theirs = socket.socketpair()
        # what the zygote says if it cannot start (a file, so it can never block on a pipe)
        self.errors = tempfile.TemporaryFile()
        # -I (isolated: no environment variables, no user site, no current directory on
        # sys.path) exists on every supported Python; -P alone is 3.11+
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-m", "ttt_lib.classroom.sandbox",
             "--zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self.errors, cwd="/", env=minimal_env("/nonexistent"),
            start_new_session=True)  # each sandbox gets a folder (cwd, HOME, TMPDIR) of its own
        theirs.close()
        self.replies = self.link.makefile("rb")

    def why_stopped(self) -> str:
        """The last line the zygote wrote to its stderr, or a plain statement."""
        self.errors.seek(0)
        lines = self.errors.read()[-2000:].decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "it stopped without a word"

    @classmethod
    def forget(cls) -> None:
        """In a forked copy of this process (a process pool's worker): the parent's zygote
        is not ours to use."""
        cls._current, cls._lock = None, threading.Lock()

    @classmethod
    def fork(cls, limits: Limits, folder: str) -> tuple[int, int, int]:
        """A new sandbox working in ``folder``: (process id, its stdin, its stdout)."""
        with cls._lock:
            for attempt in (1, 2):
                if cls._current is None or cls._current.process.poll() is not None:
                    cls._current = Zygote()
                try:
                    return cls._current._fork(limits, folder)
                except OSError as error:
                    failed, cls._current = cls._current, None
                    if attempt == 2:
                        try:
                            failed.process.wait(timeout=5)
                        except subprocess.TimeoutExpired:
                            failed.process.kill()
                        raise ClassroomError("the sandbox could not start: "
                                             + failed.why_stopped()) from error

    def _fork(self, limits: Limits, folder: str) -> tuple[int, int, int]:
        child_in, to_child = os.pipe()
        from_child, child_out = os.pipe()
        try:
            request = {**limits._asdict(), "folder": folder}
            socket.send_fds(self.link, [json.dumps(request).encode()], [child_in, child_out])
            pid = int(self.replies.readline() or b"0")
        finally:
            os.close(child_in)
            os.close(child_out)
        if not pid:
            os.close(to_child)
            os.close(from_child)
            raise ConnectionError("the sandbox zygote stopped")
        return pid, to_child, from_child


os.register_at_fork(after_in_child=Zygote.forget)


@dataclass
class Sandbox:
    """One student's file running in a process of its own, started on first use and again
    after a fatal forfeit."""

    entrant: Entrant
    limits: Limits
    pidfd: int | None = None  # a handle on the process that cannot name another one
    to_child: int | None = None
    from_child: int | None = None
    folder: str | None = None
    buffer: bytes = b""

    def start(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="ttt-sandbox-")
        pid, self.to_child, self.from_child = Zygote.fork(self.limits, self.folder)
        try:
            self.pidfd = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone: reading its stdout will say so
            self.pidfd = None
        self.buffer = b""
        answer = self.ask({"op": "load", "source": self.entrant.source,
                           "filename": self.entrant.filename}, LOAD_SECONDS, "loading")
        if "error" in answer:
            self.close()
            raise Forfeit(answer["error"], fatal=True)

    def ask(self, request: dict, seconds: float, doing: str = "") -> dict:
        """The sandbox's answer to ``request`` within ``seconds``, or a ``Forfeit``."""
        if self.to_child is None:
            self.start()
        try:
            data = (json.dumps(request) + "\n").encode()
            while data:
                data = data[os.write(self.to_child, data):]
            line = self._line(seconds)
        except Forfeit:
            self.close(kill=True)
            raise
        except OSError:  # the pipe broke: the process is gone
            line = b""
        if not line:
            self.close(kill=True)
            raise Forfeit(f"crashed{' while ' + doing if doing else ''}", fatal=True)
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self.close(kill=True)
            raise Forfeit("sent a malformed answer", fatal=True)
        if answer.get("fatal"):
            self.close(kill=True)
            raise Forfeit(answer.get("error", "failed"), fatal=True)
        return answer

    def _line(self, seconds: float) -> bytes:
        """One line from the sandbox ('' if it closed its end), waiting at most ``seconds``."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_child], [], [], left)[0]:
                raise Forfeit(f"exceeded {seconds_text(seconds)}", fatal=True)
            chunk = os.read(self.from_child, REPLY_BYTES)
            if not chunk:
                return b""
            self.buffer += chunk
            if len(self.buffer) > REPLY_BYTES:
                raise Forfeit("sent a malformed answer (too long)", fatal=True)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def close(self, kill: bool = False) -> None:
        """Stop the process: closing its stdin ends it, or, with ``kill``, a SIGKILL."""
        if kill and self.pidfd is not None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name in ("to_child", "from_child", "pidfd"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


class StudentAgent(Agent):
    """The student's agent as the game loop sees it: ``choose`` sends the position as text to
    the sandbox and reads the move back, or raises ``Forfeit``."""

    def __init__(self, entrant: Entrant, limits: Limits) -> None:
        super().__init__(seed=0)
        self.name, self.limits = entrant.label, limits
        self.sandbox = Sandbox(entrant, limits)

    def new_game(self, seed: int) -> None:
        answer = self.sandbox.ask({"op": "new_game", "seed": seed}, LOAD_SECONDS, "starting")
        if "error" in answer:
            raise Forfeit(f"{answer['error']} when built")

    def choose(self, state: Game):
        request = {"op": "move", "text": state.to_text(), "first": player_name(state.first)}
        answer = self.sandbox.ask(request, self.limits.move_time, "moving")
        if "error" in answer:
            raise Forfeit(answer["error"])
        if "malformed" in answer or not isinstance(answer.get("move"), int):
            raise Forfeit(f"malformed answer {answer.get('malformed', answer)}")
        if answer["move"] not in state.moves():
            raise Forfeit(f"illegal move {answer['move']}")
        return answer["move"]

    def close(self) -> None:
        self.sandbox.close()
