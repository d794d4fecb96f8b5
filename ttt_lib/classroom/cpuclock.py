"""The CPU time a box has used, read from outside it: what the grader times a boxed call by.

``box_clock(pid)`` reads the box whose first process is ``pid`` (``subprocess.Popen``'s:
the command ``jail.box_command`` built, or an unboxed run's own process). Where that process
sits in one of our boxes' control groups (``cgroups``), the clock is the group's
``cpu.stat`` ``usage_usec``, as the tournament's move clock reads it (``worker``): every
process of the box, however it was started. Elsewhere (no cgroups, an unboxed run) it is
the sum, over the process and all its descendants in ``/proc``, of their own CPU time and
that of the children they have collected (``utime + stime + cutime + cstime``, in clock
ticks). Where neither can be read (no ``/proc``), there is no clock: ``None``. Nothing the
box says about its own time is read.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from . import cgroups

__all__ = ["box_clock", "group_folder", "tree_seconds"]


def group_folder(pid: int) -> str | None:
    """The cgroup v2 folder of ``pid`` when it is one of our boxes' groups, else None."""
    base, _, why = cgroups._layout()
    if why:
        return None
    mount, _ = cgroups._mounts()
    try:
        with open(f"/proc/{pid}/cgroup", encoding="ascii", errors="replace") as groups:
            lines = groups.read().splitlines()
    except OSError:
        return None
    for line in lines:
        number, _, path = line.partition("::")
        if number != "0" or mount is None:
            continue
        folder = os.path.normpath(os.path.join(mount, path.lstrip("/")))
        if os.path.dirname(folder) == os.path.normpath(base) and \
                os.path.basename(folder).startswith("box-"):
            return folder
    return None


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent, CPU ticks of the process and its collected children), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[1]), sum(int(value) for value in fields[11:15])
    except (OSError, ValueError, IndexError):
        return None


def tree_seconds(pid: int) -> float:
    """CPU seconds used by ``pid`` and every process descended from it (0 when gone)."""
    found: dict[int, tuple[int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if name.isdigit():
            read = _stat(name)
            if read is not None:
                found[int(name)] = read
    children: dict[int, list[int]] = {}
    for child, (parent, _) in found.items():
        children.setdefault(parent, []).append(child)
    ticks, stack, seen = 0, [pid], set()
    while stack:
        current = stack.pop()
        if current in seen or current not in found:
            continue
        seen.add(current)
        ticks += found[current][1]
        stack += children.get(current, [])
    return ticks / os.sysconf("SC_CLK_TCK")


def box_clock(pid: int) -> Callable[[], float] | None:
    """A function that gives the CPU seconds the box of ``pid`` has used so far (its
    cgroup's, found at the first reading, once the box has joined it; else its process
    tree's), or None where ``/proc`` cannot be read."""
    if not os.path.exists(f"/proc/{pid}/stat"):
        return None
    found: list[str | None] = []

    def seconds() -> float:
        if not found:
            found.append(group_folder(pid))
        if found[0] is not None:
            return cgroups._field(os.path.join(found[0], "cpu.stat"), "usage_usec") / 1e6
        return tree_seconds(pid)
    return seconds
