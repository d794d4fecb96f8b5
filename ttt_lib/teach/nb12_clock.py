"""Timing the capstone's functions (notebook 12): here, by this process's CPU time; asked in a
grading box, by the box's CPU time, read from outside it.

``timed_call`` times a function of the notebook's by the CPU time of this process (a function
asked through the grading channel by the wall clock: only the deadline loop's time is
judged). ``cpu_timed_call`` is the deadline loop's clock: a function asked through the
grading channel (``asking.Remote``) runs in its box under the wall-clock backstop there
(``within``, one of the ``BOX_DRIVERS`` the checker's module names), and its time is the
box's CPU time that the grader reads from outside the box (``Remote.cpu_seconds``: its
control group, else its processes in ``/proc``; the wall clock only where neither can be
read), never a time the box reports.
"""
from __future__ import annotations

import time

from .judge import call_limited, failure_of

__all__: list[str] = []

# Run in a grading box (``asking.Remote.drive``): nothing (the exercise's first question,
# before any is timed), and the student's function under the wall-clock backstop there, so
# a search that never stops ends in its box.
BOX_DRIVERS = ("ready", "within")


def _remote(fn) -> bool:
    return getattr(fn, "remote", False) is True


def _timed(clock, call, args: tuple):
    """(value, seconds of ``clock``, None) or (None, seconds, the error as text)."""
    begun = clock()
    try:
        value = call(*args)
    except NotImplementedError:
        raise
    except Exception as error:  # the student's bug, reported, never a traceback
        return None, clock() - begun, failure_of(error)
    return value, clock() - begun, None


def timed_call(fn, args: tuple, seconds: float):
    """``fn(*args)`` and the CPU seconds of this process it took (a wall-clock backstop of
    ``seconds``); the student's errors come back as text. A function asked through the
    grading channel spends its CPU time in its box: its wall time is taken."""
    clock = time.perf_counter if _remote(fn) else time.process_time
    return _timed(clock, lambda *given: call_limited(fn, given, seconds), args)


def cpu_timed_call(fn, args: tuple, seconds: float):
    """``timed_call``, but a function asked in its grading box is timed by the box's CPU
    time read from outside it, and stopped in its box after ``seconds`` of wall clock."""
    if not (_remote(fn) and callable(getattr(fn, "drive", None))):
        return timed_call(fn, args, seconds)
    fn.drive("ready")  # the box enters the exercise's session before the clock starts
    clock = fn.cpu_seconds if fn.cpu_seconds() is not None else time.perf_counter
    return _timed(clock, lambda *given: fn.drive("within", seconds, *given), args)


def ready(fn) -> None:
    """Nothing: the first question of the exercise, asked before any is timed."""
    return None


def within(fn, seconds: float, *args):
    """``fn(*args)`` stopped after ``seconds`` of wall clock (``TimeLimit``)."""
    return call_limited(fn, args, seconds)
