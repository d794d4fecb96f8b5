"""Connect Four's own evaluation, forced moves and move order (boards/connect4_heuristic.py),
each checked against a plain count over ``cells()`` and ``lines()``; and the deadline agent
choosing them through the board (Connect Four) or the generic rules (every other board)."""
from __future__ import annotations

import random

import pytest

from ttt_lib import BitBoard, ConnectFour, ListBoard, MNKBoard
from ttt_lib.agents import BOARD_RULES, make_agent
from ttt_lib.boards.connect4_heuristic import (CENTRE, FULL_WINDOW, GOOD_ROW, THREAT,
                                               WINDOW_WEIGHTS, windows)
from ttt_lib.search.continuation import threats
from ttt_lib.search.ordering import line_score

SIZES = [(7, 6, 4), (5, 4, 4), (6, 5, 4), (5, 4, 3), (6, 7, 5), (4, 4, 2)]


def positions(columns: int, rows: int, k: int, count: int, seed: int) -> list[ConnectFour]:
    """Positions of random games (every length, finished ones left out)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = ConnectFour(columns, rows, k, first=rng.choice("XO"))
        for _ in range(rng.randrange(columns * rows)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def plain_threats(state: ConnectFour, digit: int) -> set[int]:
    """Empty cells (row-major, row 0 at the top) that complete a line of ``digit``."""
    cells, lines = state.cells(), state.lines()
    return {cell for line in lines for cell in line
            if cells[cell] == 0 and all(cells[c] == digit for c in line if c != cell)}


def plain_score(state: ConnectFour) -> int:
    """The evaluation as its docstring states it, counted over cells() and lines()."""
    cells, lines, columns, rows = state.cells(), state.lines(), state.columns, state.rows
    score = 0
    for line in lines:
        marks = [cells[c] for c in line]
        for digit, sign in ((1, 1), (2, -1)):
            if digit in marks and 3 - digit not in marks:
                count = marks.count(digit)
                score += sign * (WINDOW_WEIGHTS[count] if count < 3 else FULL_WINDOW)
    for digit, sign in ((1, 1), (2, -1)):
        opener = (digit == 1) == (state.first == 1)
        for cell in plain_threats(state, digit):
            from_bottom = rows - cell // columns  # 1 on the bottom row
            good = from_bottom % 2 == (1 if opener else 0)
            score += sign * (THREAT + GOOD_ROW * good)
    middle = {columns // 2, (columns - 1) // 2}
    centre = [cells[r * columns + c] for r in range(rows) for c in middle]
    return score + CENTRE * (centre.count(1) - centre.count(2))


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_windows_are_the_boards_lines(size):
    board = ConnectFour(*size)
    assert len(windows(*size)) == len(board.lines()) == len(set(windows(*size)))
    assert all(window.bit_count() == size[2] for window in windows(*size))


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_heuristic_is_the_plain_count(size):
    for state in positions(*size, count=40, seed=sum(size)):
        assert state.heuristic() == plain_score(state), state.to_text()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_forced_moves_are_the_generic_rules(size):
    """A win at once if there is one (as ``threats`` finds), else the same blocks."""
    for state in positions(*size, count=60, seed=7 * sum(size)):
        mine, generic = state.forced_moves(), threats(state)
        wins = [m for m in state.moves() if state.play(m).winner()]
        if wins:
            assert len(mine) == 1 and mine[0] in wins and generic[0] in wins
        else:
            assert sorted(mine) == sorted(generic), state.to_text()


def test_the_move_order_puts_wins_then_blocks_first_and_gifts_last():
    state = ConnectFour.from_text("......./......./......./......./OO...../XXX....")
    assert state.move_order(state.moves())[0] == 3  # X wins at once
    state = ConnectFour.from_text("......./......./......./......./XX...../OOO....", first="O")
    assert state.move_order(state.moves())[0] == 3  # O wins, X's block comes after
    # X to move; O threatens the cell above column 4's next piece: column 4 is a gift
    state = ConnectFour.from_text("......./......./......./......./XOOO.../XXXO...")
    order = state.move_order(state.moves())
    assert order == [3, 2, 1, 5, 0, 6, 4]
    assert ConnectFour().move_order(list(range(7))) == [3, 2, 4, 1, 5, 0, 6]


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_the_move_order_is_a_permutation_with_wins_first(size):
    for state in positions(*size, count=30, seed=3 * sum(size)):
        order = state.move_order(state.moves())
        assert sorted(order) == state.moves()
        wins = [m for m in state.moves() if state.play(m).winner()]
        if wins:
            assert order[0] in wins


def test_the_deadline_agent_takes_connect_fours_own_rules_and_the_generic_ones_elsewhere():
    agent = make_agent("deepening", seconds=None, nodes=200)
    rules = agent._rules_for(ConnectFour())
    assert (rules.evaluate, rules.forced, rules.order) == tuple(
        BOARD_RULES[name][1] for name in ("evaluate", "forced", "order"))
    for board in (BitBoard(), ListBoard(), MNKBoard(4, 4, 3)):
        rules = agent._rules_for(board)
        assert (rules.evaluate, rules.forced, rules.order) == (line_score, threats, None)
        assert board.moves().count(agent.choose(board)) == 1


def test_an_option_given_wins_over_the_boards_own():
    def flat(state):
        return 0

    agent = make_agent("deepening", seconds=None, nodes=200, evaluate=flat, ordering="threats")
    rules = agent._rules_for(ConnectFour())
    assert rules.evaluate is flat and rules.forced is BOARD_RULES["forced"][1]
    assert rules.order is not BOARD_RULES["order"][1]
    assert make_agent("deepening", nodes=200, extra=0)._rules_for(ConnectFour()).extra == 0
