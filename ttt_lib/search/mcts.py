"""Monte Carlo search: flat Monte Carlo and Monte Carlo tree search (MCTS/UCT).

Both judge a move by finishing the game many times with uniformly random moves (*playouts*).
Flat Monte Carlo spends the same number of playouts on every move. MCTS grows a tree instead:
each iteration walks down it picking children by UCB1 (*selection*), adds a new position
(*expansion*), plays one random game from there (*simulation*) and counts the result in every
node on the way back (*backpropagation*). Good moves get most of the playouts; the move played
is the most visited one.

Every function takes a ``seed`` or a ``random.Random`` (``rng``), so each run can be repeated.
"""
from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from ..bitboard import BitBoard
from ..game import Game
from .minimax import move_values as exact_move_values
from .stats import Stats

SQRT2 = math.sqrt(2)

def _rng(seed: int | None, rng: random.Random | None) -> random.Random:
    return rng if rng is not None else random.Random(seed)


# ------------------------------------------------------------------------------- playouts

def random_playout(state: Game, rng: random.Random) -> float:
    """Finish the game with uniformly random moves; return the result for X (+1, 0, -1).

    A board may offer a faster ``random_playout(rng)`` of its own (the bitboard plays on its raw
    masks); it must pick the same moves from the same RNG as the loop below.
    """
    fast = getattr(state, "random_playout", None)
    if fast is not None:
        return fast(rng)
    while not state.is_terminal():
        state = state.play(rng.choice(state.moves()))
    return state.utility()


def flat_monte_carlo(state: Game, playouts: int = 100, *, seed: int | None = 0,
                     rng: random.Random | None = None, stats: Stats | None = None) -> dict:
    """Each legal move's mean result for X over ``playouts`` random games played after it."""
    _check_budget(playouts, "playouts")
    rng = _rng(seed, rng)
    values = {}
    for move in state.moves():
        child = state.play(move)
        values[move] = sum(random_playout(child, rng) for _ in range(playouts)) / playouts
        if stats is not None:
            stats.nodes += 1
            stats.leaves += playouts
    return values


def _check_budget(count, what: str) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"{what} is a whole number >= 0, not {count!r}")


# ------------------------------------------------------------------------------------ MCTS

class Node:
    """A position in the MCTS tree and the results of the playouts that passed through it.

    Results are counted for the player who moved *into* this position (the parent's mover):
    that is what the parent compares when it chooses a child. ``proven`` is the exact
    outcome for that player (+1, 0, -1) once the solver has established it, else None.
    """

    __slots__ = ("state", "to_move", "terminal", "children", "visits", "wins", "draws",
                 "losses", "proven")

    def __init__(self, state: Game) -> None:
        self.state = state
        self.to_move = state.to_move
        self.terminal = state.is_terminal()
        self.children: dict | None = None  # move -> Node, made when first walked through
        self.visits = self.wins = self.draws = self.losses = 0
        self.proven: int | None = None

    @property
    def mover(self) -> int:
        """The player whose move led here: the results are counted for them."""
        return -self.to_move

    @property
    def value(self) -> float | None:
        """Mean reward in [0, 1] for the mover (win 1, draw 1/2, loss 0); None if unvisited."""
        return (self.wins + self.draws / 2) / self.visits if self.visits else None

    @property
    def x_value(self) -> float | None:
        """Mean result for X in [-1, 1], comparable with minimax values; None if unvisited."""
        if not self.visits:
            return None
        return self.mover * (self.wins - self.losses) / self.visits

    def ucb(self, parent_visits: int, c: float = SQRT2) -> float:
        """UCB1: mean reward plus an exploration bonus that shrinks as this node is visited."""
        if not self.visits:
            return math.inf
        return self.value + c * math.sqrt(math.log(parent_visits) / self.visits)

    def __repr__(self) -> str:
        return (f"Node({self.state.key()!r}: {self.visits} visits, "
                f"{self.wins}/{self.draws}/{self.losses} W/D/L)")


@dataclass(frozen=True)
class ChildInfo:
    """One row of ``MCTSTree.children()``: what a notebook or widget shows about a child."""

    move: object
    node: Node
    visits: int
    value: float | None
    x_value: float | None
    ucb: float
    proven: int | None


class MCTSTree:
    """A UCT search tree that grows by ``run(k)``: k more iterations, resumable at any time.

    c: the exploration constant of UCB1;
    shared: symmetric positions share one node (key ``canonical_key()``), so transpositions
        pool their statistics; a shared node's visits are the sum over all its parents, and a
        parent's exploration term uses the sum of its children's visits. A shared node keeps
        the board as first reached, so under another parent it may show a symmetric image;
    solver: a child whose outcome is proven is never explored again, and proofs climb the tree;
    stats: nodes = positions added to the tree, leaves = playouts, table_hits = shared nodes
        found again.
    """

    def __init__(self, state: Game, *, c: float = SQRT2, shared: bool = False,
                 solver: bool = False, seed: int | None = 0, rng: random.Random | None = None,
                 stats: Stats | None = None) -> None:
        if state.is_terminal():
            raise ValueError("the game is over in this position: there is no move to search")
        if not c >= 0:
            raise ValueError(f"the exploration constant c is a number >= 0, not {c!r}")
        self.c, self.shared, self.solver = c, shared, solver
        self.rng = _rng(seed, rng)
        self.stats = Stats() if stats is None else stats
        self.table: dict[Hashable, Node] = {}
        self.iterations = 0
        self.root = self._node(state)

    # -- growing the tree

    def run(self, iterations: int) -> "MCTSTree":
        """Do ``iterations`` more iterations (fewer if the solver proves the root first)."""
        _check_budget(iterations, "iterations")
        for _ in range(iterations):
            if self.root.proven is not None:
                break
            self._iterate()
        return self

    def _iterate(self) -> None:
        node, path = self.root, [self.root]
        while node.visits and not node.terminal:
            if node.children is None:
                self._expand(node)
            if self.solver:
                self._prove(node)
                if node.proven is not None:
                    break
            node = self._select(node)
            path.append(node)
        self._backpropagate(path, self._simulate(node))
        if self.solver:
            for node in reversed(path):
                self._prove(node)
        self.iterations += 1

    def _node(self, state: Game) -> Node:
        key = None
        if self.shared:
            key = state.canonical_key() if hasattr(state, "canonical_key") else state.key()
            if key in self.table:
                self.stats.table_hits += 1
                return self.table[key]
        node = Node(state)
        if self.solver and node.terminal:
            node.proven = _sign(node.mover * state.utility())
        if key is not None:
            self.table[key] = node
        self.stats.nodes += 1
        return node

    def _expand(self, node: Node) -> None:
        node.children = {move: self._node(node.state.play(move)) for move in node.state.moves()}

    def _select(self, node: Node) -> Node:
        """The child with the highest UCB1 (unvisited ones first), ties broken at random."""
        candidates = [child for child in node.children.values()
                      if not (self.solver and child.proven is not None)]
        n = self._exploration_visits(node)
        scores = [child.ucb(n, self.c) for child in candidates]
        top = max(scores)
        return self.rng.choice([child for child, s in zip(candidates, scores) if s == top])

    def _exploration_visits(self, node: Node) -> int:
        if not self.shared:
            return node.visits
        # A shared child can have more visits (from other parents) than this node itself.
        return max(1, sum(child.visits for child in node.children.values()))

    def _simulate(self, node: Node) -> float:
        """X's result: the exact outcome if known, else one random playout."""
        self.stats.leaves += 1
        if node.proven is not None:
            return node.proven * node.mover
        return random_playout(node.state, self.rng)

    @staticmethod
    def _backpropagate(path: list[Node], x_result: float) -> None:
        for node in path:
            node.visits += 1
            outcome = x_result * node.mover
            if outcome > 0:
                node.wins += 1
            elif outcome < 0:
                node.losses += 1
            else:
                node.draws += 1

    @staticmethod
    def _prove(node: Node) -> None:
        """Mark ``node`` solved when one child wins for its mover or every child is solved."""
        if node.proven is not None or node.children is None:
            return
        outcomes = [child.proven for child in node.children.values()]
        if 1 in outcomes:  # the player to move here has a winning move
            node.proven = -1
        elif None not in outcomes:
            node.proven = -max(outcomes)

    # -- reading the tree

    def children(self, node: Node | None = None) -> list[ChildInfo]:
        """Each child of ``node`` (the root by default) with its move, visits, value and UCB."""
        node = self.root if node is None else node
        if not node.children:
            return []
        n = self._exploration_visits(node) if node.visits else 1
        return [ChildInfo(move, child, child.visits, child.value, child.x_value,
                          child.ucb(n, self.c), child.proven)
                for move, child in node.children.items()]

    def most_visited(self) -> list:
        """The root moves MCTS ranks first: most visits (a proven win first, proven losses
        last, with the solver), in move order."""
        rows = self.children()
        if not rows:
            raise ValueError("the tree has no children yet: run at least 2 iterations")
        rank = [(row.proven == 1, row.proven != -1, row.visits) for row in rows]
        top = max(rank)
        return [row.move for row, r in zip(rows, rank) if r == top]

    def best_move(self):
        """The move to play: the most visited root move, ties broken by the tree's RNG."""
        return self.rng.choice(self.most_visited())

    def move_values(self) -> dict:
        """Each root move's mean playout result for X (None if never visited)."""
        return {row.move: row.x_value for row in self.children()}

    def size(self) -> int:
        """How many distinct positions the tree holds."""
        seen, stack = set(), [self.root]
        while stack:
            node = stack.pop()
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend((node.children or {}).values())
        return len(seen)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def mcts(state: Game, playouts: int = 1000, *, c: float = SQRT2, shared: bool = False,
         solver: bool = False, seed: int | None = 0, rng: random.Random | None = None,
         stats: Stats | None = None):
    """The move MCTS/UCT plays after ``playouts`` iterations from ``state``."""
    if playouts < 2:
        raise ValueError(f"MCTS needs at least 2 playouts to compare moves, not {playouts!r}")
    tree = MCTSTree(state, c=c, shared=shared, solver=solver, seed=seed, rng=rng, stats=stats)
    return tree.run(playouts).best_move()


# ----------------------------------------------------------------------- convergence study

STUDY_POSITIONS: tuple[str, ...] = (
    ".../.../...",  # the opening: every move draws
    "X../.O./..X",  # O must take an edge; a corner loses
    "XO./.../...",  # X to move has a forced win
)
STUDY_BUDGETS: tuple[int, ...] = (10, 30, 100, 300, 1000, 3000, 10000)


def convergence_study(positions: Iterable[Game | str] = STUDY_POSITIONS,
                      budgets: Sequence[int] = STUDY_BUDGETS, *, seed: int = 0,
                      c: float = SQRT2, shared: bool = False) -> list[dict]:
    """MCTS's move values against the exact minimax values as the playouts grow.

    One tree per position grows through the sorted ``budgets``; at each budget a row records
    every move's estimated and exact value (for X) and visits, the mean absolute error over
    the visited moves, and whether the most visited moves are all optimal. Plain data, ready
    to plot.
    """
    rows = []
    for position in positions:
        state = BitBoard.from_text(position) if isinstance(position, str) else position
        exact = exact_move_values(state)
        best = max(exact.values()) if state.to_move > 0 else min(exact.values())
        tree, done = MCTSTree(state, c=c, shared=shared, seed=seed), 0
        for budget in sorted(budgets):
            tree.run(budget - done)
            done = budget
            estimates = tree.move_values()
            errors = [abs(v - exact[m]) for m, v in estimates.items() if v is not None]
            rows.append({
                "position": state.to_text(),
                "playouts": budget,
                "estimates": estimates,
                "visits": {row.move: row.visits for row in tree.children()},
                "exact": exact,
                "error": sum(errors) / len(errors) if errors else None,
                "best_is_optimal": all(exact[m] == best for m in tree.most_visited()),
            })
    return rows
