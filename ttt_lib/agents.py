"""Players: named agents that choose a move, built on the searches.

Every agent has ``choose(state) -> move`` and, after each choice, ``stats``: the work its
search did for that move (a ``Stats``, or None for agents that do not search). Build one by
name with ``make_agent("mcts", playouts=1000, seed=0)``. Every agent draws its random choices
(including ties between equally good moves) from its own seeded ``random.Random``.

The exact agents ``perfect`` and ``expectimax`` search a 3x3 position once per process and
remember what they found, with its ``stats`` (``answered_once``): the same answer, counted
by the same observer, without searching again in every game of a tournament.
"""
from __future__ import annotations

import inspect
import math
import numbers
import random
from collections.abc import Callable
from dataclasses import replace

from .boards.bit import BitBoard
from .boards.list import ListBoard
from .checks import short
from .game import MAX, Game
from .learn.agents import LEARNED_AGENTS
from .search.monte_carlo import SQRT2, MCTSTree, flat_monte_carlo, tree_stats
from .search.exact import best_moves, move_values, solve
from .player import Agent, AgentError
from .search.trace import Stats


# A move's search is bounded so that a typo (playouts=10**9) fails at once instead of running
# for hours: a million MCTS iterations already take about half a minute.
MAX_PLAYOUTS = 1_000_000


def _check_flag(value, name: str) -> None:
    """A yes/no option is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} is True or False, not {short(value)}")


# (the question, the board's type, its key) -> an exact search's answer and its Stats
_ANSWERS: dict[tuple, tuple] = {}
_ANSWERS_KEPT = 100_000  # answers kept before the table starts afresh
ANSWERED_ONCE = (BitBoard, ListBoard)  # boards whose key() is the whole position


def answered_once(question: tuple, state: Game, search: Callable[[], tuple]) -> tuple:
    """``search()``, run once per process for each position of a 3x3 board and remembered.

    An exact agent's search from a position finds the same answer, with the same work (a
    ``Stats`` among ``search()``'s results, counted by the observer as it ran), every time it
    is asked: a tournament asks it in every game. ``question`` names the search and the
    options it depends on. (Other boards are searched every time.)"""
    if type(state) not in ANSWERED_ONCE:
        return search()
    key = (question, type(state), state.key())
    answer = _ANSWERS.get(key)
    if answer is None:
        if len(_ANSWERS) >= _ANSWERS_KEPT:
            _ANSWERS.clear()
        answer = _ANSWERS[key] = search()
    return answer


def best_for_mover(state: Game, values: dict) -> list:
    """The moves whose value (for X) is best for the player to move, in move order."""
    pick = max if state.to_move == MAX else min
    target = pick(values.values())
    return [move for move, value in values.items() if value == target]


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, state: Game):
        return self.rng.choice(self.legal_moves(state))


class GreedyAgent(Agent):
    """One ply of look-ahead: a move that wins at once, else one that blocks the opponent's
    immediate win, else a random move (choices among equals at random). Any board with
    ``cells()`` and ``lines()``: 3x3, m,n,k, Connect Four."""

    name = "greedy"

    def choose(self, state: Game):
        from .search.continuation import threats
        moves = self.legal_moves(state)
        return self.rng.choice(threats(state) or moves)


class PerfectAgent(Agent):
    """Plays a uniformly random optimal move, found by the memoised negamax solver.

    On a 3x3 board each position is solved once per process (``answered_once``)."""

    name = "perfect"

    def choose(self, state: Game):
        self.legal_moves(state)
        work, moves = answered_once(("perfect",), state, lambda: _solved(state))
        self.stats = replace(work)  # a copy: the caller may add to it
        return self.rng.choice(moves)


def _solved(state: Game) -> tuple[Stats, list]:
    """The solver's work from ``state`` (a fresh table) and the optimal moves it finds."""
    stats, table = Stats(), {}
    solve(state, table, stats)  # fills the table: the children are looked up below
    return stats, best_moves(state, table)


class SearchAgent(Agent):
    """Searches every child, then plays one of the best for the player to move (ties at random)."""

    def choose(self, state: Game):
        self.legal_moves(state)
        self.stats = Stats()
        values = move_values(state, self.child_value, player=state.to_move)
        return self.rng.choice(best_for_mover(state, values))

    def child_value(self, child: Game, player: int) -> float:
        """X's value of the position after one of ``player``'s moves."""
        raise NotImplementedError


class MinimaxAgent(SearchAgent):
    """Plain minimax on every child: exact, and slow from an empty board (~550k nodes)."""

    name = "minimax"

    def child_value(self, child: Game, player: int) -> float:
        from .search.exact import minimax
        from .search.observe import count_nodes
        value, work = count_nodes(minimax, child)
        self.stats.add(work)
        return value


class AlphaBetaAgent(SearchAgent):
    """Alpha-beta with a full window on every child, so equal moves tie exactly.

    The speed-ups are those of ``alphabeta``: ``ordering`` (None, "heuristic", "threats"),
    ``killers``, and ``table`` (one transposition table per move, shared by its children;
    keyed by symmetry class with ``symmetry``).
    """

    name = "alphabeta"

    def __init__(self, ordering: str | None = None, killers: bool = False,
                 table: bool = False, symmetry: bool = False, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        from .search.ordering import ORDERINGS, ordering_function
        if isinstance(ordering, str) and ordering not in ORDERINGS:
            raise UnknownAgentError(f"unknown ordering {short(ordering)}; choose None, "
                                    f"{', '.join(map(repr, ORDERINGS))} or a function")
        if not (ordering is None or isinstance(ordering, str) or callable(ordering)):
            raise TypeError(f"ordering is None, a name or a function, "
                            f"not {type(ordering).__name__}")
        for flag, value in (("killers", killers), ("table", table), ("symmetry", symmetry)):
            _check_flag(value, flag)
        ordering_function(ordering)  # an unknown ordering fails now, not at the first move
        self.ordering, self.killers = ordering, killers
        self.table, self.symmetry = table, symmetry
        self._table: dict | None = None

    def choose(self, state: Game):
        self._table = {} if self.table or self.symmetry else None
        return super().choose(state)

    def child_value(self, child: Game, player: int) -> float:
        from .search.pruning import alphabeta
        return alphabeta(child, stats=self.stats, table=self._table, symmetry=self.symmetry,
                         ordering=self.ordering, killers=self.killers)


class HeuristicAgent(SearchAgent):
    """Looks ``depth`` moves ahead (its own included), then scores positions by their line score
    (``search.line_score``)."""

    name = "heuristic"

    def __init__(self, depth: int = 2, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise AgentError(f"depth counts the moves looked ahead: a whole number >= 1, "
                             f"not {short(depth)}")
        self.depth = depth

    def child_value(self, child: Game, player: int) -> float:
        from .search.depthlimit import depth_limited
        return depth_limited(child, self.depth - 1, stats=self.stats)


class ExpectimaxAgent(SearchAgent):
    """Maximises its expected result against a model of the opponent: uniformly random
    by default, or perfect except for a random move with probability ``epsilon``.

    On a 3x3 board each child is searched once per process (``answered_once``) when the
    work is counted, as ``choose`` does."""

    name = "expectimax"

    def __init__(self, epsilon: float | None = None, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        from .search.opponent_model import epsilon_perfect, uniform_random
        if epsilon is not None and (isinstance(epsilon, bool)
                                    or not isinstance(epsilon, numbers.Real)):
            raise TypeError(f"epsilon is a probability or None, not {type(epsilon).__name__}")
        if epsilon is not None and not 0 <= epsilon <= 1:
            raise AgentError(f"epsilon is a probability in [0, 1], not {short(epsilon)}")
        self.epsilon = epsilon
        self.model = uniform_random if epsilon is None else epsilon_perfect(epsilon)

    def child_value(self, child: Game, player: int) -> float:
        from .search.opponent_model import expectimax
        if self.stats is None:  # asked outside ``choose``: no work to count
            return expectimax(child, player, self.model)
        question = ("expectimax", type(self.epsilon), self.epsilon, player)
        value, work = answered_once(question, child, lambda: self._searched(child, player))
        self.stats.add(work)
        return value

    def _searched(self, child: Game, player: int) -> tuple[float, Stats]:
        """X's expected value of ``child`` and the work of its search."""
        from .search.opponent_model import expectimax
        work = Stats()
        return expectimax(child, player, self.model, stats=work), work


def _check_count(value, what: str, least: int, most: int = MAX_PLAYOUTS) -> None:
    """A count option is an int in least..most."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a whole number, not {type(value).__name__}")
    if not least <= value <= most:
        raise AgentError(f"{what} is a whole number at most {most:,} and >= {least}, "
                         f"not {short(value)}")


class FlatMonteCarloAgent(Agent):
    """Plays the move with the best mean result over ``playouts`` random games after it."""

    name = "flat-mc"

    def __init__(self, playouts: int = 100, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        _check_count(playouts, "playouts (random games per move)", 1)
        self.playouts = playouts

    def choose(self, state: Game):
        self.legal_moves(state)
        values = flat_monte_carlo(state, self.playouts, rng=self.rng)
        self.stats = Stats(nodes=len(values), leaves=len(values) * self.playouts)
        return self.rng.choice(best_for_mover(state, values))


class MCTSAgent(Agent):
    """MCTS/UCT with ``playouts`` iterations per move; ``tree`` keeps the last search.

    By default symmetric positions share their statistics (``shared``): with 1,000 playouts
    that player never lost to ``perfect`` in our seeded tournaments, while plain UCT
    (``shared=False``) still lost about one game in twelve as O.
    """

    name = "mcts"

    def __init__(self, playouts: int = 1000, c: float = SQRT2, shared: bool = True,
                 solver: bool = False, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        _check_count(playouts, "playouts (MCTS iterations per move)", 2)
        if isinstance(c, bool) or not isinstance(c, (int, float)):
            raise TypeError(f"the exploration constant c is a number, not {type(c).__name__}")
        if not 0 <= c < math.inf:
            raise AgentError(f"the exploration constant c is a number >= 0, not {short(c)}")
        _check_flag(shared, "shared")
        _check_flag(solver, "solver")
        self.playouts, self.c, self.shared, self.solver = playouts, c, shared, solver
        self.tree: MCTSTree | None = None

    def choose(self, state: Game):
        self.legal_moves(state)
        self.tree = MCTSTree(state, c=self.c, shared=self.shared, solver=self.solver,
                             rng=self.rng).run(self.playouts)
        self.stats = tree_stats(self.tree)
        return self.tree.best_move()


class DeepeningAgent(Agent):
    """Iterative deepening against the clock: ``seconds`` per move, or a budget of ``nodes``
    per move (the same moves on every machine), or both (whichever runs out first).

    Positions at the depth limit are scored by ``evaluate`` (``line_score`` by default, for
    boards with ``cells()`` and ``lines()``); there, the ``forced`` moves (by default a win
    at once, else the blocks) are searched up to ``extra`` moves further. Before the limit
    the moves are tried in ``ordering`` (as ``alphabeta``'s option; none by default: on 3x3
    the line-score ordering saves nodes but costs more time than it saves). A board may offer
    its own of the three (``BOARD_RULES``): Connect Four scores its windows and threats, finds
    the forced moves and orders the moves on its bitboards, each used unless given. Ties
    between the last complete round's best moves go to the agent's seeded RNG; ``result``
    keeps the last search.
    The evaluation and the rule are ``remembered`` during a move, and root moves with
    symmetric results are searched once (``symmetry``; by default on 3x3 boards): the same
    answers, sooner.
    """

    name = "deepening"

    def __init__(self, seconds: float | None = 0.1, nodes: int | None = None,
                 extra: int = 4, evaluate: Callable | None = None,
                 forced: Callable | None = None, ordering: str | Callable | None = None,
                 symmetry: bool | None = None, seed: int | None = 0,
                 rng: random.Random | None = None) -> None:
        super().__init__(seed, rng)
        from .search.continuation import Continuation, line_score, nothing_forced, threats
        from .checks import check_deepening
        from .search.ordering import ordering_function
        check_deepening(seconds, nodes, None)  # a bad limit fails now, not at the first move
        _check_count(extra, "extra (moves searched past the depth limit)", 0, 1000)
        for option, fn in (("evaluate", evaluate), ("forced", forced)):
            if fn is not None and not callable(fn):
                raise TypeError(f"{option} is a function of a state, not {type(fn).__name__}")
        if not (ordering is None or isinstance(ordering, str) or callable(ordering)):
            raise TypeError(f"ordering is None, a name or a function, "
                            f"not {type(ordering).__name__}")
        try:
            order = ordering_function(ordering)
        except ValueError as error:
            raise UnknownAgentError(str(error)) from None
        if symmetry is not None:
            _check_flag(symmetry, "symmetry")
        self.seconds, self.nodes, self.symmetry = seconds, nodes, symmetry
        self.rules = Continuation(evaluate or line_score,
                                  forced or (threats if extra else nothing_forced), extra, order)
        self.given = {"evaluate": evaluate, "forced": forced or (None if extra else nothing_forced),
                      "order": order}
        self.result = None

    def choose(self, state: Game):
        from .search.continuation import remembered
        from .search.deepening import iterative_deepening
        self.legal_moves(state)
        rules = self._rules_for(state)
        rules = replace(rules, evaluate=remembered(rules.evaluate),
                        forced=remembered(rules.forced))  # fresh tables for each move
        self.result = iterative_deepening(state, self.seconds, nodes=self.nodes, rules=rules,
                                          symmetry=self._symmetry(state))
        self.stats = Stats(nodes=self.result.nodes)
        return self.rng.choice(self.result.last.best_moves)

    def _rules_for(self, state: Game):
        """The rules for ``state``'s board: each option as given, else the board's own where
        it offers one (``BOARD_RULES``: Connect Four's heuristic, forced moves and centre-first
        order on its bitboards), else the generic line score and threats, unordered."""
        offered = {option: rule for option, (method, rule) in BOARD_RULES.items()
                   if self.given[option] is None and hasattr(state, method)}
        return replace(self.rules, **offered)

    def _symmetry(self, state: Game) -> bool:
        """As asked, or by default on the 3x3 boards, whose symmetry costs nothing (an m,n,k
        board's symmetry tables take a good part of a second to build, the first time)."""
        from .boards import BitBoard, ListBoard
        return isinstance(state, (BitBoard, ListBoard)) if self.symmetry is None \
            else self.symmetry


def board_heuristic(state: Game) -> float:
    """The board's own evaluation, X's view (``state.heuristic()``)."""
    return state.heuristic()


def board_forced(state: Game) -> list:
    """The board's own moves that cannot wait (``state.forced_moves()``)."""
    return state.forced_moves()


def board_order(state: Game, moves: list) -> list:
    """The board's own move order (``state.move_order(moves)``)."""
    return state.move_order(moves)


BOARD_RULES: dict[str, tuple[str, Callable]] = {
    "evaluate": ("heuristic", board_heuristic),
    "forced": ("forced_moves", board_forced),
    "order": ("move_order", board_order),
}
"""Each rule of the deadline agent a board may offer: the method it looks for, the rule that
calls it (Connect Four offers all three; 3x3 and m,n,k boards none: the generic rules stay)."""


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "minimax": MinimaxAgent,
    "alphabeta": AlphaBetaAgent,
    "perfect": PerfectAgent,
    "heuristic": HeuristicAgent,
    "expectimax": ExpectimaxAgent,
    "flat-mc": FlatMonteCarloAgent,
    "mcts": MCTSAgent,
    "deepening": DeepeningAgent,
    **LEARNED_AGENTS,  # qtable, td, qnet, zero: trained on first use (numpy only then)
}


class UnknownAgentError(AgentError):
    """An agent name or option that does not exist."""


def agent_options(name: str) -> list[str]:
    """The keyword options the agent called ``name`` accepts."""
    if not isinstance(name, str):
        raise TypeError(f"an agent's name is a string, not {type(name).__name__}")
    if name not in AGENTS:
        raise UnknownAgentError(
            f"unknown agent {short(name)}; choose one of: {', '.join(sorted(AGENTS))}")
    return [p for p in inspect.signature(AGENTS[name]).parameters if p != "self"]


def make_agent(name: str, **options) -> Agent:
    """Build the agent called ``name`` with its options (e.g. ``seed=0``)."""
    if not isinstance(name, str):
        raise TypeError(f"an agent's name is a string, not {type(name).__name__}")
    accepted = agent_options(name)
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise UnknownAgentError(
            f"agent {short(name)} has no option {short(unknown[0])}; its options are: "
            f"{', '.join(accepted) or 'none'}")
    return AGENTS[name](**options)
