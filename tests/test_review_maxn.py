"""Max^n (search/multiplayer.py) and notebook 02's trees of payoffs: checked against
independent computations, and the claims 02 makes about them."""
import random

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search import best_moves, maxn, maxn_choice, minimax, solve
from ttt_lib.teach import (TREE_02_GENERAL_SUM, TREE_02_PLAYERS, PlayersTree,
                           describe_players_tree, first_payoffs)
from ttt_lib.teach.judge import random_trees
from ttt_lib.teach.nb02_assumptions import paranoid


def backed_up(tree, players, depth=0):
    """Max^n written apart from the library: nested lists, the player by depth."""
    if isinstance(tree, tuple):
        return tree
    values = [backed_up(child, players, depth + 1) for child in tree]
    me = depth % players
    return max(values, key=lambda value: value[me])  # max keeps the first of equals


def random_payoff_tree(rng, players, depth):
    if depth == 0:
        return tuple(rng.randint(0, 9) for _ in range(players))
    return [random_payoff_tree(rng, players, depth - 1) for _ in range(rng.randint(1, 3))]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_maxn_backs_up_each_players_own_payoff(players):
    rng = random.Random(players)
    for _ in range(40):
        tree = random_payoff_tree(rng, players, rng.randint(1, 4))
        if isinstance(tree, tuple):
            continue
        assert maxn(PlayersTree(tree)) == backed_up(tree, players)


def test_on_zero_sum_games_maxn_is_minimax():
    for tree in random_trees(7, 30, depths=(2, 3, 4)):
        state = TreeNode(tree)
        assert maxn(state) == (minimax(state), -minimax(state))
    for text in ("XOX/OX./...", "XO./.X./..O", "X../.O./..X"):
        board = BitBoard.from_text(text)
        assert maxn(board) == (solve(board), -solve(board))


def test_maxn_choice_lists_every_move_of_the_best_payoff():
    tie = PlayersTree([[(1, 5), (2, 0)], [(1, 9)], [(0, 1)]])
    assert maxn_choice(tie) == ((1, 5), [0, 1])
    board = BitBoard.from_text("X../.O./..X")
    value, moves = maxn_choice(board)
    assert value == (0, 0) and moves == best_moves(board)


def test_the_notebooks_trees_say_what_02_says():
    three = PlayersTree(TREE_02_PLAYERS)
    assert three.players == 3 and maxn(three) == (5, 3, 4)
    assert paranoid(TREE_02_PLAYERS) == (2, 6, 2) != maxn(three)  # 2 and 3 against 1
    general = PlayersTree(TREE_02_GENERAL_SUM)
    zero_sum_view = TreeNode(first_payoffs(TREE_02_GENERAL_SUM))
    assert best_moves(zero_sum_view) == [1] and minimax(zero_sum_view) == 2
    assert maxn_choice(general) == ((3, 3), [0])  # player 2 looks after itself
    lines = describe_players_tree(three)
    assert len(lines) == 15 and lines[0] == "A: player 1 to move (to_move 0)"
    assert sum("payoffs" in line for line in lines) == 8  # every leaf's values, in words


def test_maxn_refuses_what_is_not_a_game():
    for junk in (None, 3, "X..", [[1, 2]]):
        with pytest.raises(TypeError):
            maxn(junk)
