"""Inside a grading box: the box's end of the channel, and stand-ins for the grader's objects.

``Box`` reads the grader's questions and sends the replies (``answering`` makes them). An
argument the grader keeps to itself (``faces``: a state that counts, a table, the nodes of a
path) arrives as a ``Proxy``: each use of it (``state.play(4)``, ``table[key] = entry``,
``node.visits += 1``) is a question back to the grader, ``{"call": N, "op": ..., ...}``,
answered ``{"back": N, ...}`` by the real object there. What the student's code hands the
grader in return crosses as plain data, a proxy by its number, or a ``kept`` value of its
own (it stays here, named by a number). A new question from the grader while a call still
runs means the grader gave up on that call: ``Abandoned`` ends it.
"""
from __future__ import annotations

import builtins
import json
import random
import socket

__all__ = ["Abandoned", "Box", "Proxy"]

STEADY_FIELDS = frozenset({"to_move", "first", "k", "m", "n", "mover"})  # never change
STEADY_CALLS = frozenset({"key", "lines"})  # a state's, the same at every call
STEADY_NAMES = ("to_move", "key", "is_terminal", "utility")  # may come with a state
METHODS = frozenset({"moves", "play", "is_terminal", "utility", "key", "cells", "lines",
                     "to_text", "is_chance", "outcomes", "random_playout", "winner", "get",
                     "setdefault", "pop", "keys", "values", "items", "clear", "update"})


class Abandoned(BaseException):
    """The grader asked something new: the call in progress no longer counts."""


class Box:
    """The box's end of the channel: the answers, the library sessions, the kept values."""

    def __init__(self, channel: socket.socket, answers: dict, sessions, reply) -> None:
        """``sessions``: the library's sessions of the exercises (``answering.Sessions``);
        ``reply(line, box)``: the reply to one question (None when it was abandoned)."""
        self.channel, self.reader = channel, channel.makefile("rb")
        self.answers, self.sessions, self.reply = answers, sessions, reply
        self.kept: list = []
        self.pending: list[bytes] = []
        self.calls = 0

    def send(self, message: dict) -> None:
        self.channel.sendall(json.dumps(message).encode() + b"\n")

    def serve(self) -> None:
        """Answer each question until the channel closes."""
        try:
            while True:
                line = self.pending.pop(0) if self.pending else self.reader.readline()
                if not line:
                    return
                reply = self.reply(line, self)
                if reply is not None:
                    self.send(reply)
        finally:
            self.sessions.close()

    def use(self, number: int, op: str, **rest) -> dict:
        """Ask the grader to use its object ``number``; its answer (raised here when it is
        an error)."""
        from .wire import bounded_loads
        if self.pending:
            raise Abandoned()
        self.calls += 1
        self.send({"call": self.calls, "op": op, "object": number, **rest})
        while True:
            line = self.reader.readline()
            if not line:
                raise Abandoned()
            message = bounded_loads(line)
            if type(message) is dict and message.get("back") == self.calls:
                break
            if type(message) is dict and "id" in message:
                self.pending.append(line)
                raise Abandoned()
        if "raised" in message:
            raise _error(message.get("raised"), message.get("text"))
        return message

    # ----------------------------------------------------------------- values both ways

    def give(self, value) -> dict:
        """``value`` as the grader reads it: plain data, a proxy's number, a random
        generator's seed, or a value kept here."""
        from .wire import encode
        kind = type(value)
        if kind is Proxy:
            return {"object": object.__getattribute__(value, "_number")}
        if kind is random.Random:
            return {"random": value.getrandbits(63)}
        state = _as_state(value)
        if state is not None:  # a board of the box's own (a key of a lent table): as data
            return {"state": state}
        if kind in (list, tuple) and any(type(item) is Proxy or not _plain(item)
                                         for item in value):
            return {kind.__name__: [self.give(item) for item in value]}
        if _plain(value):
            return {"value": encode(value)}
        self.kept.append(value)
        return {"kept": len(self.kept) - 1}

    def take(self, data):
        """What the grader sent: plain data, its object as a proxy, a kept value, a seeded
        random generator."""
        from .wire import decode
        if type(data) is dict and type(data.get("object")) is int and set(data) == {
                "object", "steady"} and type(data["steady"]) is dict:
            return Proxy(self, data["object"], {
                name: decode(value) for name, value in data["steady"].items()
                if name in STEADY_NAMES})
        if type(data) is not dict or len(data) != 1:
            raise ValueError("not an argument")
        (key, inner), = data.items()
        if key == "value":
            return decode(inner)
        if key == "object" and type(inner) is int:
            return Proxy(self, inner)
        if key == "kept" and type(inner) is int and 0 <= inner < len(self.kept):
            return self.kept[inner]
        if key == "random" and type(inner) is int:
            return random.Random(inner)
        if key in ("list", "tuple") and type(inner) is list:
            items = [self.take(item) for item in inner]
            return items if key == "list" else tuple(items)
        raise ValueError("not an argument")


def _as_state(value):
    """A game state's data, when ``value`` is one the channel carries (else None)."""
    if not (callable(getattr(type(value), "moves", None))
            and callable(getattr(type(value), "play", None))):
        return None
    from .wire import CannotSend, encode_state
    try:
        return encode_state(value)
    except CannotSend:
        return None


def _plain(value) -> bool:
    from .faces import _holds_other
    from .wire import encode
    return not _holds_other(encode(value))


def _error(name, text) -> Exception:
    """The grader's error, as the built-in exception of that name (``KeyError`` stays a
    ``KeyError``, for a table's look-up)."""
    kind = getattr(builtins, name, None) if isinstance(name, str) else None
    if not (isinstance(kind, type) and issubclass(kind, Exception)):
        kind = RuntimeError
    return kind(text if isinstance(text, str) else "")


class Proxy:
    """A grader's object, used from here: every attribute and operation asked there."""

    __slots__ = ("_box", "_number", "_steady")

    def __init__(self, box: Box, number: int, known: dict | None = None) -> None:
        object.__setattr__(self, "_box", box)
        object.__setattr__(self, "_number", number)
        steady = {}
        for name, value in (known or {}).items():  # what the grader sent with the state
            steady[name] = value if name == "to_move" else (lambda value=value: value)
        object.__setattr__(self, "_steady", steady)

    def _use(self, op: str, **rest):
        box = object.__getattribute__(self, "_box")
        return box.take({key: value for key, value in box.use(
            object.__getattribute__(self, "_number"), op, **rest).items() if key != "back"})

    def _call(self, name: str, *args):
        box = object.__getattribute__(self, "_box")
        steady = object.__getattribute__(self, "_steady")
        if name == "play" and len(args) == 1 and type(args[0]) is int \
                and args[0] in steady.get("__ahead__", {}):
            return steady["__ahead__"][args[0]]  # played ahead by the grader: no question
        reply = box.use(object.__getattribute__(self, "_number"), "call", name=name,
                        args=[box.give(arg) for arg in args])
        result = box.take({key: value for key, value in reply.items()
                           if key not in ("back", "ahead")})
        if name == "moves" and type(reply.get("ahead")) is list and type(result) is list:
            children = [box.take(child) for child in reply["ahead"]]
            steady["__ahead__"] = {move: child for move, child in zip(result, children)
                                   if type(move) is int}
        return result

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        steady = object.__getattribute__(self, "_steady")
        if name in steady:
            return steady[name]
        box = object.__getattribute__(self, "_box")
        reply = {"method": True} if name in METHODS else box.use(
            object.__getattribute__(self, "_number"), "get", name=name)
        if reply.get("method"):
            value = self._method(name)
            steady[name] = value
            return value
        value = box.take({key: inner for key, inner in reply.items() if key != "back"})
        if name in STEADY_FIELDS:
            steady[name] = value
        return value

    def _method(self, name: str):
        if name not in STEADY_CALLS:
            return lambda *args: self._call(name, *args)
        remembered: dict = {}

        def steady(*args):
            if args:
                return self._call(name, *args)
            if "value" not in remembered:
                remembered["value"] = self._call(name)
            return remembered["value"]
        return steady

    def __setattr__(self, name: str, value) -> None:
        box = object.__getattribute__(self, "_box")
        box.use(object.__getattribute__(self, "_number"), "set", name=name,
                value=box.give(value))

    def __hash__(self) -> int:
        steady = object.__getattribute__(self, "_steady")
        if "__hash__" not in steady:
            steady["__hash__"] = self._use("hash")
        return steady["__hash__"]

    def __eq__(self, other) -> bool:
        box = object.__getattribute__(self, "_box")
        return self._use("eq", other=box.give(other))

    def __repr__(self) -> str:
        return self._use("repr")

    def __call__(self, *args):
        return self._call("__call__", *args)

    def __getitem__(self, key):
        return self._call("__getitem__", key)

    def __setitem__(self, key, value) -> None:
        self._call("__setitem__", key, value)

    def __delitem__(self, key) -> None:
        self._call("__delitem__", key)

    def __contains__(self, key) -> bool:
        return self._call("__contains__", key)

    def __len__(self) -> int:
        return self._call("__len__")

    def __iter__(self):
        return iter(self._call("__iter__"))

    def __bool__(self) -> bool:
        try:
            return bool(self._call("__len__"))
        except AttributeError:  # a state: always something
            return True
