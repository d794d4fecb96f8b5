"""Slippery tic-tac-toe: the board's rules, and its exact values against an independent solver
written here on plain tuples of cells."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest

from ttt_lib.boards import BitBoard
from ttt_lib.boards.slippery import SlipperyBoard
from ttt_lib.errors import IllegalMoveError
from ttt_lib.game import ChanceNodeError, reachable
from ttt_lib.search import alphabeta, minimax, solve
from ttt_lib.search.chance import best_chance_moves, chance_value

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def independent_value(slip: Fraction, cells=(0,) * 9, mover: int = 1) -> Fraction:
    """X's value with ``mover`` (1 X, 2 O) to choose, straight from the rules."""
    @lru_cache(maxsize=None)
    def value(cells: tuple, mover: int) -> Fraction:
        for a, b, c in LINES:
            if cells[a] and cells[a] == cells[b] == cells[c]:
                return Fraction(1 if cells[a] == 1 else -1)
        empty = [i for i in range(9) if not cells[i]]
        if not empty:
            return Fraction(0)

        def after(cell):
            return value(cells[:cell] + (mover,) + cells[cell + 1:], 3 - mover)

        def aim(cell):
            others = [c for c in empty if c != cell]
            if not others:
                return after(cell)
            return (1 - slip) * after(cell) + slip * sum(map(after, others)) / len(others)

        pick = max if mover == 1 else min
        return pick(aim(cell) for cell in empty)

    return value(tuple(cells), mover)


@pytest.mark.parametrize("slip", ["1/10", "1/4", "1/2", "1"])
def test_exact_value_matches_an_independent_solver(slip):
    board = SlipperyBoard(slip)
    assert chance_value(board, symmetry=True) == independent_value(Fraction(slip))


def test_symmetry_changes_nothing_but_the_work():
    board = SlipperyBoard("1/3")
    assert chance_value(board) == chance_value(board, symmetry=True)


def test_no_slip_is_ordinary_tic_tac_toe():
    board = SlipperyBoard(0)
    assert chance_value(board, symmetry=True) == 0 == solve(BitBoard())
    table = {}
    for state in list(reachable(BitBoard()).values())[::37]:
        slippery = SlipperyBoard.from_board(state, 0)
        assert chance_value(slippery, table) == solve(state), state


def test_outcomes_follow_the_rules():
    chance = SlipperyBoard("1/4").play(4)
    outcomes = chance.outcomes()
    assert chance.is_chance() and not chance.is_terminal()
    assert sum(p for p, _ in outcomes) == 1
    assert outcomes[0] == (Fraction(3, 4), SlipperyBoard.from_text(".../.X./...", "1/4"))
    assert [p for p, _ in outcomes[1:]] == [Fraction(1, 32)] * 8
    assert {b.to_text() for _, b in outcomes[1:]} == {
        SlipperyBoard("1/4").play(4).land(c).to_text() for c in range(9) if c != 4}
    assert all(b.to_move == -1 for _, b in outcomes)      # O moves next
    last = SlipperyBoard.from_text("XOX/XOO/OX.", "1/2").play(8)  # the last empty cell
    assert [(p, b.to_text()) for p, b in last.outcomes()] == [(1, "XOX/XOO/OXX")]
    never = SlipperyBoard.from_text("X../.O./...", 1).play(8)  # slip 1: never where aimed
    assert [p for p, _ in never.outcomes()] == [Fraction(1, 6)] * 6
    assert all(b.cells()[8] == 0 for _, b in never.outcomes())


def test_a_slipped_mark_can_win_for_its_owner():
    chance = SlipperyBoard.from_text("XX./OO./...", "1/2").play(6)
    won = [b for _, b in chance.outcomes() if b.is_terminal()]
    assert {b.winner() for b in won} == {"X"}


def test_chance_nodes_refuse_moves_and_searches_without_chance():
    chance = SlipperyBoard("1/4").play(0)
    with pytest.raises(ChanceNodeError, match="X aims at 0 is a chance node"):
        chance.moves()
    with pytest.raises(ChanceNodeError):
        chance.play(1)
    for search in (minimax, alphabeta):
        with pytest.raises(ChanceNodeError):
            search(SlipperyBoard.from_text("XO./.X./O..", "1/4"))
    with pytest.raises(ChanceNodeError, match="not a chance node"):
        SlipperyBoard().outcomes()


def test_bad_moves_and_slips_are_named():
    with pytest.raises(IllegalMoveError, match="occupied"):
        SlipperyBoard.from_text("X../.../...").play(0)
    for bad in ("2", "-1/4", "abc", "1/0"):
        with pytest.raises(ValueError, match="slip"):
            SlipperyBoard(bad)
    with pytest.raises(TypeError, match="slip"):
        SlipperyBoard(0.25)


def test_identity_keys_and_text():
    board = SlipperyBoard("1/4")
    assert board.play(4).key() != board.key() != SlipperyBoard("1/3").key()
    assert repr(board.play(4)) == "SlipperyBoard.from_text('.../.../...', slip='1/4').play(4)"
    assert board.play(4).name == ".../.../... X aims at 4"
    assert board.play(0).canonical_key() == board.play(8).canonical_key()
    assert board.play(0).canonical_key() != board.play(1).canonical_key()
    assert 'fill="#fff3b0"' in board.play(4).svg()  # the aimed cell shaded


def test_best_first_moves_change_with_the_slip():
    assert best_chance_moves(SlipperyBoard(0), symmetry=True) == list(range(9))
    assert best_chance_moves(SlipperyBoard("1/4"), symmetry=True) == [4]
    assert best_chance_moves(SlipperyBoard(1), symmetry=True) == [1, 3, 5, 7]
