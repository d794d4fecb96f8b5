"""The game protocol shared by every board and every search, and textbook trees.

A *state* is immutable and offers:

- ``to_move``: ``+1`` (X, MAX) or ``-1`` (O, MIN);
- ``moves()``: the legal moves in a fixed order (cells 0..8 row-major on 3x3 boards);
- ``play(move)``: the next state (``IllegalMoveError`` for a bad move);
- ``is_terminal()`` and ``utility()``: the score from MAX's (X's) point of view at the end;
- ``key()``: a hashable value identifying the position, for transposition tables.

Optionally a state also offers ``canonical_key()`` (the same key for all symmetric positions);
searches fall back to ``key()`` when it is missing.

A state may also be a *chance node* (dice, a slipping hand): ``is_chance()`` is then True and
``outcomes()`` gives ``(probability, next state)`` pairs, exact ``Fraction``s summing to 1. A
chance node has no moves: its ``moves()`` raises ``ChanceNodeError``, so a search that knows no
chance (minimax, alpha-beta, MCTS) stops there with a clear message at no cost to its other
nodes; ``expectiminimax`` asks ``is_chance`` first. States without ``is_chance`` never are.

``TreeNode`` is the same protocol for the small hand-made trees of textbooks and slides, so the
worked examples run through exactly the same ``minimax`` and ``alphabeta`` as the real game;
``Chance(...)`` inside such a tree is a chance node.
"""
from __future__ import annotations

import math
import sys
from collections.abc import Hashable, Iterator, Sequence
from numbers import Rational
from typing import TYPE_CHECKING, Protocol, Union, runtime_checkable

from .errors import IllegalMoveError
from .safetext import short

if TYPE_CHECKING:  # fractions imports decimal: loaded only when chance is used
    from fractions import Fraction

MAX, MIN = +1, -1
Tree = Union[int, float, "Fraction", Sequence["Tree"], "Chance"]


class ChanceNodeError(ValueError):
    """A chance node reached by a search that has no chance nodes, or a bad chance node."""


class TreeError(ValueError):
    """A textbook tree that is not one: an empty inner node, a leaf that is not a number."""


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


def is_chance(state) -> bool:
    """Is ``state`` a chance node? (False for states that know nothing of chance.)"""
    ask = getattr(state, "is_chance", None)
    return ask is not None and ask()


def refuse_chance(name: str) -> ChanceNodeError:
    """The error a search without chance nodes raises at chance node ``name``."""
    return ChanceNodeError(
        f"{name} is a chance node: it has outcomes, not moves; search it with "
        f"expectiminimax (minimax, alpha-beta and MCTS know no chance nodes)")


def probability(value, what: str = "a probability") -> Fraction:
    """``value`` (an int, a ``Fraction`` or a text such as ``"2/5"``) as an exact Fraction
    in [0, 1]; floats are refused, as they are rarely exact (write ``"2/5"``)."""
    from fractions import Fraction
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise TypeError(f"{what} is an int, a Fraction or a text like '2/5', not {short(value)}")
    try:
        exact = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ChanceNodeError(f"{what} is a fraction like '2/5', not {short(value)}") from None
    if not 0 <= exact <= 1:
        raise ChanceNodeError(f"{what} lies between 0 and 1, not {short(value)}")
    return exact


def check_outcomes(outcomes: list, name: str) -> list:
    """``outcomes`` if its probabilities are exact Fractions in [0, 1] that sum to 1."""
    chances = [p for p, _ in outcomes]
    if not chances or any(not isinstance(p, Rational) or p.numerator < 0 for p in chances):
        raise ChanceNodeError(f"{name}: outcomes need exact probabilities of at least 0")
    # the sum in whole numbers over a common denominator: exact, and far cheaper than
    # adding Fractions one by one (every chance node of a search is checked)
    common = math.lcm(*(p.denominator for p in chances))
    total = sum(p.numerator * (common // p.denominator) for p in chances)
    if total != common:
        from fractions import Fraction
        raise ChanceNodeError(f"{name}: the probabilities add up to "
                              f"{Fraction(total, common)}, not 1")
    return outcomes


class Chance(tuple):
    """A chance node of a textbook tree: ``(probability, subtree)`` pairs.

    ``Chance(("1/2", 20), ("1/2", -5))`` is a fair coin between 20 and -5; probabilities are
    ints, Fractions or texts like ``"2/5"`` and must add up to 1. ``Chance.uniform(20, -5)``
    gives every subtree the same probability.
    """

    __slots__ = ()

    def __new__(cls, *pairs) -> "Chance":
        checked = []
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ChanceNodeError(f"a chance branch is (probability, subtree), not {short(pair)}")
            checked.append((probability(pair[0]), pair[1]))
        check_outcomes(checked, "Chance")
        return super().__new__(cls, checked)

    @classmethod
    def uniform(cls, *subtrees) -> "Chance":
        """Each subtree with probability 1/len(subtrees)."""
        from fractions import Fraction
        return cls(*[(Fraction(1, len(subtrees)), tree) for tree in subtrees])

    def __repr__(self) -> str:
        return "Chance(" + ", ".join(f"('{p}', {t!r})" for p, t in self) + ")"


class TreeNode:
    """A node of a textbook game tree given as nested lists: ``[[7, 5], [3, 1, 9]]``.

    Inner lists are decision nodes, numbers are leaves holding MAX's score. The root is MAX and
    the players alternate by depth. ``Chance(...)`` is a chance node; it follows a move and
    does not change whose turn it is next (MAX, chance, MIN, chance, MAX...). With
    ``labels=True`` the nodes are named A, B, C... in breadth-first order, as in the slides;
    otherwise a node's name is its path, e.g. ``"0.2"``.
    """

    __slots__ = ("tree", "path", "depth", "name", "_labels", "_mover")

    def __init__(self, tree: Tree, labels: bool | dict = False,
                 path: tuple[int, ...] = (), to_move: int | None = None) -> None:
        if isinstance(labels, bool):
            _check_tree(tree)  # once, at the root
            labels = _breadth_first_labels(tree) if labels else {}
        elif not isinstance(labels, dict):  # a dict only comes from a parent's play()
            raise TypeError(f"labels is True or False, not {short(labels)}")
        if not isinstance(path, tuple) or (to_move is not None and to_move not in (MAX, MIN)):
            raise TypeError(f"path (a tuple) and to_move (+1, -1 or None) come from play(), "
                            f"not {short(path)} and {short(to_move)}")
        self.tree = tree
        self.path = path
        self.depth = len(path)
        self._labels = labels
        self._mover = to_move
        self.name = labels.get(path) or (".".join(map(str, path)) or "root")

    @property
    def to_move(self) -> int:
        if self._mover is not None:  # set below a chance node
            return self._mover
        return MAX if self.depth % 2 == 0 else MIN

    def is_chance(self) -> bool:
        return isinstance(self.tree, Chance)

    def outcomes(self) -> list[tuple[Fraction, "TreeNode"]]:
        """(probability, child) pairs of a chance node."""
        if not self.is_chance():
            raise ChanceNodeError(f"{self.name} is not a chance node: it has moves, not outcomes")
        return [(p, self._child(i)) for i, (p, _) in enumerate(self.tree)]

    def moves(self) -> list[int]:
        if isinstance(self.tree, Chance):
            raise refuse_chance(self.name)
        return [] if self.is_terminal() else list(range(len(self.tree)))

    def play(self, move: int) -> "TreeNode":
        if self.is_terminal():
            raise IllegalMoveError(f"{self.name} is a leaf: there is no move to play")
        if isinstance(self.tree, Chance):
            raise refuse_chance(self.name)
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(self.tree):
            raise IllegalMoveError(
                f"{self.name} has children 0..{len(self.tree) - 1}, not {short(move)}")
        return self._child(move)

    def _child(self, index: int) -> "TreeNode":
        """Child ``index``: the opponent moves below a decision node; below a chance node, the
        player who moves after it (the chance node's own ``to_move``)."""
        if isinstance(self.tree, Chance):
            return TreeNode(self.tree[index][1], self._labels, self.path + (index,), self.to_move)
        mover = None if self._mover is None else -self._mover
        return TreeNode(self.tree[index], self._labels, self.path + (index,), mover)

    def is_terminal(self) -> bool:
        return not isinstance(self.tree, (list, tuple))

    def utility(self) -> float:
        if not self.is_terminal():
            raise TreeError(f"{self.name} is not a leaf, it has no utility")
        return self.tree

    def key(self) -> tuple[int, ...]:
        return self.path

    def children(self) -> list["TreeNode"]:
        if self.is_chance():
            return [child for _, child in self.outcomes()]
        return [self.play(m) for m in self.moves()]

    def __repr__(self) -> str:
        return f"TreeNode({self.name}: {self.tree!r})"


def _check_tree(tree: Tree) -> None:
    """Refuse anything that is not a tree, without recursion (deep trees are fine)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Chance):
            stack.extend(child for _, child in node)
        elif isinstance(node, (list, tuple)):
            if not node:
                raise TreeError("an inner node needs at least one child")
            stack.extend(node)
        elif isinstance(node, bool) or not (isinstance(node, (int, float)) or _is_fraction(node)):
            raise TypeError(f"a tree is a number or a list of trees, not {short(node)}")
        elif node != node or node in (float("inf"), float("-inf")):
            raise TreeError(f"a leaf is a finite number, not {short(node)}")


def _is_fraction(value) -> bool:
    """Is ``value`` a Fraction? (No Fraction exists before ``fractions`` is imported.)"""
    fractions = sys.modules.get("fractions")
    return fractions is not None and isinstance(value, fractions.Fraction)


def _subtrees(node: Tree) -> list:
    """The children of a tree given as nested lists (a chance node's without probabilities)."""
    if isinstance(node, Chance):
        return [child for _, child in node]
    return list(node) if isinstance(node, (list, tuple)) else []


def _breadth_first_labels(tree: Tree) -> dict[tuple[int, ...], str]:
    labels, frontier = {}, [((), tree)]
    while frontier:
        next_frontier = []
        for path, node in frontier:
            labels[path] = column_label(len(labels))
            next_frontier += [(path + (i,), child) for i, child in enumerate(_subtrees(node))]
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
