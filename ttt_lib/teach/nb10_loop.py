"""Exercise 2 of notebook 10 (write it): the Q-learning agent's self-play loop, judged by what
it learns (``check_10_self_play``).

The student's ``fn(Q, start, alpha, epsilon, rng)`` plays one epsilon-greedy self-play game
from ``start``, updating the table ``Q`` (a ``QValues``) after each move. The checker trains a
fresh table with it from seeded games (``GAMES_10`` games a seed, alpha and epsilon falling
as the library's schedules fall) and judges its greedy policy as the library's learners are
judged: the share of the 4,520 non-terminal positions where its move is optimal. The mean over
the seeds must come within ``TOLERANCE_10`` of the library's ``QTable`` trained on the same
seeds with the same options (games, schedules, a symmetric table, no random side). The seeds
move with ``core.fresh_cases``, so a grader's run uses seeds the student never saw.

When the share falls short, small probes (a rigged table, one game from a chosen position)
say which typical mistake the function makes, from what it did to the table: no exploration,
no terminal reward or the wrong player's reward, the wrong sign for the opponent's value, or
the update aimed at the wrong position.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

from ..boards.bit import BitBoard
from ..learn.masks import MOVE_TO, canonical
from ..learn.policy import linear, optimal_share
from ..learn.qtable import QTable
from .core import case_seed, unanswered, write_it
from .judge import call_limited, exact_number, failure_of

__all__ = ["GAMES_10", "QValues", "SEEDS_10", "TOLERANCE_10", "check_10_self_play",
           "train_loop"]

GAMES_10 = 1_000     # training games per seed
SEEDS_10 = 2         # seeds, each a fresh table
TOLERANCE_10 = 0.06  # how far below the library's mean share the student's may fall
ALPHA_SCHEDULE, EPSILON_SCHEDULE = (0.5, 0.1), (1.0, 0.1)  # QTable's defaults


@lru_cache(maxsize=None)
def _entry_of(mine: int, theirs: int) -> tuple[int, int]:
    """The shared entry of a position's 8 images, and the symmetry mapping its moves."""
    return canonical(mine, theirs)


class QValues:
    """The Q-table handed to the student's function: ``Q[state, move]`` reads a value (0.0
    until one is written), ``Q[state, move] = value`` writes one. ``state`` is a board, the
    position the move is played from; a position and its 8 turned or flipped images share one
    entry, as in ``QTable(symmetric=True)``."""

    __slots__ = ("_values",)
    REMOTE = {"call": ("__getitem__", "__setitem__")}  # a probe lends it to a box (faces)

    def __init__(self) -> None:
        self._values: dict[int, float] = {}

    @staticmethod
    def entry(index) -> int:
        """The slot of ``Q[state, move]``; a TypeError naming what is wrong with the index."""
        if type(index) is not tuple or len(index) != 2:
            raise TypeError("index the table with a position and a move: Q[state, move]")
        state, move = index
        if not isinstance(state, BitBoard):
            raise TypeError(f"Q[state, move] takes the board itself as state, not "
                            f"{type(state).__name__}")
        move = exact_number(move)
        if type(move) is not int or not 0 <= move < 9:
            raise TypeError(f"Q[state, move] takes a cell 0..8 as move, not {index[1]!r}")
        mine, theirs = (state.x, state.o) if state.to_move == 1 else (state.o, state.x)
        key, s = _entry_of(mine, theirs)
        return key * 9 + MOVE_TO[s][move]

    def __getitem__(self, index) -> float:
        return self._values.get(self.entry(index), 0.0)

    def __setitem__(self, index, value) -> None:
        number = exact_number(value)
        if number is None or not math.isfinite(number):
            raise TypeError(f"a Q-value is a finite number, not {value!r}")
        self._values[self.entry(index)] = float(number)


class _Reader:
    """The checker's own view of a ``QValues``: the storage it made, read by exact type (the
    student's function may rebind the table's attributes, never this reference)."""

    def __init__(self, table: QValues) -> None:
        self.table, self.store = table, table._values

    def __getitem__(self, index) -> float:
        value = self.store.get(QValues.entry(index), 0.0)
        return value if type(value) is float else math.nan

    def __setitem__(self, index, value: float) -> None:
        self.store[QValues.entry(index)] = float(value)

    def greedy(self, state: BitBoard) -> int:
        """The first move in move order with the largest value (a damaged value never wins)."""
        values = [(self[state, m], m) for m in state.moves()]
        top = max((v for v, _ in values if not math.isnan(v)), default=0.0)
        return next((m for v, m in values if v == top), values[0][1])


def train_loop(fn, seed: int, games: int = GAMES_10) -> _Reader:
    """A fresh table trained by ``games`` calls of ``fn`` from the empty board, alpha and
    epsilon falling linearly over the games, one ``random.Random(seed)`` for all of them."""
    reader, rng = _Reader(QValues()), random.Random(seed)
    for n in range(games):
        fraction = n / max(games - 1, 1)
        call_limited(fn, (reader.table, BitBoard(), linear(*ALPHA_SCHEDULE, fraction),
                          linear(*EPSILON_SCHEDULE, fraction), rng))
    return reader


# What a grading box may run with the student's loop (answering's "drive"): training takes
# about 100,000 uses of the table, too many questions for the channel, so the box trains a
# table of its own and sends its entries back as plain data; the share of optimal moves, the
# comparison with the library and the verdict are computed in the grader.
BOX_DRIVERS = ("trained_entries",)


def trained_entries(fn, seed: int, games: int = GAMES_10) -> list[list]:
    """The entries ``[slot, value]`` of a table trained with ``fn`` (``train_loop``)."""
    return sorted([key, value] for key, value in train_loop(fn, seed, games).store.items())


def _table_of(entries) -> _Reader:
    """A table from entries a box sent: exact ``int`` slots, ``float`` values, else
    ``BadTable``."""
    reader = _Reader(QValues())
    if type(entries) is not list:
        raise BadTable("the box sent no table")
    for entry in entries:
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int \
                or type(entry[1]) is not float or not 0 <= entry[0] < 9 * 2 ** 18:
            raise BadTable("the box sent a table that is not one")
        reader.store[entry[0]] = entry[1]
    return reader


class BadTable(ValueError):
    """What a grading box sent for a trained table is not one."""


def _trained(fn, seed: int) -> _Reader:
    if getattr(fn, "remote", False) is True:  # asked through the grading channel
        return _table_of(fn.drive("trained_entries", seed, GAMES_10))
    return train_loop(fn, seed)


@lru_cache(maxsize=8)
def library_share(seed: int, games: int = GAMES_10) -> float:
    """The share of optimal moves of the library's Q-table trained like the student's."""
    learner = QTable(seed=seed, alpha=ALPHA_SCHEDULE, epsilon=EPSILON_SCHEDULE,
                     random_share=0.0, symmetric=True).train(games)
    return optimal_share(learner.best_move)


# ------------------------------------------------------------------ probes: which mistake

class _Start(BitBoard):
    """A probe's starting board: it records the moves played from it (its children are
    plain boards)."""

    __slots__ = ("played",)

    def play(self, move, player=None) -> BitBoard:
        self.played.append(move)
        return super().play(move, player)


def _probe(fn, start: str, rigged: dict, epsilon: float, seed: int = 0,
           alpha: float = 0.5) -> tuple[_Reader, _Start]:
    """A table rigged with ``rigged`` ({(position text, move): value}), then one game of
    ``fn`` from the position ``start``; the table and the start (with its ``played``)."""
    reader = _Reader(QValues())
    for (text, move), value in rigged.items():
        reader[BitBoard.from_text(text), move] = value
    board = BitBoard.from_text(start)
    state = _Start._make(board.x, board.o, board.to_move, board.first)
    state.played = []
    call_limited(fn, (reader.table, state, alpha, epsilon, random.Random(case_seed(seed))))
    return reader, state


EMPTY, CENTRE = ".../.../...", 4
OPENING = {(EMPTY, m): 0.9 if m == CENTRE else -0.5 for m in range(9)}  # the centre greedy
O_WINS = "XX./OO./X.."  # O to move; cell 5 wins, the rest rigged low
STEP, STEP_MOVE = "XOX/XO./O..", 7  # X to move, 3 cells free; 7 ends nothing
NEXT = "XOX/XO./OX."                  # after it: O to move, 5 and 8 free, neither ends it


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=1e-9)


def _openings(fn, epsilon: float, games: int) -> set:
    """The cells the first move took in ``games`` probe games from the rigged empty board."""
    return {move for seed in range(games)
            for move in _probe(fn, EMPTY, OPENING, epsilon, seed=1010 + seed)[1].played}


def _explores(fn) -> str | None:
    """Epsilon 1: the first moves are random, not all the greedy centre; epsilon 0: all are."""
    if _openings(fn, 1.0, 12) == {CENTRE}:
        return ("no exploration: with epsilon 1 every move should be random, yet all 12 "
                "games opened in the centre, the greedy move (explore when rng.random() < "
                "epsilon, choosing among state.moves() with rng).")
    if _openings(fn, 0.0, 4) - {CENTRE}:
        return ("with epsilon 0 every move is the greedy one (the largest Q[state, move]), "
                "yet some games did not open in the centre: explore only when "
                "rng.random() < epsilon.")
    return None


def _terminal_reward(fn) -> str | None:
    """O's winning move, rigged greedy at 0.5: it moves halfway toward +1."""
    rigged = {(O_WINS, m): (0.5 if m == 5 else -0.5) for m in (2, 5, 7, 8)}
    reader, state = _probe(fn, O_WINS, rigged, epsilon=0.0)
    got = reader[state, 5]
    if _close(got, 0.75):
        return None
    if _close(got, -0.25):
        return ("the terminal reward is for the player who made the last move: O's win is "
                "+1 for O (utility() is X's result; multiply by the mover's to_move).")
    if _close(got, 0.5) or _close(got, 0.25):
        return ("no terminal reward: the move that ends the game moves toward the game's "
                "result for the player who made it (+1 a win, 0 a draw, -1 a loss), not "
                "toward 0 and not left out.")
    return (f"a winning move valued 0.5, updated with alpha 0.5, should become 0.75; "
            f"yours became {got:.3g} (the target of a move that ends the game is the result "
            f"for the player who made it).")


def _step_target(fn) -> str | None:
    """X's move 7 (rigged greedy at 0.2) leads to O's 5 (0.6) or 8 (-0.4): its target is
    minus O's best value there, read before or after O's own update."""
    rigged = {(STEP, m): (0.2 if m == STEP_MOVE else -0.9) for m in (5, STEP_MOVE, 8)}
    rigged.update({(NEXT, 5): 0.6, (NEXT, 8): -0.4})
    reader, state = _probe(fn, STEP, rigged, epsilon=0.0)
    got, after = reader[state, STEP_MOVE], BitBoard.from_text(NEXT)
    late = max(reader[after, 5], reader[after, 8])

    def updated(target: float) -> float:
        return 0.2 + 0.5 * (target - 0.2)

    if any(_close(got, updated(-best)) for best in (0.6, late)):
        return None
    if any(_close(got, updated(best)) for best in (0.6, late)):
        return ("the wrong sign for the opponent's move: its best value is good for the "
                "opponent, so the target of a move that does not end the game is minus it.")
    if _close(got, 0.2):
        return ("updating toward the wrong state: the value of a move that did not end the "
                "game never moved; update Q[state, move] of the position the move was played "
                "from, at every step.")
    if _close(got, updated(0.0)):
        return ("the target of a move that does not end the game is minus the opponent's "
                "largest value in the position after it, not 0.")
    if any(_close(got, updated(t)) for t in (-0.2, 0.9)):
        return ("updating toward the wrong state: the target reads the position after the "
                "move (the opponent's values there), not the position the move was played "
                "from.")
    return None


def mistake_hint(fn) -> str:
    """The typical mistake the probes see in ``fn``, or the rule itself."""
    for probe in (_explores, _terminal_reward, _step_target):
        try:
            hint = probe(fn)
        except Exception:  # a probe it cannot play: try the next one
            hint = None
        if hint:
            return hint
    return ("each move: epsilon-greedy from Q, then Q[state, move] moves alpha of the way "
            "toward its target, the result for the mover if the move ended the game, else "
            "minus the opponent's largest Q in the position after it.")


# ------------------------------------------------------------------------------ the checker

def _shares(fn) -> tuple[list[float], list[float]]:
    """The student's and the library's shares of optimal moves, seed by seed."""
    seeds = [case_seed(100 + k) for k in range(SEEDS_10)]
    theirs = [optimal_share(_trained(fn, seed).greedy) for seed in seeds]
    return theirs, [library_share(seed) for seed in seeds]


@write_it(allows=(QValues,), forbids=((QTable, "learn_game"),), task="the self-play loop")
def check_10_self_play(fn) -> None:
    """Judge ``fn(Q, start, alpha, epsilon, rng)``, one epsilon-greedy self-play game with a
    Q-learning update after each move, by what a table trained with it learns."""
    if unanswered(fn, "a loop until the game is over: choose a move epsilon-greedily, play "
                      "it, update Q[state, move] toward its target."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    try:
        theirs, library = _shares(fn)
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    except Exception as error:  # the student's bug, reported, never a traceback
        return print(f"Not yet: in a training game {failure_of(error)}")
    mine, ours = sum(theirs) / len(theirs), sum(library) / len(library)
    shown = (f"after {GAMES_10:,} games on each of {SEEDS_10} seeds your table picks an "
             f"optimal move in {mine:.1%} of the 4,520 positions, the library's QTable in "
             f"{ours:.1%}")
    if mine >= ours - TOLERANCE_10:
        return print(f"Right: {shown} (within {TOLERANCE_10:.0%}).")
    hint = mistake_hint(fn)
    print(f"Not yet: {shown}, more than {TOLERANCE_10:.0%} apart. Likely: "
          f"{hint[0].lower()}{hint[1:]}")
