"""Notebook 02's section on the game's assumptions: trees of payoff vectors, and max^n's checker.

Minimax and negamax assume two players, one number for both (zero-sum), a position both see
whole (perfect information) and no dice (deterministic). ``PlayersTree`` holds a textbook
tree whose leaves give every player its own payoff, for three players or for two players
whose payoffs are not opposite; ``ttt_lib.search.maxn`` backs the vectors up.
"""
from __future__ import annotations

import numbers

from ..search.multiplayer import maxn
from .core import unanswered, verdict

# Three players, player 1 at the root, then 2, then 3 above the leaves: the leaves hold
# (player 1's, player 2's, player 3's) payoffs.
TREE_02_PLAYERS = [[[(3, 1, 5), (6, 2, 1)], [(2, 6, 2), (5, 3, 4)]],
                   [[(4, 4, 2), (1, 7, 3)], [(6, 1, 6), (2, 5, 1)]]]
# Two players whose payoffs are not opposite: (MAX's, MIN's) at each leaf.
TREE_02_GENERAL_SUM = [[(3, 3), (1, 0)], [(2, 5), (4, 1)]]


class PlayersTree:
    """A textbook tree whose leaves are tuples of payoffs, one per player.

    The players move in turn by depth (the first player at the root, then the second...):
    ``to_move`` is the index of the player to move (0 for the first, as in a tuple of
    payoffs) and ``players`` how many there are. The nodes are named A, B,
    C... breadth-first, as on the slides.
    """

    def __init__(self, tree, path: tuple = (), names: dict | None = None) -> None:
        self.tree, self.path = tree, path
        self.players = len(_first_leaf(tree))
        self.names = names if names is not None else _breadth_first_names(tree)
        self.name = self.names[path]

    @property
    def to_move(self) -> int:
        return len(self.path) % self.players

    def moves(self) -> list[int]:
        return [] if self.is_terminal() else list(range(len(self.tree)))

    def play(self, move: int) -> "PlayersTree":
        return PlayersTree(self.tree[move], self.path + (move,), self.names)

    def is_terminal(self) -> bool:
        return isinstance(self.tree, tuple)

    def utility(self) -> tuple:
        return self.tree

    def key(self) -> tuple:
        return self.path

    def __repr__(self) -> str:
        return f"PlayersTree({self.name}: {self.tree!r})"


def _first_leaf(tree) -> tuple:
    while not isinstance(tree, tuple):
        tree = tree[0]
    return tree


def _breadth_first_names(tree) -> dict:
    names, level, letter = {}, [((), tree)], 0
    while level:
        nxt = []
        for path, node in level:
            names[path] = chr(ord("A") + letter) if letter < 26 else str(letter)
            letter += 1
            if not isinstance(node, tuple):
                nxt += [(path + (i,), child) for i, child in enumerate(node)]
        level = nxt
    return names


def describe_players_tree(tree: PlayersTree) -> list[str]:
    """The tree as indented lines: each node, the player to move at it, each leaf's payoffs."""
    lines = []
    for node in _walk(tree):
        indent = "  " * len(node.path)
        if node.is_terminal():
            lines.append(f"{indent}{node.name}: payoffs {node.utility()}")
        else:
            lines.append(f"{indent}{node.name}: player {node.to_move + 1} to move "
                         f"(to_move {node.to_move})")  # the code counts players from 0
    return lines


def _walk(node: PlayersTree):
    yield node
    for move in node.moves():
        yield from _walk(node.play(move))


def paranoid(tree) -> tuple:
    """The leaf reached if the root's player maximises its own payoff and every other player
    minimises it (minimax with the root's payoff alone): the typical mistake."""
    def value(node, depth):
        if isinstance(node, tuple):
            return node
        pick = max if depth % len(_first_leaf(tree)) == 0 else min
        return pick((value(child, depth + 1) for child in node), key=lambda leaf: leaf[0])
    return value(tree, 0)


def check_02_maxn(answer) -> None:
    """The max^n value of the root of ``TREE_02_PLAYERS``: a tuple of the three payoffs."""
    root = PlayersTree(TREE_02_PLAYERS)
    expected = maxn(root)
    first_hint = ("work from the leaves up: at each node the player to move (player 3 above "
                  "the leaves, then 2, then 1) takes the child whose payoffs are best for it.")
    if unanswered(answer, first_hint):
        return
    if (not isinstance(answer, (tuple, list)) or len(answer) != 3
            or not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in answer)):
        return verdict(False, "", "give the three payoffs as a tuple, like (1, 2, 3).")
    got = tuple(answer)
    leaves = {leaf for leaf in _leaves(TREE_02_PLAYERS)}
    if got == paranoid(TREE_02_PLAYERS):
        hint = ("that is where players 2 and 3 would lead if both played against player 1 "
                "(minimax on player 1's payoff); in max^n each takes the child best for itself.")
    elif got not in leaves:
        hint = "a max^n value is one of the leaves' payoff vectors: it is backed up whole."
    elif got[0] == max(leaf[0] for leaf in leaves):
        hint = ("player 1 cannot pick any leaf it likes: players 2 and 3 choose on their own "
                "turns, for themselves.")
    else:
        hint = ("write each inner node's vector beside it, from the bottom: player 3 compares the "
                "third payoffs, player 2 the second, player 1 the first.")
    verdict(got == expected,
            f"{expected}: player 3 takes the better third payoff, player 2 the better second, "
            "player 1 the better first; no one minimises anyone.", hint)


def _leaves(tree):
    if isinstance(tree, tuple):
        yield tree
    else:
        for child in tree:
            yield from _leaves(child)


def first_payoffs(tree) -> list:
    """The tree with each leaf's first payoff alone, as a textbook tree of numbers for
    ``TreeNode``: what a zero-sum search reads of a tree whose payoffs are not opposite."""
    return tree[0] if isinstance(tree, tuple) else [first_payoffs(child) for child in tree]


__all__ = ["PlayersTree", "TREE_02_GENERAL_SUM", "TREE_02_PLAYERS", "check_02_maxn",
           "describe_players_tree", "first_payoffs"]
