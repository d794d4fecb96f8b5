import json
import math
import random

import pytest

from ttt_lib import BitBoard, ListBoard, TreeNode
from ttt_lib.arena import random_play_probabilities
from ttt_lib.search.monte_carlo import (SQRT2, MCTSTree, flat_monte_carlo, mcts, random_playout,
                                 tree_stats)
from ttt_lib.search.exact import best_moves, move_values, solve
from ttt_lib.search import Stats
from ttt_lib.studies.convergence import convergence_study


def sample(positions, count, seed=0, live=True):
    """A seeded sample of positions (only those still in play with ``live``)."""
    pool = [p for p in positions if not (live and p.is_terminal())]
    return random.Random(seed).sample(pool, count)


def walk_tree(root):
    """Every node of an MCTS tree once, even when nodes are shared."""
    seen, stack = {}, [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen[id(node)] = node
            stack.extend((node.children or {}).values())
    return list(seen.values())


# ------------------------------------------------------------------------------ playouts

def test_bitboard_playouts_play_the_same_games_as_the_protocol(all_bitboards):
    # The fast path works on raw masks, the fallback through ListBoard.play(): with the same
    # seed both must pick the same cells, hence reach the same result.
    for board in sample(all_bitboards, 300, live=False):
        listboard = board.to_listboard()
        for seed in range(5):
            assert (random_playout(board, random.Random(seed))
                    == random_playout(listboard, random.Random(seed)))


def test_playouts_work_when_o_opens():
    board = BitBoard.from_text("O../.X./...", first="O")
    results = {random_playout(board, random.Random(seed)) for seed in range(200)}
    assert results == {-1, 0, 1}
    assert all(random_playout(board, random.Random(s))
               == random_playout(board.to_listboard(), random.Random(s)) for s in range(50))


def test_playout_of_a_finished_game_is_its_result():
    won = BitBoard.from_text("XXX/OO./...")
    assert random_playout(won, random.Random(0)) == 1


def test_flat_monte_carlo_means_match_the_exact_odds_of_random_play():
    state = BitBoard.from_text("X../.O./...")
    n = 4000
    values = flat_monte_carlo(state, n, seed=3)
    assert list(values) == state.moves()
    for move, mean in values.items():
        odds = random_play_probabilities(state.play(move))
        mu = float(odds["x_wins"] - odds["o_wins"])
        sigma = math.sqrt(float(odds["x_wins"] + odds["o_wins"]) - mu * mu)
        assert abs(mean - mu) < 4 * sigma / math.sqrt(n), move


def test_flat_monte_carlo_is_seeded():
    state = BitBoard.from_text("X../.O./...")
    values = flat_monte_carlo(state, 50, seed=1)
    assert values == flat_monte_carlo(state, 50, seed=1) != flat_monte_carlo(state, 50, seed=2)
    assert sorted(values) == state.moves()


def test_flat_monte_carlo_rejects_a_bad_budget():
    with pytest.raises(ValueError, match="playouts is a whole number >= 0, not -1"):
        flat_monte_carlo(BitBoard(), -1)


# ------------------------------------------------------------------------- the UCT tree

@pytest.mark.parametrize("options", [{}, {"solver": True}])
def test_every_visit_is_counted_once_in_an_unshared_tree(options):
    tree = MCTSTree(BitBoard.from_text("X../.O./..."), seed=2, **options).run(1500)
    assert tree.root.visits == tree.iterations
    for node in walk_tree(tree.root):
        assert node.wins + node.draws + node.losses == node.visits
        if node.children:  # expanded on its second visit; later visits go to one child
            passed_on = sum(c.visits for c in node.children.values())
            if node.proven is None:
                assert node.visits == 1 + passed_on
            else:  # once proven, its exact result is counted without going further
                assert node.visits >= 1 + passed_on


def test_stats_count_nodes_and_playouts():
    tree = MCTSTree(BitBoard(), seed=0).run(500)
    stats = tree_stats(tree)
    assert stats.nodes == tree.size() == len(walk_tree(tree.root))
    assert stats.leaves == 500 and stats.table_hits == 0


def test_results_are_counted_for_the_player_who_moved_in():
    # X to move can win at once in cell 2: every visit of that child is a win for X.
    state = BitBoard.from_text("XX./OO./...")
    tree = MCTSTree(state, seed=0).run(200)
    win = tree.root.children[2]
    assert win.mover == 1 and win.visits == win.wins > 0
    assert win.value == 1 and win.x_value == 1


def test_children_report_ucb1_for_the_widgets():
    tree = MCTSTree(BitBoard.from_text("X../.O./..."), seed=5).run(300)
    parent_visits = tree.root.visits
    for row in tree.children():
        node = row.node
        assert row.visits == node.visits and row.value == node.value
        expected = ((node.wins + node.draws / 2) / node.visits
                    + SQRT2 * math.sqrt(math.log(parent_visits) / node.visits))
        assert row.ucb == pytest.approx(expected)
    assert [row.move for row in tree.children()] == tree.root.state.moves()


def test_unvisited_children_have_infinite_ucb_and_no_value():
    tree = MCTSTree(BitBoard(), seed=0).run(4)
    unvisited = [row for row in tree.children() if row.visits == 0]
    assert len(unvisited) == 9 - 3
    assert all(row.ucb == math.inf and row.value is None for row in unvisited)


def test_growing_in_steps_is_the_same_as_growing_at_once():
    state = BitBoard.from_text("X........")
    stepped = MCTSTree(state, seed=9)
    for step in (1, 10, 100, 389):
        stepped.run(step)
    at_once = MCTSTree(state, seed=9).run(500)
    assert ([(r.move, r.visits, r.value) for r in stepped.children()]
            == [(r.move, r.visits, r.value) for r in at_once.children()])


@pytest.mark.parametrize("options", [{}, {"shared": True}, {"solver": True},
                                     {"shared": True, "solver": True}, {"c": 0.5}])
def test_the_list_board_grows_the_same_tree_as_the_bitboard(options):
    # Same seed, same move order: the fallback path and the fast path must agree exactly.
    for text in (".../.../...", "X../.O./...", "XO./.X./..O"):
        bit = MCTSTree(BitBoard.from_text(text), seed=4, **options).run(400)
        lst = MCTSTree(ListBoard.from_text(text), seed=4, **options).run(400)
        assert ([(r.move, r.visits, r.value) for r in bit.children()]
                == [(r.move, r.visits, r.value) for r in lst.children()])


def test_mcts_on_a_textbook_tree():
    # MIN answers move 0 with -1 and move 2 with -1; move 1 draws whatever MIN does.
    tree = TreeNode([[1, -1], [0, 0], [-1, 1, -1]])
    assert mcts(tree, 300, seed=0) == 1


def test_mcts_is_reproducible_with_a_seed_or_an_rng():
    state = BitBoard.from_text("X../.../...")
    first = [mcts(state, 200, seed=s) for s in range(10)]
    assert first == [mcts(state, 200, seed=s) for s in range(10)]
    assert first == [mcts(state, 200, rng=random.Random(s)) for s in range(10)]


def test_finds_the_winning_move_and_the_only_block():
    win = BitBoard.from_text("XX./OO./...")          # X wins at 2
    block = BitBoard.from_text("X.X/.O./...")        # O must block at 1
    fork = BitBoard.from_text("X../.O./..X")         # O must take an edge
    for seed in range(5):
        assert mcts(win, 300, seed=seed) == 2
        assert mcts(block, 300, seed=seed) == 1
        assert mcts(fork, 1000, seed=seed) in best_moves(fork) == [1, 3, 5, 7]


def test_plain_uct_mostly_plays_optimal_moves(all_bitboards):
    # Not always: UCT is no solver, and 1,000 playouts can still favour a losing move where
    # only a few moves hold the draw (e.g. ".../X.O/.X.", where O must take 0 or 6).
    positions = sample(all_bitboards, 40, seed=1)
    optimal = sum(mcts(state, 1000, seed=0) in best_moves(state) for state in positions)
    assert optimal >= 36


# -------------------------------------------------------------- shared table and solver

def test_symmetric_moves_share_one_node_and_its_statistics():
    tree = MCTSTree(BitBoard(), shared=True, seed=0).run(300)
    stats = tree_stats(tree)
    children = tree.root.children
    assert children[0] is children[2] is children[6] is children[8]
    assert children[1] is children[3] is children[5] is children[7]
    assert len({id(c) for c in children.values()}) == 3
    assert stats.table_hits > 0
    assert tree.size() < MCTSTree(BitBoard(), seed=0).run(300).size()


def test_a_shared_node_sums_the_visits_of_its_parents():
    tree = MCTSTree(BitBoard(), shared=True, seed=1).run(2000)
    by_depth: dict[int, list] = {}
    for node in walk_tree(tree.root):
        assert node.wins + node.draws + node.losses == node.visits
        by_depth.setdefault(bin(node.state.x | node.state.o).count("1"), []).append(node)
    # Every visit of an inner node after its first goes on to one child, whichever of the
    # child's parents it came through: a depth's visits are what the depth above passed on.
    for depth in range(1, max(by_depth) + 1):
        passed_on = sum(n.visits - 1 for n in by_depth[depth - 1]
                        if n.visits and not n.terminal)
        assert sum(n.visits for n in by_depth.get(depth, [])) == passed_on


@pytest.mark.parametrize("shared", [False, True])
def test_the_solver_proves_the_exact_value(all_bitboards, shared):
    for state in sample(all_bitboards, 60, seed=2) + [BitBoard()]:
        tree = MCTSTree(state, solver=True, shared=shared, seed=0).run(200_000)
        assert tree.root.proven is not None, state.to_text()
        # proven is for the player who moved in, i.e. the opponent of the player to move
        assert tree.root.proven * tree.root.mover == solve(state), state.to_text()
        assert tree.iterations < 200_000
        assert tree.best_move() in best_moves(state), state.to_text()


def test_a_proven_child_is_never_explored_again():
    tree = MCTSTree(BitBoard.from_text("X../.O./..."), solver=True, seed=3)
    tree.run(300)
    proven = {r.move: r.visits for r in tree.children() if r.proven is not None}
    assert proven, "some child should be proven after 300 iterations"
    tree.run(300)
    assert {r.move: r.visits for r in tree.children() if r.move in proven} == proven


def test_without_the_solver_nothing_is_marked_proven():
    tree = MCTSTree(BitBoard.from_text("XX./OO./..."), seed=0).run(300)
    assert all(node.proven is None for node in walk_tree(tree.root))


# ---------------------------------------------------------------------------- errors

def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="the game is over"):
        MCTSTree(BitBoard.from_text("XXX/OO./..."))
    with pytest.raises(ValueError, match="exploration constant c"):
        MCTSTree(BitBoard(), c=-1)
    with pytest.raises(TypeError, match="iterations is a whole number, not float"):
        MCTSTree(BitBoard()).run(2.5)
    with pytest.raises(ValueError, match="iterations is a whole number >= 0, not -1"):
        MCTSTree(BitBoard()).run(-1)
    with pytest.raises(ValueError, match="at least 2 playouts"):
        mcts(BitBoard(), 1)
    with pytest.raises(ValueError, match="run at least 2 iterations"):
        MCTSTree(BitBoard()).run(1).best_move()


# ----------------------------------------------------------------------- convergence

def test_convergence_study_returns_plain_data_that_converges():
    budgets = (10, 100, 1000, 5000)
    rows = convergence_study(budgets=budgets, seed=0)
    json.dumps(rows)  # plain data, ready for a notebook or a file
    positions = sorted({row["position"] for row in rows})
    assert len(rows) == len(positions) * len(budgets)
    for text in positions:
        mine = [row for row in rows if row["position"] == text]
        assert [row["playouts"] for row in mine] == list(budgets)
        assert mine[0]["exact"] == move_values(BitBoard.from_text(text))
        assert mine[-1]["error"] < mine[0]["error"]
        assert mine[-1]["best_is_optimal"]
        assert all(v is None or -1 <= v <= 1 for v in mine[-1]["estimates"].values())


def test_convergence_study_is_reproducible():
    args = dict(positions=["X../.O./..X"], budgets=(10, 50), seed=4)
    assert convergence_study(**args) == convergence_study(**args)
