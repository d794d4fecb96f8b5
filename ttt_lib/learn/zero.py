"""Search guided by a learned policy and value, trained from its own search (AlphaZero, small).

One network (numpy) reads a position as the player to move sees it and gives a prior over the
9 cells (softmax of the first 9 outputs, illegal cells left out) and a value in [-1, 1] for the
player to move (tanh of the 10th). PUCT search grows a tree with them: at a node it follows the move with
the largest

    Q(a) + c * P(a) * sqrt(N) / (1 + N(a))

(Q the mean value of the move so far, P its prior, N visits), asks the network at the new
leaf instead of playing a random game to the end, and a finished game is scored exactly.

Training is self-play: each move is searched with ``simulations`` playouts (Dirichlet noise
on the root's priors so that every move gets tried), played in proportion to the visit
counts for the first ``sample_moves`` moves, then the most visited. The network then learns
to predict the visit counts (cross-entropy) and the game's result (squared error), on
minibatches drawn from the last positions played and their 8 symmetric images.
"""
from __future__ import annotations

import math
import random

import numpy as np

from ..game import Game
from .masks import FREE, IMAGE, MOVE_TO, after, masks_of
from .net import Network
from .policy import check_count, check_games, check_schedule, check_seed
from .qnet import inputs
from .qtable import Progress, _quiet


class PolicyValueNet:
    """The network and its two heads: priors over the legal moves, and the value for the player
    to move."""

    def __init__(self, seed: int = 0, hidden: int = 64, rate: float = 1e-3) -> None:
        self.net = Network([18, hidden, hidden, 10], seed, rate)

    def evaluate(self, mine: int, theirs: int) -> tuple[dict[int, float], float]:
        """The priors of the legal moves and the value of the position for the player
        to move."""
        out = self.net(inputs(mine, theirs))
        moves = FREE[mine | theirs]
        logits = out[list(moves)]
        weights = np.exp(logits - logits.max())
        return dict(zip(moves, (weights / weights.sum()).tolist())), math.tanh(out[9])

    def learn(self, x: np.ndarray, pi: np.ndarray, z: np.ndarray) -> float:
        """One Adam step toward visit shares ``pi`` and results ``z``; the loss before it."""
        loss, grads = self.gradients(x, pi, z)
        self.net.step(grads)
        return loss

    def gradients(self, x: np.ndarray, pi: np.ndarray,
                  z: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The loss (cross-entropy to ``pi`` plus squared error to ``z``, batch means) and
        its gradient for every weight."""
        out, layer_inputs = self.net.forward(x)
        legal = (x[:, :9] + x[:, 9:]) == 0
        logits = np.where(legal, out[:, :9], -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        v = np.tanh(out[:, 9])
        grad = np.zeros_like(out)
        grad[:, :9] = (p - pi) / len(x)
        grad[:, 9] = 2 * (v - z) * (1 - v * v) / len(x)
        cross_entropy = -np.sum(pi * np.log(np.where(legal, p, 1.0))) / len(x)
        loss = float(cross_entropy + np.mean((v - z) ** 2))
        return loss, self.net.backward(layer_inputs, grad)


class Node:
    """A position in the tree: priors from the network, visits and value sums per move."""

    __slots__ = ("mine", "theirs", "prior", "visits", "total", "children")

    def __init__(self, mine: int, theirs: int) -> None:
        self.mine, self.theirs = mine, theirs
        self.prior: dict[int, float] | None = None
        self.visits: dict[int, int] = {}
        self.total: dict[int, float] = {}
        self.children: dict[int, Node] = {}


def puct_search(net: PolicyValueNet, mine: int, theirs: int, simulations: int,
                c: float = 1.5, noise: tuple[np.random.Generator, float] | None = None) -> Node:
    """Grow a PUCT tree from a position with ``simulations`` playouts; its root."""
    root = Node(mine, theirs)
    expand(net, root)
    if noise is not None:
        add_noise(root, *noise)
    for _ in range(simulations):
        playout(net, root, c)
    return root


def add_noise(root: Node, rng: np.random.Generator, share: float) -> None:
    """Mix Dirichlet noise into the root's priors (``share`` of it), so that self-play tries
    moves the network does not yet favour."""
    extra = rng.dirichlet([0.5] * len(root.prior))
    root.prior = {m: (1 - share) * p + share * e
                  for (m, p), e in zip(root.prior.items(), extra)}


def expand(net: PolicyValueNet, node: Node) -> float:
    """Ask the network about a new node; its value for the player to move."""
    node.prior, value = net.evaluate(node.mine, node.theirs)
    node.visits = dict.fromkeys(node.prior, 0)
    node.total = dict.fromkeys(node.prior, 0.0)
    return value


def select(node: Node, c: float) -> int:
    """The move with the largest mean value plus prior-weighted exploration bonus."""
    root_n = math.sqrt(sum(node.visits.values()) or 1)

    def score(move: int) -> float:
        n = node.visits[move]
        q = node.total[move] / n if n else 0.0
        return q + c * node.prior[move] * root_n / (1 + n)

    return max(node.prior, key=score)


def playout(net: PolicyValueNet, node: Node, c: float) -> float:
    """One descent: select down to a new node or a finished game, evaluate, back up.
    Returns the value for the player to move at ``node``."""
    move = select(node, c)
    next_mine, next_theirs, result = after(node.mine, node.theirs, move)
    if result is not None:
        value = result
    elif move in node.children:
        value = -playout(net, node.children[move], c)
    else:
        child = node.children[move] = Node(next_mine, next_theirs)
        value = -expand(net, child)
    node.visits[move] += 1
    node.total[move] += value
    return value


def most_visited(root: Node) -> int:
    """The root's move with the most visits (the first in move order on a tie)."""
    return max(root.visits, key=root.visits.get)


class Zero:
    """The policy/value network and its self-play training; ``best_move`` searches with it."""

    kind = "zero"

    def __init__(self, seed: int = 0, hidden: int = 64, rate: float = 1e-3,
                 simulations: int = 50, c: float = 1.5, noise: float = 0.25,
                 sample_moves: int = 4, batch: int = 64, updates: int = 4,
                 buffer: int = 20_000, playouts: int = 100) -> None:
        self.seed = check_seed(seed)
        check_count(hidden, "hidden (units per layer)", 1, 1024)
        for name, value in (("simulations", simulations),
                            ("batch", batch), ("updates", updates), ("buffer", buffer),
                            ("playouts", playouts)):
            check_count(value, name)
        check_count(sample_moves, "sample_moves", 0, 9)
        rate = check_schedule(rate, "rate (the step size)")[0]
        noise = check_schedule(noise, "noise (the share of the root's prior)")[0]
        c = check_schedule(c, "c (the exploration constant)", 100.0)[0]
        self.hidden, self.rate, self.simulations, self.c = hidden, rate, simulations, c
        self.noise, self.sample_moves, self.batch = noise, sample_moves, batch
        self.updates, self.playouts = updates, playouts
        self.net = PolicyValueNet(seed, hidden, rate)
        self.buffer: list[tuple[np.ndarray, np.ndarray, float]] = []
        self.buffer_size = buffer
        self.rng, self.np_rng = random.Random(seed), np.random.default_rng(seed)
        self.games = 0

    def options(self) -> dict:
        """The options that rebuild this learner (saved with its weights)."""
        return {"seed": self.seed, "hidden": self.hidden, "rate": self.rate,
                "simulations": self.simulations, "c": self.c, "noise": self.noise,
                "sample_moves": self.sample_moves, "batch": self.batch,
                "updates": self.updates, "buffer": self.buffer_size,
                "playouts": self.playouts}

    def search(self, state: Game, playouts: int | None = None) -> Node:
        """The PUCT tree of ``state`` after ``playouts`` (default ``self.playouts``)."""
        return puct_search(self.net, *masks_of(state), playouts or self.playouts, self.c)

    def value(self, state: Game) -> float:
        """The value head's estimate of ``state`` for the player to move (no search)."""
        return self.net.evaluate(*masks_of(state))[1]

    def best_move(self, state: Game, rng: random.Random | None = None) -> int:
        """The most visited move of a PUCT search from ``state``."""
        return most_visited(self.search(state))

    def prior_move(self, state: Game) -> int:
        """The network's own choice, without search: the move with the largest prior."""
        prior, _ = self.net.evaluate(*masks_of(state))
        return max(prior, key=prior.get)

    def train(self, games: int, progress: Progress = _quiet) -> "Zero":
        """Play ``games`` self-play games, learning after each one."""
        check_games(games)
        for n in range(games):
            self.play_game()
            for _ in range(self.updates):
                self.learn_batch()
            self.games += 1
            progress(n + 1, games)
        return self

    def play_game(self) -> list[tuple[int, int, dict[int, int], float]]:
        """One self-play game; its positions, visit counts and results join the buffer.
        Returns them too: ``(mine, theirs, visits, z)`` per position, ``z`` the result for
        the player to move there."""
        mine = theirs = ply = 0
        seen, result = [], None
        while result is None:
            root = puct_search(self.net, mine, theirs, self.simulations, self.c,
                               (self.np_rng, self.noise))
            moves, counts = list(root.visits), list(root.visits.values())
            if ply < self.sample_moves:
                move = self.rng.choices(moves, weights=counts)[0]
            else:
                move = most_visited(root)
            seen.append((mine, theirs, dict(zip(moves, counts))))
            mine, theirs, result = after(mine, theirs, move)
            ply += 1
        # The result is for the player who made the last move: z alternates going back.
        record = [(m, t, visits, result if (len(seen) - 1 - i) % 2 == 0 else -result)
                  for i, (m, t, visits) in enumerate(seen)]
        for m, t, visits, z in reversed(record):
            self.remember(m, t, visits, z)
        return record

    def remember(self, mine: int, theirs: int, visits: dict[int, int], z: float) -> None:
        """Store a position with its 8 images: inputs, visit shares, and the
        result for the player to move there."""
        total = sum(visits.values())
        for s in range(8):
            pi = np.zeros(9)
            for move, count in visits.items():
                pi[MOVE_TO[s][move]] = count / total
            self.buffer.append((inputs(IMAGE[s][mine], IMAGE[s][theirs]), pi, z))
        del self.buffer[:-self.buffer_size]

    def learn_batch(self) -> float:
        """One step on a random minibatch of the buffer; the loss before the step."""
        picks = self.np_rng.integers(0, len(self.buffer), self.batch)
        x = np.array([self.buffer[i][0] for i in picks])
        pi = np.array([self.buffer[i][1] for i in picks])
        z = np.array([self.buffer[i][2] for i in picks])
        return self.net.learn(x, pi, z)
