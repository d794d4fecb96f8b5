"""Exercises of notebook 06: counting states and symmetry."""
from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from ..boards.mnk import MNKBoard
from ..symmetry import SYMMETRIES, canonical, canonical_code, encode, symmetric_forms
from .core import is_int, unanswered, verdict, write_it
from .judge import call_limited, failure_of

__all__ = ["BOARD_06_CODE", "BOARD_06_IMAGES", "BOARD_06_ODDS", "check_06_canonical",
           "check_06_code", "check_06_random_odds", "check_06_two_mark_classes",
           "check_06_images"]

BOARD_06_CODE = "X.O/.X./..O"
BOARD_06_IMAGES = "X.O/.../O.X"
# Exercise 5: the position whose odds under uniformly random play are asked for.
BOARD_06_ODDS = "XOX/.O./..X"


def check_06_code(answer) -> None:
    """The base-3 code of ``X.O/.X./..O`` (empty 0, X 1, O 2; cell 0 the leading digit)."""
    cells = BitBoard.from_text(BOARD_06_CODE).cells()
    expected = encode(cells)
    first_hint = "the 9 cells are the 9 digits of a base-3 number, cell 0 the leading one."
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the code is one int, between 0 and 3**9 - 1.")
    if answer == encode(tuple(reversed(cells))):
        hint = "your digits are in reverse order: cell 0 is worth 3**8, cell 8 is worth 1."
    elif answer == int("".join(map(str, cells))):
        hint = "that reads the digits in base 10; each place is worth 3 times the next."
    elif not 0 <= answer < 3 ** 9:
        hint = "a code lies between 0 and 3**9 - 1 = 19682."
    else:
        hint = "write the digits (. = 0, X = 1, O = 2) row by row, then add digit * 3**place."
    verdict(answer == expected,
             f"{answer} is the code of {BOARD_06_CODE}; decode({answer}) gives its cells back.",
             hint)


@lru_cache(maxsize=None)
def _classes_by_marks() -> dict[int, int]:
    from ..studies.counting import positions
    classes: dict[int, set] = {}
    for board in positions().values():
        marks = sum(1 for digit in board.cells() if digit)
        classes.setdefault(marks, set()).add(board.canonical_key())
    return {marks: len(keys) for marks, keys in sorted(classes.items())}


@lru_cache(maxsize=None)
def _positions_by_marks() -> dict[int, int]:
    from ..studies.counting import position_counts
    return {int(m): n for m, n in position_counts()["by_marks"].items()}


def check_06_two_mark_classes(answer) -> None:
    """How many reachable positions with exactly two marks there are up to symmetry."""
    expected = _classes_by_marks()[2]
    first_hint = ("keep the positions with two marks, then count their canonical keys "
                  "(a set of board.canonical_key()).")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a number of classes.")
    if answer == _positions_by_marks()[2]:
        hint = "that counts every two-mark position; symmetric ones should count once."
    elif answer in (_classes_by_marks()[1], _classes_by_marks()[3]):
        hint = "that is the count for a different number of marks: X and O have one each."
    elif answer > expected:
        hint = "too many: some of your classes are images of each other."
    else:
        hint = "too few: two positions share a class only if a symmetry maps one onto the other."
    verdict(answer == expected,
             f"{answer} classes: one X and one O, placed in every way that differs "
             "by more than a turn or a flip.", hint)


def check_06_images(answer) -> None:
    """How many different positions the 8 symmetries make of ``BOARD_06_IMAGES``."""
    cells = BitBoard.from_text(BOARD_06_IMAGES).cells()
    images = len(set(symmetric_forms(cells)))
    first_hint = "apply all 8 symmetries and count the different results."
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int between 1 and 8.")
    if answer == 8:
        hint = "some symmetries give back the very same position; count each result once."
    elif answer > 8 or answer < 1:
        hint = "8 symmetries can make at most 8 different images, and at least 1."
    else:
        hint = "put the images in a set and take its size (stabilizer() tells why)."
    fixed = 8 // images
    verdict(answer == images,
             f"{images} images: {fixed} of the 8 symmetries leave it unchanged, "
             f"and 8 / {fixed} = {images} (the orbit-stabilizer theorem).", hint)


# ---------------------------------------------------------------- the write-it exercise

def _as_text(cells) -> str:
    return "".join(".XO"[digit] for digit in cells)


def _image(text: str, name: str) -> str:
    return "".join(text[j] for j in SYMMETRIES[name])


@lru_cache(maxsize=None)
def _reachable() -> tuple[tuple[str, Hashable], ...]:
    """(9-character text, ttt_lib's class key) of every reachable position, fewest marks
    first, so the first failure found is among the smallest."""
    from ..studies.counting import positions
    rows = [(_as_text(board.cells()), board.canonical_key()) for board in positions().values()]
    return tuple(sorted(rows, key=lambda row: (len(row[0].replace(".", "")), row[0])))


def _first_failure(forms: dict) -> tuple | None:
    """The first position whose form disagrees with ttt_lib's classes: ("split", p, q, name)
    when its image q under the symmetry ``name`` got another form, ("merge", p, r) when a
    position r of another class got the same form."""
    cls = dict(_reachable())
    by_form: dict = {}
    for text, _ in _reachable():
        by_form.setdefault(forms[text], []).append(text)
    for text, key in _reachable():
        for name in SYMMETRIES:
            if forms[_image(text, name)] != forms[text]:
                return "split", text, _image(text, name), name
        other = next((r for r in by_form[forms[text]] if cls[r] != key), None)
        if other is not None:
            return "merge", text, other
    return None


def _split_hint(forms: dict) -> str:
    texts = [text for text, _ in _reachable()]
    turns = all(forms[_image(t, "rotate 90")] == forms[t] for t in texts)
    mirror = all(forms[_image(t, "mirror")] == forms[t] for t in texts)
    if turns and not mirror:
        return ("Your forms agree under the 4 rotations but not under the mirror images: the "
                "8 symmetries are the 4 rotations with and without a mirror.")
    if mirror and not turns:
        return ("Your forms agree under a mirror but not under a quarter turn: the 8 "
                "symmetries include the rotations by 90, 180 and 270 degrees.")
    if any(forms[t] in forms and forms[forms[t]] != forms[t] for t in texts):
        return ("Applied to its own answer, your function changes it again: compute all 8 "
                "images and pick one by a fixed rule (the smallest string, say), so every "
                "image of a position leads to the same form.")
    return ("Symmetric positions need the same form: compute all 8 images and pick one by a "
            "rule that does not depend on which image you were handed (the smallest string).")


def _forms(fn) -> dict | str:
    """The student's form of every reachable position, or the line that reports a failure."""
    forms = {}
    for text, _ in _reachable():
        try:
            form = call_limited(fn, (text,))
            hash(form)
        except NotImplementedError:
            return "Not yet: write the function (it still raises NotImplementedError)."
        except TypeError as error:
            if "unhashable" in str(error):
                return (f"Not yet: on {text!r} your function gave a value that cannot serve "
                        f"as a key ({error}): return a string, such as one of the 8 images.")
            return f"Not yet: on {text!r} {failure_of(error)}"
        except Exception as error:  # the student's bug, reported, never a traceback
            return f"Not yet: on {text!r} {failure_of(error)}"
        forms[text] = form
    return forms


@write_it(forbids=(canonical, canonical_code, symmetric_forms, (BitBoard, "canonical_key"),
                   (ListBoard, "canonical_key"), (MNKBoard, "canonical_key")),
          task="the canonical form")
def check_06_canonical(fn) -> None:
    """Judge ``fn(cells) -> form``: ``cells`` is a position as 9 characters, row by row
    (``"X.O......"``); right when two of the 5,478 reachable positions get the same form
    exactly when a symmetry maps one onto the other (any choice of representative)."""
    if unanswered(fn, "compute the 8 images of the position (the 4 rotations, each with and "
                      "without a mirror) and return the smallest as a string."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    forms = _forms(fn)
    if isinstance(forms, str):
        return print(forms)
    failure = _first_failure(forms)
    if failure is None:
        classes = len(set(forms.values()))
        return print(f"Right: your forms split the {len(forms):,} reachable positions into "
                     f"the same {classes} classes as canonical_key(): symmetric positions "
                     f"share a form, the others never do.")
    if failure[0] == "split":
        _, text, image, name = failure
        return print(f"Not yet: {text!r} and {image!r} are symmetric ({name}), so they need "
                     f"the same form; your function gave {forms[text]!r} and "
                     f"{forms[image]!r}. {_split_hint(forms)}")
    _, text, other = failure
    print(f"Not yet: {text!r} and {other!r} are not symmetric (no turn or mirror maps one "
          f"onto the other), yet your function gave both {forms[text]!r}. The form must keep "
          f"where each mark is (return one of the 8 images), not only what the position "
          f"holds.")


# ------------------------------------ the exact odds of random play (check_06_random_odds)

@lru_cache(maxsize=None)
def _odds() -> dict[str, Fraction]:
    from ..arena import random_play_probabilities
    return random_play_probabilities(BitBoard.from_text(BOARD_06_ODDS))


@lru_cache(maxsize=None)
def _games_share() -> Fraction:
    """X's share of the finished games, every game counted once (the tempting slip)."""
    from ..game import leaves
    ends = list(leaves(BitBoard.from_text(BOARD_06_ODDS)))
    return Fraction(sum(1 for end in ends if end.utility() > 0), len(ends))


def check_06_random_odds(answer) -> None:
    """The exact probability that X wins from ``BOARD_06_ODDS`` when both sides play
    uniformly random moves, as a ``Fraction``."""
    odds = _odds()
    expected = odds["x_wins"]
    first_hint = ("each legal move is equally likely, so a position's chance is the average of "
                  "its children's chances; a finished game is 1 if X won, else 0.")
    if unanswered(answer, first_hint):
        return
    if isinstance(answer, bool) or not isinstance(answer, (Fraction, int, float)):
        return verdict(False, "", "give a Fraction, e.g. Fraction(2, 7) "
                                  "(from fractions import Fraction).")
    if isinstance(answer, float):  # numbers compare by value: a float is right when it rounds
        if not math.isfinite(answer):  # the exact answer, to nine digits
            return verdict(False, "", "give a number between 0 and 1, best an exact Fraction.")
        if abs(answer - float(expected)) < 1e-9:
            answer = expected
    answer = Fraction(answer)
    from ..search.exact import solve
    perfect = Fraction(int(solve(BitBoard.from_text(BOARD_06_ODDS)) > 0))
    if not 0 <= answer <= 1:
        hint = "a probability lies between 0 and 1."
    elif answer == odds["o_wins"] and answer != expected:
        hint = "that is O's chance of winning; the question asks for X's."
    elif answer == odds["draws"] and answer != expected:
        hint = "that is the chance of a draw; the question asks for X's win."
    elif answer == _games_share() and answer != expected:
        hint = ("that counts every finished game once, but games are not equally likely: one "
                "that ends sooner took fewer random choices. Weight each move by "
                "1 / (number of legal moves).")
    elif answer == perfect and answer != expected:
        hint = ("that is the outcome under perfect play; here both sides pick uniformly at "
                "random among the empty cells.")
    else:
        hint = ("average over the moves of the player to move, level by level down to the end "
                "of the game; a small recursive function does it.")
    verdict(answer == expected,
            f"{expected} for X, {odds['o_wins']} for O and {odds['draws']} for a draw "
            f"(they add up to {sum(odds.values())}).", hint)
