"""The grader's side of the channel: a notebook's answers judged outside its box.

The box says how its run went and which answers its genuine checkers were given
(``answering``); here, in the grader, each exercise of the course that the notebook calls is
judged by the package's own checker, on fresh cases (``core.fresh_cases``: a seed that never
leaves this process). A value answer is judged as the plain value that came over the
channel (exact types: an ``int`` subclass arrives as an ``Opaque`` and is Not yet). A
function answer is judged through ``Remote``, a stand-in the checker calls as it would call
the student's function, and an agent through ``RemoteAgent`` (asked ``choose(state, ...)``
for each move, a clock or budget as a plain argument beside it): each call's arguments go to
the box as data (states as board text or nested lists), the student's code runs there, and
its plain answer comes back. An object the checker watches (a state that counts, a table, the
nodes of a path) is lent, not sent (``faces``): it stays here, and each use the box makes of
it is a question back that this side answers while it waits (``Conversation.ask``). So the
observations, the comparison with the oracle, the hint and the verdict are made here, where
no student's code runs; the box can only answer questions, and every answer is read with
bounded size and depth. A call that the box reports as using a forbidden library function
ends the exercise Not yet and names the function (``delegated``; that observation is the
box's, so it can only lower a verdict). An exercise whose arguments have no face would be
judged in the box and flagged (``IN_THE_BOX``: none of the course's). A call timed on the
box's CPU (the capstone's deadline loop) is timed here: ``Remote.cpu_seconds`` reads the
box's control group (or its processes in ``/proc``) from outside, never a time the box
reports.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import select
import socket
import threading
import time
from collections.abc import Callable

from . import core, judge
from .faces import Handles
from .wire import CannotSend, bounded_loads, decode, encode_state

__all__ = ["Conversation", "Remote", "RemoteAgent", "judge_notebook"]

ASK_SECONDS = 62.0  # one question: the box's limit (answering.BOX_SECONDS) and the channel's;
#                    each checker holds the student's calls to its own limit (call_limited)
_LOCK = threading.Lock()  # checkers print and read module-wide seeds: one notebook at a time
VERDICT = re.compile(r"^(Right|Not yet):")
# Write-its judged in the box although the channel could carry them (none: an exercise whose
# arguments have no face, see ``faces``, is judged there, and flagged).
IN_THE_BOX: dict[str, str] = {}


class BoxGone(BaseException):
    """The box stopped answering (it ended, or its time ran out): no more questions."""


class LibraryCalled(BaseException):
    """The box says the student's function called a library function the exercise forbids."""


class Conversation:
    """One box's end of the socket pair: JSON lines out, bounded JSON lines in."""

    def __init__(self, channel: socket.socket, deadline: float,
                 clock: Callable[[], float] | None = None) -> None:
        """``clock``: the CPU seconds the box has used, read from outside it
        (``classroom.cpuclock.box_clock``); None where it cannot be read."""
        self.channel, self.deadline, self.buffer, self.number = channel, deadline, b"", 0
        self.handles = Handles()  # what the question in progress lent the box
        self.clock = clock
        # the functions and classes the submission's cells define, read from its file here
        self.written: frozenset[str] = frozenset()

    def send(self, message: dict) -> None:
        try:
            self.channel.sendall(json.dumps(message).encode() + b"\n")
        except OSError:
            raise BoxGone() from None

    def receive(self, seconds: float | None = None) -> dict:
        """The next message (``BoxGone`` at the deadline or when the box ends; a message
        too long, too deep or not a JSON object also ends the conversation)."""
        until = self.deadline if seconds is None else min(self.deadline,
                                                          time.monotonic() + seconds)
        while b"\n" not in self.buffer:
            left = until - time.monotonic()
            if left <= 0 or len(self.buffer) > 2 * (1 << 20) \
                    or not select.select([self.channel], [], [], left)[0]:
                raise BoxGone()
            chunk = self.channel.recv(1 << 16)
            if not chunk:
                raise BoxGone()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            message = bounded_loads(line)
        except (ValueError, RecursionError):
            raise BoxGone() from None
        if not isinstance(message, dict):
            raise BoxGone()
        return message

    def ask(self, request: dict, seconds: float) -> dict:
        """Send ``request`` with a new id; the reply with that id (late replies skipped).
        Meanwhile each use the box asks of a lent object is answered (``faces``)."""
        self.number += 1
        self.send({"id": self.number, **request})
        until = time.monotonic() + seconds
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise judge.TimeLimit()
            reply = self.receive(left)
            if "call" in reply:
                self.send(self.handles.serve(reply))
            elif reply.get("id") == self.number:
                return reply


class Remote:
    """What a checker calls instead of the student's function: each call asked of the box
    (``method``: of the student's agent)."""

    remote = True  # judge.call_limited gives it more time: its uses of states are questions

    def __init__(self, conversation: Conversation, exercise: str,
                 method: str | None = None) -> None:
        self.conversation, self.exercise, self.method = conversation, exercise, method

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise CannotSend("keyword arguments")
        handles = self.conversation.handles
        handles.forget()
        request = {"exercise": self.exercise,
                   "args": [_argument(arg, handles) for arg in args]}
        reply = self.conversation.ask({**request, **({"method": self.method}
                                                     if self.method else {})}, ASK_SECONDS)
        return _answer(reply, handles)

    def drive(self, driver: str, *args):
        """What the box's ``driver`` (one of the checker module's ``BOX_DRIVERS``) returns
        when it runs the student's function there on plain ``args``: plain data."""
        handles = self.conversation.handles
        handles.forget()
        request = {"exercise": self.exercise, "drive": driver,
                   "args": [_argument(arg, handles) for arg in args]}
        return _answer(self.conversation.ask(request, ASK_SECONDS), handles)

    def cpu_seconds(self) -> float | None:
        """The CPU seconds the student's box has used so far, read by the grader from
        outside it (its cgroup, else its processes in ``/proc``); None where it cannot be."""
        clock = self.conversation.clock
        return None if clock is None else clock()

    def __repr__(self) -> str:
        return "<the student's function>"


class RemoteAgent:
    """What a checker plays instead of the student's agent: each move asked of the box
    (``choose(state, *more)``: a clock, a time budget, any plain argument too)."""

    def __init__(self, conversation: Conversation, exercise: str) -> None:
        self.choose = Remote(conversation, exercise, "choose")
        self.name = "your agent"

    def __repr__(self) -> str:
        return "<the student's agent>"


def _argument(arg, handles: Handles) -> dict:
    """One argument as the box reads it: a state as data, or what ``Handles.lend`` makes of
    it (plain data, a lent object, a seed). A watched state (``judge.Watched``) is lent, never
    sent: the box sees a stand-in, and each ``moves()`` or ``utility()`` it asks of one is
    recorded here, by the grader's own ``Visits`` (whatever the box says it visited is never
    read)."""
    if isinstance(arg, judge.Watched):
        return handles.lend(arg)
    try:
        return {"state": encode_state(arg)}
    except CannotSend:
        return handles.lend(arg)


def _answer(reply: dict, handles: Handles | None = None):
    """The student's answer to one call, as the checker expects it (its exception raised
    again, under its own name, for the checker's hint)."""
    if "value" in reply:
        return decode(reply["value"])
    if handles is not None and any(key in reply for key in ("object", "kept", "list", "tuple")):
        return handles.take({key: reply[key] for key in ("object", "kept", "list", "tuple")
                             if key in reply})
    if reply.get("time"):
        raise judge.TimeLimit()
    if isinstance(reply.get("library"), str):
        raise LibraryCalled(reply["library"][:80])
    raised = reply.get("raised") if isinstance(reply.get("raised"), str) else "an error"
    text = reply.get("text") if isinstance(reply.get("text"), str) else ""
    if raised == "NotImplementedError":
        raise NotImplementedError(text)
    if raised == "RecursionError":
        raise RecursionError(text)
    name = raised if re.fullmatch(r"[A-Za-z_]\w{0,60}", raised) else "Exception"
    raise type(name, (Exception,), {})(text[:300])


# ------------------------------------------------------------------------ judging a notebook

def judge_notebook(conversation: Conversation, exercises: list[str], offset: int,
                   checkers: dict[str, Callable]) -> tuple[dict[str, str], dict]:
    """({exercise: verdict line}, what the box said) for the ``exercises`` the notebook's
    cells call (those the course knows), judged here on cases drawn with ``offset``;
    ``checkers`` maps each exercise to the package's own checker."""
    try:
        said = conversation.receive()
    except BoxGone:
        return {}, {}
    answers = said.get("answers") if isinstance(said.get("answers"), dict) else {}
    lines, in_box, delegated = {}, [], {}
    with _LOCK:
        core.fresh_cases(offset)
        try:
            for name in exercises:
                answer = answers.get(name)
                if not isinstance(answer, dict) or name not in checkers:
                    continue
                line = _judge_one(conversation, name, answer, checkers[name], delegated)
                if line is None:
                    in_box.append(name)
                elif line:
                    lines[name] = line
        finally:
            core.fresh_cases(0)
    for name in in_box:  # last: these reveal the offset to the box
        lines[name] = _judged_in_box(conversation, name, offset)
    return lines, {**said, "in_box": in_box, "delegated": delegated}


def _judge_one(conversation: Conversation, name: str, answer: dict, checker: Callable,
               delegated: dict):
    """The verdict line of one exercise, '' when the box stopped answering, None when it
    must be judged in the box; a library function the student's code called is noted in
    ``delegated``."""
    if (answer.get("agent") or answer.get("function")) and name in IN_THE_BOX:
        return None
    if answer.get("agent"):
        given = RemoteAgent(conversation, name)
    elif answer.get("function"):
        given = Remote(conversation, name)
    elif "value" in answer:
        given = decode(answer["value"])
    else:
        return "Not yet: no answer."
    try:
        return _verdict(checker, given)
    except CannotSend:
        return None
    except BoxGone:
        return ""
    except LibraryCalled as called:
        delegated[name] = str(called)
        return (f"Not yet: your function calls ttt_lib's {called}; write "
                f"{getattr(checker, 'task', 'the search')} yourself.")


def _verdict(checker: Callable, answer) -> str:
    """What the package's checker says of ``answer`` (printed lines caught, the last
    verdict line taken)."""
    odd = core.foreign(answer)
    if odd is not None:
        return (f"Not yet: a {odd} is no plain value; give an int, a float, a Fraction, a "
                "str, or a list of them.")
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            checker(core.plain(answer))
    except (TypeError, ValueError) as refused:  # an answer the checker cannot take from here
        return f"Not yet: the grader could not judge this answer ({type(refused).__name__})."
    said = [line for line in printed.getvalue().splitlines() if VERDICT.match(line)]
    return said[-1] if said else "Not yet: the checker gave no verdict."


def _judged_in_box(conversation: Conversation, name: str, offset: int) -> str:
    try:
        reply = conversation.ask({"judge": name, "offset": offset}, 60.0)
    except (BoxGone, judge.TimeLimit):
        return ""
    line = reply.get("line")
    return line if isinstance(line, str) and VERDICT.match(line) else ""
