"""Every public constructor and method, fed anything: only deliberate errors may escape.

"Deliberate" is checked, not assumed: the exception is a ``TypeError`` or a ``ValueError``
defined by the package (``InvalidBoardError``, ``IllegalMoveError``, ``AgentError``...), and the
innermost frame of its traceback is a ``raise`` statement inside ``ttt_lib``: an accident such
as ``"a" < 0`` or ``None.get`` deep in the code fails the test even when its type would do.
Huge sizes must be refused at once: an alarm turns a hang into a failure.
"""
from __future__ import annotations

import ast
import functools
import math
import random
import signal
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttt_lib
from ttt_lib import BitBoard, ListBoard, MNKBoard, TreeNode
from ttt_lib.learn.agents import LEARNED_AGENTS
from ttt_lib import agents as agents_module
from ttt_lib import arena
from ttt_lib.boards import GridBoard, grid_svg
from ttt_lib.boards.tictactoe import svg

PACKAGE = Path(ttt_lib.__file__).parent


def fuzz(examples: int) -> settings:
    """Hypothesis settings: ``examples`` cases, the same ones on every run."""
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- the judge


@functools.lru_cache(maxsize=None)
def _raise_lines(path: str) -> frozenset[int]:
    """Every line of a module that belongs to a ``raise`` statement."""
    tree = ast.parse(Path(path).read_text())
    return frozenset(line for node in ast.walk(tree) if isinstance(node, ast.Raise)
                     for line in range(node.lineno, node.end_lineno + 1))


def deliberate(error: BaseException) -> bool:
    """Was ``error`` raised on purpose by the package: a TypeError, or a ValueError subclass
    of its own, from a ``raise`` statement in ``ttt_lib``?"""
    kind = type(error)
    if not (kind is TypeError or (issubclass(kind, ValueError)
                                  and kind.__module__.startswith("ttt_lib"))):
        return False
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    path = Path(tb.tb_frame.f_code.co_filename)
    return PACKAGE in path.parents and tb.tb_lineno in _raise_lines(str(path))


def call(function, *args, **kwargs):
    """``function(*args, **kwargs)``, or None when it refused them deliberately."""
    try:
        return function(*args, **kwargs)
    except Exception as error:  # the judge decides: anything else fails the test
        if not deliberate(error):
            raise AssertionError(f"{function.__qualname__} let an accident escape: "
                                 f"{type(error).__name__}: {error}") from error
        return None


def test_the_judge_tells_accidents_from_decisions():
    with pytest.raises(AssertionError, match="let an accident escape"):
        call(TreeNode.utility, None)  # an AttributeError on None: an accident
    with pytest.raises(AssertionError, match="let an accident escape"):
        call(int, "x")  # a ValueError, but not raised by the package
    assert call(BitBoard.from_bits, "x") is None  # refused on purpose: a TypeError
    assert call(BitBoard.from_text, "???") is None  # refused on purpose: InvalidBoardError
    assert call(BitBoard.from_text, "X........") == BitBoard().play(0)


# ------------------------------------------------------------------------- what to feed

junk = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-3, 12),
    st.sampled_from([2 ** 64, -(2 ** 70), 10 ** 30]),
    st.floats(allow_nan=True), st.text(max_size=12), st.binary(max_size=4),
    st.lists(st.integers(-1, 3), max_size=12), st.tuples(st.integers(0, 2), st.integers(0, 2)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()), st.just(random.Random(0)), st.just(BitBoard.from_text("XOX/OX./...")),
    st.sampled_from(["X", "O", "x", "o", 1, -1]))
texts = st.one_of(st.text(st.sampled_from("XOxo./"), max_size=20), st.text(max_size=12))
players = st.one_of(st.sampled_from(["X", "O"]), junk)
cells9 = st.one_of(st.lists(st.integers(0, 2), min_size=9, max_size=9), junk)


@st.composite
def boards(draw):
    """A real position of any kind of board, a few random moves in."""
    kind = draw(st.sampled_from(["list", "bit", "mnk"]))
    board = {"list": ListBoard, "bit": BitBoard}.get(kind, lambda: MNKBoard(4, 4, 3))()
    for _ in range(draw(st.integers(0, 8))):
        if board.is_terminal():
            break
        board = board.play(draw(st.sampled_from(board.moves())))
    return board


# ------------------------------------------------------------------------------ boards


@fuzz(1500)
@given(st.sampled_from([ListBoard, BitBoard]), st.integers(0, 5), junk, junk, texts)
def test_3x3_builders_refuse_bad_input_deliberately(cls, which, value, first, text):
    builder = [cls.from_text, cls.from_cells, cls.from_code, cls.from_board,
               BitBoard.from_bits, cls][which]
    argument = text if builder is cls.from_text else value
    board = call(builder, first) if builder is cls else call(builder, argument)
    assert board is None or isinstance(board, BitBoard if which == 4 else cls)
    if board is not None and builder is not cls:  # what was built reads back the same
        assert type(board).from_text(board.to_text(), board.first) == board
    if builder not in (cls, cls.from_board):
        again = call(builder, argument, first)
        if again is not None and board is not None:  # the same cells, whoever opened
            assert again.cells() == board.cells() and again.first in (1, -1)


@fuzz(1500)
@given(boards(), st.integers(0, 4), junk, junk)
def test_board_methods_refuse_bad_input_deliberately(board, which, value, other):
    if which == 0:
        child = call(board.play, value, other)
        assert child is None or child.to_move == -board.to_move
    elif which == 1:
        picture = call(board.svg, value, other)
        assert picture is None or picture.startswith("<svg")
    elif which == 2:
        call(board.sketch, value)
    elif which == 3 and isinstance(board, BitBoard):
        assert call(board.random_playout, value) in (None, -1, 0, 1)
    else:
        same = (isinstance(value, GridBoard) and value.shape is board.shape
                and value.first == board.first and value.cells() == board.cells())
        assert (board == value) is same
    for query in (board.moves, board.winner, board.is_terminal, board.utility, board.key,
                  board.canonical_key, board.to_text, board.over_reason, board.winning_line,
                  board.lines, board.cells, board.__repr__, board.__str__, board.__hash__):
        query()


@fuzz(800)
@given(cells9, junk, junk)
def test_picture_helpers_refuse_bad_input_deliberately(cells, size, highlight):
    call(svg, cells, size)
    call(svg, [0] * 9, 96, highlight)
    call(grid_svg, [0] * 9, 3, 3, None, size, highlight)


@fuzz(1500)
@given(junk, junk, junk, players, texts)
def test_mnk_builders_refuse_bad_input_deliberately(m, n, k, first, text):
    small = [v if not isinstance(v, int) or isinstance(v, bool) or v < 40 else 3
             for v in (m, n, k)]  # huge sizes have their own test below
    call(MNKBoard, *small, first)
    call(MNKBoard.from_text, text, k=small[2], first=first)
    call(MNKBoard.from_text, text, k=3, m=small[0], n=small[1])
    call(MNKBoard.from_cells, m, 3, 3, 3, first)


HUGE = [(5000, 5000, 4), (10 ** 9, 3, 3), (3, 10 ** 12, 3), (2 ** 64, 2 ** 64, 3),
        (100_000, 100_000, 100_000)]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


@pytest.mark.parametrize("size", HUGE, ids=lambda size: "x".join(map(str, size)))
def test_huge_boards_are_refused_at_once(size):
    """Refused with a ValueError subclass before any work: the alarm (2 s) only catches a
    hang, the refusal itself takes microseconds."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(2)
    start = time.perf_counter()
    try:
        MNKBoard(*size)
    except Hang:
        refused = None
    except ValueError as error:
        refused = error
    else:
        refused = "accepted"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    assert refused is not None, f"MNKBoard{size} still running after {elapsed:.1f} s"
    assert refused != "accepted", f"MNKBoard{size} was built"
    assert deliberate(refused), refused
    assert elapsed < 1.0


# ---------------------------------------------------------------------------- TreeNode

trees = st.recursive(st.one_of(st.integers(-9, 9), st.floats(-9, 9)),
                     lambda children: st.lists(children, min_size=1, max_size=3), max_leaves=12)


@fuzz(1000)
@given(st.one_of(trees, junk), junk, junk)
def test_tree_nodes_refuse_bad_input_deliberately(tree, labels, move):
    node = call(TreeNode, tree, labels)
    node = node if node is not None else call(TreeNode, tree)
    if node is None:
        return
    call(node.play, move)
    call(node.utility)
    for child in node.children():
        assert child.depth == 1


# ------------------------------------------------------------------------ agents, arena

CHEAP = ["random", "perfect", "heuristic", "flat-mc", "mcts", "expectimax", "alphabeta"]
options = st.dictionaries(
    st.sampled_from(["playouts", "c", "shared", "solver", "depth", "epsilon", "ordering",
                     "killers", "table", "symmetry", "seed", "rng", "nonsense"]),
    junk, max_size=3)


@fuzz(1000)
# the learning agents train on construction (seconds each): tests/test_learn.py and
# tests/test_agents.py check them
@given(st.sampled_from(sorted(set(agents_module.AGENTS) - set(LEARNED_AGENTS))), options, junk,
       boards())
def test_agents_refuse_bad_input_deliberately(name, opts, name_or_state, board):
    small = {key: (3 if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 50
                   and key in ("playouts", "depth") else v) for key, v in opts.items()}
    if name == "deepening":  # each move takes its whole clock (0.1 s unless told): keep it short
        seconds = small.get("seconds", 0.005)
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0.005:
            seconds = 0.005
        small["seconds"] = seconds
    agent = call(agents_module.make_agent, name, **small)
    call(agents_module.make_agent, name_or_state)
    call(agents_module.agent_options, name_or_state)
    if agent is None or name == "minimax":  # minimax from a near-empty 4x4 takes ages
        return
    if name in ("perfect", "expectimax", "alphabeta") and (
            isinstance(board, MNKBoard) or len(board.moves()) > 6):
        return  # an exact search of 4x4 or of an open 3x3 (up to 2.5 s a move, with a fresh
        #         agent each case) is a benchmark, not a fuzz case; test_agents.py plays them
    call(agent.choose, name_or_state)
    move = call(agent.choose, board)
    assert move is None or move in board.moves()


@fuzz(600)
@given(st.one_of(st.just("random"), junk), st.one_of(st.just("random"), junk),
       junk, junk, st.integers(1, 2))
def test_arena_refuses_bad_input_deliberately(x, o, seed, value, games):
    record = call(arena.play_game, x, o, seed)
    assert record is None or record.result in (-1, 0, 1)
    call(arena.play_game, "random", "random", 0, value)
    call(arena.play_game, "random", "random", 0, "X", value)
    call(arena.tournament, value, games=1)
    many = isinstance(value, int) and value > 5  # 6..1,000,000 games are too slow for a fuzz
    call(arena.tournament, ["random"], games=10 ** 30 if many else value)
    call(arena.tournament, ["random"], games=games, seed=seed)
    call(arena.tournament, ["random"], games=1, executor=value)
    call(arena.play_pairs, value, games=1)
    call(arena.normalize_spec, value)
    call(arena.spec_label, value)
    if value is not None:  # None is the default, the empty board: exact fractions over all
        call(arena.random_play_probabilities, value)  # 5,478 positions (test_arena.py)
    call(arena.wilson_interval, value, 10)
    call(arena.wilson_interval, 3, value)
    interval = call(arena.wilson_interval, 3, 10, value)
    assert interval is None or 0 <= interval[0] <= interval[1] <= 1


def test_huge_counts_are_refused_at_once():
    for function, arguments in ((arena.tournament, (["random"], 10 ** 30)),
                                (agents_module.make_agent, ("mcts",)),):
        with pytest.raises(ValueError) as error:
            function(*arguments, **({} if function is arena.tournament
                                    else {"playouts": 10 ** 30}))
        assert deliberate(error.value) and "at most" in str(error.value)
    assert math.isfinite(arena.wilson_interval(0, 1)[1])
