"""Judging a student's function like an autograder: many seeded cases, the smallest failure.

A write-it checker hands the student's function ``fn`` states that follow the game protocol,
compares what it returns with ``ttt_lib``'s own algorithm (the oracle) and prints one line:

- ``Right: ...`` when every case agrees;
- ``Not yet: ...`` on the first (smallest) case that does not, with the case (a textbook tree in
  nested-list notation, or a board), expected against got, and a hint aimed at the likely
  mistake; an exception, endless recursion or a call over the time limit is reported the same
  way, never as a traceback. A function that still raises ``NotImplementedError`` (the handout's
  stub) gets ``Not yet: write the function``.

The pieces are reusable: ``random_tree`` / ``random_trees`` (seeded textbook trees with ties,
single-child nodes and, on request, chance nodes), ``Watched`` (a state that records what a
function visits), ``call_limited`` (a per-call time limit) and ``judge`` (the loop).
"""
from __future__ import annotations

import contextlib
import math
import numbers
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .. import search as _search
from ..errors import SearchOptionError
from ..game import Chance, TreeNode, count_tree, is_chance
from ..search import deepening as _deepening

__all__ = ["SEARCHES", "Case", "TimeLimit", "Visits", "Watched", "call_limited", "judge", "random_tree",
           "random_trees", "exact_number", "same_value", "tree_size", "tree_text"]

SECONDS = 2.0  # per call of the student's function
# A student's function asked through the grading channel (``asking.Remote``, marked
# ``remote``) uses each watched state, table or node by a question back to the grader: its
# calls get this many times their time limit (a limit catches endless loops, not slowness).
REMOTE_SLOWDOWN = 10.0
_SCALE = [1.0]  # every limit times this (``limits_scaled``)

# The library's searches named (what handouts hide, ``tools/handout.py``). What the student's
# code may not call while a write-it is judged is a rule, not this list: every entry point
# found by walking the packages (``reach``), less what the checker allows.
SEARCHES = (count_tree, *(getattr(_search, name) for name in (
    "minimax", "negamax", "negamax_memo", "negamax_step", "solve", "solve_all", "best_moves",
    "move_values", "alphabeta", "alphabeta_maxmin", "pvs", "pvs_search", "expectiminimax",
    "expectiminimax_memo", "chance_value", "best_chance_moves", "expectimax",
    "expectimax_search", "star1", "star2", "depth_limited", "depth_limited_choice",
    "iterative_deepening", "deepen_to_depth", "mcts", "flat_monte_carlo", "alphabeta_continued",
    "continued_choice")), _deepening.iterative_deepening,
    (_search.AlphaBeta, "value"))


# ------------------------------------------------------------------------ random textbook trees

def random_tree(rng: random.Random, depth: int, *, chance: bool = False,
                values: Sequence[int] = range(-5, 6), width: int = 3):
    """A seeded textbook tree ``depth`` levels deep (leaves at depth 1 to ``depth``): 1 to
    ``width`` children per node (single-child nodes included), leaf values from ``values``
    (so ties are common). With ``chance``, about half the inner nodes below the root are
    chance nodes with small exact probabilities."""
    if depth == 0 or (depth < 4 and rng.random() < 0.15):
        return rng.choice(values)
    children = [random_tree(rng, depth - 1, chance=chance, values=values, width=width)
                for _ in range(rng.randint(1, width))]
    if chance and rng.random() < 0.5:
        weights = [rng.randint(1, 4) for _ in children]
        return Chance(*[(Fraction(w, sum(weights)), c) for w, c in zip(weights, children)])
    return children


def random_trees(seed: int, count: int = 60, *, chance: bool = False,
                 depths: Sequence[int] = (1, 2, 3, 4, 5)) -> list:
    """``count`` seeded trees, depths cycling through ``depths``, smallest first."""
    rng = random.Random(seed)
    trees = []
    for i in range(count):
        tree = random_tree(rng, depths[i % len(depths)], chance=chance)
        trees.append(tree if isinstance(tree, (list, tuple)) else [tree])  # a root that moves
    return sorted(trees, key=tree_size)


def tree_size(tree) -> int:
    """Nodes of a tree in nested-list notation."""
    if isinstance(tree, Chance):
        return 1 + sum(tree_size(child) for _, child in tree)
    if isinstance(tree, (list, tuple)):
        return 1 + sum(tree_size(child) for child in tree)
    return 1


def tree_text(tree) -> str:
    """A tree in the notation a student can paste: ``[[3, Chance(('1/2', 4), ('1/2', 0))]]``."""
    if isinstance(tree, Chance):
        return "Chance(" + ", ".join(f"('{p}', {tree_text(c)})" for p, c in tree) + ")"
    if isinstance(tree, (list, tuple)):
        return "[" + ", ".join(tree_text(child) for child in tree) + "]"
    return str(tree)


# ------------------------------------------------------------------------ watching a function

@dataclass
class Visits:
    """What a function did with the states it was handed."""

    leaves: list = field(default_factory=list)     # keys of the leaves whose utility it read
    expanded: list = field(default_factory=list)   # keys of the nodes whose moves it asked for


class Watched:
    """A state that passes every call to ``state`` and records visits in ``visits``.

    Asked through the grading channel, it stays in the grader (``faces``): the box gets a
    stand-in that knows only its ``STEADY`` parts (never ``utility``), the children come
    with each ``moves()`` answer (``AHEAD``), and its text there names the node without its
    subtree (``face_repr``), so every leaf the box reads is a ``utility()`` recorded here."""

    __slots__ = ("state", "visits")
    STEADY = ("to_move", "key", "is_terminal")
    AHEAD = True

    def __init__(self, state, visits: Visits | None = None) -> None:
        self.state, self.visits = state, Visits() if visits is None else visits

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def moves(self) -> list:
        self.visits.expanded.append(self.state.key())
        return self.state.moves()

    def play(self, move) -> "Watched":
        return Watched(self.state.play(move), self.visits)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def utility(self):
        self.visits.leaves.append(self.state.key())
        return self.state.utility()

    def key(self) -> Hashable:
        return self.state.key()

    def is_chance(self) -> bool:
        return is_chance(self.state)

    def outcomes(self) -> list:
        self.visits.expanded.append(self.state.key())
        return [(p, Watched(child, self.visits)) for p, child in self.state.outcomes()]

    def __repr__(self) -> str:
        return repr(self.state)

    def face_repr(self) -> str:
        """Its text in a box: a textbook node by its name alone (its subtree would show the
        leaves' values unread), a board as itself."""
        if isinstance(self.state, TreeNode):
            return f"TreeNode({self.state.name})"
        return repr(self.state)


# ------------------------------------------------------------------------ calling it safely

class TimeLimit(Exception):
    """The student's function ran past its time limit."""


def call_limited(fn: Callable, args: tuple, seconds: float = SECONDS):
    """``fn(*args)``, stopped with ``TimeLimit`` after ``seconds`` (a timer signal in the main
    thread where there is one, else a trace function that watches the clock); longer when
    the student's function is asked through the grading channel (``REMOTE_SLOWDOWN``)."""
    seconds *= _SCALE[-1]
    if any(getattr(part, "remote", False) is True for part in (fn, *args)):
        seconds *= REMOTE_SLOWDOWN
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        def expire(signum, frame):
            raise TimeLimit(seconds)
        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return _call_traced(fn, args, seconds)


@contextlib.contextmanager
def limits_scaled(factor: float):
    """Every ``call_limited`` limit times ``factor`` while this lasts. The course's own tests
    judge a function that never returns with a tenth of the limit: its verdict is the same
    ("ran for more than ..."), at a tenth of the cost."""
    if isinstance(factor, bool) or not isinstance(factor, (int, float)):
        raise TypeError(f"a limit is scaled by a number, not {type(factor).__name__}")
    if not 0 < factor <= 1:
        raise SearchOptionError(f"a limit is scaled by a factor in (0, 1], not {factor!r}")
    _SCALE.append(float(factor))
    try:
        yield
    finally:
        _SCALE.pop()


def _call_traced(fn: Callable, args: tuple, seconds: float):
    deadline = time.monotonic() + seconds

    def tracer(frame, event, arg):
        if time.monotonic() > deadline:
            raise TimeLimit(seconds)
        return None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        return fn(*args)
    finally:
        sys.settrace(old)


def same_value(expected, got) -> bool:
    """Numbers agree by value, read by their exact type (``int``, ``float``, ``Fraction``,
    and numpy's own scalars, so ``np.int64(8) == 8``), never through the answer's own
    ``__eq__``: exactly when both are exact (ints, fractions), up to rounding when either is
    a float (14/5 against 2.8); bools, NaN, subclasses of int and other things are no
    numbers."""
    got = exact_number(got)
    if got is None:
        return False
    if isinstance(got, (int, Fraction)) and isinstance(expected, numbers.Rational):
        return got == expected
    got, expected = float(got), float(expected)
    if math.isnan(got):
        return False
    return got == expected or math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


def exact_number(value):
    """``value`` as a plain int, float or Fraction when its exact type is one (numpy's
    scalars by their value), else None."""
    kind = type(value)
    if kind in (int, float, Fraction):
        return value
    if kind.__module__ == "numpy" and kind.__name__ != "bool_" and getattr(
            value, "shape", None) == () and isinstance(value, numbers.Real):
        item = value.item()
        return item if type(item) in (int, float) else None
    return None


# ------------------------------------------------------------------------------ the judge

@dataclass(frozen=True)
class Case:
    """One test: a state to hand over, and how to print it when it fails."""

    state: object
    text: str

    @classmethod
    def tree(cls, tree) -> "Case":
        return cls(TreeNode(tree), tree_text(tree))

    @classmethod
    def board(cls, board) -> "Case":
        return cls(board, repr(board))


def failure_of(error: BaseException) -> str:
    """What a student's exception says, in one sentence."""
    if isinstance(error, TimeLimit):
        seconds = error.args[0] if error.args else SECONDS
        return f"it ran for more than {seconds:g} s (an endless loop, or a search that never " \
               f"stops?)"
    if isinstance(error, RecursionError):
        return "it recursed without end: does it stop at terminal states (is_terminal())?"
    return f"it raised {type(error).__name__}: {error}"


def judge(fn, cases: Sequence[Case], *, oracle: Callable, hint: Callable, right: str,
          call: Callable | None = None, same: Callable = same_value) -> None:
    """Run ``fn`` on every case (smallest first) and print the one line of the verdict.

    ``oracle(state)`` is the expected answer; ``call(fn, watched_state)`` calls the student's
    function (``fn(state)`` by default); ``hint(state, expected, got, visits)`` says what is
    likely wrong; ``right`` is the sentence after ``Right:``.
    """
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    call = call or (lambda f, state: f(state))
    for case in cases:
        visits = Visits()
        try:
            got = call_limited(call, (fn, Watched(case.state, visits)))
        except NotImplementedError:
            return print("Not yet: write the function (it still raises NotImplementedError).")
        except Exception as error:  # the student's bug, reported, never a traceback
            return print(f"Not yet: on {case.text} {failure_of(error)}")
        expected = oracle(case.state)
        if not same(expected, got):
            shown = got if isinstance(got, Fraction) else repr(got)
            return print(f"Not yet: on {case.text} the answer is {expected}, your function "
                         f"gave {shown}. {hint(case.state, expected, got, visits)}")
    print(f"Right: {right}")
