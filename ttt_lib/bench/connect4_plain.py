"""Plain baseline for Connect Four: a memoised negamax over two bitmasks, for ``make bench``.

The straightforward exact search: the position is the player to move's pieces and all pieces,
in the column-major layout with a guard bit over each column (bit ``(rows + 1) * c + r``, the
lowest row 0); a position's value for the player to move is the best of minus its children's
values, every child searched (no alpha-beta, no ordering, no symmetry), each position stored
once in a dict. ``ttt_lib.studies.connect4_solve`` is measured against it. Like
``ttt_lib.bench.plain`` it stands alone (standard library only).
"""
import sys


def has_run(bits, k, height):
    """Do ``bits`` hold ``k`` in a row along a column, a row or a diagonal?"""
    for shift in (1, height, height - 1, height + 1):
        if k == 4:  # the usual game: two shift-and pairs
            pairs = bits & bits >> shift
            if pairs & pairs >> 2 * shift:
                return True
            continue
        run = bits
        for i in range(1, k):
            run &= bits >> i * shift
        if run:
            return True
    return False


def searcher(columns, rows, k, memo):
    """``negamax(mine, taken)``: the value for the player to move (pieces ``mine``, all
    pieces ``taken``), +1 a win, 0 a draw, -1 a loss, each position stored in ``memo``."""
    height = rows + 1
    bottoms = [1 << height * c for c in range(columns)]
    tops = [1 << height * c + rows - 1 for c in range(columns)]
    columns_of = [((1 << rows) - 1) << height * c for c in range(columns)]
    full = sum(columns_of)

    def negamax(mine, taken):
        """The value for the player to move, whose pieces are ``mine``."""
        key = mine + taken
        if key in memo:
            return memo[key]
        if has_run(mine ^ taken, k, height):  # the opponent's last move won
            value = -1
        elif taken == full:
            value = 0
        else:
            value = max(-negamax(mine ^ taken, taken | (taken + bottoms[c]) & columns_of[c])
                        for c in range(columns) if not taken & tops[c])
        memo[key] = value
        return value

    return negamax


def with_depth(task, columns, rows):
    """``task()`` with room on the stack for a search as deep as the board has cells."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * columns * rows + 100))
    try:
        return task()
    finally:
        sys.setrecursionlimit(limit)


def solve(columns, rows, k=4):
    """X's value of the empty board (+1, 0, -1) and the number of positions stored."""
    memo = {}
    negamax = searcher(columns, rows, k, memo)
    return with_depth(lambda: negamax(0, 0), columns, rows), len(memo)


def solve_moves(columns, rows, moves, k=4):
    """The value for the player to move after ``moves`` (0-based columns, X first, each
    legal and none after a win) and the number of positions stored."""
    height, mine, taken = rows + 1, 0, 0
    for column in moves:
        move = (taken + (1 << height * column)) & (((1 << rows) - 1) << height * column)
        mine, taken = mine ^ taken, taken | move  # the other side is now to move
    memo = {}
    negamax = searcher(columns, rows, k, memo)
    return with_depth(lambda: negamax(mine, taken), columns, rows), len(memo)


if __name__ == "__main__":
    print(solve(*map(int, sys.argv[1:])))
