"""Random strings and move sequences: only the two precise exceptions may ever escape."""
from hypothesis import given, settings
from hypothesis import strategies as st

from ttt_lib import BitBoard, IllegalMoveError, InvalidBoardError, ListBoard

BOARD_CHARS = st.sampled_from("XOxo./.| 0")
texts = st.one_of(st.text(BOARD_CHARS, max_size=13), st.text(max_size=13))
moves = st.one_of(st.integers(-20, 20), st.none(), st.text(max_size=2), st.floats(),
                  st.booleans(), st.tuples(st.integers(0, 2), st.integers(0, 2)))


@settings(max_examples=1000, deadline=None)
@given(texts)
def test_from_text_raises_only_invalid_board(text):
    for cls in (ListBoard, BitBoard):
        try:
            board = cls.from_text(text)
        except InvalidBoardError:
            continue
        assert cls.from_text(board.to_text()) == board


@settings(max_examples=1000, deadline=None)
@given(st.lists(moves, max_size=14), st.sampled_from(["X", "O"]))
def test_play_raises_only_illegal_move(sequence, first):
    lst, bit = ListBoard(first), BitBoard(first)
    for move in sequence:
        outcomes = []
        for board in (lst, bit):
            try:
                outcomes.append(board.play(move))
            except IllegalMoveError as error:
                outcomes.append(str(error))
        assert isinstance(outcomes[0], str) == isinstance(outcomes[1], str)
        if isinstance(outcomes[0], str):
            assert outcomes[0] == outcomes[1]
        else:
            lst, bit = outcomes
            assert lst.to_text() == bit.to_text()
