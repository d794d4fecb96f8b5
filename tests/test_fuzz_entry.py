"""Every public name of ``ttt_lib``, ``ttt_lib.search``, ``ttt_lib.boards``, ``ttt_lib.arena``
and ``make_agent``, called with anything: only deliberate errors escape, and fast.

The judge is ``test_fuzz_api``'s: a ``TypeError`` or one of the package's ``ValueError``
subclasses, its innermost frame a ``raise`` statement inside ``ttt_lib``. The inputs mix
junk (None, huge and negative ints, NaN, numpy scalars, a list nested 5,000 deep, board
texts) with values of the right kind, so that a check which refuses everything would still
be caught where it refuses a good call (see the last test). Every call runs under an alarm:
over a second is a failure. The calls are drawn from one fixed pool by a generator seeded with
the function's name, not by hypothesis: from a pool there is nothing for its engine to shrink
toward, and it cost thirty times the calls themselves (test_fuzz_api's strategies use it). The positions handed over are nearly finished games, so a call
that is accepted searches little: a search on a huge board is the benchmarks' business.
"""
from __future__ import annotations

import inspect
import math
import random
import reprlib
import signal
from fractions import Fraction

import numpy as np
import pytest

import ttt_lib
from ttt_lib import BitBoard, ListBoard, MNKBoard, TreeNode
from ttt_lib import arena, boards, search
from ttt_lib.agents import make_agent
from ttt_lib.boards import ConnectFour
from test_fuzz_api import deliberate


class Deep(list):
    """The outermost level of a deeply nested list, which reprlib (going by the type's name)
    still sees as a list, and so shows briefly."""


Deep.__name__ = "list"


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return Deep([value])


DEEP = nested(5000)
HUGE = [2 ** 63, -(2 ** 63), 10 ** 100, 10 ** 5000, 1_000_001, 2 ** 31]
JUNK = [None, True, False, 0, 1, -1, 2, 3, 9, 0.5, -2.5, math.nan, math.inf, -math.inf,
        np.int64(3), np.float64("nan"), np.bool_(True), np.int64(-1), Fraction(1, 3),
        "", "x", "X", "O", "random", "X........", "XXX/OO./...", "XOX/OX./...", "...", "X.O/",
        b"x", [], [1, 2], [[1]] * 9, (), (0, 1), {}, {"a": 1}, {1: 2}, DEEP, object(),
        float, BitBoard, print, range(3)] + HUGE


def positions() -> list:
    """Nearly finished games of every kind: any search of them is quick."""
    return [BitBoard.from_text("XOX/OX./..."), BitBoard.from_text("XOX/OXO/X.."),
            BitBoard.from_text("XXX/OO./..."), ListBoard.from_text("XOX/OXO/..X"),
            MNKBoard.from_text("XOX/OXO/X..", k=3), TreeNode([[1, [2, -1]], [0]]),
            ConnectFour.from_text("X.O./OXX./XXOO/OOXX", k=3)]


def good_values() -> list:
    """Values of the right kind for some argument of some public function."""
    return [search.line_score, search.uniform_random, search.minimax, search.Stats(),
            search.Trace(), random.Random(0), {}, search.Killers(), search.PLAIN,
            search.Clock(nodes=50), make_agent("random", seed=0), "random",
            ("mcts", {"playouts": 3}), [0, 1, 2], (1, 2), 1, -1, 2, 0.25, "soft", "heuristic"]


def odd_texts_and_floats() -> list:
    """Board-like texts and floats of every kind, drawn once with a seed."""
    rng = random.Random(30)
    texts = ["".join(rng.choice("XOxo./ 1") for _ in range(rng.randint(0, 12)))
             for _ in range(12)]
    return texts + [rng.uniform(-10, 10) for _ in range(4)] + [1e300, -0.0, 5e-324]


# One pool every argument is drawn from.
POOL = (positions() + JUNK + good_values() + list(range(-3, 13))
                         + odd_texts_and_floats())


def public_names() -> dict[str, object]:
    """Every public callable of the four namespaces and ``make_agent``, by a dotted name.

    Left out: the exception classes, the constants (``MAX``, ``PLAIN``) and the ``Game``
    protocol, which Python itself refuses to instantiate.
    """
    found = {f"ttt_lib.{name}": getattr(ttt_lib, name) for name in ttt_lib.__all__}
    found |= {f"search.{name}": getattr(search, name) for name in search.__all__}
    found |= {f"boards.{name}": getattr(boards, name) for name in boards.__all__}
    found |= {f"arena.{name}": getattr(arena, name) for name in arena.__all__}
    found["agents.make_agent"] = make_agent
    return {name: value for name, value in sorted(found.items())
            if callable(value) and value is not ttt_lib.Game
            and not (isinstance(value, type) and issubclass(value, BaseException))}


NAMES = public_names()


def parameters(fn) -> tuple[list[str], int, list[str]]:
    """(positional parameter names, how many are required, keyword-only names)."""
    positional, required, keywords = [], 0, []
    for parameter in inspect.signature(fn).parameters.values():
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            positional.append(parameter.name)
            required += parameter.default is parameter.empty
        elif parameter.kind is parameter.KEYWORD_ONLY:
            keywords.append(parameter.name)
        elif parameter.kind is parameter.VAR_POSITIONAL:
            positional.append("*")
    return positional, required, keywords


# Calls whose defaults alone mean real work: each takes at least this many arguments here.
AT_LEAST = {"arena.random_play_probabilities": 1}  # the odds of the whole game: 0.5 s


def calls(fn, least: int, seed: str, count: int):
    """``count`` calls ``(args, kwargs)`` of ``fn``, drawn from ``POOL`` by a generator seeded
    with ``seed``: its required arguments (at least ``least``), maybe the optional ones, and
    up to two of its keyword-only ones."""
    positional, required, keywords = parameters(fn)
    required = max(required, least)
    most = max(required, len(positional) + (2 if "*" in positional else 0))
    rng = random.Random(seed)
    for _ in range(count):
        args = tuple(rng.choice(POOL) for _ in range(rng.randint(required, most)))
        chosen = rng.sample(keywords, rng.randint(0, min(2, len(keywords))))
        yield args, {name: rng.choice(POOL) for name in chosen}


def shown(args: tuple, kwargs: dict) -> str:
    """A call's arguments, briefly (the deep list and the huge ints kept short)."""
    brief = reprlib.Repr()
    brief.maxlevel, brief.maxlong, brief.maxother = 3, 40, 60
    return ", ".join([brief.repr(a) for a in args] +
                     [f"{k}={brief.repr(v)}" for k, v in kwargs.items()])


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow


def judged(fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` under a one-second alarm: its value, or None if it refused
    deliberately; an accident or a slow call fails the test. The alarm counts the process's
    CPU time (a hang spends it), so a busy shared machine does not set it off."""
    previous = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, 1.0)
    try:
        return fn(*args, **kwargs)
    except Slow:
        pytest.fail(f"{fn.__qualname__}({shown(args, kwargs)}) ran over a second")
    except Exception as error:  # the judge decides
        if not deliberate(error):
            raise AssertionError(f"{fn.__qualname__}({shown(args, kwargs)}) let an accident "
                                 f"escape: {type(error).__name__}: {str(error)[:200]}") from error
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


EXAMPLES = 230  # per name: over 20,000 calls in all


@pytest.mark.parametrize("name", sorted(NAMES))
def test_only_deliberate_errors_escape(name):
    fn = NAMES[name]
    for args, kwargs in calls(fn, AT_LEAST.get(name, 0), seed=name, count=EXAMPLES):
        judged(fn, args, kwargs)


def test_the_calls_are_the_same_each_run_and_an_accident_among_them_fails():
    def fragile(state, depth=1):  # most of the pool makes it fail by accident
        return state.moves()[depth]
    drawn = list(calls(fragile, 0, seed="fragile", count=50))
    assert drawn == list(calls(fragile, 0, seed="fragile", count=50))
    assert {len(args) for args, _ in drawn} == {1, 2} and not any(k for _, k in drawn)
    with pytest.raises(AssertionError, match=r"\.fragile\(.*\) let an accident escape"):
        for args, kwargs in drawn:
            judged(fragile, args, kwargs)


def test_the_fuzz_covers_every_namespace_and_twenty_thousand_calls():
    prefixes = {name.split(".")[0] for name in NAMES}
    assert prefixes == {"ttt_lib", "search", "boards", "arena", "agents"}
    assert len(NAMES) >= 90 and len(NAMES) * EXAMPLES >= 20_000


# ---------------------------------------------------------- the checks refuse only the bad

def test_a_search_refuses_a_state_that_is_not_a_game_at_its_entry():
    with pytest.raises(TypeError, match=r"^minimax searches a game state \(ttt_lib.Game\), "
                                        r"not str$"):
        search.minimax("X........")
    for bad in (DEEP, 10 ** 5000, BitBoard):
        with pytest.raises(TypeError, match="searches a game state"):
            search.negamax(bad)
    assert search.minimax(BitBoard.from_text("XOX/OX./...")) == 1


@pytest.mark.parametrize("call, error, message", [
    (lambda: search.expectimax(BitBoard(), 0, search.uniform_random), ValueError,
     r"player is \+1 \(X\) or -1 \(O\), not 0"),
    (lambda: search.flat_monte_carlo(BitBoard(), "x"), TypeError,
     "playouts is a whole number, not str"),
    (lambda: search.flat_monte_carlo(BitBoard(), 10 ** 100), ValueError,
     "at most 1,000,000 .a typo would run for days., not <an int of 101 digits>"),
    (lambda: search.Killers(0), ValueError, "slots is a whole number of at least 1"),
    (lambda: search.MCTSTree(BitBoard.from_text("XXX/OO./...")), ValueError, "game is over"),
    (lambda: search.alphabeta(BitBoard(), 1, 0), ValueError, "alpha < beta"),
    (lambda: search.alphabeta(BitBoard(), math.nan), ValueError, "alpha is a number, not NaN"),
    (lambda: search.negamax_memo(BitBoard(), []), TypeError, "table is a dict, not list"),
    (lambda: search.heuristic_order(BitBoard(), [9]), ValueError, "9 in moves is not a legal"),
    (lambda: boards.Shape(1, -1, 1), ValueError, "n is a positive whole number, not -1"),
    (lambda: boards.Shape(10 ** 100, 3, 3), ValueError, "m is at most 19"),
    (lambda: boards.board_sketch("", 2 ** 63, ""), ValueError, "m is at most 19"),
    (lambda: boards.board_sketch([0] * 8, 3, 3), ValueError, "cells are 9 digits"),
    (lambda: boards.winning_lines(3, 3, DEEP), ValueError, r"k is a positive whole number, "
                                                          r"not \[\[\[\[\.\.\.\]\]\]\]"),
    (lambda: arena.play_turn(BitBoard(), "random"), TypeError, "agent is an Agent"),
    (lambda: arena.play_chunk(()), TypeError, "task is a tuple"),
    (lambda: arena.random_play_odds(BitBoard(), []), TypeError, "table is a dict"),
    (lambda: BitBoard(first=DEEP), ValueError, "opener"),
])
def test_each_refusal_names_the_argument(call, error, message):
    with pytest.raises(error, match=message) as refused:
        call()
    assert deliberate(refused.value)
    assert len(str(refused.value)) < 300


def test_checked_entry_points_still_answer_and_show_their_algorithm():
    from ttt_lib.teach import source_text
    state = BitBoard.from_text("XOX/OX./...")
    assert search.minimax.__wrapped__ is search.minimax.__wrapped__.__globals__["minimax"]
    assert source_text(search.minimax).startswith("# ttt_lib/search/exact.py\n"
                                                  "def minimax(state: Game) -> float:")
    value, stats = search.count_nodes(search.minimax, state)
    assert value == 1 and stats.nodes == search.count_nodes(
        search.minimax.__wrapped__, state)[1].nodes
    assert search.alphabeta(state, -1, 1, table=True, ordering="threats") == 1
    assert arena.random_play_probabilities(BitBoard.from_text("XXX/OO./..."))["x_wins"] == 1
    assert boards.winning_lines(3, 3, 3)[0] == (0, 1, 2)
