"""The grader's objects as a box may use them: a face per object, every use checked here.

Some exercises hand the student's function objects the checker watches: a state that counts
the positions a search expands (``tables.Counted``), notes how deep it went
(``nb05.Guarded``) or tallies the games it finished (``nb07_mcts.CountedState``); a
transposition table that counts its look-ups (``tables.WatchedTable``) or stores nothing;
the nodes of a path whose statistics the function updates (``nb07.PathNode``). When such a
function is judged from the grader, these objects stay here (``Handles``): the box gets a
stand-in (``answering``'s ``Proxy``) whose every use is a question back to the grader
(``{"call": N, "op": "call", "object": H, "name": "play", "args": [...]}``), answered by
the real object. So what the checker observes, it observes itself.

A box may use an object only through its face: a game state's protocol (``GAME``), a table's
dict operations (``TABLE``), or the fields a class names in ``REMOTE`` (``{"read": ...,
"write": ...}``); never a private name, never anything else (``__class__``, ``__globals__``,
a wrapped state). What comes back is plain data, or a new handle for an object that has a
face. A value of the box's own (an entry a student's table search stores) stays in the box:
here it is a ``Kept``, equal only to itself, sent back as it came. A ``random.Random`` crosses
as a seed drawn from it, a board of the box's own as its data (``wire.encode_state``).
"""
from __future__ import annotations

import random

from .wire import CannotSend, Opaque, decode, decode_state, encode

__all__ = ["GAME", "TABLE", "Handles", "Kept", "has_face"]

GAME = frozenset({"moves", "play", "is_terminal", "utility", "key", "cells", "lines",
                  "to_text", "is_chance", "outcomes", "random_playout", "canonical_key",
                  "winner", "legal_moves"})
GAME_FIELDS = frozenset({"to_move", "first", "k", "m", "n", "rows", "columns", "width",
                         "height", "aim"})
TABLE = frozenset({"get", "setdefault", "pop", "keys", "values", "items", "clear", "update",
                   "__getitem__", "__setitem__", "__contains__", "__delitem__", "__len__",
                   "__iter__"})
MOST_HANDLES = 200_000  # one question's objects (a runaway box ends its question)


class Kept:
    """A value that stays in the box (named by its number there): equal only to itself."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number

    def __eq__(self, other) -> bool:
        return isinstance(other, Kept) and other.number == self.number

    def __hash__(self) -> int:
        return hash(("kept", self.number))

    def __repr__(self) -> str:
        return "<a value of the box's own>"


def _is_state(obj) -> bool:
    kind = type(obj)
    return callable(getattr(kind, "moves", None)) and callable(getattr(kind, "play", None))


def has_face(obj) -> bool:
    """Whether a box may be handed ``obj`` as a stand-in (a state, a table, a class's
    ``REMOTE`` fields)."""
    return _is_state(obj) or isinstance(obj, dict) or isinstance(
        getattr(type(obj), "REMOTE", None), dict)


def _face(obj) -> tuple[frozenset, frozenset, frozenset]:
    """(methods it may call, fields it may read, fields it may write)."""
    remote = getattr(type(obj), "REMOTE", None)
    if isinstance(remote, dict):
        return (frozenset(remote.get("call", ())), frozenset(remote.get("read", ())),
                frozenset(remote.get("write", ())))
    if _is_state(obj):
        return GAME, GAME_FIELDS, frozenset()
    if isinstance(obj, dict):
        return TABLE, frozenset(), frozenset()
    return frozenset(), frozenset(), frozenset()


class Handles:
    """The objects one question lent the box, by number, and the uses it asks for."""

    def __init__(self) -> None:
        self.objects: dict[int, object] = {}
        self.lent = 0  # numbers are never used twice: a stand-in kept from an earlier
        #               question names nothing now ("that object is gone")

    def forget(self) -> None:
        """A new question: the objects lent before are no longer the box's."""
        self.objects.clear()

    def lend(self, obj) -> dict:
        """An argument or result as the box reads it (``CannotSend`` for an object with no
        face)."""
        kind = type(obj)
        if kind is random.Random:
            return {"random": obj.getrandbits(63)}
        if kind is Kept:
            return {"kept": obj.number}
        if kind in (list, tuple) and any(not _plain(item) for item in obj):
            return {kind.__name__: [self.lend(item) for item in obj]}
        if kind in (type({}.keys()), type({}.values()), type({}.items())):
            return self.lend(list(obj))
        if _plain(obj):
            return {"value": encode(obj)}
        if not has_face(obj):
            raise CannotSend(f"a {kind.__name__}")
        if len(self.objects) >= MOST_HANDLES:
            raise CannotSend("too many objects")
        self.lent += 1
        self.objects[self.lent] = obj
        steady = _steady(obj)
        return {"object": self.lent, **({"steady": steady} if steady else {})}

    def take(self, data):
        """An argument the box sent back: a plain value, a lent object, a kept value."""
        if type(data) is not dict or len(data) != 1:
            return Opaque("malformed value")
        (key, inner), = data.items()
        if key == "value":
            return decode(inner)
        if key == "object" and type(inner) is int and inner in self.objects:
            return self.objects[inner]
        if key == "kept" and type(inner) is int:
            return Kept(inner)
        if key == "random" and type(inner) is int:
            return random.Random(inner)
        if key == "state":
            try:
                return decode_state(inner)
            except Exception:  # noqa: BLE001 (data that are no state)
                return Opaque("malformed state")
        if key in ("list", "tuple") and type(inner) is list:
            items = [self.take(item) for item in inner]
            return items if key == "list" else tuple(items)
        return Opaque("malformed value")

    def serve(self, message: dict) -> dict:
        """The answer to one use the box asks for (``{"back": N, ...}``): a result, or the
        error it raised, under its name."""
        back = {"back": message.get("call")}
        try:
            return {**back, **self._use(message)}
        except CannotSend as refused:
            return {**back, "raised": "TypeError", "text": f"cannot hand over {refused}"}
        except Exception as error:  # noqa: BLE001 (the student's misuse, raised in the box)
            if type(error).__module__.startswith("ttt_lib.teach"):
                raise  # the checker's own (a node budget spent, its clock): it ends the call
            return {**back, "raised": type(error).__name__, "text": str(error)[:300]}

    def _use(self, message: dict) -> dict:
        op, name = message.get("op"), message.get("name")
        target = self.take({"object": message.get("object")})
        if isinstance(target, Opaque):
            return {"raised": "ReferenceError", "text": "that object is gone"}
        calls, reads, writes = _face(target)
        if op == "get" and name in reads:
            return self.lend(getattr(target, name))
        if op == "get" and name in calls:
            return {"method": True}
        if op == "set" and name in writes:
            setattr(target, name, self.take(message.get("value")))
            return {"value": None}
        if op == "call" and name in calls and type(message.get("args")) is list:
            args = [self.take(arg) for arg in message["args"]]
            result = getattr(target, name)(*args)
            if name == "moves" and getattr(type(target), "AHEAD", False) and type(result) is list:
                return {**self.lend(result), "ahead": [self.lend(target.play(move))
                                                       for move in result]}
            return self.lend(list(result) if name == "__iter__" else result)
        if op == "hash":
            return {"value": hash(target)}
        if op == "eq":
            return {"value": bool(target == self.take(message.get("other")))}
        if op == "repr":
            shown = getattr(type(target), "face_repr", None)
            return {"value": (shown(target) if callable(shown) else repr(target))[:300]}
        return {"raised": "AttributeError",
                "text": f"{type(target).__name__} has no {str(name)[:60]!r} here"}


STEADY = ("to_move", "key", "is_terminal", "utility")  # a state's, sent with its handle


def _steady(obj) -> dict:
    """What a lent state answers without a question: the pure parts of its protocol that
    its class does not watch (``STEADY`` on the class, if it names fewer), as plain data.
    Fewer questions, the same observations."""
    if not _is_state(obj):
        return {}
    names = getattr(type(obj), "STEADY", STEADY)
    found = {}
    try:
        if "to_move" in names:
            found["to_move"] = obj.to_move
        if "key" in names:
            found["key"] = obj.key()
        if "is_terminal" in names:
            found["is_terminal"] = obj.is_terminal()
            if found["is_terminal"] and "utility" in names:
                found["utility"] = obj.utility()
    except Exception:  # noqa: BLE001 (a state that cannot say: asked when used)
        return {}
    data = {name: encode(value) for name, value in found.items()}
    return {name: value for name, value in data.items() if not _holds_other(value)}


def _plain(value) -> bool:
    """Plain data all the way down (what ``wire.encode`` carries as itself)."""
    return not _holds_other(encode(value))


def _holds_other(data) -> bool:
    if type(data) is dict:
        return "other" in data or any(_holds_other(inner) for inner in data.values())
    return type(data) is list and any(_holds_other(item) for item in data)
