"""The line score, threat-first ordering and killer moves."""
import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.boards.tictactoe import line_winner
from ttt_lib.search import Killers, heuristic_order, line_score, threat_order
from ttt_lib.search.ordering import ordering_function
from ttt_lib.symmetry import SYMMETRIES, transform


@pytest.mark.parametrize("text, score", [
    (".../.../...", 0),
    ("X../.../...", 3),   # a corner lies on a row, a column and a diagonal
    (".../.X./...", 4),   # the centre on four lines
    (".X./.../...", 2),   # an edge on a row and a column
    ("X.O/.../...", 0),   # top row blocked; X's column and diagonal, O's column and diagonal
    ("XX./O../O..", 9),   # rows 10 - 1 - 1, columns 0 + 1 + 0, diagonals 1 - 1
    ("XXX/OO./...", 91),  # rows 100 - 10, the right column 1, the rest blocked
])
def test_line_score_by_hand(text, score):
    for board in (BitBoard, ListBoard):
        assert line_score(board.from_text(text)) == score


def test_line_score_is_symmetric_and_antisymmetric(all_bitboards):
    for state in all_bitboards[::3]:
        cells = state.cells()
        swapped = [{0: 0, 1: 2, 2: 1}[d] for d in cells]
        assert line_score(OnlyCells(swapped, state.lines())) == -line_score(state)
        for perm in SYMMETRIES.values():
            assert line_score(OnlyCells(transform(cells, perm), state.lines())) \
                == line_score(state)


class OnlyCells:
    """A stand-in board with nothing but ``cells()`` and ``lines()``, as an m,n,k board has."""

    def __init__(self, cells, lines, to_move=1):
        self._cells, self._lines, self.to_move = list(cells), list(lines), to_move

    def cells(self):
        return self._cells

    def lines(self):
        return self._lines

    def play(self, move):
        cells = list(self._cells)
        cells[move] = 1 if self.to_move == 1 else 2
        return OnlyCells(cells, self._lines, -self.to_move)


def four_by_four_lines():
    rows = [tuple(4 * r + c for c in range(4)) for r in range(4)]
    cols = [tuple(4 * r + c for r in range(4)) for c in range(4)]
    return rows + cols + [(0, 5, 10, 15), (3, 6, 9, 12)]


def test_line_score_counts_longer_lines_by_powers_of_ten():
    cells = [0] * 16
    cells[0] = cells[1] = cells[2] = 1      # three X on the top row: 10 ** 2
    cells[15] = 2                           # one O in the corner: row, column, diagonal
    board = OnlyCells(cells, four_by_four_lines())
    # X: top row 100; columns 0, 1, 2 one each; diagonal 0-5-10-15 is blocked by O.
    # O: bottom row and right column -1 each.
    assert line_score(board) == 100 + 3 - 2
    cells[3] = 1
    # Now four X: 1000; column 3 is blocked, the anti-diagonal 3-6-9-12 opens for X.
    assert line_score(OnlyCells(cells, four_by_four_lines())) == 1000 + 3 + 1 - 1


def test_heuristic_order_is_the_order_of_the_children_scores(all_bitboards):
    for state in all_bitboards:
        if state.is_terminal():
            continue
        moves = state.moves()
        by_children = sorted(moves, key=lambda m: -state.to_move * line_score(state.play(m)))
        assert heuristic_order(state, moves) == by_children


def test_threat_order_puts_wins_then_blocks_first(all_bitboards):
    seen = set()
    for state in all_bitboards:
        if state.is_terminal():
            continue
        mine, theirs = (1, 2) if state.to_move == 1 else (2, 1)
        cells = state.cells()

        def wins_with(move, digit):
            marked = list(cells)
            marked[move] = digit
            return line_winner(marked) == digit

        moves = state.moves()
        wins = [m for m in moves if wins_with(m, mine)]
        blocks = [m for m in moves if m not in wins and wins_with(m, theirs)]
        rest = [m for m in moves if m not in wins + blocks]
        assert threat_order(state, moves) == wins + blocks + rest
        seen.add((bool(wins), bool(blocks)))
    assert seen == {(False, False), (True, False), (False, True), (True, True)}


def test_threat_order_works_on_longer_lines():
    cells = [0] * 16
    for cell in (0, 1, 2):
        cells[cell] = 2                      # O threatens cell 3 on the top row
    for cell in (5, 9):
        cells[cell] = 1
    moves = [i for i, d in enumerate(cells) if d == 0]
    assert threat_order(OnlyCells(cells, four_by_four_lines()), moves)[0] == 3
    cells[9], cells[4], cells[6] = 0, 1, 1   # X threatens cell 7 on the second row
    moves = [i for i, d in enumerate(cells) if d == 0]
    ordered = threat_order(OnlyCells(cells, four_by_four_lines()), moves)
    assert ordered[:2] == [7, 3] and sorted(ordered) == moves


def test_killers_keep_the_latest_moves_per_depth():
    killers, state = Killers(slots=2), BitBoard()
    assert killers.first(state, 3, [0, 1, 2, 3]) == [0, 1, 2, 3]
    for move in (5, 7, 5, 2):
        killers.record(state, 3, move)
    assert killers.by_depth[3] == [2, 5]
    assert killers.first(state, 3, [0, 1, 2, 3, 5]) == [2, 5, 0, 1, 3]
    assert killers.first(state, 3, [0, 1]) == [0, 1]          # killers only when legal
    assert killers.first(state, 4, [0, 1, 2]) == [0, 1, 2]    # and at their own depth
    with pytest.raises(ValueError, match="at least one slot"):
        Killers(slots=0)


def test_ordering_names():
    # the searches call the plain functions; the public names check their arguments first
    assert ordering_function("heuristic") is heuristic_order.__wrapped__
    assert ordering_function("threats") is threat_order.__wrapped__
    assert ordering_function(None) is None
    assert ordering_function(sorted) is sorted
    with pytest.raises(ValueError, match="unknown ordering 'best'"):
        ordering_function("best")


# ---------------------------------------------------------------- Connect Four: moves are columns

def _connect4_positions():
    """Seeded random Connect Four positions (5x4, four in a row) still in play."""
    import random

    from ttt_lib import ConnectFour
    rng, found = random.Random(32), []
    while len(found) < 300:
        state = ConnectFour(5, 4)
        for _ in range(rng.randrange(0, 16)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def test_heuristic_order_reads_a_column_as_the_cell_it_fills():
    for state in _connect4_positions():
        moves = state.moves()
        by_children = sorted(moves, key=lambda m: -state.to_move * line_score(state.play(m)))
        assert heuristic_order(state, moves) == by_children


def test_threat_order_on_connect_four_plays_the_winning_and_blocking_columns():
    seen = set()
    for state in _connect4_positions():
        moves = state.moves()
        wins = [m for m in moves if state.play(m).winner() is not None]
        passed = _pass_turn(state)
        blocks = [m for m in moves if m not in wins and passed.play(m).winner() is not None]
        rest = [m for m in moves if m not in wins + blocks]
        assert threat_order(state, moves) == wins + blocks + rest
        seen.add((bool(wins), bool(blocks)))
    assert seen == {(False, False), (True, False), (False, True), (True, True)}


def _pass_turn(state):
    """The same pieces with the other side to move (as if the mover passed)."""
    from ttt_lib import ConnectFour
    return ConnectFour._make(state.geometry, state.x, state.o, -state.to_move, state.first, 0)


def test_threat_order_by_hand_on_connect_four():
    from ttt_lib import ConnectFour
    # X has three in the bottom row (columns 0-2): column 3 wins; O stacks on column 0.
    state = ConnectFour.from_text("..../O.../O.../XXX.")
    assert state.to_move == -1 and threat_order(state, state.moves())[0] == 3
    # read as cells, column 3 is the top row's last cell: no line completes there
    assert heuristic_order(state, state.moves())[0] == 3
