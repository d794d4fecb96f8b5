"""Exercises of notebook 05: depth limits, heuristics and the horizon."""
from __future__ import annotations

from functools import lru_cache

from ..boards.bit import BitBoard
from ..game import reachable
from ..search.depthlimit import depth_limited_choice
from ..search.minimax import best_moves
from ..search.ordering import line_score, open_lines
from ..studies.horizon import HORIZON_EXAMPLE
from .core import is_int, unanswered, verdict, write_it
from .judge import Case, judge

__all__ = ["BOARD_05_HORIZON", "evaluation_05_positions", "check_05_evaluate",
           "check_05_horizon"]

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


@write_it
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
