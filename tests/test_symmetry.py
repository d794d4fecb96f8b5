import pytest

from ttt_lib import BitBoard
from ttt_lib.symmetry import (PERMUTATIONS, SYMMETRIES, canonical, canonical_code, decode,
                              encode, stabilizer, symmetric_forms, transform)


def test_code_of_the_documented_example():
    board = BitBoard.from_text("x.o/xo./.x.")
    assert board.code() == 8427
    assert encode(board.cells()) == 8427 and decode(8427) == board.cells()


def test_encode_decode_round_trip_on_every_raw_board():
    for code in range(3 ** 9):
        assert encode(decode(code)) == code


@pytest.mark.parametrize("bad", [-1, 3 ** 9, "12", 1.5])
def test_decode_rejects_bad_codes(bad):
    with pytest.raises(ValueError, match="0..19682"):
        decode(bad)


def test_eight_distinct_permutations_forming_a_group():
    assert len(set(PERMUTATIONS)) == 8
    for p in PERMUTATIONS:
        assert sorted(p) == list(range(9))
        for q in PERMUTATIONS:
            assert transform(p, q) in PERMUTATIONS  # closed under composition


def test_named_symmetries_move_the_corner_where_expected():
    corner = (1,) + (0,) * 8
    assert transform(corner, SYMMETRIES["rotate 90"]).index(1) == 2
    assert transform(corner, SYMMETRIES["rotate 180"]).index(1) == 8
    assert transform(corner, SYMMETRIES["mirror"]).index(1) == 2
    assert transform(corner, SYMMETRIES["identity"]) == corner


def test_canonical_form_is_shared_by_every_image(all_bitboards):
    for board in all_bitboards[:800]:
        forms = symmetric_forms(board.cells())
        assert {canonical(f) for f in forms} == {canonical(board.cells())}
        assert encode(canonical(board.cells())) == canonical_code(board.cells())
        assert len({BitBoard.from_cells(f).canonical_key() for f in forms}) == 1


def test_stabilizer_of_the_centre_is_the_whole_group():
    assert len(stabilizer(decode(3 ** 4))) == 8
    assert stabilizer((1, 2, 0, 0, 0, 0, 0, 0, 0)) == ["identity"]
