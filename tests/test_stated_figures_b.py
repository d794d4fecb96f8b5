"""Figures the notebooks 06 and 09 state, read from their stored outputs and recomputed
independently: the two counts of games up to symmetry, each by its own definition, and the
slip at which slippery tic-tac-toe first leaves perfect play's moves."""
import json
import re
from fractions import Fraction
from itertools import permutations
from pathlib import Path

from ttt_lib import BitBoard
from ttt_lib.boards.slippery import SlipperyBoard
from ttt_lib.studies.chance import SlipperySolver, compare_choices
from ttt_lib.symmetry import SYMMETRIES

ROOT = Path(__file__).resolve().parent.parent


def printed(name: str, cell_id: str) -> str:
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c.get("id") == cell_id)
    return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))


def test_whole_games_up_to_symmetry_are_the_games_over_8():
    """No game is left unchanged by a symmetry other than the identity: its moves would all
    lie on the at most 3 cells such a symmetry fixes, and no game ends within 3 moves."""
    text = printed("06_counting_states_and_symmetry.ipynb", "count-45b")
    assert "whole games up to symmetry: 255,168 / 8 = 31,896 (remainder 0)" in text
    assert "class by class:             26,830" in text
    for name, p in SYMMETRIES.items():
        fixed = [c for c in range(9) if p[c] == c]
        if name == "identity":
            continue
        assert len(fixed) <= 3
        for order in permutations(fixed):  # every game played on them alone stays unfinished
            board = BitBoard()
            for move in order:
                board = board.play(move)
                assert not board.is_terminal(), (name, order)


def test_the_slip_threshold_is_bracketed_as_stated():
    text = printed("09_chance.ipynb", "chance-37d")
    found = re.search(r"(\S+) departs between p = (\d+)/(\d+) = [\d.]+ and p = (\d+)/(\d+)", text)
    assert found, text
    position = BitBoard.from_text(found[1])
    low, high = Fraction(int(found[2]), int(found[3])), Fraction(int(found[4]), int(found[5]))
    assert 0 < high - low < Fraction(1, 1000)
    assert f"at p = {low}, positions with a best move perfect play rejects: 0" in text
    assert compare_choices(low).outside == 0
    before = printed("09_chance.ipynb", "chance-37b")
    perfect = re.search(rf"{re.escape(found[1])}: perfect play \[([\d, ]+)\]", before)
    assert perfect, before
    slipped = SlipperySolver(high).best(SlipperyBoard.from_board(position, high))
    assert not set(slipped) <= {int(m) for m in perfect[1].split(",")}
