"""Quiescence search (search/quiescence.py) and the textbook horizon effect of notebook 05
(studies.horizon.DELAY_EXAMPLE): each claim checked again by independent computation."""
import random

import pytest

from ttt_lib import BitBoard, ConnectFour, MNKBoard
from ttt_lib.search import (Continuation, PLAIN, continued_choice, depth_limited,
                            depth_limited_choice, quiescent_choice, solve, threat_moves)
from ttt_lib.search.continuation import WIN, threats
from ttt_lib.search.quiescence import alphabeta_quiescent, quiescence, threatens
from ttt_lib.studies.horizon import (DELAY_EXAMPLE, counted_choice, mistakes_by_depth,
                                     plies_to_win, search_mistakes)


def random_positions(start, count, seed, most=8):
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = start
        for _ in range(rng.randrange(most)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def makes_a_threat(state, move) -> bool:
    """Independently: after ``move`` a line through it lacks one mark of the mover's win."""
    after, mark = state.play(move), 1 if state.to_move == 1 else 2
    cells = after.cells()
    return any(move in line and [cells[c] for c in line].count(mark) == len(line) - 1
               and [cells[c] for c in line].count(0) == 1 for line in after.lines())


@pytest.mark.parametrize("start", [BitBoard(), MNKBoard(4, 4, 3), MNKBoard(5, 5, 4)],
                         ids=["3x3", "4x4k3", "5x5k4"])
def test_threat_moves_are_the_moves_that_make_a_threat(start):
    for state in random_positions(start, 60, seed=1):
        assert threat_moves(state) == [m for m in state.moves() if makes_a_threat(state, m)]


def test_where_pieces_fall_the_moves_are_played_to_see():
    board = ConnectFour.from_text("......./......./......./......./......./.XX.OO.", k=4)
    assert threat_moves(board) == [m for m in board.moves()
                                   if threatens(board.play(m), board.to_move)]


def test_with_nothing_past_the_limit_quiescence_is_the_plain_depth_limit():
    rules = Continuation(extra=0)
    for state in random_positions(BitBoard(), 40, seed=2):
        for depth in (1, 2, 3):
            value = alphabeta_quiescent(state, depth, -float("inf"), float("inf"), rules)
            assert state.to_move * value == depth_limited(state, depth)


def test_a_quiet_position_is_never_worth_less_than_standing_pat():
    rules = Continuation()
    for state in random_positions(MNKBoard(4, 4, 3), 40, seed=3):
        if threats(state):
            continue  # a threat to answer: no standing pat
        stand = state.to_move * rules.evaluate(state)
        assert quiescence(state, 0, -float("inf"), float("inf"), rules) >= stand


def test_quiescence_of_a_won_race_is_exact():
    # X to move with two threats of its own: the win is found past the limit
    board = MNKBoard.from_text("XX../OO../..../....", k=3)
    assert quiescent_choice(board, 1)[0] == WIN and solve(board) == 1


def test_the_delaying_move_fools_every_depth_from_4_to_7():
    delay = DELAY_EXAMPLE.state()
    assert solve(delay) == 1 and delay.to_move == -1  # O, to move, loses whatever it does
    after = delay.play(DELAY_EXAMPLE.delaying)
    assert threats(after) == [6]  # X must block O's diagonal at once
    assert plies_to_win(after, 8) == 7
    quiet = [m for m in delay.moves() if not threats(delay.play(m))]
    assert quiet and all(plies_to_win(delay.play(m), 8) == 3 for m in quiet)
    for depth in range(DELAY_EXAMPLE.depth, 8):
        value, chosen = depth_limited_choice(delay, depth)
        assert chosen == [DELAY_EXAMPLE.delaying] and value < WIN
    assert depth_limited_choice(delay, 8) == (WIN, delay.moves())


def test_the_delay_line_is_threats_and_forced_blocks_up_to_xs_win():
    state = DELAY_EXAMPLE.state()
    for ply, move in enumerate(DELAY_EXAMPLE.line):
        if ply % 2 == 1 and ply < len(DELAY_EXAMPLE.line) - 1:
            assert threats(state) == [move]  # X's block, the only move that waits for nothing
        state = state.play(move)
        if ply % 2 == 0 and ply < len(DELAY_EXAMPLE.line) - 2:
            assert threats(state), "each O move but the last threatens"
    assert state.is_terminal() and state.utility() == 1


def test_both_cures_see_the_loss_four_deep_for_less_than_a_deeper_plain_search():
    delay, depth = DELAY_EXAMPLE.state(), DELAY_EXAMPLE.depth
    counts = {}
    for name, rules, choose in (("plain", PLAIN, continued_choice),
                                ("continued", Continuation(), continued_choice),
                                ("quiescent", Continuation(), quiescent_choice)):
        moves, counts[name] = counted_choice(delay, depth, rules, choose)
        assert (moves == delay.moves()) == (name != "plain")
    _, five = counted_choice(delay, depth + 1, PLAIN)
    assert counts["plain"] < counts["continued"] < counts["quiescent"] < five


def test_search_mistakes_agrees_with_mistakes_by_depth_and_quiescence_errs_less():
    depths = range(1, 3)
    rows = mistakes_by_depth(depths)
    plain = search_mistakes(continued_choice, depths, PLAIN)
    assert [(r.depth, r.plain, r.plain_nodes) for r in rows] == plain
    quiet = search_mistakes(quiescent_choice, depths)
    assert all(q[1] <= r.continued for q, r in zip(quiet, rows))


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError):
        quiescent_choice("X..", 2)
    with pytest.raises(ValueError):
        quiescent_choice(BitBoard(), 0)
    with pytest.raises((TypeError, ValueError)):
        threat_moves(None)
