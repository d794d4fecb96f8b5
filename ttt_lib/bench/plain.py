"""Plain baselines: tic-tac-toe written the straightforward way, for ``make bench`` to beat.

This is how a classic blog post writes it: the board is a list of three lists of 'X', 'O'
and ' ', a move is written into the board and taken back after the recursive call, and the
winner is found by looking at every row, column and diagonal. No bitboards, no tables, no
protocol. ``ttt_lib.bench`` times these side by side with the package's code on the same tasks.
Everything here scores from X's point of view: +1 X wins, -1 O wins, 0 draw.

The module stands alone (standard library only, no import from ``ttt_lib``), so the import-time
figure can import it as a program of its own.
"""
import json
import math
import random
import sys

LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + \
        [[(0, c), (1, c), (2, c)] for c in range(3)] + \
        [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def new_board():
    return [[" ", " ", " "], [" ", " ", " "], [" ", " ", " "]]


def board_from_text(text):
    """'X.O/.../...' -> a list of lists (the benchmark's starting positions)."""
    rows = text.split("/")
    return [[" " if ch == "." else ch for ch in row] for row in rows]


def winner(board):
    for line in LINES:
        (r0, c0), (r1, c1), (r2, c2) = line
        if board[r0][c0] != " " and board[r0][c0] == board[r1][c1] == board[r2][c2]:
            return board[r0][c0]
    return None


def empty_cells(board):
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == " "]


def score(board):
    """+1, -1 or 0 if the game is over, None while it goes on."""
    won = winner(board)
    if won == "X":
        return 1
    if won == "O":
        return -1
    if not empty_cells(board):
        return 0
    return None


def other(player):
    return "O" if player == "X" else "X"


class Counter:
    nodes = 0


def minimax(board, player, counter):
    """The value of the game for X with ``player`` to move, visiting every node of the tree."""
    counter.nodes += 1
    result = score(board)
    if result is not None:
        return result
    values = []
    for r, c in empty_cells(board):
        board[r][c] = player
        values.append(minimax(board, other(player), counter))
        board[r][c] = " "
    return max(values) if player == "X" else min(values)


def to_move(board, first="X"):
    marks = sum(1 for row in board for cell in row if cell != " ")
    return first if marks % 2 == 0 else other(first)


def solve_every_position(first="X"):
    """The value for X of every position reachable from the empty board, remembered by text."""
    memo = {}

    def value(board, player):
        key = "".join("".join(row) for row in board)
        if key in memo:
            return memo[key]
        result = score(board)
        if result is None:
            values = []
            for r, c in empty_cells(board):
                board[r][c] = player
                values.append(value(board, other(player)))
                board[r][c] = " "
            result = max(values) if player == "X" else min(values)
        memo[key] = result
        return result

    value(new_board(), first)
    return memo


def solve_table(first="X"):
    """Every reachable position's row of ``solve --json``: whose move, value for X, best cells.

    A memo of values by board text, filled by one search; then each position's best moves
    are the empty cells whose resulting position has the best value for the player to move.
    """
    memo = solve_every_position(first)
    rows = {}
    for key, value in memo.items():
        board = [[key[3 * r + c] for c in range(3)] for r in range(3)]
        player = to_move(board, first)
        best = []
        if score(board) is None:
            values = {}
            for r, c in empty_cells(board):
                board[r][c] = player
                values[3 * r + c] = memo["".join("".join(row) for row in board)]
                board[r][c] = " "
            target = max(values.values()) if player == "X" else min(values.values())
            best = sorted(cell for cell, v in values.items() if v == target)
        rows[key.replace(" ", ".")] = {"to_move": player, "value": value, "best": best}
    return rows


def write_solve_table(path):
    """``python -m ttt_lib solve --json PATH`` done the plain way: the same JSON in PATH."""
    with open(path, "w") as handle:
        handle.write(json.dumps(solve_table()) + "\n")


def random_playout(board, player, rng):
    """Play random moves on a copy of ``board`` until the game ends; the result for X."""
    board = [row[:] for row in board]
    while True:
        result = score(board)
        if result is not None:
            return result
        r, c = rng.choice(empty_cells(board))
        board[r][c] = player
        player = other(player)


class Node:
    """A node of the Monte Carlo tree: the move that led here, its children, its statistics."""

    def __init__(self, move, parent, player_who_moved):
        self.move = move
        self.parent = parent
        self.player_who_moved = player_who_moved
        self.children = []
        self.untried = None
        self.visits = 0
        self.wins = 0.0


def ucb1(child, parent_visits, c=math.sqrt(2)):
    return child.wins / child.visits + c * math.sqrt(math.log(parent_visits) / child.visits)


def mcts_move(board, player, playouts, rng):
    """UCT with random playouts; the move (row, col) with the most visits."""
    root = Node(None, None, other(player))
    root.untried = empty_cells(board)
    for _ in range(playouts):
        node, state, to_play = root, [row[:] for row in board], player
        # selection
        while not node.untried and node.children:
            node = max(node.children, key=lambda ch: ucb1(ch, node.visits))
            r, c = node.move
            state[r][c] = to_play
            to_play = other(to_play)
        # expansion
        if node.untried:
            move = node.untried.pop(rng.randrange(len(node.untried)))
            state[move[0]][move[1]] = to_play
            child = Node(move, node, to_play)
            child.untried = empty_cells(state) if score(state) is None else []
            node.children.append(child)
            node, to_play = child, other(to_play)
        # simulation
        result = random_playout(state, to_play, rng)
        # back-propagation: a win for the player who moved into the node counts 1, a draw 1/2
        while node is not None:
            node.visits += 1
            mover = 1 if node.player_who_moved == "X" else -1
            node.wins += 1.0 if result == mover else 0.5 if result == 0 else 0.0
            node = node.parent
    return max(root.children, key=lambda ch: ch.visits).move


def run_mcts(playouts=1000, seed=0):
    return mcts_move(new_board(), "X", playouts, random.Random(seed))


if __name__ == "__main__":  # python plain.py solve PATH: the whole-process baseline of solve
    if sys.argv[1:2] == ["solve"] and len(sys.argv) == 3:
        write_solve_table(sys.argv[2])
    else:
        sys.exit("usage: python plain.py solve PATH")
