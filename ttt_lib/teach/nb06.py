"""Exercises of notebook 06: counting states and symmetry."""
from __future__ import annotations

from functools import lru_cache

from ..boards.bit import BitBoard
from ..symmetry import encode, symmetric_forms
from .core import is_int, unanswered, verdict

__all__ = ["BOARD_06_CODE", "BOARD_06_IMAGES", "check_06_code", "check_06_two_mark_classes",
           "check_06_images"]

BOARD_06_CODE = "X.O/.X./..O"
BOARD_06_IMAGES = "X../.O./..."


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
    """How many different positions the 8 symmetries make of ``X../.O./...``."""
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
