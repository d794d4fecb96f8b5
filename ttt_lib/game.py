"""The game protocol shared by every board and every search, and textbook trees.

A *state* is immutable and offers:

- ``to_move``: ``+1`` (X, MAX) or ``-1`` (O, MIN);
- ``moves()``: the legal moves in a fixed order (cells 0..8 row-major on 3x3 boards);
- ``play(move)``: the next state (``IllegalMoveError`` for a bad move);
- ``is_terminal()`` and ``utility()``: the score from MAX's (X's) point of view at the end;
- ``key()``: a hashable value identifying the position, for transposition tables.

Optionally a state also offers ``canonical_key()`` (the same key for all symmetric positions);
searches fall back to ``key()`` when it is missing.

``TreeNode`` is the same protocol for the small hand-made trees of textbooks and slides, so the
worked examples run through exactly the same ``minimax`` and ``alphabeta`` as the real game.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Protocol, Union, runtime_checkable

from .errors import IllegalMoveError

MAX, MIN = +1, -1
Tree = Union[int, float, Sequence["Tree"]]


@runtime_checkable
class Game(Protocol):
    """What a search needs to know about a game state."""

    @property
    def to_move(self) -> int: ...

    def moves(self) -> list: ...

    def play(self, move) -> "Game": ...

    def is_terminal(self) -> bool: ...

    def utility(self) -> float: ...

    def key(self) -> Hashable: ...


def player_name(player: int) -> str:
    """'X' for +1 and 'O' for -1."""
    return "X" if player == MAX else "O"


def column_label(index: int) -> str:
    """Spreadsheet-style labels: 0 -> A, 25 -> Z, 26 -> AA."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


class TreeNode:
    """A node of a textbook game tree given as nested lists: ``[[7, 5], [3, 1, 9]]``.

    Inner lists are decision nodes, numbers are leaves holding MAX's score. The root is MAX and
    the players alternate by depth. With ``labels=True`` the nodes are named A, B, C... in
    breadth-first order, as in the slides; otherwise a node's name is its path, e.g. ``"0.2"``.
    """

    __slots__ = ("tree", "path", "depth", "name", "_labels")

    def __init__(self, tree: Tree, labels: bool | dict = False,
                 path: tuple[int, ...] = ()) -> None:
        if isinstance(labels, bool):
            _check_tree(tree)  # once, at the root
            labels = _breadth_first_labels(tree) if labels else {}
        self.tree = tree
        self.path = path
        self.depth = len(path)
        self._labels = labels
        self.name = labels.get(path) or (".".join(map(str, path)) or "root")

    @property
    def to_move(self) -> int:
        return MAX if self.depth % 2 == 0 else MIN

    def moves(self) -> list[int]:
        return [] if self.is_terminal() else list(range(len(self.tree)))

    def play(self, move: int) -> "TreeNode":
        if self.is_terminal():
            raise IllegalMoveError(f"{self.name} is a leaf: there is no move to play")
        if not isinstance(move, int) or not 0 <= move < len(self.tree):
            raise IllegalMoveError(
                f"{self.name} has children 0..{len(self.tree) - 1}, not {move!r}")
        return TreeNode(self.tree[move], self._labels, self.path + (move,))

    def is_terminal(self) -> bool:
        return not isinstance(self.tree, (list, tuple))

    def utility(self) -> float:
        if not self.is_terminal():
            raise ValueError(f"{self.name} is not a leaf, it has no utility")
        return self.tree

    def key(self) -> tuple[int, ...]:
        return self.path

    def children(self) -> list["TreeNode"]:
        return [self.play(m) for m in self.moves()]

    def __repr__(self) -> str:
        return f"TreeNode({self.name}: {self.tree!r})"


def _check_tree(tree: Tree) -> None:
    if isinstance(tree, bool) or not isinstance(tree, (int, float, list, tuple)):
        raise ValueError(f"a tree is a number or a list of trees, not {tree!r}")
    if isinstance(tree, (list, tuple)):
        if not tree:
            raise ValueError("an inner node needs at least one child")
        for child in tree:
            _check_tree(child)


def _breadth_first_labels(tree: Tree) -> dict[tuple[int, ...], str]:
    labels, frontier = {}, [((), tree)]
    while frontier:
        next_frontier = []
        for path, node in frontier:
            labels[path] = column_label(len(labels))
            if isinstance(node, (list, tuple)):
                next_frontier += [(path + (i,), child) for i, child in enumerate(node)]
        frontier = next_frontier
    return labels


# ---------------------------------------------------------------- tree enumeration helpers

def walk(state: Game) -> Iterator[Game]:
    """Every node of the game tree below ``state`` (``state`` first), depth-first."""
    stack = [state]
    while stack:
        node = stack.pop()
        yield node
        if not node.is_terminal():
            stack.extend(node.play(m) for m in reversed(node.moves()))


def count_tree(state: Game) -> int:
    """How many nodes the full game tree below ``state`` has, root included."""
    if state.is_terminal():
        return 1
    return 1 + sum(count_tree(state.play(m)) for m in state.moves())


def reachable(state: Game) -> dict[Hashable, Game]:
    """Every distinct position reachable from ``state``, by key, in breadth-first order."""
    seen = {state.key(): state}
    frontier = [state]
    while frontier:
        next_frontier = []
        for node in frontier:
            if node.is_terminal():
                continue
            for move in node.moves():
                child = node.play(move)
                if child.key() not in seen:
                    seen[child.key()] = child
                    next_frontier.append(child)
        frontier = next_frontier
    return seen


def leaves(state: Game) -> Iterator[Game]:
    """The terminal nodes of the tree below ``state``, left to right."""
    return (node for node in walk(state) if node.is_terminal())
