"""The sandbox: the program that runs one student's agent. ``python -m
ttt_lib.classroom.sandbox --zygote FD`` starts in the student's box (see ``jail``), loads the
student's file once, then forks a fresh sandbox for each request on the socket FD (see
``worker.Box``); each sandbox answers the tournament, one JSON line per request, over the
pipes it was given as its stdin and stdout.

On the socket (one message each way):
- first, before anything of the student's runs, the zygote says ``{"ready": true}`` with a
  pidfd of itself: the box has started (anything that fails later is the student's);
- ``{"op": "load", "filename": ..., "memory_mb": ..., ...}`` with a sealed memfd holding the
  file's text -> ``{"agent": "class Good"}`` or ``{"error": "does not compile: invalid
  syntax (line 3)"}``;
- ``{"op": "fork"}`` with the new sandbox's stdin and stdout -> ``{"pid": N}`` with its pidfd.

On a sandbox's pipes:
- ``{"op": "new_game", "seed": S}`` -> ``{"ok": true}``: a fresh agent seeded with S;
- ``{"op": "move", "text": "X../.O./...", "first": "X", "game": "tictactoe"}`` ->
  ``{"move": 4}`` (``game`` names the board, see ``boards.named``; tic-tac-toe if absent), or
  ``{"error": "raised ZeroDivisionError"}``, or ``{"malformed": "'4'"}``.

Before any student code runs the zygote limits its own memory (RLIMIT_AS) and CPU time
(RLIMIT_CPU: a hard limit for each process's whole life; each move raises the soft limit a
little above its time), so a runaway agent is stopped even if nobody is left to stop it. The
student's prints go to /dev/null: the protocol has channels of its own.
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
import tempfile
import signal
import socket
import sys
import types

from ttt_lib.boards.named import position_from_text
from ttt_lib.player import Agent

MODULE = "student_agent"  # the module name a student's file runs under
ANSWER_CHARACTERS = 60  # how much of a malformed answer the report quotes
READY = {"ready": True}  # the zygote's first word, before the student's code
SOURCE_BYTES = 8 << 20  # at most this much of the file is read


class Student:
    """The agent defined by one file: a subclass of ``Agent`` or a ``choose(state)``."""

    def __init__(self, move_time: float = 1.0) -> None:
        self.kind: type | types.FunctionType | None = None
        self.agent = None
        self.move_time = move_time

    def handle(self, request: dict) -> dict:
        op = request.get("op") if isinstance(request, dict) else None
        if op == "new_game":
            return self.new_game(request.get("seed", 0))
        if op == "move":
            return self.move(request["text"], request["first"],
                             request.get("game", "tictactoe"))
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
        except MemoryError:
            return {"error": "exceeded the memory limit when loaded"}
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
        allow_cpu(self.move_time)
        try:
            takes_seed = "seed" in inspect.signature(self.kind).parameters
            self.agent = self.kind(seed=seed) if takes_seed else self.kind()
        except MemoryError:
            return {"error": "exceeded the memory limit", "fatal": True}
        except BaseException as error:  # noqa: BLE001
            return {"error": f"raised {type(error).__name__}"}
        return {"ok": True}

    def move(self, text: str, first: str, game: str = "tictactoe") -> dict:
        state = position_from_text(game, text, first)
        choose = self.agent if isinstance(self.agent, types.FunctionType) else self.agent.choose
        allow_cpu(self.move_time)
        try:
            move = choose(state)
        except MemoryError:
            return {"error": "exceeded the memory limit", "fatal": True}
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


def quiet() -> None:
    """The standard streams go to /dev/null: a student's prints reach nobody."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")


def serve(student: Student, inbox, outbox) -> None:
    """Answer requests on ``inbox`` until it closes: the life of one sandbox."""
    for line in inbox:
        try:
            answer = student.handle(json.loads(line))
        except MemoryError:
            answer = {"error": "exceeded the memory limit", "fatal": True}
        outbox.write(json.dumps(answer) + "\n")
        outbox.flush()


def sandbox(student: Student, fds: list[int]) -> None:
    """A forked sandbox: a session and a folder of its own, a full CPU allowance, and the
    two pipes as its protocol; it ends when its stdin closes (or it is killed)."""
    os.setsid()
    folder = tempfile.mkdtemp(prefix="game-", dir=os.environ.get("HOME") or None)
    os.chdir(folder)
    os.environ["TMPDIR"] = folder
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    inbox = os.fdopen(fds[0], "r", encoding="utf-8")
    outbox = os.fdopen(fds[1], "w", encoding="utf-8")
    try:
        serve(student, inbox, outbox)
    finally:  # the tournament closed our stdin (or is gone): tidy up, quietly
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)


def kill_orphans() -> None:
    """In a box: end the processes that outlived the sandbox that started them (orphans are
    adopted by the box's first process, ours is its only legitimate child)."""
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
            if parent == 1:
                os.kill(int(name), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            continue


def reply(link: socket.socket, answer: dict, pid: int) -> None:
    """``answer``, with a pidfd of process ``pid`` (the tournament kills through it)."""
    pidfd = os.pidfd_open(pid)
    try:
        socket.send_fds(link, [json.dumps(answer).encode()], [pidfd])
    finally:
        os.close(pidfd)


def reap() -> None:
    """Collect the zygote's ended children, whatever a student's code did to SIGCHLD."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def zygote(channel: int) -> None:
    """Say it is ready, load the student's file (the first request), then fork a fresh
    sandbox for each request on the socket ``channel``, with the sandbox's stdin and stdout
    as file descriptors; the answer is its process id. Each fork starts with the file
    loaded, in milliseconds, where a new interpreter takes a few tenths of a second."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished sandboxes
    link = socket.socket(fileno=channel)
    reply(link, READY, os.getpid())  # from here on, a crash is the student's
    message, fds, _, _ = socket.recv_fds(link, 4096, 1)
    request = json.loads(message)
    with os.fdopen(fds[0], "rb") as memfd:  # the student's file
        source = memfd.read(SOURCE_BYTES).decode("utf-8", errors="replace")
    quiet()
    limit(request["memory_mb"], request["cpu_seconds"])
    student = Student(request["move_time"])
    try:
        answer = student.load(source, request["filename"])
    except MemoryError:
        answer = {"error": "exceeded the memory limit when loaded"}
    link.send(json.dumps(answer).encode())
    while "agent" in answer:
        message, fds, _, _ = socket.recv_fds(link, 4096, 2)
        if not message or len(fds) != 2:
            return  # the tournament's worker is gone
        if request.get("isolated"):
            kill_orphans()
        reap()
        pid = os.fork()
        if pid == 0:
            link.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sandbox(student, fds)
        for fd in fds:
            os.close(fd)
        reply(link, {"pid": pid}, pid)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.classroom.sandbox")
    parser.add_argument("--zygote", type=int, required=True, metavar="FD",
                        help="load a student's file, then fork sandboxes on socket FD")
    zygote(parser.parse_args(argv).zygote)


if __name__ == "__main__":
    main()
