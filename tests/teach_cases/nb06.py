"""Right and wrong answers for the exercises of notebook 06."""
from ttt_lib import BitBoard, teach
from ttt_lib.studies.counting import positions
from ttt_lib.symmetry import encode, symmetric_forms


def two_mark_classes():
    return len({b.canonical_key() for b in positions().values()
                if sum(1 for d in b.cells() if d) == 2})


CASES = [
    (teach.check_06_code, encode(BitBoard.from_text(teach.BOARD_06_CODE).cells()),
     [0, 102010002, encode(tuple(reversed(BitBoard.from_text(teach.BOARD_06_CODE).cells()))),
      3 ** 9]),
    (teach.check_06_two_mark_classes, two_mark_classes(), [72, 3, 38, 11, 13]),
    (teach.check_06_images,
     len(set(symmetric_forms(BitBoard.from_text(teach.BOARD_06_IMAGES).cells()))),
     [8, 1, 2, 9, 0]),
]
