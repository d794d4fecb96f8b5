"""The grading channel's words: what the grader and a notebook's box say to each other.

Only plain data crosses: numbers, text, lists and tuples of them, exact ``Fraction``s, and
game states as data (a textbook tree as nested lists, a board as its text). A value is sent
by its exact type: an ``int`` subclass, whatever its ``__eq__`` says, arrives as
``Opaque("MyInt")``, which equals nothing but itself; numpy's scalars go by value. Every
message is one JSON line, read with ``bounded_loads``: a line too long or nested too deeply
(``"[" * 50000``) is refused with ``ValueError`` before ``json`` sees it, so what a box sends
can cost only that notebook's row.
"""
from __future__ import annotations

import json
import re
from fractions import Fraction

__all__ = ["CannotSend", "MOST_BYTES", "MOST_DEPTH", "Opaque", "bounded_loads", "decode",
           "decode_state", "encode", "encode_state", "plain_value"]

MOST_BYTES = 1 << 20  # one message
MOST_DEPTH = 64  # brackets inside brackets, in one message
PLAIN = (bool, int, float, str, type(None))
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')  # JSON strings, escapes included
_BRACKETS = re.compile(r"[\[\]{}]")


class CannotSend(BaseException):
    """An argument the channel cannot carry (an object the checker watches or the function
    changes): a BaseException, so that no checker's ``except Exception`` takes it for the
    student's error."""


class Opaque:
    """A value that was not plain data (its type's name kept): equal only to itself."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"<a {self.kind}>"


def bounded_loads(data: bytes | str, most_bytes: int = MOST_BYTES,
                  most_depth: int = MOST_DEPTH):
    """``json.loads(data)`` after checking its size and nesting (``ValueError`` when over)."""
    if len(data) > most_bytes:
        raise ValueError(f"a message over {most_bytes} bytes")
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > most_depth:
            raise ValueError(f"a message nested over {most_depth} deep")
    return json.loads(text)


def plain_value(value):
    """``value`` rebuilt from exact plain types (numpy's scalars by value), or an ``Opaque``
    naming the first thing in it that is not plain data."""
    return decode(encode(value))


# ----------------------------------------------------------------------------- values

def encode(value, depth: int = 0):
    """A value as JSON data, by exact type (see the module's docstring)."""
    kind = type(value)
    if depth > MOST_DEPTH // 2:
        return {"other": "value nested too deeply"}
    if kind in PLAIN:
        if kind is int and value.bit_length() > 10_000:
            return {"other": "int too long"}
        return value
    if kind is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if kind is list:
        return [encode(item, depth + 1) for item in value]
    if kind in (tuple, set, frozenset):
        items = sorted(value, key=repr) if kind is not tuple else value
        return {kind.__name__: [encode(item, depth + 1) for item in items]}
    if kind.__module__ == "numpy" and callable(getattr(value, "item", None)) \
            and getattr(value, "shape", None) == ():
        item = value.item()
        return encode(item, depth + 1) if type(item) in PLAIN else {"other": kind.__name__}
    return {"other": _name(value)}


def _name(value) -> str:
    name = getattr(type(value), "__name__", "object")
    return name if isinstance(name, str) else "object"


def decode(data):
    """The value ``encode`` wrote (checked for shape; anything else is an ``Opaque``)."""
    if type(data) in PLAIN:
        return data
    if type(data) is list:
        return [decode(item) for item in data]
    if type(data) is dict and len(data) == 1:
        (key, inner), = data.items()
        if key in ("tuple", "set", "frozenset") and type(inner) is list:
            items = [decode(item) for item in inner]
            try:
                return {"tuple": tuple, "set": set, "frozenset": frozenset}[key](items)
            except TypeError:  # an unhashable item in a set
                return Opaque(key)
        if key == "fraction" and type(inner) is list and len(inner) == 2 \
                and all(type(n) is int for n in inner) and inner[1] > 0:
            return Fraction(*inner)
        if key == "other" and type(inner) is str:
            return Opaque(inner[:60])
    return Opaque("malformed value")


# ----------------------------------------------------------------------------- states

def encode_state(state):
    """A game state as data: a textbook tree (``TreeNode``) as its nested lists, its path
    and who moves; a board as its text, the player who opened and its kind. ``CannotSend``
    for anything else."""
    from ..boards import BitBoard, ConnectFour, ListBoard, MNKBoard
    from ..boards.slippery import SlipperyBoard
    from ..game import TreeNode
    if type(state) is SlipperyBoard:
        return {"board": "SlipperyBoard", "text": state.to_text(), "k": state.shape.k,
                "first": "X" if state.first == 1 else "O", "slip": encode(state.slip),
                "aim": state.aim, "to_move": state.to_move}
    if type(state) is TreeNode:
        return {"tree": _encode_tree(state.tree), "path": list(state.path),
                "mover": state._mover}
    kinds = {BitBoard: "BitBoard", ListBoard: "ListBoard", MNKBoard: "MNKBoard",
             ConnectFour: "ConnectFour"}
    if type(state) in kinds:
        board = {"board": kinds[type(state)], "text": state.to_text(),
                 "first": "X" if state.first == 1 else "O"}
        if type(state) in (MNKBoard, ConnectFour):
            board["k"] = state.k
        return board
    raise CannotSend(f"a {_name(state)}")


def _encode_tree(tree):
    from ..game import Chance
    if isinstance(tree, Chance):
        return {"chance": [[encode(p), _encode_tree(child)] for p, child in tree]}
    if isinstance(tree, (list, tuple)):
        return [_encode_tree(child) for child in tree]
    return encode(tree)


def decode_state(data):
    """The state ``encode_state`` wrote (``ValueError`` when the data are not one)."""
    from ..boards import BitBoard, ConnectFour, ListBoard, MNKBoard
    from ..game import TreeNode
    if type(data) is not dict:
        raise ValueError("not a state")
    if "tree" in data:
        node = TreeNode(_decode_tree(data["tree"]))
        path, mover = tuple(data.get("path") or ()), data.get("mover")
        return TreeNode(node.tree, {}, path, mover) if path or mover is not None else node
    if data.get("board") == "SlipperyBoard":
        return _slippery(data)
    kinds = {"BitBoard": BitBoard, "ListBoard": ListBoard, "MNKBoard": MNKBoard,
             "ConnectFour": ConnectFour}
    kind = kinds.get(data.get("board"))
    if kind is None or type(data.get("text")) is not str:
        raise ValueError("not a state")
    if kind in (MNKBoard, ConnectFour):
        return kind.from_text(data["text"], k=data.get("k"), first=data.get("first", "X"))
    return kind.from_text(data["text"], first=data.get("first", "X"))


def _slippery(data: dict):
    """A slippery board, a chance node (its aimed cell) included."""
    from ..boards.slippery import SlipperyBoard
    board = SlipperyBoard.from_text(data.get("text"), decode(data.get("slip")),
                                    k=data.get("k"), first=data.get("first", "X"))
    aim, to_move = data.get("aim"), data.get("to_move")
    if aim is None:
        return board
    if type(aim) is not int or aim not in board.moves() or to_move not in (1, -1):
        raise ValueError("not a state")
    return SlipperyBoard._make(board, board._cells, to_move, aim, board.won)


def _decode_tree(data):
    from ..game import Chance
    if type(data) is dict and type(data.get("chance")) is list:
        return Chance(*[(decode(p), _decode_tree(child)) for p, child in data["chance"]])
    if type(data) is list:
        return [_decode_tree(child) for child in data]
    return decode(data)
