"""Process trees, for fixtures that must leave nothing behind: servers, kernels, browsers.

Read from /proc (Linux): a process's children are found by their parent's id. A tree is
listed before anything in it is signalled, since a child whose parent has died is handed to
init and no longer looks like ours.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def parents() -> dict[int, int]:
    """Every visible process id -> its parent's id."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # the command name, in parentheses, may hold spaces and parentheses: split after it
        fields = stat.rpartition(")")[2].split()
        found[int(entry.name)] = int(fields[1])
    return found


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (children first found, grandchildren after)."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents().items():
        children.setdefault(parent, []).append(pid)
    found, frontier = [], [root]
    while frontier:
        below = [child for pid in frontier for child in children.get(pid, ())]
        found += below
        frontier = below
    return found


def alive(pid: int) -> bool:
    """Running, or stopped: not gone and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def end(pids: list[int], grace: float = 3.0) -> None:
    """SIGTERM each of ``pids``, then SIGKILL whatever still runs after ``grace`` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + grace
        while any(map(alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = [pid for pid in pids if alive(pid)]
        if not pids:
            return


def end_tree(root: int, grace: float = 3.0) -> None:
    """End ``root`` and everything below it."""
    end(descendants(root) + [root], grace)


def end_descendants(grace: float = 3.0) -> None:
    """End every process this one started, directly or not."""
    end(descendants(os.getpid()), grace)


def with_marker(marker: str) -> list[int]:
    """The processes whose environment holds ``marker`` (a variable set for one run)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ.split(b"\0") and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def interruptible() -> dict:
    """``subprocess.Popen`` keywords for a child that Ctrl-C (SIGINT) stops as it would in a
    terminal, even when the tests themselves were started in the background: a shell's
    ``make test &`` ignores SIGINT, children inherit that, and Python then never raises
    KeyboardInterrupt (the run goes on to its end)."""
    return {"preexec_fn": _default_sigint}


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
