"""Monte Carlo search: flat Monte Carlo and Monte Carlo tree search (MCTS/UCT).

Both judge a move by finishing the game many times with uniformly random moves (*playouts*).
Flat Monte Carlo spends the same number of playouts on every move. MCTS grows a tree instead:
each iteration walks down it picking children by UCB1 (*selection*), adds a position's children
(*expansion*), evaluates the position it stopped at, by default with one random game
(*simulation*), and counts the result in every node on the way back (*backpropagation*). Good
moves get most of the playouts; the move played is the most visited one.

``MCTSTree`` is plain UCT, its four phases public methods. Two variants change a few of them:
``SolverTree`` proves outcomes and lets the proofs climb the tree, ``SharedTree`` lets symmetric
positions share one node; ``MCTSTree(state, shared=..., solver=...)`` builds the one asked for.

Every function takes a ``seed`` or a ``random.Random`` (``rng``), so each run can be repeated.
Nothing here counts its own work: ``tree_stats`` reads it off a grown tree afterwards.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from operator import attrgetter

from ..checks import (COUNT, FLAG, FUNCTION, GAME, NUMBER, RNG, SEED, argument_checks,
                     check_budget as _check_budget, instance, optional, short)
from ..errors import SearchOptionError
from ..game import Game
from .trace import Stats

SQRT2 = math.sqrt(2)
VISITS = attrgetter("visits")  # a node's visits (quicker than a loop of attribute reads)

Evaluate = Callable[[Game, random.Random], float]
"""An evaluation for MCTS: ``evaluate(state, rng)`` -> X's expected result, in [-1, 1]."""


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
                     rng: random.Random | None = None) -> dict:
    """Each legal move's mean result for X over ``playouts`` random games played after it."""
    _check_budget(playouts, "playouts")
    rng = _rng(seed, rng)
    values = {}
    for move in state.moves():
        child = state.play(move)
        values[move] = sum(random_playout(child, rng) for _ in range(playouts)) / playouts
    return values


# ------------------------------------------------------------------------------- the tree

class Node:
    """A position in the MCTS tree and the results of the playouts that passed through it.

    Results are counted for the player who just moved, *into* this position (the player to
    move at the parent): that is what the parent compares when it chooses a child.
    ``proven`` is the exact outcome for that player (+1, 0, -1) once the solver has
    established it, else None.
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
        """Mean reward in [0, 1] of the player who moved into this node (win 1, draw 1/2,
        loss 0); None if unvisited."""
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


# ------------------------------------------------------------------------------- plain UCT

class MCTSTree:
    """A UCT search tree that grows by ``run(k)``: k more iterations, resumable at any time.

    c: the exploration constant of UCB1;
    evaluate: how a new position is judged, ``evaluate(state, rng)`` -> X's result (by
        default one random playout);
    shared, solver: build a ``SharedTree``, a ``SolverTree`` or both in one
        (``SharedSolverTree``) instead of plain UCT.
    ``tree_stats(tree)`` reads the work done off the tree.
    """

    shared = False  # symmetric positions share one node (SharedTree)
    solver = False  # outcomes are proven and climb the tree (SolverTree)

    def __new__(cls, *args, shared: bool = False, solver: bool = False, **options):
        # MCTSTree(state, shared=..., solver=...) makes the variant the switches ask for.
        if cls is MCTSTree:
            cls = _VARIANTS[bool(shared), bool(solver)]
        return super().__new__(cls)

    def __init__(self, state: Game, *, c: float = SQRT2, shared: bool = False,
                 solver: bool = False, seed: int | None = 0, rng: random.Random | None = None,
                 evaluate: Evaluate = random_playout) -> None:
        if state.is_terminal():
            raise SearchOptionError(
                "the game is over in this position: there is no move to search")
        if not c >= 0:
            raise SearchOptionError(f"the exploration constant c is a number >= 0, not {short(c)}")
        if bool(shared) > self.shared or bool(solver) > self.solver:
            raise SearchOptionError(f"{type(self).__name__} has no such switch: use MCTSTree(...)")
        self.c, self.evaluate = c, evaluate
        self.rng = _rng(seed, rng)
        self.table: dict[Hashable, Node] = {}  # filled by SharedTree only
        self.iterations = 0
        self.root = self.new_node(state)

    def run(self, iterations: int) -> "MCTSTree":
        """Do ``iterations`` more iterations (fewer if the solver proves the root first)."""
        _check_budget(iterations, "iterations")
        for _ in range(iterations):
            if self.root.proven is not None:
                break
            self.iterate()
        return self

    # -- the four phases

    def iterate(self) -> None:
        """One iteration: walk down by UCB1 from the root (expanding each node on its second
        visit) to a node not visited yet or a finished game, simulate there, backpropagate."""
        node, path = self.root, [self.root]
        while node.visits and not node.terminal:
            if node.children is None:
                self.expand(node)
            node = self.select(node)
            path.append(node)
        self.backpropagate(path, self.simulate(node))
        self.iterations += 1

    def select(self, node: Node) -> Node:
        """The child with the highest UCB1 (unvisited ones first), ties broken at random."""
        children = list(node.children.values())
        n = self.exploration_visits(node)
        scores = [child.ucb(n, self.c) for child in children]
        top = max(scores)
        return self.rng.choice([child for child, s in zip(children, scores) if s == top])

    def expand(self, node: Node) -> None:
        """Give ``node`` all of its children, none of them visited yet."""
        node.children = {move: self.new_node(node.state.play(move)) for move in node.state.moves()}

    def simulate(self, node: Node) -> float:
        """X's result from ``node``: a finished game's own, else the evaluation's guess."""
        if node.terminal:
            return node.state.utility()
        return self.evaluate(node.state, self.rng)

    def backpropagate(self, path: list[Node], x_result: float) -> None:
        """Count the result in every node on the path, for the player who moved into it."""
        for node in path:
            node.visits += 1
            outcome = x_result * node.mover
            if outcome > 0:
                node.wins += 1
            elif outcome < 0:
                node.losses += 1
            else:
                node.draws += 1

    # -- the hooks the variants change

    def new_node(self, state: Game) -> Node:
        """The node for a position just reached (a new one in plain UCT)."""
        return Node(state)

    def exploration_visits(self, node: Node) -> int:
        """N in UCB1 at ``node``: how often it was visited."""
        return node.visits

    # -- reading the tree

    def children(self, node: Node | None = None) -> list[ChildInfo]:
        """Each child of ``node`` (the root by default) with its move, visits, value and UCB."""
        node = self.root if node is None else node
        if not node.children:
            return []
        n = self.exploration_visits(node) if node.visits else 1
        return [ChildInfo(move, child, child.visits, child.value, child.x_value,
                          child.ucb(n, self.c), child.proven)
                for move, child in node.children.items()]

    def most_visited(self) -> list:
        """The root moves MCTS ranks first: most visits (a proven win first, proven losses
        last, with the solver), in move order."""
        rows = self.children()
        if not rows:
            raise SearchOptionError("the tree has no children yet: run at least 2 iterations")
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
        return len(_nodes(self.root))


# -------------------------------------------------------------------------------- variants

class SolverTree(MCTSTree):
    """UCT that proves outcomes: a finished game is proven, a node is proven once one child
    wins for the player to move there or every child is proven, and proven children are
    never selected again; the search stops when the root is proven."""

    solver = True

    def iterate(self) -> None:
        """Plain UCT's iteration, but the walk stops at a node it can prove, and proofs
        climb back up the path."""
        node, path = self.root, [self.root]
        while node.visits and not node.terminal:
            if node.children is None:
                self.expand(node)
            if self.prove(node) is not None:  # its exact result is what gets counted
                break
            node = self.select(node)
            path.append(node)
        self.backpropagate(path, self.simulate(node))
        for node in reversed(path):
            self.prove(node)
        self.iterations += 1

    def prove(self, node: Node) -> int | None:
        """Mark ``node`` proven when one child is a proven win for the player to move at
        ``node`` or every child is proven; return its proven outcome (None while open)."""
        if node.proven is None and node.children is not None:
            outcomes = [child.proven for child in node.children.values()]
            if 1 in outcomes:  # the player to move here has a winning move
                node.proven = -1
            elif None not in outcomes:
                node.proven = -max(outcomes)
        return node.proven

    def select(self, node: Node) -> Node:
        """UCB1 as in plain UCT, among the children whose outcome is still open."""
        children = [child for child in node.children.values() if child.proven is None]
        n = self.exploration_visits(node)
        scores = [child.ucb(n, self.c) for child in children]
        top = max(scores)
        return self.rng.choice([child for child, s in zip(children, scores) if s == top])

    def simulate(self, node: Node) -> float:
        """A proven node's exact result for X; otherwise plain UCT's simulation."""
        if node.proven is not None:
            return node.proven * node.mover
        return super().simulate(node)

    def new_node(self, state: Game) -> Node:
        """A new node; a finished game's outcome is proven at once."""
        node = super().new_node(state)
        if node.terminal:
            node.proven = _sign(node.mover * state.utility())
        return node


class SharedTree(MCTSTree):
    """UCT in which symmetric positions share one node (keyed by ``canonical_key()``), so
    transpositions pool their statistics.

    A shared node's visits are the sum over all its parents, so a parent's N in UCB1 is the
    sum of its children's visits. A shared node keeps the board as first reached: under
    another parent it may show a symmetric image.
    """

    shared = True

    def new_node(self, state: Game) -> Node:
        """The node of ``state``'s symmetry class: found in the table, or made and stored."""
        key = state.canonical_key() if hasattr(state, "canonical_key") else state.key()
        if key in self.table:
            return self.table[key]
        node = super().new_node(state)
        self.table[key] = node
        return node

    def exploration_visits(self, node: Node) -> int:
        """N in UCB1 at ``node``: its children's visits, which may come through other parents."""
        return max(1, sum(map(VISITS, node.children.values())))


class SharedSolverTree(SharedTree, SolverTree):
    """Both variants at once: shared nodes, proven outcomes."""


_VARIANTS = {(False, False): MCTSTree, (True, False): SharedTree,
             (False, True): SolverTree, (True, True): SharedSolverTree}


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def mcts(state: Game, playouts: int = 1000, *, c: float = SQRT2, shared: bool = False,
         solver: bool = False, seed: int | None = 0, rng: random.Random | None = None,
         evaluate: Evaluate = random_playout):
    """The move MCTS/UCT plays after ``playouts`` iterations from ``state``."""
    if playouts < 2:
        raise SearchOptionError(f"MCTS needs at least 2 playouts to compare moves, "
                                f"not {short(playouts)}")
    tree = MCTSTree(state, c=c, shared=shared, solver=solver, seed=seed, rng=rng,
                    evaluate=evaluate)
    return tree.run(playouts).best_move()


# ---------------------------------------------------------------------- reading the work

def tree_stats(tree: MCTSTree) -> Stats:
    """The work a tree's search did, read off the tree: nodes = positions in it, leaves =
    playouts (one per iteration), table_hits = children found already in the tree (shared
    trees only: every expansion asks for each child once, and a child asked for again is a
    hit)."""
    if not isinstance(tree, MCTSTree):
        raise TypeError(f"tree_stats reads an MCTSTree, not {type(tree).__name__}")
    positions = _nodes(tree.root)
    asked = 1 + sum(len(node.children or ()) for node in positions)
    return Stats(nodes=len(positions), leaves=tree.iterations, table_hits=asked - len(positions))


def _nodes(root: Node) -> list[Node]:
    """Every distinct node under ``root``, ``root`` included."""
    seen, stack, found = set(), [root], []
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            stack.extend((node.children or {}).values())
    return found


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
MONTE = dict(state=GAME, seed=SEED, rng=optional(RNG))
argument_checks(mcts, SearchOptionError, **MONTE, playouts=COUNT, c=NUMBER, shared=FLAG,
                solver=FLAG, evaluate=FUNCTION)
argument_checks(flat_monte_carlo, SearchOptionError, **MONTE)  # playouts: checked in its listing
argument_checks(random_playout, SearchOptionError, state=GAME, rng=RNG)
argument_checks(tree_stats, SearchOptionError, tree=instance(MCTSTree, "an MCTSTree"))
argument_checks(MCTSTree, SearchOptionError, **MONTE, c=NUMBER, shared=FLAG, solver=FLAG,
                evaluate=FUNCTION)
