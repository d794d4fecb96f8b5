"""Exercises of notebook 05: depth limits, heuristics and the horizon."""
from __future__ import annotations

import sys
import time
from functools import lru_cache
from pathlib import Path

from ..boards.bit import BitBoard
from ..boards.mnk import MNKBoard
from ..game import reachable
from ..search.depthlimit import depth_limited_choice
from ..search.exact import best_moves
from ..search.ordering import line_score, open_lines
from ..studies.horizon import HORIZON_EXAMPLE
from .core import is_int, unanswered, verdict, write_it
from .judge import SEARCHES, SECONDS, Case, TimeLimit, call_limited, failure_of, judge

__all__ = ["BOARD_05_HORIZON", "DEADLINE_05_CASES", "MARGIN_05", "evaluation_05_positions",
           "check_05_deadline", "check_05_evaluate", "check_05_horizon"]

BOARD_05_HORIZON = HORIZON_EXAMPLE.text


# ---------------------------------------------------------------- the write-it exercise

@lru_cache(maxsize=None)
def evaluation_05_positions() -> tuple[BitBoard, ...]:
    """Every unfinished position of the game, the fewest marks first (then by text)."""
    states = [state for state in reachable(BitBoard()).values() if not state.is_terminal()]
    return tuple(sorted(states, key=lambda state: (9 - state.cells().count(0),
                                                   state.to_text())))


def _open_to(state, digit: int) -> int:
    """How many lines hold no mark of the other side than ``digit`` (1 X, 2 O)."""
    cells, other = state.cells(), 3 - digit
    return sum(all(cells[cell] != other for cell in line) for line in state.lines())


def _evaluation_hint(fn, state, expected, got) -> str:
    """What is likely wrong with an evaluation that gave ``got`` instead of ``expected``."""
    if got == -expected:
        x_to_move = next(s for s in evaluation_05_positions() if s.to_move == 1 and open_lines(s))
        try:
            mover_view = fn(x_to_move) == open_lines(x_to_move)
        except Exception:
            mover_view = False
        if mover_view and state.to_move == -1:
            return ("The value is X's whoever is to move: do not turn it round for O "
                    "(no state.to_move in it).")
        return "The sign is the wrong way round: X's open lines minus O's, not O's minus X's."
    if got == _open_to(state, 1):
        return "That counts only X's open lines: subtract the lines still open to O."
    if got == line_score(state):
        return ("That is line_score, which weights a line by its marks; here each open line "
                "counts 1, whatever it holds.")
    return ("A line is open to X when no O is in it (an empty line is open to both sides); "
            "count those over state.lines(), do the same for O, and subtract.")


@write_it(forbids=(open_lines,), task="the evaluation")
def check_05_evaluate(fn) -> None:
    """Judge ``fn(state) -> X's open lines minus O's`` on every unfinished position (X's view,
    whoever is to move), against ``ttt_lib``'s ``open_lines``."""
    if unanswered(fn, "for each line in state.lines(), read its marks in state.cells() "
                      "(0 empty, 1 X, 2 O): no O in it, it is open to X; no X, open to O."):
        return
    cases = [Case.board(state) for state in evaluation_05_positions()]
    judge(fn, cases, oracle=open_lines, call=lambda f, watched: f(watched.state),
          hint=lambda state, expected, got, visits: _evaluation_hint(fn, state, expected, got),
          right=f"your evaluation agrees with ttt_lib's open_lines on all {len(cases):,} "
                "unfinished positions: X's open lines minus O's, whoever is to move.")


# ---------------------------------------------------------------- the horizon exercise

@lru_cache(maxsize=None)
def _choices_by_depth(text: str) -> dict[int, bool]:
    """For each depth, whether the depth-limited search chooses only optimal moves."""
    board = BitBoard.from_text(text)
    optimal = set(best_moves(board))
    empty = sum(1 for digit in board.cells() if digit == 0)
    return {depth: set(depth_limited_choice(board, depth)[1]) <= optimal
            for depth in range(1, empty + 1)}


def check_05_horizon(answer) -> None:
    """From which depth on (that depth and every deeper one) the depth-limited search chooses
    only optimal moves in ``HORIZON_EXAMPLE``'s position."""
    right = _choices_by_depth(BOARD_05_HORIZON)
    depths = sorted(right)
    expected = next(d for d in depths if all(right[deeper] for deeper in depths if deeper >= d))
    first_hint = ("for each depth from 1 to the number of empty cells, compare "
                  "depth_limited_choice(board, depth) with best_moves(board).")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a depth.")
    if not depths[0] <= answer <= depths[-1]:
        hint = f"the depth lies between 1 and {depths[-1]}, the number of empty cells."
    elif answer < expected and right[answer]:
        hint = (f"depth {answer} does choose well, but a deeper search goes wrong again: "
                "check every depth after it.")
    elif answer < expected:
        hint = f"at depth {answer} the search still picks a move that loses."
    else:
        hint = "a shallower search already chooses only optimal moves, and so does every "\
               "deeper one: look lower."
    verdict(answer == expected,
            f"from depth {expected} on the search sees X's fork and avoids it; "
            f"{HORIZON_EXAMPLE.depth} moves deep it cannot.", hint)


# ---------------------------------------------------------------- the deadline exercise

# (position, the seconds it gets): a win at once, a block, the horizon position, the reply
# to a corner, the empty board in a hurry, and a 7x7 board (k=4) on which no search ends.
# On the 7x7 board every move played costs PACE_05 seconds, so the rounds take the same time
# on every machine: the first (49 moves) about 0.1 s, the second (2,352) over 2.35 s, far past
# the 1.6 s allowed: a clock read only between rounds comes too late, on a fast machine too.
# The time given, 1 s, stays far above the first round even on a machine slowed several times
# (at 0.25 s a loaded machine's first round ran out the clock, and the late reader passed).
DEADLINE_05_CASES = (("XOO/.X./...", 0.05), ("X../.X./O..", 0.05), (HORIZON_EXAMPLE.text, 0.2),
                     ("X../.../...", 0.3), (".../.../...", 0.02), ("7x7k4", 1.0))
REMOTE_SLACK_05 = 0.5  # more seconds allowed when the function is asked from a grading box
MARGIN_05 = (1.5, 0.1)  # allowed: seconds * 1.5 + 0.1 s (generous: busy machines stall)
PACE_05 = 0.001  # seconds each move played costs on the 7x7 board
LIBRARY = ("search", "studies", "learn", "agents.py", "arena.py")
ALLOWED = ("ordering.py",)  # line_score and friends: the evaluation is given


class DeadlineLog:
    """What a student's search did: the deepest position it reached (in moves from the root),
    and the library search it ran, if any."""

    def __init__(self, pace: float = 0.0) -> None:
        self.deepest, self.plays, self.library, self.pace = 0, 0, None, pace

    def look(self) -> None:
        """Note a library search among the callers (checked now and then: it costs), and
        spend the time a move costs here."""
        self.plays += 1
        if self.pace:
            time.sleep(self.pace)
        if self.library is None and (self.plays < 64 or self.plays % 256 == 0):
            self.library = _library_caller(sys._getframe(2))


def _library_caller(frame) -> str | None:
    """The outermost library search among ``frame`` and its callers, as ``module.function``."""
    root, found = Path(__file__).resolve().parents[1], None  # ttt_lib/
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.name not in ALLOWED and root in path.parents:
            inside = path.relative_to(root).parts
            if inside[0] in LIBRARY:
                found = f"{'.'.join(inside).removesuffix('.py')}.{frame.f_code.co_name}"
        frame = frame.f_back
    return found


class Guarded:
    """A state that notes how deep the search went and whether a library search runs it."""

    __slots__ = ("state", "log", "ply")

    def __init__(self, state, log: DeadlineLog, ply: int = 0) -> None:
        self.state, self.log, self.ply = state, log, ply
        log.deepest = max(log.deepest, ply)

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def play(self, move) -> "Guarded":
        self.log.look()
        return Guarded(self.state.play(move), self.log, self.ply + 1)

    def moves(self) -> list:
        return self.state.moves()

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def utility(self):
        return self.state.utility()

    def key(self):
        return self.state.key()

    def cells(self):
        return self.state.cells()

    def lines(self):
        return self.state.lines()

    def __repr__(self) -> str:
        return repr(self.state)


def _deadline_board(text: str):
    return MNKBoard(7, 7, 4) if text == "7x7k4" else BitBoard.from_text(text)


def _too_slow(board, seconds: float) -> str:
    allowed = seconds * MARGIN_05[0] + MARGIN_05[1]
    return (f"on {board!r} with {seconds:g} s your function took more than {allowed:g} s. "
            "Check the clock inside the search, at every position (not only between "
            "rounds), and stop the round when time is up.")


@lru_cache(maxsize=None)
def _fair_moves(text: str, deepest: int) -> frozenset:
    """The moves a plain search may return having looked ``deepest`` moves ahead: the best
    of depth ``deepest`` or ``deepest - 1`` (the round the clock may have cut short), or an
    optimal one."""
    board = _deadline_board(text)
    empty = len(board.moves())
    fair = set(best_moves(board))
    for depth in {min(max(d, 1), empty) for d in (deepest - 1, deepest)}:
        fair |= set(depth_limited_choice(board, depth)[1])
    return frozenset(fair)


def _deadline_verdict(fn, text: str, seconds: float) -> str | None:
    """Why ``fn`` fails this case (a ``Not yet:`` sentence), or None when it passes."""
    board = _deadline_board(text)
    log = DeadlineLog(PACE_05 if isinstance(board, MNKBoard) else 0.0)
    begun = time.perf_counter()
    try:
        move = call_limited(fn, (Guarded(board, log), seconds), 2 * SECONDS)
    except NotImplementedError:
        return "write the function (it still raises NotImplementedError)."
    except TimeLimit:
        return _too_slow(board, seconds)
    except Exception as error:
        return f"on {board!r} with {seconds:g} s {failure_of(error)}"
    elapsed, allowed = time.perf_counter() - begun, seconds * MARGIN_05[0] + MARGIN_05[1]
    if getattr(fn, "remote", False) is True:  # asked through the grading channel: each use
        allowed += REMOTE_SLACK_05  # of the board is a question, and a busy grader answers late
    if log.library:
        return (f"your function ran ttt_lib's {log.library}: write the search yourself "
                "(line_score is the only help allowed).")
    if elapsed > allowed:
        return _too_slow(board, seconds)
    if move not in board.moves():
        return f"on {board!r} your function returned {move!r}, which is not a legal move."
    cut_first_round = log.deepest <= 1 and elapsed >= seconds  # a busy machine's clock
    if isinstance(board, BitBoard) and not cut_first_round and move not in _fair_moves(
            text, log.deepest):
        return (f"on {board!r} your function looked {log.deepest} moves ahead but returned "
                f"{move!r}, which no search of that depth (or one less) chooses, and which is "
                "not optimal. Return the best move of the last complete round.")
    return None


@write_it(allows=(line_score, open_lines), forbids=SEARCHES)
def check_05_deadline(fn) -> None:
    """Judge ``fn(state, seconds) -> move``, iterative deepening under a clock, on the
    ``DEADLINE_05_CASES``: in time (``MARGIN_05``), legal, as good as the depth it reached."""
    if unanswered(fn, "search depth 1, 2, 3... with time.perf_counter() checked at every "
                      "position; raise an exception when time is up and keep the last "
                      "complete round's move."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    for text, seconds in DEADLINE_05_CASES:
        failure = _deadline_verdict(fn, text, seconds)
        if failure:
            return print(f"Not yet: {failure}")
    print(f"Right: on all {len(DEADLINE_05_CASES)} positions your search answered in time "
          f"(the time allowed plus {MARGIN_05[0] - 1:.0%} and {MARGIN_05[1] * 1000:g} ms) "
          "with a move as good as the depth it reached.")
