"""Bubblewrap boxes: where students' code runs (their agents, their graded notebooks).

A box is a ``bwrap`` process (Debian's ``bubblewrap``, the unprivileged sandbox Flatpak uses)
with its own user, PID, network, IPC, UTS and cgroup namespaces: nothing outside it is
visible, there is no network (only a loopback of its own), no capability, and no way to
make a user namespace of its own. Its file system is built from nothing: ``/usr``, the
interpreter's prefix, the virtual environment and the ``ttt_lib`` folder, all read-only; a
few files of ``/etc`` that programs read; a fresh ``/proc``, ``/dev`` and ``/tmp``; and a
writable home (``HOME``, also the working directory) that holds only what the box is given.
Not the submissions folder, not the rest of the repository, not ``/root`` or ``/home``.
A box runs in a session of its own and dies with the process that started it; when its
first process ends, every process in it ends.

``bwrap`` is found as ``$TTT_BWRAP``, else on ``PATH``. Where it cannot run (macOS,
Windows, containers without user namespaces), ``require`` raises ``IsolationError``, with the
reason, and only an explicit ``--no-isolation`` runs students' code without a box.

Limits (``BoxLimits``, applied by ``box_command`` unless told ``limits=None``): a cgroup of its
own (``cgroups``: memory for the whole box, a process count, one CPU) where cgroups can be
made, else a per-process ``RLIMIT_AS`` of that memory plus ``ADDRESS_SLACK_MB``; always a per-process CPU-time
limit (``RLIMIT_CPU``), a largest file (``RLIMIT_FSIZE``) and a bounded in-memory ``/tmp``.
"""
from __future__ import annotations

import atexit
import functools
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path
from typing import NamedTuple

import ttt_lib

from . import cgroups

HOME = "/tmp/home"  # inside a box: its home and working directory
VARIABLE = "TTT_BWRAP"  # names the bwrap program to use (tests point it at a broken one)
ETC = ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives", "/etc/fonts",
       "/etc/mime.types", "/etc/ssl/certs")  # what programs read; never /etc/shadow
TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # merged-/usr links


ABSENT = "absent"  # in a kit (``classroom.kit``): a package whose import fails


class IsolationError(ValueError):
    """Students' code cannot be boxed here: the commands refuse to run it."""


class BoxLimits(NamedTuple):
    """What a whole box may use: memory (MB, the box's processes and in-memory files
    together where cgroups exist), processes at once, CPU seconds per process, and the size
    of its ``/tmp`` and of any file it writes (MB)."""

    memory_mb: int = 1024
    processes: int = 64
    cpu_seconds: int = 600
    disk_mb: int = 256


GRADING = BoxLimits()  # a notebook's box (``grade``)
ADDRESS_SLACK_MB = 256  # without a memory cgroup: address space beyond the memory limit


def bwrap_program() -> str:
    return os.environ.get(VARIABLE) or shutil.which("bwrap") or "bwrap"


def read_only_paths() -> list[str]:
    """Python and the package: the interpreter's prefixes, the environment's (a venv) and
    its library folders, and the ``ttt_lib`` folder itself when it lies outside them (an
    editable install: its source, never the repository around it). Nested paths are
    dropped, and so is anything under ``/usr`` (bound whole)."""
    package = str(Path(ttt_lib.__file__).resolve().parent)
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             str(Path(sys.executable).resolve().parent.parent),
             *(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib",
                                                        "platlib"))}
    found = {os.path.realpath(path) for path in paths if os.path.isdir(path)} - {"/"}
    if not any(Path(package).is_relative_to(path) for path in found):
        found.add(package)
    return sorted(path for path in found if not any(
        path != other and Path(path).is_relative_to(other) for other in [*found, "/usr"]))


def module_command(module: str, *args: str) -> list[str]:
    """``python -I -m module args...`` that imports this very ``ttt_lib`` (the folder bound
    in a box), not whichever one the interpreter's path would find first (an editable
    install of another checkout, say)."""
    parent = str(Path(ttt_lib.__file__).resolve().parent.parent)
    code = (f"import runpy, sys, warnings; sys.path.insert(0, {parent!r}); "
            f"warnings.filterwarnings('ignore', category=RuntimeWarning, module='runpy'); "
            f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    return [sys.executable, "-I", "-c", code, *args]


def box_command(argv: list[str], home: str | None = None,
                limits: BoxLimits | None = GRADING) -> list[str]:
    """``argv`` inside a new box, held to ``limits`` (``None``: no limits);
    ``home``: a folder of ours bound writable as its home (default: an empty one in the
    box's own ``/tmp``). The box's cgroup, where one can be made, is made now and removed
    once the box has ended (at the next call, or when this process ends)."""
    command = _bwrap(argv, home, limits)
    if limits is None:
        return command
    group = _group(limits)
    if group is not None:
        with _lock:
            _spent.append(group)
    return limit_prefix(limits, group) + command


def boxed(argv: list[str], home: str | None, limits: BoxLimits, isolated: bool = True,
          kit: str | None = None) -> tuple[list[str], cgroups.Group | None]:
    """``argv`` in a box (or, not ``isolated``, as a plain process) held to ``limits``, and
    the box's cgroup (None where none can be made): the caller removes it. With ``kit``
    (a folder, ``classroom.kit``), the box holds that folder instead of the package."""
    group = _group(limits)
    command = _bwrap(argv, home, limits, kit) if isolated else argv
    return limit_prefix(limits, group) + command, group


def limit_prefix(limits: BoxLimits, group: cgroups.Group | None) -> list[str]:
    """A command prefix: the per-process rlimits (``ulimit``), then into ``group``."""
    script = f"ulimit -t {limits.cpu_seconds} && ulimit -f {limits.disk_mb << 10}"
    if group is None or "memory" not in cgroups.controllers():  # address space instead
        script += f" && ulimit -v {(limits.memory_mb + ADDRESS_SLACK_MB) << 10}"
    join = [*group.procs_files(), "--"] if group is not None else ["--"]
    loop = ('for f do shift; [ "$f" = -- ] && exec "$@"; echo 0 > "$f" || exit 125; '
            'done')
    return ["/bin/sh", "-c", f"{script} || exit 125; {loop}", "sh", *join]


_lock = threading.Lock()
_spent: list[cgroups.Group] = []  # groups of box_command's boxes, removed once empty


def _group(limits: BoxLimits) -> cgroups.Group | None:
    """A cgroup for a box, or None where none can be made (rlimits hold alone)."""
    _tidy()
    if cgroups.why_not():
        return None
    try:
        return cgroups.Group(limits.memory_mb, limits.processes)
    except cgroups.CgroupError:
        return None


def _tidy(everything: bool = False) -> None:
    """Remove the groups of box_command's boxes that ran and ended (all, at exit)."""
    with _lock:
        done = [g for g in _spent if everything or (not g.pids() and g.cpu_seconds() > 0)]
        for group in done:
            _spent.remove(group)
    for group in done:
        group.remove()


atexit.register(_tidy, True)


def _bwrap(argv: list[str], home: str | None, limits: BoxLimits | None,
           kit: str | None = None) -> list[str]:
    """The bubblewrap command line of a box (with ``kit``: that folder bound read-only, the
    package's folder not bound; where a folder the box holds contains it, the kit's
    ``ABSENT`` package is bound over it, whose import fails)."""
    size = ["--size", str(limits.disk_mb << 20)] if limits and _has("--size") else []
    command = [bwrap_program(), "--unshare-all", "--unshare-user", "--die-with-parent",
               "--new-session", "--cap-drop", "ALL", *_no_nested_boxes(),
               "--ro-bind", "/usr", "/usr"]
    for link in TOP_LINKS:
        if os.path.islink(link):
            command += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            command += ["--ro-bind", link, link]
    # the fresh /tmp first: Python or the package may live under /tmp (a clone there), and a
    # tmpfs mounted after their binds would hide them
    command += ["--proc", "/proc", "--dev", "/dev", *size, "--tmpfs", "/tmp", "--dir", HOME]
    package = str(Path(ttt_lib.__file__).resolve().parent)
    for path in read_only_paths():
        if kit is None or path != package:
            command += ["--ro-bind", path, path]
    if kit is not None:
        if any(Path(package).is_relative_to(path) for path in [*read_only_paths(), "/usr"]
               if path != package):  # installed in a folder the box holds: replaced
            command += ["--ro-bind", os.path.join(kit, ABSENT), package]
        command += ["--ro-bind", kit, kit]
    for path in ETC:
        command += ["--ro-bind-try", path, path]
    if home is not None:
        command += ["--bind", home, HOME]
    return command + ["--chdir", HOME, "--", *argv]


@functools.lru_cache(maxsize=None)
def _options(program: str) -> str:
    try:
        return subprocess.run([program, "--help"], capture_output=True, text=True,
                              timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _has(option: str) -> bool:
    return option in _options(bwrap_program())


def _no_nested_boxes() -> list[str]:
    """``--disable-userns`` (bubblewrap 0.8 and later): no user namespace inside."""
    return ["--disable-userns"] if _has("--disable-userns") else []


def environment(home: str = HOME) -> dict[str, str]:
    """A box's whole environment: nothing inherited, so no secrets."""
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home,
            "USER": "student", "LOGNAME": "student", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "agg"}


@functools.lru_cache(maxsize=8)
def _why_not(program: str) -> str:
    """'' when a box runs here with this ``bwrap``, else the reason it does not."""
    try:
        done = subprocess.run(box_command([sys.executable, "-I", "-c", "pass"], limits=None),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              env=environment())
    except FileNotFoundError:
        return f"bubblewrap is not installed (no {program})"
    except (OSError, subprocess.SubprocessError) as error:
        return f"{program} cannot run: {error}"
    if done.returncode == 0:
        return ""
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    return f"{program} fails: {lines[-1] if lines else f'exit status {done.returncode}'}"


def why_not() -> str:
    return _why_not(bwrap_program())


def require(what: str) -> None:
    """Raise ``IsolationError`` (one line) when no box can run here."""
    reason = why_not()
    if reason:
        raise IsolationError(f"{what} runs only in a bubblewrap sandbox, and none can start "
                             f"here ({reason}); --no-isolation runs it unconfined")


# ------------------------------------------------- watching and ending a box's processes

def pid_of(pidfd: int) -> int:
    """The process a pidfd names, as this process sees it; -1 once it has ended."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}", encoding="ascii") as info:
            for line in info:
                if line.startswith("Pid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return -1


def proc_field(pid: int, name: str) -> str:
    """A field of ``/proc/PID/status`` ('' when the process or the field is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith(name + ":"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def kill(pidfd: int | None) -> None:
    if pidfd is not None:
        try:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except (ProcessLookupError, OSError):
            pass
