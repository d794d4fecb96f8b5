"""Inside a grading box, in the notebook's own kernel: the student's answers, asked for.

After the notebook's cells ran, ``boxside`` hands the grader's channel to this kernel, and
``serve`` answers on it, one JSON line each way (``wire``):

- first, unasked: ``{"answers": {exercise: {"value": ...} | {"function": true} |
  {"agent": true}}, "said": [...], "swapped": [...]}``: the last answer each genuine checker
  was given (``session.ANSWERS``), a value as plain data, a function or an agent only named;
  the verdict lines the checkers printed; the checkers the notebook replaced;
- ``{"id": N, "exercise": E, "args": [...], "method": "choose"?}``, each argument
  ``{"value": ...}``, ``{"state": ...}`` (a board or tree as data), a lent object
  ``{"object": H}`` (a ``standin.Proxy`` here: its uses are questions back, ``{"call":
  ...}``; so is a state whose visits the checker counts: what it records, it records
  itself), a ``{"random": seed}`` or a list of them -> ``{"id": N, "value": ...}``
  (an agent's class is made into one agent per exercise, then asked ``method``), or
  ``{"id": N, "raised": "ZeroDivisionError", "text": ...}``, ``{"id": N, "time": true}``,
  ``{"id": N, "library": "minimax"}`` (the student's code called a library entry point the
  exercise does not allow, ``reach``: observable only here, it can only lower a verdict);
- ``{"id": N, "judge": E, "offset": K}`` -> ``{"id": N, "line": "Right: ..."}``: an exercise
  whose questions the channel cannot carry, judged here by the checker reloaded from the
  package's files (the grader flags it: what a box says about its own verdict is believed).

Everything here runs where the student's code runs and may be replaced by it: it only ever
changes what the box answers, never how the grader judges the answers.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import os
import re
import socket
import sys

__all__ = ["serve"]

NOTEBOOK_MODULE = r"ttt_lib\.teach\.nb{}(_\w+)?"  # nbNN.py, and nbNN_part.py beside it
RELOADED = ("core", "judge", "tables")  # the checkers' helpers, reloaded before them
BOX_SECONDS = 60.0  # one question, in the box: the grader holds each call to its own limit
AGENT_METHODS = ("choose", "reset")  # what a grader may ask an agent


def serve(path: str) -> None:
    """Take the grader's channel from the socket at ``path`` and answer on it until it
    closes."""
    with socket.socket(socket.AF_UNIX) as handoff:
        handoff.connect(path)
        _, fds, _, _ = socket.recv_fds(handoff, 16, 1)
    channel = socket.socket(fileno=fds[0])
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        from . import session
        from .standin import Box
        answers = dict(session.ANSWERS)
        sessions = Sessions()
        sessions.prepare(answers)  # the library's stubs made before any clock runs
        box = Box(channel, answers, sessions, _reply)
        _send(channel, {"answers": {name: _kind(answer) for name, answer in answers.items()
                                    if isinstance(name, str)},
                        "said": [line for line in session.SAID if isinstance(line, str)],
                        "swapped": _swapped()})
        box.serve()


def _send(channel: socket.socket, message: dict) -> None:
    channel.sendall(json.dumps(message).encode() + b"\n")


def _kind(answer) -> dict:
    from .wire import encode
    if isinstance(answer, type) or callable(getattr(answer, "choose", None)):
        return {"agent": True}
    if callable(answer):
        return {"function": True}
    return {"value": encode(answer)}


def _swapped() -> list[str]:
    """The checkers the notebook's namespace holds that are not the package's own."""
    teach = sys.modules.get("ttt_lib.teach")
    try:
        space = get_ipython().user_ns  # noqa: F821 (IPython's, in a kernel)
    except NameError:
        return []
    return [name for name, value in list(space.items())
            if isinstance(name, str) and re.fullmatch(r"check_\d\d_\w+", name)
            and value is not getattr(teach, name, None)]


def _reply(line: bytes, box: "Box") -> dict | None:
    """The reply to one request (None: the grader gave up on it, and asks something else)."""
    from .wire import bounded_loads
    try:
        request = bounded_loads(line)
        number = request["id"]
    except (ValueError, TypeError, KeyError, IndexError):
        return {"id": None, "raised": "a malformed request"}
    if "judge" in request:
        box.sessions.close()
        return {"id": number, "line": _judge_here(request["judge"], box.answers,
                                                  request.get("offset", 0))}
    asked = _ask(request.get("exercise"), request.get("args", []), box,
                 request.get("method"), request.get("drive"))
    return None if asked is None else {"id": number, **asked}


class Sessions:
    """The library session of the exercise being asked about: its forbidden functions
    stay stubs for the student's code from its first question to the next exercise's."""

    def __init__(self) -> None:
        self.name, self.session, self.checkers, self.agents = None, None, {}, {}
        self.made: dict = {}

    def checker(self, name: str):
        if name not in self.checkers:
            self.checkers[name] = _checker(name)
        return self.checkers[name]

    def prepare(self, answers: dict) -> None:
        """Make each exercise's session ahead (the walk of the library, the stubs): the
        first question of an exercise is then timed as every other."""
        from .session import library_session
        for name, answer in answers.items():
            checker = self.checker(name) if isinstance(name, str) else None
            if checker is not None and (callable(answer) or callable(
                    getattr(answer, "choose", None))):
                self.made[name] = library_session(checker, answer)

    def of(self, name: str, fn):
        from .session import library_session
        if name != self.name:
            self.close()
            self.name = name
            self.session = self.made.pop(name, None) or library_session(self.checker(name), fn)
            self.session.__enter__()
        self.session.called = None
        return self.session

    def callee(self, name: str, answer, method):
        """What a question calls: the answer itself, or ``method`` of the agent it is (a
        class made into one agent, once per exercise, inside the library's session)."""
        if method is None:
            return answer
        if method not in AGENT_METHODS:
            raise TypeError(f"an agent is asked only {', '.join(AGENT_METHODS)}")
        if inspect.isclass(answer):
            if name not in self.agents:
                self.agents[name] = answer()
            answer = self.agents[name]
        return getattr(answer, method) if hasattr(answer, "choose") else answer

    def close(self) -> None:
        if self.session is not None:
            self.session.__exit__(None, None, None)
        self.name, self.session = None, None


def _checker(name: str):
    """The package's own checker of ``name`` (its plain function, not the exported one)."""
    home = re.compile(NOTEBOOK_MODULE.format(re.escape(name[6:8])))
    for module_name, module in sorted(sys.modules.items()):
        if home.fullmatch(module_name) and callable(getattr(module, name, None)):
            return getattr(module, name)
    return None


def _driver(checker, drive):
    """The function ``drive`` names among the ``BOX_DRIVERS`` of ``checker``'s module (one
    that runs the student's function many times here and returns plain data), else None."""
    module = sys.modules.get(getattr(checker, "__module__", ""), None)
    allowed = getattr(module, "BOX_DRIVERS", ())
    return getattr(module, drive, None) if isinstance(drive, str) and type(allowed) is tuple \
        and drive in allowed else None


def _ask(name, args: list, box, method=None, drive=None) -> dict | None:
    """The student's answer to one question: the function (or the agent's ``method``)
    called on the decoded arguments (or, with ``drive``, the checker's driver called with the
    function and them), with the library out of reach (``session``) and ``BOX_SECONDS`` for
    the call; None when the grader gave up on the question."""
    from .judge import TimeLimit, call_limited
    from .session import _run_checker, is_forbidden
    from .standin import Abandoned
    from .wire import decode_state
    answer, sessions = box.answers.get(name), box.sessions
    checker = sessions.checker(name) if isinstance(name, str) else None
    if not callable(answer) and not callable(getattr(answer, "choose", None)) \
            or checker is None:
        return {"raised": "no such answer"}
    itself = is_forbidden(answer, checker)
    if itself:
        return {"library": itself}
    driver = None if drive is None else _driver(checker, drive)
    if drive is not None and driver is None:
        return {"raised": "no such driver"}
    decoded = []
    try:
        for arg in args:
            decoded.append(decode_state(arg["state"]) if "state" in arg else box.take(arg))
    except Exception as error:  # noqa: BLE001 (a request we cannot read)
        return {"raised": f"a malformed request ({type(error).__name__})"}
    session = sessions.of(name, answer)

    def student(_):  # the student's call, below the frame the library's stubs look up to
        called = sessions.callee(name, answer, method)
        return called(*decoded) if driver is None else driver(called, *decoded)
    try:
        got = call_limited(_run_checker, (student, None), BOX_SECONDS)
    except TimeLimit:
        return {"time": True}
    except RecursionError:
        return {"raised": "RecursionError", "text": ""}
    except Exception as error:  # noqa: BLE001 (the student's bug, reported)
        return {"raised": type(error).__name__, "text": str(error)[:300]}
    except Abandoned:
        return None
    except BaseException:  # a forbidden call ends the question (or Ctrl-C: not ours)
        if not session.called:
            raise
    if session.called:
        return {"library": session.called}
    return box.give(got)


def _judge_here(name, answers: dict, offset) -> str:
    """An exercise judged in the box, by its checker reloaded from the package's files."""
    if not isinstance(name, str) or name not in answers or type(offset) is not int:
        return "Not yet: no answer to judge."
    modules = sorted(key for key in sys.modules
                     if re.fullmatch(r"ttt_lib\.teach\.\w+", key)
                     and key.rsplit(".", 1)[1] in RELOADED or re.fullmatch(
                         NOTEBOOK_MODULE.format(r"\d\d"), key))
    notebooks = [key for key in modules if re.fullmatch(NOTEBOOK_MODULE.format(r"\d\d"), key)]
    helpers = [key for key in modules if key not in notebooks]
    try:
        for key in [*helpers, *notebooks]:  # the checkers' modules last
            importlib.reload(sys.modules[key])
        core = sys.modules["ttt_lib.teach.core"]
        core.fresh_cases(offset)
        checker = _checker(name)
        with contextlib.redirect_stdout(io.StringIO()):
            return core.lenient(checker)(answers[name]).line
    except BaseException as error:  # noqa: BLE001 (its answer broke the judging)
        return f"Not yet: judging it again failed ({type(error).__name__})"
