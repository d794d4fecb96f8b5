"""The smallest proof that tic-tac-toe is a draw, and how close our best search comes to it.

Any exact search from the empty board must show two things: X can hold the draw (value >= 0:
one good X move at each X position, every O reply) and O can hold it (value <= 0: every X
move, one good O reply). Each is a *proof DAG* whose leaves are finished games; the nodes a
search must visit are the union of the two. Positions are counted as our best search counts
them: symmetric positions are one node (its table is keyed up to symmetry), and a position
reached by two move orders is one node (a transposition).

Finding the smallest union is a covering problem: at each choice the picked reply decides
which positions the proof needs. ``minimal_proof`` searches it by branch and bound: choices
are decided one at a time (the fewest options first, the cheapest option first), and a
branch is cut once a lower bound on its size reaches the best proof found. The bound: every
position all proofs below a pending choice share (its *forced* positions), plus, for choices
whose options reach disjoint positions, the least each must still add. With a ``budget`` of
branches it may stop before the bound closes the gap. ``least_proof`` then settles the
question exactly: the same covering problem as a 0-1 integer program, which SciPy's MILP solver
(HiGHS) solves to proven optimality in about two seconds; without SciPy the result says how far
the branch and bound got.
"""
from __future__ import annotations

from functools import cache, lru_cache

from ..boards import BitBoard
from ..search.pruning import alphabeta
from ..search.exact import solve
from ..search.trace import Stats

BEST_SEARCH = {"symmetry": True, "ordering": "heuristic"}  # the nodes table's best variant
HOLD = {"X": 1, "O": -1}  # a proof that X (value >= 0) or O (value <= 0) holds the draw


class ProofGraph:
    """Tic-tac-toe's positions up to symmetry, as numbered nodes with values and children."""

    def __init__(self) -> None:
        self.states, self.children, self.values, self.index = [], [], [], {}
        table: dict = {}
        self.root = self._add(BitBoard(), table)

    def _add(self, state, table: dict) -> int:
        key = state.canonical_key()
        if key not in self.index:
            node = self.index[key] = len(self.states)
            self.states.append(state)
            self.values.append(solve(state, table))
            self.children.append([])
            kids = {self._add(state.play(move), table) for move in state.moves()}
            self.children[node] = sorted(kids)
        return self.index[key]

    def options(self, side: int, node: int) -> list[int] | None:
        """The children a proof for ``side`` may pick at ``node``, or None if it needs all."""
        if self.states[node].to_move != side:
            return None
        return [c for c in self.children[node] if self.values[c] * side >= 0]


class ProofSearch:
    """Branch and bound over the choices of the two proofs (see the module's notes)."""

    def __init__(self, graph: ProofGraph, budget: int) -> None:
        self.graph, self.budget, self.branches = graph, budget, 0
        self.best: int | None = None
        self.proof: dict[int, int] = {}  # the best proof: each side's positions (bit sets)
        self.forced = lru_cache(maxsize=None)(self._forced)

    def _forced(self, side: int, node: int) -> int:
        """The positions (a bit set) every proof for ``side`` below ``node`` contains."""
        found = 1 << node
        options = self.graph.options(side, node)
        below = [self.forced(side, c) for c in (options or self.graph.children[node])]
        if options is None:
            for positions in below:
                found |= positions
        elif below:
            shared = below[0]
            for positions in below[1:]:
                shared &= positions
            found |= shared
        return found

    def expand(self, used: int, done: dict, agenda: list, choices: list) -> tuple:
        """Add every position the agenda forces; return the positions, the proofs' nodes
        and the choices still open."""
        done = dict(done)
        while agenda:
            side, node = agenda.pop()
            if done[side] >> node & 1:
                continue
            done[side] |= 1 << node
            used |= 1 << node
            options = self.graph.options(side, node)
            if options is None:
                agenda.extend((side, c) for c in self.graph.children[node])
            elif options:
                choices = choices + [(side, node)]
        still_open = [(side, node) for side, node in choices
                      if not any(done[side] >> c & 1 for c in self.graph.options(side, node))]
        return used, done, still_open

    def lower_bound(self, used: int, choices: list) -> int:
        """Positions any completion must hold: the forced ones and, for choices with
        disjoint reach, the least each choice must still add."""
        bound = used
        for side, node in choices:
            bound |= self.forced(side, node)
        extra, taken = 0, 0
        for gain, reach in sorted(self._gains(bound, choices), reverse=True):
            if not reach & taken:
                extra, taken = extra + gain, taken | reach
        return bound.bit_count() + extra

    def _gains(self, bound: int, choices: list) -> list[tuple[int, int]]:
        gains = []
        for side, node in choices:
            options = self.graph.options(side, node)
            if any(bound >> c & 1 for c in options):
                continue  # an option already counted: the choice may add nothing
            reach = 0
            for c in options:
                reach |= self.forced(side, c) & ~bound
            gains.append((min((self.forced(side, c) & ~bound).bit_count() for c in options),
                          reach))
        return gains

    def search(self, used: int, done: dict, agenda: list, choices: list) -> None:
        """Complete the proofs in every way not cut by the bound, keeping the smallest."""
        self.branches += 1
        used, done, choices = self.expand(used, done, agenda, choices)
        if self.best is not None and (self.lower_bound(used, choices) >= self.best
                                      or self.branches >= self.budget):
            return
        if not choices:
            self.best, self.proof = used.bit_count(), done
            return
        side, node = min(choices, key=lambda choice: len(self.graph.options(*choice)))
        rest = [choice for choice in choices if choice != (side, node)]
        for c in sorted(self.graph.options(side, node),
                        key=lambda c: (self.forced(side, c) & ~used).bit_count()):
            self.search(used, done, [(side, c)], rest)


def least_proof(graph: ProofGraph) -> tuple[int, dict[int, int]] | None:
    """The smallest proof, proven optimal by an integer program, or None without SciPy.

    Per side: ``p[n]`` (position n is in that side's proof); at a position where the side
    holding the draw moves, ``pick[n, c]`` (it plays to child c): some pick if ``p[n]``, and a
    picked child is in; at the other side's positions every child is in if ``p[n]``. ``u[n]``
    covers both sides, and the program minimises the sum of ``u``.
    """
    try:
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_matrix
    except ImportError:
        return None
    program = CoveringProgram(graph)
    rows, cols, coefs = zip(*program.entries)
    matrix = coo_matrix((coefs, (rows, cols)), shape=(program.rows, len(program.index)))
    low = np.zeros(len(program.index))
    for side in (1, -1):
        low[program.var(side, graph.root)] = 1
    cost = np.zeros(len(program.index))
    cost[[program.var("u", n) for n in range(len(graph.states))]] = 1
    result = milp(cost, constraints=LinearConstraint(matrix.tocsr(), 0, np.inf),
                  integrality=np.ones(len(cost)), bounds=Bounds(low, 1))
    return program.proof(result.x.round().astype(int))


@cache
def least_proof_of_tictactoe() -> tuple[int, dict[int, int]] | None:
    """``least_proof`` of tic-tac-toe's graph, solved once per process (the graph, and so its
    node numbers, are the same every time)."""
    return least_proof(ProofGraph())


class CoveringProgram:
    """The 0-1 program of ``least_proof``: variables by name, rows ``sum(coef * var) >= 0``."""

    def __init__(self, graph: ProofGraph) -> None:
        self.graph, self.index, self.entries, self.rows = graph, {}, [], 0
        for node in range(len(graph.states)):  # positions first: the solver's order
            self.var(1, node), self.var(-1, node), self.var("u", node)
        for side in (1, -1):
            for node in range(len(graph.states)):
                self.side_rows(side, node)
        for node in range(len(graph.states)):
            for side in (1, -1):
                self.row({self.var("u", node): 1, self.var(side, node): -1})  # u >= p

    def var(self, *name) -> int:
        return self.index.setdefault(name, len(self.index))

    def row(self, coefficients: dict[int, int]) -> None:
        self.entries += [(self.rows, var, coef) for var, coef in coefficients.items()]
        self.rows += 1

    def side_rows(self, side: int, node: int) -> None:
        children = self.graph.children[node]
        if not children:
            return  # a finished game proves itself
        options = self.graph.options(side, node)
        if options is None:  # every reply is in the proof
            for c in children:
                self.row({self.var(side, c): 1, self.var(side, node): -1})
            return
        picks = [self.var("pick", side, node, c) for c in options]
        self.row({**{pick: 1 for pick in picks}, self.var(side, node): -1})
        for c, pick in zip(options, picks):
            self.row({self.var(side, c): 1, pick: -1})

    def proof(self, solution) -> tuple[int, dict[int, int]]:
        """The proofs the solution picks, walked from the root (bit sets per side)."""
        graph, done = self.graph, {1: 0, -1: 0}
        for side in (1, -1):
            stack = [graph.root]
            while stack:
                node = stack.pop()
                if done[side] >> node & 1:
                    continue
                done[side] |= 1 << node
                options = graph.options(side, node) if graph.children[node] else []
                if options is None:
                    stack.extend(graph.children[node])
                elif options:
                    stack.append(next(c for c in options
                                      if solution[self.var("pick", side, node, c)]))
        return (done[1] | done[-1]).bit_count(), done


def best_search_nodes() -> int:
    """Nodes our best exact search (alpha-beta, symmetric table, heuristic order) visits."""
    stats = Stats()
    alphabeta(BitBoard(), stats=stats, **BEST_SEARCH)
    return stats.nodes


def minimal_proof(budget: int = 5000) -> dict:
    """The smallest proof, with our best search beside it: ``{"nodes", "lower_bound",
    "proven", "branches", "positions", "best_search", "ratio"}``; proven optimal when SciPy
    is there, else the best the branch and bound found within ``budget`` branches."""
    return proof_search(budget)[1]


def proof_search(budget: int = 5000) -> tuple[ProofSearch, dict]:
    """``minimal_proof``'s search (its graph and best proof) and its figures."""
    graph = ProofGraph()
    search = ProofSearch(graph, budget)
    start = [(HOLD["X"], graph.root), (HOLD["O"], graph.root)]
    used, done, choices = search.expand(0, {1: 0, -1: 0}, list(start), [])
    lower = search.lower_bound(used, choices)
    search.search(0, {1: 0, -1: 0}, start, [])
    proven = search.branches < budget
    exact = least_proof_of_tictactoe()
    if exact is not None:
        (size, proof), proven = exact, True
        if size < search.best:
            search.best, search.proof = size, proof
    ours = best_search_nodes()
    return search, {"nodes": search.best, "lower_bound": search.best if proven else lower,
                    "proven": proven, "branches": search.branches,
                    "positions": len(graph.states), "best_search": ours,
                    "ratio": ours / search.best}
