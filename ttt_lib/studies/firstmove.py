"""How a naive program picks a move: every child of the position searched on its own.

The classic self-play blog post "Tic-tac-toe using AI from the last century" (adrian.idv.hk,
15 March 2019, https://www.adrian.idv.hk/2019-03-15-tictactoe/, code at
https://github.com/righthandabacus/tttai) lets O open and prints, before each move, how many
times its search function was called. Its driver calls the search once per child of the
current position, in row-major order, each call with a fresh full window, and does not count
the position itself. Its memoised minimax keeps one cache for the whole game (shared by the
children and by later moves) and stores only inner positions, so a finished board is counted
at every visit; its killer moves are the last four moves that closed the window at X's nodes,
at any depth, tried first at X's nodes. The published first-move counts:

    plain minimax 549,945 · alpha-beta 30,709 · memoised minimax 7,381 · killers 21,667

``first_move`` reproduces them exactly, and ``replay`` the blog's whole game (the same count
before every move). Who opens is a parameter; the first three counts do not depend on it
(swapping X and O mirrors the search), the killers do (they act at X's nodes only).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ..boards import BitBoard
from ..errors import IllegalMoveError
from ..game import MAX, Game
from ..search.pruning import AlphaBeta, alphabeta
from ..search.exact import minimax
from ..search.observe import count_nodes, observe
from ..search.trace import Stats, node_name

SOURCE = ("'Tic-tac-toe using AI from the last century', adrian.idv.hk, 15 March 2019, "
          "https://www.adrian.idv.hk/2019-03-15-tictactoe/")
VARIANTS = ("minimax", "alphabeta", "memo", "killers")
PUBLISHED_FIRST_MOVE = {"minimax": 549_945, "alphabeta": 30_709, "memo": 7_381,
                        "killers": 21_667}
# The blog's game (O opens; cells row-major) and its count before each move, per variant.
PUBLISHED_GAME = (5, 2, 6, 0, 1, 4, 8, 7, 3)
PUBLISHED_GAME_COUNTS = {
    "minimax": (549_945, 63_904, 8_751, 1_456, 205, 60, 13, 4, 1),
    "alphabeta": (30_709, 9_785, 1_589, 560, 121, 53, 13, 4, 1),
    "memo": (7_381, 0, 0, 0, 0, 0, 0, 0, 1),
    "killers": (21_667, 7_169, 1_514, 532, 121, 53, 13, 4, 1),
}


class UnknownVariantError(ValueError):
    """A driver variant that does not exist."""


@dataclass
class FirstMove:
    """Each move's value for X as the naive driver found it, and the work it took."""

    to_move: int
    values: dict
    stats: Stats = field(default_factory=Stats)

    @property
    def value(self) -> float:
        """The position's value for X: the best child value for the player to move."""
        return (max if self.to_move == MAX else min)(self.values.values())

    @property
    def best_moves(self) -> list:
        return sorted(move for move, value in self.values.items() if value == self.value)


def new_memory(variant: str):
    """What a variant keeps from one search to the next: a cache, killer moves, or nothing."""
    check_variant(variant)
    return {"memo": dict, "killers": RecentKillers}.get(variant, lambda: None)()


def first_move(state: Game, variant: str = "minimax", memory=None) -> FirstMove:
    """Search each child of ``state`` with a fresh full window, in move order.

    ``memory`` (see ``new_memory``) carries the cache or the killers over from earlier
    moves, as in the blog; by default it starts empty. The position itself is not counted.
    """
    if state.is_terminal():
        raise IllegalMoveError(
            f"the game is over at {node_name(state)}: there is no move to choose")
    memory = new_memory(variant) if memory is None else memory
    result = FirstMove(state.to_move, {})
    search = child_search(variant, result.stats, memory)
    for move in state.moves():
        result.values[move] = search(state.play(move))
    return result


def replay(moves: Sequence[int] = PUBLISHED_GAME, variant: str = "minimax",
           opener: str = "O") -> list[int]:
    """The driver's count before each move of a game, memory kept across the game."""
    memory = new_memory(variant)
    state, counts = BitBoard(opener), []
    for move in moves:
        counts.append(first_move(state, variant, memory).stats.nodes)
        state = state.play(move)
    return counts


def child_search(variant: str, stats: Stats, memory) -> Callable[[Game], float]:
    """The search a variant runs on each child: X's value of the child, its work counted
    into ``stats`` from outside."""
    check_variant(variant)
    if variant == "minimax":
        return lambda child: counted(minimax, child, stats)
    if variant == "alphabeta":
        return lambda child: alphabeta(child, stats=stats, form="maxmin")
    if variant == "memo":
        return lambda child: observe(lambda: cached_minimax(child, memory), [cached_search],
                                     [cached_minimax], stats)[0]
    engine = AlphaBeta(killers=memory)
    return lambda child: engine.observed(lambda: engine.value(child), stats)


def counted(search: Callable[[Game], float], state: Game, stats: Stats) -> float:
    """``search(state)``, its nodes added to ``stats``."""
    value, work = count_nodes(search, state)
    stats.add(work)
    return value


def cached_minimax(state: Game, cache: dict[Hashable, float]) -> float:
    """Plain minimax that remembers inner positions' values (X's view), as the blog's cache.

    Finished boards are not stored (they are cheap to score), so they count at every visit;
    ``negamax_memo`` stores them too, which is why it counts 5,478 positions, not 7,381.
    """
    key = state.key()
    if key in cache:
        return cache[key]
    return cached_search(state, cache)


def cached_search(state: Game, cache: dict[Hashable, float]) -> float:
    """``minimax`` of one position, its children through the cache; stores inner values."""
    if state.is_terminal():
        return state.utility()
    values = [cached_minimax(state.play(move), cache) for move in state.moves()]
    cache[state.key()] = max(values) if state.to_move == MAX else min(values)
    return cache[state.key()]


class RecentKillers:
    """The blog's killer moves: the last four that closed the window at X's nodes, any depth.

    At X's nodes they are tried first (in move order among themselves); O's nodes keep the
    plain order. Same interface as ``ordering.Killers``.
    """

    def __init__(self, size: int = 4) -> None:
        self.recent: deque = deque(maxlen=size)

    def record(self, state: Game, depth: int, move) -> None:
        if state.to_move == MAX:
            self.recent.append(move)

    def first(self, state: Game, depth: int, moves: list) -> list:
        if state.to_move != MAX:
            return moves
        return sorted(moves, key=lambda move: move not in self.recent)


def check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise UnknownVariantError(
            f"unknown driver variant {variant!r}; choose one of: {', '.join(VARIANTS)}")
