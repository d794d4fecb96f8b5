"""Exercises of notebook 12: the Connect Four capstone (threats and parity; the agent on the
ladder). The stages before the agent are ``nb12_stages``'s.

Cells are named (column, row): columns from 0 on the left, rows from 1 at the bottom, so a
row's parity reads off its number (rows 1, 3, 5 are odd).
"""
from __future__ import annotations

import ast

import numbers
import random

from ..boards.connect4 import ConnectFour
from ..player import Agent
from ..safetext import short
from .core import case_seed, cases_cache, unanswered, word_in, write_it, verdict
from .judge import SEARCHES, call_limited, failure_of
from .nb12_bundle import NotYours, bundle
from .papers import DEFINITIONS, definition_text
from .nb12_ladder import MOVE_TIME, LadderRun, climb
from .nb12_stages import random_position

__all__ = ["AGENT_12_GAMES", "AGENT_12_RUNGS", "check_12_agent", "check_12_parity",
           "check_12_threats", "last_ladder_12", "ladder_12", "threat_cells"]

AGENT_12_GAMES = 2  # seeded games a rung in the checker's quick climb (half as X)
AGENT_12_RUNGS = 3  # the checker climbs random, greedy and MCTS with 500 playouts
SEED_12 = 12


# ----------------------------------------------------------- exercise 1: threats and parity

def threat_cells(state, player: int) -> set[tuple[int, int]]:
    """The empty cells (column, row from 1 at the bottom) that would complete four in a row
    for ``player`` (1 = X, -1 = O) were its piece there, playable now or not."""
    cells, digit = state.cells(), 1 if player == 1 else 2
    found = set()
    for line in state.lines():
        empty = [c for c in line if cells[c] == 0]
        if len(empty) == 1 and all(cells[c] == digit for c in line if c != empty[0]):
            found.add((empty[0] % state.columns, state.rows - empty[0] // state.columns))
    return found


@cases_cache
def _threat_cases() -> list[tuple[ConnectFour, int]]:
    """Seeded positions (6x7 and 4x5, rows x columns) with threats, for each side in turn, emptiest first."""
    rng, found = random.Random(case_seed(SEED_12)), []
    while len(found) < 40:
        size = rng.choice([(7, 6), (7, 6), (5, 4)])
        state = random_position(rng, rng.randint(6, 26), *size)
        player = rng.choice([1, -1])
        if state is not None and (threat_cells(state, player) or len(found) < 4):
            found.append((state, player))
    return sorted(found, key=lambda c: (bin(c[0].x | c[0].o).count("1"), c[0].to_text()))


def _as_cells(answer) -> set | None:
    """A set, list or tuple of (column, row) pairs of ints as a set; None otherwise."""
    if type(answer) not in (set, frozenset, list, tuple):
        return None
    cells = set()
    for item in answer:
        if type(item) not in (tuple, list) or len(item) != 2 or not all(
                isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in item):
            return None
        cells.add((int(item[0]), int(item[1])))
    return cells


def _threats_hint(state, player, expected, got) -> str:
    if got == threat_cells(state, -player):
        return "Those are the other side's threats: player 1 is X, -1 is O."
    if any(row == state.rows - r + 1 for _, r in expected for _, row in got) and not \
            got & expected:
        return "Rows count from 1 at the bottom (on a board of 6 rows the top row is row 6)."
    if got < expected:
        return ("A threat need not be playable yet: every empty cell that would complete a "
                "line of four counts, in every direction (both diagonals too).")
    return ("A threat is an empty cell whose line of four holds three of the player's "
            "pieces and nothing else.")


@write_it(forbids=SEARCHES, task="the threats")
def check_12_threats(threats) -> None:
    """Judge ``threats(state, player)``: the set of (column, row) cells, rows from 1 at the
    bottom, that would complete four in a row for ``player`` (1 = X, -1 = O)."""
    if unanswered(threats, "go over every window of four: three of the player's pieces "
                           "and one empty cell make that cell a threat."):
        return
    if not callable(threats):
        return print(f"Not yet: pass your function itself, not {type(threats).__name__}.")
    cases = _threat_cases()
    for state, player in cases:
        try:
            answer = call_limited(threats, (state, player))
        except NotImplementedError:
            return print("Not yet: write the function (it still raises NotImplementedError).")
        except Exception as error:  # the student's bug, reported, never a traceback
            return print(f"Not yet: on {state.to_text()!r} {failure_of(error)}.")
        expected, got = threat_cells(state, player), _as_cells(answer)
        if got != expected:
            name = "X" if player == 1 else "O"
            return print(f"Not yet: on {state.to_text()!r} {name}'s threats are "
                         f"{sorted(expected)}, your function gave {short(answer)}. "
                         f"{_threats_hint(state, player, expected, got or set())}")
    print(f"Right: every threat of either side on {len(cases)} positions, playable or not, "
          f"rows counted from the bottom.")


def check_12_parity(answer) -> None:
    """Which threats serve O, the second player, on a board of 6 rows: 'odd' or 'even'?"""
    if unanswered(answer, "if O always answers in the column X just played, which rows "
                          "does O end up filling?"):
        return
    said = word_in(answer, ("odd", "even"))
    verdict(said == "even",
            "O's threats on even rows (2, 4, 6): answering X in the same column wins O "
            "every even cell, and one of them completes O's line.",
            "answer 'odd' or 'even'." if said is None else
            "follow the columns: X drops into a column at an odd row, and O, answering on "
            "top, fills the row above it. Which rows are O's?")


# ------------------------------------------------------------- exercise 6: the agent, boxed

_LAST: list[LadderRun] = []


def last_ladder_12() -> LadderRun | None:
    """The games ``check_12_agent`` or ``ladder_12`` played last (None before any)."""
    return _LAST[-1] if _LAST else None


# What a grading box may run with the student's agent (answering's "drive"): the agent's
# code is in the box's kernel only, so the box bundles it and sends the source back as plain
# text; the grader climbs the ladder with that source in boxes of its own and judges there.
BOX_DRIVERS = ("bundled_source",)


def bundled_source(agent) -> str:
    """``bundle(agent)``, run in a grading box."""
    return bundle(agent)


def _asked(agent):
    """The grading channel's stand-in for the student's answer (a function's, or an agent
    class's), else None."""
    for part in (agent, getattr(agent, "choose", None)):
        if getattr(part, "remote", False) is True and callable(getattr(part, "drive", None)):
            return part
    return None


def _source(agent) -> str:
    """The agent's bundled source: made here, or, for an answer asked through the grading
    channel, made in its box and checked to be text."""
    asked = _asked(agent)
    if asked is None:
        return bundle(agent)
    try:
        source = asked.drive("bundled_source")
    except Exception as error:  # NotYours, or the box's TypeError, raised again here
        raise NotYours(str(error) or type(error).__name__) from None
    if type(source) is not str:
        raise NotYours("the box sent no source for the agent")
    unwritten = not_written(source, getattr(asked.conversation, "written", frozenset()))
    if unwritten:
        raise NotYours(f"the box sent code for {', '.join(unwritten)} that is not in your "
                       f"notebook's cells")
    return source


def not_written(source: str, written: frozenset) -> list[str]:
    """The functions and classes defined in ``source`` that are not, word for word, among
    ``written`` (the notebook's own definitions, read from its file by the grader): the box
    bundles the student's own code, so each must be there."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ["a file that is not Python"]
    return [node.name for node in tree.body
            if isinstance(node, DEFINITIONS) and definition_text(source, node) not in written]


def ladder_12(agent, games: int = 10, move_time: float = MOVE_TIME,
              top: int | None = None, seed: int = SEED_12, stop: bool = False) -> LadderRun:
    """Your agent (a function of the state or an ``Agent`` class) in a box of its own,
    ``games`` seeded games against each rung (all five by default, ``top`` for fewer),
    ``move_time`` CPU seconds a move: the table, the ratings and the moves the solver says
    threw away a value (``stop``: no rung after the first it scores below half against).
    Minutes for the whole ladder; ``NotYours`` if it reaches into ttt_lib."""
    run = climb(_source(agent), games=games, seed=seed, move_time=move_time, top=top, stop=stop)
    _LAST.append(run)
    del _LAST[:-1]
    return run


def _agent_failure(run: LadderRun) -> str | None:
    if any("NotImplementedError" in reason for reason in run.forfeits):
        return "write the function (it still raises NotImplementedError)"
    if run.forfeits:
        return f"your agent lost a game by failing, {run.forfeits[0]}"
    if run.points < AGENT_12_RUNGS:
        rung = run.rungs[run.points]
        won, drawn, lost = run.record(rung)
        return (f"against {rung} it won {won}, drew {drawn} and lost {lost}: it scores "
                f"{run.score(rung):.2f}, below half. Search deeper in the time you have: "
                f"a better move order prunes more, a better evaluation needs less depth")
    return None


@write_it(task="the agent")
def check_12_agent(agent) -> None:
    """Judge your Connect Four agent in a box of its own: at least half the points against
    each of the first ``AGENT_12_RUNGS`` rungs in ``AGENT_12_GAMES`` seeded games a rung,
    every move legal and within ``MOVE_TIME`` CPU seconds."""
    if unanswered(agent, "best_move(state, seconds) with a tenth of a second is a start."):
        return
    if _asked(agent) is None and not (callable(agent) or isinstance(agent, Agent)):
        return print(f"Not yet: pass your function (def ...) or Agent class itself, not "
                     f"{type(agent).__name__}.")
    if _asked(agent) is None and isinstance(agent, Agent):
        return print("Not yet: pass the class itself (MyAgent), not an object of it: each "
                     "game builds a fresh one in the box.")
    try:
        run = ladder_12(agent, games=AGENT_12_GAMES, top=AGENT_12_RUNGS, stop=True)
    except NotYours as refused:
        return print(f"Not yet: {refused}.")
    failure = _agent_failure(run)
    if failure:
        return print(f"Not yet: {failure}.")
    rating, (low, high) = run.ratings.rating("yours"), run.ratings.interval("yours")
    print(f"Right: in {sum(r.games for r in run.results)} seeded games your agent scored at "
          f"least half against each of {', '.join(run.rungs)}, every move legal and within "
          f"{MOVE_TIME:g} s of CPU time ({rating:+.0f} Elo above random, [{low:+.0f}, "
          f"{high:+.0f}]). ladder_12 plays the whole ladder.")
