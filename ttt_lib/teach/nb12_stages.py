"""The capstone's stages before the agent (notebook 12): an evaluation, a move order, a
depth-limited alpha-beta and the deadline loop, each judged by what any right answer must do.

- ``check_12_evaluate``: a finite number from the side of the player to move (swapping the
  colours and whose turn it is leaves it unchanged), that tells won positions from lost ones
  better than chance on positions the exact solver scored (a constant, or a score from X's
  side, cannot);
- ``check_12_order``: every legal move once, a winning move first, else a block;
- ``check_12_search``: negamax alpha-beta's value with the checker's evaluation at the
  horizon, inside the window exactly and a true bound outside it, evaluating fewer positions
  than plain negamax;
- ``check_12_deadline``: a legal move within its CPU seconds (``nb12_clock``: in a grading
  box, the box's CPU time read from outside it; a small budget on a big board
  stops it mid-search) and at least half of them used on a board far from full (it keeps
  deepening), the win or the block at once, and a win two moves deep found.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

from ..boards.connect4 import ConnectFour
from ..studies.connect4_solve import solve_position
from .core import case_seed, cases_cache, unanswered, write_it
from .judge import SEARCHES, exact_number
from .nb12_clock import BOX_DRIVERS, cpu_timed_call, ready, timed_call, within  # noqa: F401
#                     (the drivers a grading box runs are looked up in the checker's module)

__all__ = ["WIN_12", "check_12_deadline", "check_12_evaluate", "check_12_order",
           "check_12_search"]

WIN_12 = 1_000_000  # a won game, for the winner (the player to move has lost: -WIN_12)
SEED = 1243
SWAP = str.maketrans("XO", "OX")


# ------------------------------------------------------------------ positions to judge on

def random_position(rng: random.Random, discs: int, columns: int = 7, rows: int = 6):
    """A position after ``discs`` random moves that has not ended (None if the game did)."""
    state = ConnectFour(columns, rows)
    for _ in range(discs):
        if state.is_terminal():
            return None
        state = state.play(rng.choice(state.moves()))
    return None if state.is_terminal() else state


def positions(seed: int, count: int, low: int, high: int, columns: int = 7, rows: int = 6):
    """``count`` seeded unfinished positions of ``low`` to ``high`` discs."""
    rng, found = random.Random(case_seed(seed)), []
    while len(found) < count:
        state = random_position(rng, rng.randint(low, high), columns, rows)
        if state is not None:
            found.append(state)
    return found


def wins(state) -> list[int]:
    """The columns where the player to move wins at once."""
    return [m for m in state.moves() if state.play(m).winner() is not None]


def landing(state, column: int) -> int:
    """The cell (row-major from the top, as ``cells()``) a piece dropped in ``column`` fills."""
    cells = state.cells()
    return max(r * state.columns + column for r in range(state.rows)
               if cells[r * state.columns + column] == 0)


def their_wins(state) -> list[int]:
    """The columns where the opponent would win at once, were it their turn."""
    cells, theirs = state.cells(), 2 if state.to_move == 1 else 1
    found = []
    for column in state.moves():
        cell = landing(state, column)
        if any(cell in line and all(cells[c] == theirs for c in line if c != cell)
               for line in state.lines()):
            found.append(column)
    return found


def swap(state):
    """The position with X and O exchanged and the other side to move (None when the
    swapped counts are no position of the board)."""
    first = "O" if state.first == 1 else "X"
    try:
        return ConnectFour.from_text(state.to_text().translate(SWAP), state.k, first=first)
    except ValueError:
        return None


def number(value) -> float | None:
    """A finite real number by its exact type (numpy's too), else None."""
    value = exact_number(value)
    return None if value is None or not math.isfinite(float(value)) else float(value)


# ---------------------------------------------------------------------- stage 1: evaluation

@cases_cache
def solved_positions() -> list[tuple[ConnectFour, int]]:
    """Seeded 6x7 positions of 20 to 30 discs the solver says are won by one side: each
    with +1 when the player to move wins, -1 when they lose."""
    found = []
    for state in positions(SEED, 60, 20, 30):
        value = solve_position(state) * state.to_move
        if value:
            found.append((state, value))
    return found


def separation(scores: list[tuple[float, int]]) -> float:
    """The chance that a won position scores above a lost one (ties half): 0.5 is chance."""
    won = [s for s, v in scores if v > 0]
    lost = [s for s, v in scores if v < 0]
    pairs = [(a > b) + (a == b) / 2 for a in won for b in lost]
    return sum(pairs) / len(pairs) if pairs else 0.5


SEPARATION = 0.65  # what an evaluation must reach; the windows of four reach about 0.8


def _evaluate_failure(evaluate) -> str | None:
    scores = []
    for state, value in solved_positions():
        got, _, error = timed_call(evaluate, (state,), 2.0)
        if error:
            return f"on {state.to_text()!r} {error}"
        score = number(got)
        if score is None:
            return f"on {state.to_text()!r} it gave {got!r}, not a finite number"
        other = swap(state)
        mirrored = number(timed_call(evaluate, (other,), 2.0)[0]) if other else score
        if mirrored is None or not math.isclose(score, mirrored, rel_tol=1e-9, abs_tol=1e-9):
            return (f"on {state.to_text()!r} it gave {score:g}, but {mirrored} with the colours "
                    f"and the turn swapped ({other.to_text()!r}): score from the side of the "
                    f"player to move (state.to_move), not from X's")
        scores.append((score, value))
    found = separation(scores)
    if found < SEPARATION:
        return (f"on {len(scores)} positions the solver scored, a won position (for the "
                f"player to move) scores above a lost one only {found:.0%} of the time "
                f"(chance is 50%, {SEPARATION:.0%} is wanted): count the windows each side "
                f"can still fill, and weigh those nearly full")
    return None


@write_it(forbids=SEARCHES, task="the evaluation")
def check_12_evaluate(evaluate) -> None:
    """Judge ``evaluate(state)``: a finite number from the side of the player to move that
    separates won from lost positions (by the solver) better than chance."""
    if unanswered(evaluate, "count the windows of four each side could still fill, from "
                            "the side of the player to move."):
        return
    if not callable(evaluate):
        return print(f"Not yet: pass your function itself, not {type(evaluate).__name__}.")
    try:
        failure = _evaluate_failure(evaluate)
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    if failure:
        return print(f"Not yet: {failure}.")
    scores = [(number(evaluate(s)), v) for s, v in solved_positions()]
    print(f"Right: a number for the player to move on every position, unchanged when the "
          f"colours and the turn swap, and a won position scores above a lost one "
          f"{separation(scores):.0%} of the time on {len(scores)} solved positions.")


# ------------------------------------------------------------------------ stage 2: the order

@cases_cache
def order_positions() -> list[ConnectFour]:
    """Seeded positions (6x7 and 4x5, rows x columns) with a win or a threat to meet, and some quiet ones."""
    rng, found, quiet = random.Random(case_seed(SEED + 2)), [], 0
    while len(found) < 50:
        size = rng.choice([(7, 6), (7, 6), (5, 4)])
        state = random_position(rng, rng.randint(4, 24), *size)
        if state is None:
            continue
        if wins(state) or their_wins(state) or quiet < 10:
            quiet += not (wins(state) or their_wins(state))
            found.append(state)
    return sorted(found, key=lambda s: (bin(s.x | s.o).count("1"), s.to_text()))


def _order_failure(order, state) -> str | None:
    got, _, error = timed_call(order, (state,), 2.0)
    if error:
        return error
    moves = state.moves()
    if type(got) not in (list, tuple) or any(
            number(m) is None or number(m) != int(number(m)) for m in got) \
            or sorted(int(m) for m in got) != moves:
        return (f"it gave {got!r}: a list holding every legal column once "
                f"(state.moves() is {moves})")
    first, mine, theirs = int(got[0]), wins(state), their_wins(state)
    if mine and first not in mine:
        return f"it puts {first} first, but {mine[0]} wins at once for the player to move"
    if not mine and theirs and first not in theirs:
        return (f"it puts {first} first, but the opponent wins at once in {theirs[0]}: "
                f"with no win of its own, the player to move must block there")
    return None


@write_it(forbids=SEARCHES, task="the move order")
def check_12_order(order) -> None:
    """Judge ``order(state)``: every legal column once, a winning column first, else a
    column that blocks the opponent's win."""
    if unanswered(order, "sort state.moves(): wins first, then blocks, then the centre."):
        return
    if not callable(order):
        return print(f"Not yet: pass your function itself, not {type(order).__name__}.")
    cases = order_positions()
    try:
        for state in cases:
            failure = _order_failure(order, state)
            if failure:
                to_move = "X" if state.to_move == 1 else "O"
                return print(f"Not yet: on {state.to_text()!r} ({to_move} to move) {failure}.")
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    print(f"Right: on {len(cases)} positions every legal column once, the win first where "
          f"there is one, else the block.")


# ---------------------------------------------------------------------- stage 3: the search

def leaf_value(state) -> int:
    """The checker's evaluation: a fixed, arbitrary score of each position, from the side
    of the player to move (any evaluation will do to judge a search)."""
    return random.Random(state.key() * 7919 + SEED).randint(-50, 50)


def negamax_value(state, depth: int, evaluate=leaf_value) -> int:
    """Plain negamax to ``depth`` moves with ``evaluate`` at the horizon: the oracle."""
    if state.is_terminal():
        return -WIN_12 if state.winner() is not None else 0
    if depth == 0:
        return evaluate(state)
    return max(-negamax_value(state.play(m), depth - 1, evaluate) for m in state.moves())


@cases_cache
def search_cases() -> list[tuple[ConnectFour, int, int, int]]:
    """(state, depth, alpha, beta): full windows, and windows below, around and above the
    value, on 6x7 and 4x5 positions, near the end too (terminal positions included)."""
    rng, cases = random.Random(case_seed(SEED + 3)), []
    wide = (-WIN_12 - 1, WIN_12 + 1)
    for index, state in enumerate(positions(SEED + 3, 24, 0, 30)
                                  + positions(SEED + 4, 12, 8, 19, 5, 4)):
        depth = index % 4
        value = negamax_value(state, depth)
        windows = [wide, (value - 5, value + 5), (value + 1, value + 20),
                   (value - 20, value - 1)]
        cases += [(state, depth, *rng.choice(windows[1:]))] + [(state, depth, *wide)]
    return sorted(cases, key=lambda c: (c[1], bin(c[0].x | c[0].o).count("1")))


def _search_failure(search, state, depth, alpha, beta, counted) -> str | None:
    got, _, error = timed_call(search, (state, depth, alpha, beta, counted), 10.0)
    if error:
        return error
    value, expected = number(got), negamax_value(state, depth)
    if value is None:
        return f"it gave {got!r}, not a number"
    if alpha < expected < beta and value != expected:
        return f"the value {expected} lies inside the window, but it gave {value:g}"
    if expected <= alpha and not expected <= value <= alpha:
        return (f"the value {expected} is at most alpha, so the answer must lie between "
                f"{expected} and alpha; it gave {value:g}")
    if expected >= beta and not beta <= value <= expected:
        return (f"the value {expected} is at least beta, so the answer must lie between "
                f"beta and {expected}; it gave {value:g}")
    return None


def _search_hint(failure: str) -> str:
    return (f"{failure}. Score a won position -WIN for the player to move (they have lost), "
            f"a full board 0, the horizon by evaluate(state); each child's value is the "
            f"negative of its search with the window (-beta, -alpha).")


class CountedEvaluation:
    """The evaluation handed to the student's search: the position's value, each call
    counted. A grading box calls it through a stand-in (``REMOTE``, see ``faces``), so the
    count is kept here, in the grader."""

    REMOTE = {"call": ("__call__",)}

    def __init__(self) -> None:
        self.calls = [0]

    def __call__(self, state) -> int:
        self.calls[0] += 1
        return leaf_value(state)


@write_it(forbids=SEARCHES, task="the search")
def check_12_search(search) -> None:
    """Judge ``search(state, depth, alpha, beta, evaluate)``: negamax alpha-beta to
    ``depth`` moves with ``evaluate`` at the horizon, against plain negamax."""
    if unanswered(search, "negamax with a window: stop at the end of the game or at depth "
                          "0, else try each move with (-beta, -alpha)."):
        return
    if not callable(search):
        return print(f"Not yet: pass your function itself, not {type(search).__name__}.")
    counted, plain = CountedEvaluation(), [0]
    calls = counted.calls

    def plain_counted(state):
        plain[0] += 1
        return leaf_value(state)

    full = 0  # the student's evaluations on the full windows, compared with plain negamax
    try:
        for state, depth, alpha, beta in search_cases():
            before = calls[0]
            failure = _search_failure(search, state, depth, alpha, beta, counted)
            if failure:
                return print(f"Not yet: on {state.to_text()!r} to depth {depth} with the "
                             f"window ({alpha}, {beta}) {_search_hint(failure)}")
            if alpha < -WIN_12:
                full += calls[0] - before
                negamax_value(state, depth, plain_counted)
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    if full >= plain[0]:
        return print(f"Not yet: the values are right, but it evaluated {full:,} positions "
                     f"where plain negamax evaluates {plain[0]:,}: stop trying moves once a "
                     f"value reaches beta.")
    print(f"Right: negamax alpha-beta's value on {len(search_cases())} cases (inside the "
          f"window exactly, a true bound outside it); on the full windows it evaluated "
          f"{full:,} positions where plain negamax evaluates {plain[0]:,}.")


# --------------------------------------------------------------- stage 4: the deadline loop

SLACK = 0.1  # CPU seconds a move may run past its budget (the last node, the clock's grain)
WALL_FACTOR = 10  # the wall-clock backstop: this many times the CPU budget, plus WALL_GRACE
# seconds: a search that stops late (0.4 s of CPU for a 0.02 s budget) must come back to be
# told so even when a loaded machine gives it a quarter of a core (2 s were once too few)
WALL_GRACE = 5.0


@cases_cache
def deadline_cases() -> list[tuple[str, ConnectFour, float]]:
    """(kind, state, seconds): early positions with tiny budgets and with time to use, wins
    and blocks at once,
    and wins two moves deep (a move after which every reply loses at once)."""
    cases = [("in time", ConnectFour(), 0.02)]
    early = positions(SEED + 5, 4, 1, 6)
    cases += [("in time", s, 0.05) for s in early[:2]] + [("uses time", s, 0.3) for s in early[2:]]
    rng = random.Random(case_seed(SEED + 6))
    kinds = {"win": [], "block": [], "two deep": []}
    while any(len(found) < 2 for found in kinds.values()):
        state = random_position(rng, rng.randint(8, 26))
        if state is None:
            continue
        kind = "win" if wins(state) else "block" if len(their_wins(state)) == 1 else \
            "two deep" if not their_wins(state) and deep_wins(state) else None
        if kind and len(kinds[kind]) < 2:
            kinds[kind].append(state)
    budget = {"win": 0.1, "block": 0.1, "two deep": 0.5}
    return cases + [(kind, s, budget[kind]) for kind, found in kinds.items() for s in found]


def deep_wins(state) -> list[int]:
    """The columns after which every reply of the opponent lets the mover win at once."""
    found = []
    for move in state.moves():
        after = state.play(move)
        if not after.is_terminal() and all(
                not reply.is_terminal() and wins(reply)
                for reply in (after.play(m) for m in after.moves())):
            found.append(move)
    return found


def _deadline_failure(best_move, kind, state, seconds) -> str | None:
    got, used, error = cpu_timed_call(best_move, (state, seconds),
                                      WALL_FACTOR * seconds + WALL_GRACE)
    if error:
        if "ran for more than" in error:
            return f"with {seconds:g} s it did not return: does the search watch the clock?"
        return error
    move = number(got)
    if move is None or move != int(move) or int(move) not in state.moves():
        return f"it gave {got!r}, not a legal column ({state.moves()})"
    move = int(move)
    if used > seconds + SLACK:
        return (f"with {seconds:g} s it took {used:.2f} s of CPU time: stop the search "
                f"when the deadline passes, and keep the last finished depth's move")
    if kind == "uses time" and used < seconds / 2:
        return (f"with {seconds:g} s it stopped after {used:.2f} s of CPU time, on a board "
                f"far from full: keep deepening while time is left")
    if kind == "win" and move not in wins(state):
        return f"it played {move}, but {wins(state)[0]} wins at once"
    if kind == "block" and move not in their_wins(state):
        return f"it played {move}, but the opponent wins in {their_wins(state)[0]} unless blocked"
    if kind == "two deep" and solve_position(state.play(move)) * state.to_move <= 0:
        return (f"with {seconds:g} s it played {move}, but {deep_wins(state)[0]} wins two "
                f"moves deep: does it search deeper while time is left?")
    return None


@write_it(forbids=SEARCHES, task="the deadline loop")
def check_12_deadline(best_move) -> None:
    """Judge ``best_move(state, seconds)``: iterative deepening against a deadline of
    ``seconds`` of CPU time, returning a legal column in time."""
    if unanswered(best_move, "search to depth 1, 2, 3, ... and return the last finished "
                             "depth's best move when the time is up."):
        return
    if not callable(best_move):
        return print(f"Not yet: pass your function itself, not {type(best_move).__name__}.")
    try:
        for kind, state, seconds in deadline_cases():
            failure = _deadline_failure(best_move, kind, state, seconds)
            if failure:
                return print(f"Not yet: on {state.to_text()!r} {failure}.")
    except NotImplementedError:
        return print("Not yet: write the function (it still raises NotImplementedError).")
    print(f"Right: on {len(deadline_cases())} positions a legal column within its CPU time "
          f"(budgets of 0.02 to 0.5 s), the time used where the board is far from full, the "
          f"win and the block at once, and the win two moves deep found.")
