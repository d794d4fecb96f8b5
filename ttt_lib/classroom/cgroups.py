"""Control groups for boxes, as IOI's ``isolate`` uses them: each box in a cgroup of its own
with a memory limit (the whole box: its processes and its in-memory files), a process-count
limit and at most one CPU; frozen while it is not on move; its CPU time read for the move
clock; every process in it ended at once.

Cgroup v2 gives the freezer (``cgroup.freeze``), the CPU time (``cpu.stat``) and the kill
(``cgroup.kill``); the memory, pids and cpu controllers come from v2 where it has them, else
from their v1 hierarchies (a hybrid machine). Groups are made under ``$TTT_CGROUP`` (a
delegated v2 cgroup of one's own, for a user without root) or, as root, under a group
``ttt-boxes`` of the hierarchy's root (v1: of this process's own group). Where none can be
made, ``why_not`` says why and the boxes fall back to per-process rlimits.
"""
from __future__ import annotations

import functools
import itertools
import os
import signal
import threading
import time
from pathlib import Path

VARIABLE = "TTT_CGROUP"  # a delegated cgroup v2 folder to make the boxes' groups in
BASE = "ttt-boxes"
CONTROLLERS = ("memory", "pids", "cpu")
SLACK_MB = 64  # a box's group: its agent's memory limit plus the interpreter it forks from
_counter = itertools.count()
_lock = threading.Lock()


class CgroupError(OSError):
    """A group could not be made, joined or set."""


def _mounts() -> tuple[str | None, dict[str, str]]:
    """The cgroup v2 mount point (or None) and each v1 controller's mount point."""
    v2, v1 = None, {}
    try:
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                _, where, kind, options, *_ = line.split()
                if kind == "cgroup2" and v2 is None:
                    v2 = where
                elif kind == "cgroup":
                    for option in options.split(","):
                        v1.setdefault(option, where)
    except OSError:
        pass
    return v2, v1


def _own_path(controller: str) -> str:
    """This process's group in a v1 hierarchy ('/' if not found)."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if controller in names.split(","):
                return path
    except (OSError, ValueError):
        pass
    return "/"


def _write(path: str | Path, value: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(value)


@functools.lru_cache(maxsize=None)
def _layout() -> tuple[str, dict[str, str], str]:
    """(the v2 base folder, {controller: its base folder}, '') or ('', {}, why not)."""
    v2, v1 = _mounts()
    if v2 is None:
        return "", {}, "no cgroup v2 is mounted"
    base = os.environ.get(VARIABLE) or os.path.join(v2, BASE)
    try:
        os.makedirs(base, exist_ok=True)
        for name in ("cgroup.freeze", "cgroup.procs", "cpu.stat"):
            if not os.path.exists(os.path.join(base, name)):
                return "", {}, f"{base} has no {name} (a kernel older than 5.2)"
        offered = Path(base, "cgroup.controllers").read_text().split()
        parent = Path(base).parent / "cgroup.controllers"
        offered = sorted(set(offered) | set(parent.read_text().split() if parent.exists()
                                            else []))
        places = {}
        for controller in CONTROLLERS:
            if controller in offered:
                _write(Path(base, "cgroup.subtree_control"), f"+{controller}")
                places[controller] = base
            elif controller in v1:
                own = _own_path(controller).lstrip("/")
                folder = os.path.join(v1[controller], own, BASE)
                os.makedirs(folder, exist_ok=True)
                places[controller] = folder
    except OSError as error:
        return "", {}, f"cannot make cgroups under {base}: {error.strerror or error}"
    return base, places, ""


def why_not() -> str:
    """'' when boxes get cgroups here, else the reason they do not."""
    return _layout()[2]


def controllers() -> list[str]:
    """The limits a box's group holds here (``memory``, ``pids``, ``cpu``)."""
    return sorted(_layout()[1])


class Group:
    """One box's cgroup: made with its limits, joined by the box's first process (see
    ``procs_files``), frozen, thawed, read, killed and removed by the tournament."""

    def __init__(self, memory_mb: int, processes: int, cpus: float = 1.0) -> None:
        base, places, why = _layout()
        if why:
            raise CgroupError(why)
        with _lock:
            _sweep(base)
            self.name = f"box-{os.getpid()}-{next(_counter)}-{os.urandom(3).hex()}"
        self.core = os.path.join(base, self.name)
        self.folders = [self.core] + sorted({os.path.join(place, self.name)
                                             for place in places.values()} - {self.core})
        self.places = {controller: os.path.join(place, self.name)
                       for controller, place in places.items()}
        try:
            for folder in self.folders:
                os.mkdir(folder)
            self._limit(memory_mb, processes, cpus)
        except OSError as error:
            self.remove()
            raise CgroupError(f"cannot set up a box's cgroup: {error}") from None

    def _limit(self, memory_mb: int, processes: int, cpus: float) -> None:
        memory = str((memory_mb + SLACK_MB) << 20)
        if "memory" in self.places:
            folder = self.places["memory"]
            if os.path.exists(os.path.join(folder, "memory.max")):
                _write(os.path.join(folder, "memory.max"), memory)
                _try_write(os.path.join(folder, "memory.swap.max"), "0")
            else:
                _write(os.path.join(folder, "memory.limit_in_bytes"), memory)
                _try_write(os.path.join(folder, "memory.memsw.limit_in_bytes"), memory)
        if "pids" in self.places:
            _write(os.path.join(self.places["pids"], "pids.max"), str(processes))
        if "cpu" in self.places:
            folder, quota = self.places["cpu"], str(int(100_000 * cpus))
            if os.path.exists(os.path.join(folder, "cpu.max")):
                _write(os.path.join(folder, "cpu.max"), f"{quota} 100000")
            else:
                _write(os.path.join(folder, "cpu.cfs_period_us"), "100000")
                _write(os.path.join(folder, "cpu.cfs_quota_us"), quota)

    def procs_files(self) -> list[str]:
        """Where a process joins the group: each folder's ``cgroup.procs`` (a process writes
        0, itself, in each; see ``jail.limit_prefix``)."""
        return [os.path.join(folder, "cgroup.procs") for folder in self.folders]

    def freeze(self, frozen: bool = True) -> None:
        """Stop (or restart) every process in the group, at once; it uses no CPU meanwhile."""
        _try_write(os.path.join(self.core, "cgroup.freeze"), "1" if frozen else "0")

    def thaw(self) -> None:
        self.freeze(False)

    def cpu_seconds(self) -> float:
        """The CPU time every process of the group has used, in seconds."""
        return _field(os.path.join(self.core, "cpu.stat"), "usage_usec") / 1e6

    def oom_kills(self) -> int:
        """How many of its processes the kernel killed for memory."""
        folder = self.places.get("memory")
        if folder is None:
            return 0
        events = os.path.join(folder, "memory.events")
        if os.path.exists(events):
            return _field(events, "oom_kill")
        return _field(os.path.join(folder, "memory.oom_control"), "oom_kill")

    def pids(self) -> list[int]:
        try:
            return [int(pid) for pid in
                    Path(self.core, "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill(self) -> None:
        """End every process in the group (frozen ones too)."""
        try:
            _write(os.path.join(self.core, "cgroup.kill"), "1")
            return
        except OSError:
            pass
        self.freeze()
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.thaw()

    def remove(self, seconds: float = 2.0) -> None:
        """Kill what is left and remove the group's folders (a dying process may hold them
        for a moment)."""
        if not os.path.isdir(self.core):
            return
        self.kill()
        deadline = time.monotonic() + seconds
        for folder in reversed(self.folders):
            while os.path.isdir(folder):
                try:
                    os.rmdir(folder)
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)


def _try_write(path: str, value: str) -> None:
    try:
        _write(path, value)
    except OSError:
        pass


def _field(path: str, name: str) -> int:
    try:
        with open(path, encoding="ascii") as file:
            for line in file:
                key, _, value = line.partition(" ")
                if key == name:
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _sweep(base: str) -> None:
    """Remove the empty groups of processes that have ended (a box's group outlives a
    command killed before it could remove it)."""
    _, places, _ = _layout()
    try:
        names = [entry.name for entry in os.scandir(base)
                 if entry.is_dir() and entry.name.startswith("box-")]
    except OSError:
        return
    for name in names:
        try:
            owner = int(name.split("-")[1])
        except (IndexError, ValueError):
            continue
        if owner == os.getpid() or os.path.exists(f"/proc/{owner}"):
            continue
        for folder in [*{os.path.join(place, name) for place in places.values()},
                       os.path.join(base, name)]:
            try:
                os.rmdir(folder)
            except OSError:
                pass
