"""The sandbox: a process of its own that runs one student's agent and answers the
tournament, one JSON line per request, over its stdin and stdout. ``python -m
ttt_lib.classroom.sandbox`` is one sandbox; with ``--zygote FD`` it forks one per request
on the socket FD (see ``worker.Zygote``).

Requests and answers:
- ``{"op": "load", "source": ..., "filename": ...}`` -> ``{"agent": "class Good"}`` or
  ``{"error": "does not compile: invalid syntax (line 3)"}``;
- ``{"op": "new_game", "seed": S}`` -> ``{"ok": true}``: a fresh agent seeded with S;
- ``{"op": "move", "text": "X../.O./...", "first": "X"}`` -> ``{"move": 4}``, or
  ``{"error": "raised ZeroDivisionError"}``, or ``{"malformed": "'4'"}``.

Before any student code runs the process limits its own memory (RLIMIT_AS) and CPU time
(RLIMIT_CPU: a soft limit a little above each move's time, a hard limit for its whole life),
so a runaway agent is stopped even if nobody is left to stop it. The student's prints go to
/dev/null: the protocol uses private copies of the original stdin and stdout.
"""
from __future__ import annotations

import argparse
import inspect
import json
import math
import numbers
import os
import random
import resource
import shutil
import signal
import socket
import sys
import types

from ttt_lib.boards.bit import BitBoard
from ttt_lib.player import Agent

MODULE = "student_agent"  # the module name a student's file runs under
ANSWER_CHARACTERS = 60  # how much of a malformed answer the report quotes


class Student:
    """The agent defined by one file: a subclass of ``Agent`` or a ``choose(state)``."""

    def __init__(self) -> None:
        self.kind: type | types.FunctionType | None = None
        self.agent = None
        self.move_time = 1.0

    def handle(self, request: dict) -> dict:
        op = request.get("op")
        if op == "load":
            return self.load(request["source"], request["filename"])
        if op == "new_game":
            return self.new_game(request["seed"])
        if op == "move":
            return self.move(request["text"], request["first"])
        return {"error": f"unknown request {op!r}"}

    def load(self, source: str, filename: str) -> dict:
        """Run the file's code and find its one agent."""
        module = types.ModuleType(MODULE)
        module.__file__ = filename
        sys.modules[MODULE] = module
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as error:
            return {"error": f"does not compile: {error.msg} (line {error.lineno})"}
        try:
            exec(code, module.__dict__)
        except BaseException as error:  # noqa: BLE001 (student code: anything can happen)
            return {"error": f"raised {type(error).__name__} when loaded: {error}"[:200]}
        found = agents_in(module.__dict__)
        if len(found) != 1:
            names = ", ".join(describe(kind) for kind in found)
            return {"error": "defines no agent (no Agent subclass and no choose function)"
                    if not found else f"defines {len(found)} agents ({names}); one is wanted"}
        self.kind = found[0]
        answer = self.new_game(0)
        if "error" in answer:
            return {"error": f"{answer['error']} when built"}
        return {"agent": describe(self.kind)}

    def new_game(self, seed: int) -> dict:
        """A fresh agent for the next game; ``random`` is seeded too, for function agents."""
        random.seed(seed)
        if isinstance(self.kind, types.FunctionType):
            self.agent = self.kind
            return {"ok": True}
        try:
            takes_seed = "seed" in inspect.signature(self.kind).parameters
            self.agent = self.kind(seed=seed) if takes_seed else self.kind()
        except BaseException as error:  # noqa: BLE001
            return {"error": f"raised {type(error).__name__}"}
        return {"ok": True}

    def move(self, text: str, first: str) -> dict:
        state = BitBoard.from_text(text, first=first)
        choose = self.agent if isinstance(self.agent, types.FunctionType) else self.agent.choose
        allow_cpu(self.move_time)
        try:
            move = choose(state)
        except MemoryError:
            return {"error": "raised MemoryError", "fatal": True}
        except BaseException as error:  # noqa: BLE001
            return {"error": f"raised {type(error).__name__}"}
        if isinstance(move, bool) or not isinstance(move, numbers.Integral):
            return {"malformed": repr(move)[:ANSWER_CHARACTERS]}
        return {"move": int(move)}


def agents_in(namespace: dict) -> list:
    """The agents a file defines itself (not the ones it imports): ``Agent`` subclasses and a
    top-level ``choose`` function."""
    found = [value for value in namespace.values()
             if isinstance(value, type) and issubclass(value, Agent) and value is not Agent
             and value.__module__ == MODULE]
    choose = namespace.get("choose")
    if isinstance(choose, types.FunctionType) and choose.__module__ == MODULE:
        found.append(choose)
    return found


def describe(kind) -> str:
    return f"class {kind.__name__}" if isinstance(kind, type) else f"function {kind.__name__}"


def allow_cpu(move_time: float) -> None:
    """Let the coming move use ``move_time`` more CPU seconds (plus one), within the hard
    limit: past that the kernel stops the process, even if its parent is gone."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    wanted = math.ceil(usage.ru_utime + usage.ru_stime + move_time) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (min(wanted, hard), hard))


def limit(memory_mb: int, cpu_seconds: int) -> None:
    """This process's memory and CPU-time limits; no core files."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def private_channels():
    """Copies of stdin and stdout for the protocol; the standard streams go to /dev/null."""
    inbox = os.fdopen(os.dup(0), "r", encoding="utf-8")
    outbox = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")
    return inbox, outbox


def serve(memory_mb: int, cpu_seconds: int, move_time: float) -> None:
    """Answer requests on stdin until it closes: the life of one sandbox."""
    inbox, outbox = private_channels()
    limit(memory_mb, cpu_seconds)
    student = Student()
    student.move_time = move_time
    for line in inbox:
        answer = student.handle(json.loads(line))
        outbox.write(json.dumps(answer) + "\n")
        outbox.flush()


def zygote(channel: int) -> None:
    """Fork a fresh sandbox for each request on the socket ``channel``: the request brings
    the limits and a working directory, and the new sandbox's stdin and stdout as file
    descriptors; the answer is its process id. This process has imported what a sandbox
    needs and runs no student code, so each fork starts clean in milliseconds, where a new
    interpreter takes a few tenths of a second."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished sandboxes
    link = socket.socket(fileno=channel)
    while True:
        message, fds, _, _ = socket.recv_fds(link, 4096, 2)
        if not message:
            return  # the tournament's worker is gone
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            link.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.setsid()
            os.chdir(request["folder"])
            os.environ["HOME"] = os.environ["TMPDIR"] = request["folder"]
            os.dup2(fds[0], 0)
            os.dup2(fds[1], 1)
            for fd in fds:
                os.close(fd)
            try:
                serve(request["memory_mb"], request["cpu_seconds"], request["move_time"])
            finally:  # the tournament closed our stdin (or is gone): tidy up, quietly
                shutil.rmtree(request["folder"], ignore_errors=True)
                os._exit(0)
        for fd in fds:
            os.close(fd)
        link.sendall(f"{pid}\n".encode())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.classroom.sandbox")
    parser.add_argument("--zygote", type=int, metavar="FD", help="serve forks on socket FD")
    parser.add_argument("--memory-mb", type=int, default=512)
    parser.add_argument("--cpu-seconds", type=int, default=600)
    parser.add_argument("--move-time", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.zygote is not None:
        zygote(args.zygote)
    else:
        serve(args.memory_mb, args.cpu_seconds, args.move_time)


if __name__ == "__main__":
    main()
