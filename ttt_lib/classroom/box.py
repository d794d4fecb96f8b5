"""One student's box: a bubblewrap sandbox (``jail``) in a cgroup of its own (``cgroups``)
holding a zygote, ``python -m ttt_lib.classroom.sandbox --zygote``, that has loaded the
student's file once and forks a game sandbox per request in milliseconds.

What the box's processes hold of ours: its standard input and output are ``/dev/null``; its
standard error is a pipe read only until the zygote says it is ready (so bwrap's own errors
can be reported, and nothing written later is read or kept); the channel is a socket of its
own, read with bounds (``channel``). The student's file reaches the zygote as a sealed memfd.
So no descriptor of the host (a file, a terminal) is reachable inside, and whatever a box
writes costs the host at most one pipe's buffer.

The box is frozen whenever it is not asked something; between games every process of it but
its init, its zygote and the game's sandbox is killed (orphans a sandbox left in sessions of
their own included).
"""
from __future__ import annotations

import atexit
import errno
import fcntl
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import OrderedDict

from . import jail, kit
from .channel import REPLY_BYTES, decode
from .entrant import (CannotStart, Entrant, Forfeit, Limits, require_processes,
                      seconds_text)
from .jail import kill, pid_of, proc_field
from .sandbox import READY
from ..safetext import printable

HELLO_SECONDS = 60.0  # starting a box, up to its zygote's "ready" (none of the student's code)
LOAD_SECONDS = 10.0  # then running the student file's top level
FORK_SECONDS = 5.0  # a zygote forks in milliseconds
MAX_BOXES = 12  # boxes kept per process; the least recently used idle one closes first
ERROR_BYTES = 4096  # what is read of a box's stderr when it could not start
DISK_MB = 64  # a tournament box's /tmp (in memory) and largest file
SWEEP_SECONDS = 2.0  # at most this long to end what a game left running
SEALS = 0xF  # F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE


class BoxGone(Exception):
    """The box's zygote is gone or does not answer (a sandbox of the student's killed it)."""


def sealed(text: str) -> int:
    """A memfd holding ``text``, sealed against every change, at offset 0."""
    memfd = os.memfd_create("student-file", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    data = memoryview(text.encode("utf-8", errors="replace"))
    while data:
        data = data[os.write(memfd, data):]
    fcntl.fcntl(memfd, fcntl.F_ADD_SEALS, SEALS)
    os.lseek(memfd, 0, os.SEEK_SET)
    return memfd


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
        self.keep: set[int] = set()  # its own processes: never killed between games
        self.link, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = kit.command("--zygote", str(theirs.fileno())) if limits.kit else \
            jail.module_command("ttt_lib.classroom.sandbox", "--zygote", str(theirs.fileno()))
        home, cwd = jail.HOME, "/"
        if not limits.isolated:
            home = cwd = self.folder = tempfile.mkdtemp(prefix="ttt-box-")
        box_limits = jail.BoxLimits(limits.memory_mb, limits.processes, limits.cpu_seconds,
                                    DISK_MB)
        command, self.group = jail.boxed(argv, None, box_limits, limits.isolated,
                                         kit.folder() if limits.kit else None)
        errors, their_errors = os.pipe()
        try:
            self.process = subprocess.Popen(
                command, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=their_errors, cwd=cwd,
                env=jail.environment(home), start_new_session=True)
        finally:
            os.close(their_errors)
            theirs.close()
        try:
            self._hello(errors)
        finally:
            os.close(errors)
        self.agent = self._load(entrant, limits)
        self.freeze()

    # ------------------------------------------------------------------- starting, loading

    def _hello(self, errors: int) -> None:
        """Wait for the zygote's first word: before it, no student code has run, so a box
        that does not say it is a box that could not start (``CannotStart``, with the last
        line bwrap or Python wrote); after it, its stderr is never read again."""
        try:
            answer, self.zygote = self._receive(HELLO_SECONDS, 1)
            if answer != READY:
                raise BoxGone("broken")
        except BoxGone as gone:
            if str(gone) != "late":
                try:
                    self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            why = last_line(errors) or (f"no answer within {seconds_text(HELLO_SECONDS)}"
                                        if str(gone) == "late" else
                                        f"exit status {self.process.poll()}")
            self.close()
            raise CannotStart(f"the sandbox could not start: {why}") from None
        zygote = pid_of(self.zygote)
        self.keep = {self.process.pid, zygote, parent_of(zygote)} - {-1}

    def _load(self, entrant: Entrant, limits: Limits) -> str:
        request = {"op": "load", "filename": entrant.filename or entrant.label,
                   "memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                   "move_time": limits.move_time, "isolated": limits.isolated}
        source = sealed(entrant.source or "")
        try:
            try:
                socket.send_fds(self.link, [json.dumps(request).encode()], [source])
            except OSError:
                raise BoxGone("gone") from None
            finally:
                os.close(source)
            answer, _ = self._receive(LOAD_SECONDS, 0)
        except BoxGone as gone:
            self.close()
            if str(gone) == "late":
                raise Forfeit(f"exceeded {seconds_text(LOAD_SECONDS)} when loaded",
                              fatal=True) from None
            if str(gone) == "broken":
                raise Forfeit("sent a malformed answer when loaded", fatal=True) from None
            raise Forfeit("crashed when loaded", fatal=True) from None
        if not isinstance(answer.get("agent"), str):
            self.close()
            raise Forfeit(str(answer.get("error", "sent a malformed answer")), fatal=True)
        return answer["agent"]

    def _receive(self, seconds: float, pidfds: int) -> tuple[dict, int | None]:
        """The zygote's next answer and the ``pidfds`` (0 or 1) pidfd that comes with it,
        or ``BoxGone``; anything else it sends (more descriptors, a long or deep message)
        breaks the box."""
        if not select.select([self.link], [], [], seconds)[0]:
            raise BoxGone("late")
        try:
            message, fds, flags, _ = socket.recv_fds(self.link, REPLY_BYTES, 2)
        except OSError:
            message, fds, flags = b"", [], 0
        if not message and not fds:
            raise BoxGone("gone")  # the zygote ended: its end of the socket closed
        answer = decode(message) if not flags & socket.MSG_TRUNC else None
        if answer is None or len(fds) != pidfds:
            for fd in fds:
                os.close(fd)
            raise BoxGone("broken")
        return answer, (fds[0] if fds else None)

    # --------------------------------------------------------- frozen between its turns

    def freeze(self) -> None:
        """No process of the box runs until ``thaw`` (no pondering, no spinning)."""
        if self.group is not None:
            self.group.freeze()

    def thaw(self) -> None:
        if self.group is not None:
            self.group.thaw()

    def cpu_seconds(self) -> float | None:
        """CPU time the whole box has used (None without a cgroup)."""
        return self.group.cpu_seconds() if self.group is not None else None

    def oom_kills(self) -> int:
        return self.group.oom_kills() if self.group is not None else 0

    def sweep(self, sandbox: int) -> None:
        """Kill every process of the box but its own and the game's ``sandbox`` (its
        pidfd): what a game left behind ends with that game."""
        if self.group is None:
            return
        keep = self.keep | {pid_of(sandbox)}
        deadline = time.monotonic() + SWEEP_SECONDS
        while time.monotonic() < deadline:
            stray = [pid for pid in self.group.pids() if pid not in keep]
            if not stray:
                return
            for pid in stray:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.005)

    def stopped(self) -> bool:
        """Its zygote was stopped (a SIGSTOP from one of the student's sandboxes)."""
        return self.zygote is not None and \
            proc_field(pid_of(self.zygote), "State")[:1] in ("T", "t")

    # ------------------------------------------------------------------------ sandboxes

    def fork(self) -> tuple[int, int, int]:
        """A new sandbox: (its pidfd, its stdin, its stdout)."""
        with self.lock:
            if self.stopped():
                raise Forfeit("stopped the process that starts its sandboxes", fatal=True)
            child_in, to_child = os.pipe()
            from_child, child_out = os.pipe()
            self.thaw()
            try:
                socket.send_fds(self.link, [b'{"op": "fork"}'], [child_in, child_out])
                answer, pidfd = self._receive(FORK_SECONDS, 1)
            except (OSError, BoxGone):
                os.close(to_child)
                os.close(from_child)
                raise BoxGone("gone") from None
            finally:
                self.freeze()
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
        """End the box and everything in it, and remove its cgroup."""
        if self.link.fileno() == -1:
            return  # closed already
        kill(self.zygote)
        if self.group is not None:
            self.group.kill()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.zygote is not None:
            os.close(self.zygote)
        self.zygote = None
        self.link.close()
        if self.group is not None:
            self.group.remove()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------- this process's boxes

    @classmethod
    def get(cls, entrant: Entrant, limits: Limits) -> Box:
        """The student's box in this thread of this process, started (and the file loaded)
        if need be: a box serves one game at a time (it is frozen, and what a game leaves
        running is killed, as a whole), and threads of one process (a Dask worker's) may
        play the same student's games at once."""
        key = (threading.get_ident(), entrant.label, entrant.filename, entrant.source, limits)
        with cls._lock:
            if key[1:] in cls._failed:
                raise Forfeit(cls._failed[key[1:]], fatal=True)
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
                cls._failed[key[1:]] = forfeit.reason
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


def last_line(errors: int) -> str:
    """The last line of what a box that could not start wrote on its stderr (at most
    ``ERROR_BYTES``, without waiting), made printable; '' if it wrote nothing."""
    os.set_blocking(errors, False)
    data = b""
    try:
        while len(data) < ERROR_BYTES:
            chunk = os.read(errors, ERROR_BYTES - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as error:
        if error.errno != errno.EAGAIN:
            raise
    lines = data.decode(errors="replace").strip().splitlines()
    return printable(lines[-1]) if lines else ""


def parent_of(pid: int) -> int:
    """A process's parent as this process sees it (-1 when unknown)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1
