"""Right and wrong answers for the exercises of notebook 06."""
from fractions import Fraction

from ttt_lib import BitBoard, teach
from ttt_lib.arena import random_play_probabilities
from ttt_lib.studies.counting import positions
from ttt_lib.symmetry import encode, symmetric_forms


def two_mark_classes():
    return len({b.canonical_key() for b in positions().values()
                if sum(1 for d in b.cells() if d) == 2})


ODDS = random_play_probabilities(BitBoard.from_text(teach.BOARD_06_ODDS))


CASES = [
    (teach.check_06_code, encode(BitBoard.from_text(teach.BOARD_06_CODE).cells()),
     [0, 102010002, encode(tuple(reversed(BitBoard.from_text(teach.BOARD_06_CODE).cells()))),
      3 ** 9]),
    (teach.check_06_two_mark_classes, two_mark_classes(), [72, 3, 38, 11, 13]),
    (teach.check_06_images,
     len(set(symmetric_forms(BitBoard.from_text(teach.BOARD_06_IMAGES).cells()))),
     [8, 1, 4, 9, 0]),
    (teach.check_06_random_odds, ODDS["x_wins"],
     [ODDS["o_wins"], ODDS["draws"], Fraction(4, 17), Fraction(0), Fraction(3, 2),
      0.3, "1/4"]),
]


# ------------------------------------------------- write it: a canonical form (check_06_canonical)

ALL = ["identity", "rotate 90", "rotate 180", "rotate 270",
       "mirror", "mirror + rotate 90", "mirror + rotate 180", "mirror + rotate 270"]


def images(cells, names):
    from ttt_lib.symmetry import SYMMETRIES
    return ["".join(cells[j] for j in SYMMETRIES[name]) for name in names]


def smallest_image(cells):
    return min(images(cells, ALL))


def largest_code(cells):  # another representative, and not a string: still right
    return max(int(image.translate(str.maketrans(".XO", "012")), 3)
               for image in images(cells, ALL))


def only_rotations(cells):
    return min(images(cells, ALL[:4]))


def only_mirrors(cells):
    return min(images(cells, ["identity", "mirror", "mirror + rotate 180", "rotate 180"]))


def one_step(cells):  # not idempotent: one quarter turn compared, not all 8 images
    return min(cells, images(cells, ["rotate 90"])[0])


def marks_only(cells):  # merges positions that are not symmetric
    return "".join(sorted(cells))


def as_list(cells):
    return list(smallest_image(cells))


def canonical_stub(cells):
    raise NotImplementedError


def canonical_loops(cells):
    while True:
        pass


CASES.append((teach.check_06_canonical, smallest_image,
              [only_rotations, only_mirrors, one_step, marks_only, canonical_stub, 42]))

WRITE_IT = [
    (teach.check_06_canonical, [smallest_image, largest_code],
     {only_rotations: "with and without a mirror", only_mirrors: "quarter turn",
      one_step: "its own answer", marks_only: "not symmetric", as_list: "cannot serve as a key",
      canonical_stub: "write the function", canonical_loops: "ran for more than"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.symmetry import canonical  # noqa: E402


def numpy_code(cells):  # the smallest image's code as np.int64: a key like any other
    codes = [np.int64(int(image.translate(str.maketrans(".XO", "012")), 3))
             for image in images(cells, ALL)]
    return np.min(codes)


def library_key(cells):
    return BitBoard.from_text("/".join((cells[:3], cells[3:6], cells[6:]))).canonical_key()


def library_canonical(cells):
    return canonical(tuple(".XO".index(mark) for mark in cells))


def library_forms(cells):
    return min(symmetric_forms(tuple(".XO".index(mark) for mark in cells)))


WRITE_IT[0][1].append(numpy_code)
CHEATS = [(teach.check_06_canonical, {library_key: "BitBoard.canonical_key", library_canonical: "canonical",
                                      library_forms: "symmetric_forms"})]
