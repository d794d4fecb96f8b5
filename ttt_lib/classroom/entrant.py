"""A player of the class tournament as data (``Entrant``), what a student's agent may use
(``Limits``), and how it loses (``Forfeit``) or stops the run (``ClassroomError``)."""
from __future__ import annotations

from typing import NamedTuple

from ..arena import processes_available
from ..errors import NOT_IN_A_BROWSER, ProcessesUnavailable
from ..safetext import printable, shorten

REASON_CHARACTERS = 160  # a longer reason is shortened in the middle


class ClassroomError(ValueError):
    """A bad folder, agent list or limit for a class tournament, or no way to run one."""


class CannotStart(ClassroomError):
    """A box that does not start at all (not the student's doing): the run stops."""


class Limits(NamedTuple):
    """What a student's agent may use: seconds per move (CPU time of its box where cgroups
    exist, with a wall-clock backstop; else wall-clock time), memory, CPU seconds over a
    sandbox's life (a sandbox that runs out is restarted), whether it is boxed, and how many
    processes its box may hold at once."""

    move_time: float = 1.0
    memory_mb: int = 512
    cpu_seconds: int = 600
    isolated: bool = True  # in a bubblewrap box (False: ``--no-isolation``)
    processes: int = 64
    kit: bool = False  # the capstone's box: the board's kit, not the package (``kit``)


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
