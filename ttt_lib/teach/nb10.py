"""Exercises of notebook 10: learning to play."""
from __future__ import annotations

import math
from fractions import Fraction
import random

from ..learn.qtable import QTable
from .core import case_seed, unanswered, verdict, write_it
from .judge import call_limited, failure_of, same_value

__all__ = ["ALPHA_10", "check_10_o_value", "check_10_q_update"]

ALPHA_10 = 0.5  # the learning rate of exercise 3


def _number(answer):
    """``answer`` as a float (ints, floats, texts like '-1/4' or '0.3'), or None."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, str):
        try:
            top, _, bottom = answer.partition("/")
            return float(top) / float(bottom) if bottom else float(top)
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(answer, (int, float, Fraction)) and math.isfinite(answer):
        return float(answer)
    return None


def _updated(q: float, reward: float, next_best: float | None, alpha: float,
             gamma: float) -> float:
    """The new value of a move, computed by ``QTable.update`` itself: a one-move trail when
    the move ended the game, else a trail whose next position's best value is ``next_best``."""
    learner = QTable(gamma=gamma)
    row = [q] + [-math.inf] * 8
    if next_best is None:
        learner.update([(row, 0)], reward, alpha)
    else:
        after = [next_best] + [-math.inf] * 8  # updated toward next_best: it stays next_best
        learner.update([(row, 0), (after, 0)], next_best, alpha)
    return row[0]


def _o_value() -> float:
    """Exercise 3: a fresh table, X wins with its next move; O's move before it, after the
    game's updates (last move first)."""
    o_row, x_row = [0.0] * 9, [0.0] * 9
    QTable().update([(o_row, 0), (x_row, 4)], 1.0, ALPHA_10)
    return o_row[0]


def check_10_o_value(answer) -> None:
    """After one game's updates on a fresh table (``ALPHA_10``), what is O's last move worth
    when X's reply won? (a number)"""
    expected = _o_value()
    if unanswered(answer, "first update X's winning move (its target is the reward), then "
                          "O's move, whose target is minus X's best value afterwards."):
        return
    value = _number(answer)
    if value is None:
        return verdict(False, "", "the answer is one number, e.g. 0.3 or '-1/8'.")
    x_value = ALPHA_10 * 1.0
    if math.isclose(value, -expected):
        hint = "the sign: X's gain is O's loss, so O's target is minus X's best value."
    elif math.isclose(value, -x_value):
        hint = "that is O's target; a step moves only alpha of the way from 0 toward it."
    elif math.isclose(value, x_value):
        hint = "that is X's winning move's new value; now update O's move from it."
    elif math.isclose(value, -1.0):
        hint = "O did not lose a whole point yet: its target is minus X's new value, " \
               "not minus the reward."
    else:
        hint = "two steps, last move first: X's winning move toward the reward, then O's " \
               "move toward minus X's best value, each moving alpha of the way."
    verdict(math.isclose(value, expected),
            f"{expected:g}: X's winning move rose to {x_value:g}, O's target is minus that, "
            f"and O's value moved {ALPHA_10:g} of the way toward it.", hint)


# ---------------------------------------------------------------- the write-it exercise

def _cases() -> list[tuple[float, float, float | None, float, float]]:
    """60 seeded updates (q, reward, next_best, alpha, gamma): finished games first."""
    rng = random.Random(case_seed(10))
    cases = []
    for n in range(60):
        q = round(rng.uniform(-1, 1), 3)
        alpha, gamma = rng.choice([0.1, 0.25, 0.5, 1.0]), rng.choice([1.0, 0.9])
        if n < 20:
            cases.append((q, float(rng.choice([-1, 0, 1])), None, alpha, gamma))
        else:
            cases.append((q, 0.0, round(rng.uniform(-1, 1), 3), alpha, gamma))
    return cases


def _target(reward, next_best, gamma, *, final=True, sign=-1, discount=True) -> float:
    """The target of an update; each keyword off is one typical mistake."""
    if next_best is None:
        return reward if final else 0.0
    return sign * (gamma if discount else 1.0) * next_best


Q_MISTAKES = [  # (new value as the mistake computes it, its hint)
    (lambda q, r, nb, a, g: _target(r, nb, g),
     "that is the target itself: move only alpha of the way from q toward it."),
    (lambda q, r, nb, a, g: q + a * (_target(r, nb, g, sign=1) - q),
     "next_best is the opponent's value: the target is minus gamma times it (negamax)."),
    (lambda q, r, nb, a, g: q + a * (_target(r, nb, g, discount=False) - q),
     "discount the next position's value by gamma."),
    (lambda q, r, nb, a, g: q + a * (_target(r, nb, g, final=False) - q),
     "when the move ended the game (next_best is None) the target is the reward: it is "
     "left out."),
    (lambda q, r, nb, a, g: q, "the value did not move: add alpha times (target - q)."),
    (lambda q, r, nb, a, g: q + a * _target(r, nb, g),
     "step from q toward the target: alpha times (target - q), not alpha times the target."),
]


def _q_hint(fn, failing: tuple) -> str:
    """The hint of the typical mistake that gives ``fn``'s values on the failing case and
    on finished and unfinished games besides (a fingerprint), else the rule itself."""
    cases = _cases()
    probes = [failing] + cases[:4] + cases[-4:]
    try:
        answers = [call_limited(fn, case) for case in probes]
    except Exception:  # a probe it cannot answer: no fingerprint
        answers = None
    for mistake, hint in Q_MISTAKES if answers else ():
        if all(same_value(mistake(*case), got) for case, got in zip(probes, answers)):
            return hint
    return ("new = q + alpha * (target - q); the target is the reward when the move ended the "
            "game (next_best is None), else minus gamma times next_best.")


@write_it(forbids=((QTable, "update"),), task="the update")
def check_10_q_update(fn) -> None:
    """Judge ``fn(q, reward, next_best, alpha, gamma) -> new value``, the Q-learning update
    of one move, on 60 seeded cases (``next_best`` is None when the move ended the game)."""
    if unanswered(fn, "new = q + alpha * (target - q), the target being the reward or minus "
                      "gamma times the opponent's best value."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    for q, reward, next_best, alpha, gamma in _cases():
        shown = (f"q={q}, reward={reward}, next_best={next_best}, alpha={alpha}, "
                 f"gamma={gamma}")
        try:
            got = call_limited(fn, (q, reward, next_best, alpha, gamma))
        except NotImplementedError:
            return print("Not yet: write the function (it still raises NotImplementedError).")
        except Exception as error:  # the student's bug, reported, never a traceback
            extra = " (next_best is None when the move ended the game)" \
                if next_best is None and isinstance(error, TypeError) else ""
            return print(f"Not yet: on {shown} {failure_of(error)}{extra}")
        expected = _updated(q, reward, next_best, alpha, gamma)
        if not same_value(expected, got):
            hint = _q_hint(fn, (q, reward, next_best, alpha, gamma))
            return print(f"Not yet: on {shown} the new value is {expected:.6g}, your function "
                         f"gave {got!r}. {hint[0].upper()}{hint[1:]}")
    print("Right: your update moves each value alpha of the way toward its target, the reward "
          "or minus the discounted best reply, as QTable.update does, on 60 seeded cases.")
