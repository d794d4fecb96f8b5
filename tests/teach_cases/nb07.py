"""Right and wrong answers for the exercises of notebook 07 (the write-it UCB1 and
backpropagation too)."""
import math
from fractions import Fraction

from ttt_lib import BitBoard, teach
from ttt_lib.search.monte_carlo import MCTSTree


def next_move_rows():
    tree = MCTSTree(BitBoard.from_text(teach.BOARD_07_NEXT), seed=teach.SEED_07_NEXT)
    return tree.run(teach.ITERATIONS_07_NEXT).children()


def next_move():
    return max(next_move_rows(), key=lambda row: row.ucb).move


def most_visited_other():
    rows = next_move_rows()
    return max((row for row in rows if row.move != next_move()), key=lambda row: row.visits).move


# ------------------------------------------------------------ write it: UCB1

def right_ucb(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def fraction_ucb(wins, visits, parent_visits, c):  # a Fraction mean is fine too
    if not visits:
        return float("inf")
    mean = Fraction(wins).limit_denominator() / visits
    return mean + c * (math.log(parent_visits) / visits) ** 0.5


def no_log(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(parent_visits / visits)


def no_sqrt(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.log(parent_visits) / visits


def swapped(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(visits) / parent_visits)


def wins_not_mean(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins + c * math.sqrt(math.log(parent_visits) / visits)


def c_inside(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + math.sqrt(c * math.log(parent_visits) / visits)


def no_inf(wins, visits, parent_visits, c):
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def zero_for_unvisited(wins, visits, parent_visits, c):
    if visits == 0:
        return 0
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def ucb_stub(wins, visits, parent_visits, c):
    raise NotImplementedError


# ------------------------------------------------------------ write it: backpropagation

def right_backpropagate(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += (1 + x_result * node.mover) / 2


def counting_backpropagate(path, x_result):  # branches instead of arithmetic
    for node in path:
        node.visits += 1
        if x_result == 0:
            node.wins += Fraction(1, 2)
        elif x_result == node.mover:
            node.wins += 1


def x_view_everywhere(path, x_result):  # the same perspective at every level
    for node in path:
        node.visits += 1
        node.wins += (1 + x_result) / 2


def draws_as_wins(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += 1 if x_result * node.mover >= 0 else 0


def draws_as_nothing(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += 1 if x_result * node.mover > 0 else 0


def no_visits(path, x_result):
    for node in path:
        node.wins += (1 + x_result * node.mover) / 2


def root_forgotten(path, x_result):
    for node in path[1:]:
        node.visits += 1
        node.wins += (1 + x_result * node.mover) / 2


def raw_result(path, x_result):  # adds -1 for a loss
    for node in path:
        node.visits += 1
        node.wins += x_result * node.mover


def backprop_stub(path, x_result):
    raise NotImplementedError


def backprop_loops(path, x_result):
    while True:
        pass


CASES = [
    (teach.check_07_next_move, next_move(),
     [most_visited_other(), 0, 4, 8, 9] + [m for m in (1, 3, 5, 6, 7) if m != next_move()]),
    (teach.check_07_ucb, right_ucb, [no_log, no_sqrt, swapped, no_inf, ucb_stub, 1.425]),
    (teach.check_07_backpropagate, right_backpropagate,
     [x_view_everywhere, draws_as_wins, root_forgotten, backprop_stub, 42]),
]

WRITE_IT = [
    (teach.check_07_ucb, [right_ucb, fraction_ucb],
     {no_log: "logarithm is missing", no_sqrt: "square root is missing",
      swapped: "swapped", wins_not_mean: "divided by visits", c_inside: "go inside it",
      no_inf: "math.inf", zero_for_unvisited: "math.inf", ucb_stub: "write the function"}),
    (teach.check_07_backpropagate, [right_backpropagate, counting_backpropagate],
     {x_view_everywhere: "alternates along the path", draws_as_wins: "draw counted as a win",
      draws_as_nothing: "draw counted as nothing", no_visits: "Add 1 to the visits",
      root_forgotten: "root is left out", raw_result: "does not subtract",
      backprop_stub: "write the function", backprop_loops: "ran for more than"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search.monte_carlo import Node  # noqa: E402


def numpy_ucb(wins, visits, parent_visits, c):
    if visits == 0:
        return np.inf
    return np.float64(wins) / visits + c * np.sqrt(np.log(parent_visits) / visits)


def numpy_backpropagate(path, x_result):
    for node in path:
        node.visits += np.int64(1)
        node.wins += np.float64((1 + x_result * node.mover) / 2)


def library_ucb(wins, visits, parent_visits, c):
    node = Node(BitBoard())
    node.wins, node.draws, node.losses, node.visits = wins, 0, visits - wins, visits
    return node.ucb(parent_visits, c)


def library_backpropagate(path, x_result):
    MCTSTree.backpropagate(None, path, x_result)


WRITE_IT[0][1].append(numpy_ucb)
WRITE_IT[1][1].append(numpy_backpropagate)
CHEATS = [(teach.check_07_ucb, {library_ucb: "Node.ucb"}),
          (teach.check_07_backpropagate, {library_backpropagate: "MCTSTree.backpropagate"})]


# ------------------------------------------------------------ write it: plain UCT (check_07_mcts)
# Right versions in several styles; each wrong one carries its typical mistake. The checker
# hands them a CountedState and a seeded random.Random.

class UCTNode:
    def __init__(self, state, parent=None, move=None):
        self.state, self.parent, self.move = state, parent, move
        self.untried = [] if state.is_terminal() else list(state.moves())
        self.children, self.visits, self.wins = [], 0, 0.0


def finish(state, rng):
    while not state.is_terminal():
        state = state.play(rng.choice(state.moves()))
    return state.utility()


def node_uct(state, playouts, rng, c=math.sqrt(2), final="visits", sign=1):
    """UCT with a node class: expand one untried move per iteration."""
    root = UCTNode(state)
    for _ in range(playouts):
        node = root
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda child: child.wins / child.visits
                       + c * math.sqrt(log_n / child.visits))
        if node.untried:
            move = node.untried.pop(rng.randrange(len(node.untried)))
            node.children.append(UCTNode(node.state.play(move), node, move))
            node = node.children[-1]
        x_result = finish(node.state, rng)
        while node is not None:
            node.visits += 1
            node.wins += (1 - sign * x_result * node.state.to_move) / 2  # for its mover
            node = node.parent
    if final == "visits":
        return max(root.children, key=lambda child: child.visits).move
    return max(root.children, key=lambda child: child.wins / child.visits).move


def right_uct_nodes(state, playouts, rng):
    return node_uct(state, playouts, rng)


def right_uct_best_mean(state, playouts, rng):  # c = 1.4, the best mean child at the end
    return node_uct(state, playouts, rng, c=1.4, final="mean")


def right_uct_dicts(state, playouts, rng):
    """UCT in dicts keyed by (position key, move); c = 1.0; expansion of all moves at once."""
    visits, wins, moves_of = {}, {}, {}
    for _ in range(playouts):
        s, path = state, []
        while s.key() in moves_of and moves_of[s.key()]:
            k, moves = s.key(), moves_of[s.key()]
            fresh = [m for m in moves if (k, m) not in visits]
            if fresh:
                m = rng.choice(fresh)
            else:
                total = sum(visits[k, m] for m in moves)
                m = max(moves, key=lambda m: wins[k, m] / visits[k, m]
                        + math.sqrt(math.log(total) / visits[k, m]))
            path.append((k, m, s.to_move))
            s = s.play(m)
            if fresh:
                break
        moves_of.setdefault(s.key(), [] if s.is_terminal() else s.moves())
        x_result = finish(s, rng)
        for k, m, mover in path:
            visits[k, m] = visits.get((k, m), 0) + 1
            wins[k, m] = wins.get((k, m), 0) + (1 + x_result * mover) / 2
    root = state.key()
    return max(moves_of[root], key=lambda m: visits.get((root, m), 0))


def right_uct_library_playout(state, playouts, rng):  # the library's playout is allowed
    from ttt_lib.search.monte_carlo import random_playout
    global finish
    own, finish = finish, random_playout
    try:
        return node_uct(state, playouts, rng)
    finally:
        finish = own


def numpy_uct(state, playouts, rng):
    """UCT with numpy's numbers: its generator for the playouts, its math for UCB1, and a
    numpy integer returned."""
    gen = np.random.default_rng(rng.randrange(2**32))
    root = UCTNode(state)
    for _ in range(playouts):
        node = root
        while not node.untried and node.children:
            log_n = np.log(np.float64(node.visits))
            node = max(node.children, key=lambda child: child.wins / child.visits
                       + np.sqrt(2 * log_n / child.visits))
        if node.untried:
            move = node.untried.pop(int(gen.integers(len(node.untried))))
            node.children.append(UCTNode(node.state.play(move), node, move))
            node = node.children[-1]
        s = node.state
        while not s.is_terminal():
            moves = s.moves()
            s = s.play(moves[gen.integers(len(moves))])
        x_result = s.utility()
        while node is not None:
            node.visits += np.int64(1)
            node.wins += np.float64(1 - x_result * node.state.to_move) / 2
            node = node.parent
    moves = np.array([child.move for child in root.children])
    return moves[np.argmax([child.visits for child in root.children])]


def result_for_player_to_move(state, playouts, rng):  # the negamax sign mistake
    return node_uct(state, playouts, rng, sign=-1)


def result_for_x_everywhere(state, playouts, rng):
    root = UCTNode(state)
    for _ in range(playouts):
        node = root
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda child: child.wins / child.visits
                       + 1.4 * math.sqrt(log_n / child.visits))
        if node.untried:
            move = node.untried.pop()
            node.children.append(UCTNode(node.state.play(move), node, move))
            node = node.children[-1]
        x_result = finish(node.state, rng)
        while node is not None:
            node.visits += 1
            node.wins += (1 + x_result) / 2
            node = node.parent
    return max(root.children, key=lambda child: child.visits).move


def no_exploration(state, playouts, rng):  # c = 0: the best mean so far, always
    return node_uct(state, playouts, rng, c=0)


def random_move(state, playouts, rng):
    return rng.choice(state.moves())


def first_move(state, playouts, rng):
    return state.moves()[0]


def always_the_centre(state, playouts, rng):
    return 4


def first_move_after_playouts(state, playouts, rng):
    node_uct(state, playouts, rng)
    return state.moves()[0]


def exhaustive(state, playouts, rng):  # negamax, budget ignored
    def value(s):
        if s.is_terminal():
            return s.utility() * s.to_move
        return max(-value(s.play(m)) for m in s.moves())
    return max(state.moves(), key=lambda m: -value(state.play(m)))


def ten_times_the_budget(state, playouts, rng):
    return node_uct(state, 10 * playouts, rng)


def flat_per_move(state, playouts, rng):  # flat Monte Carlo, `playouts` for every move
    return max(state.moves(), key=lambda m: sum(
        finish(state.play(m), rng) for _ in range(playouts)) * state.to_move)


def off_the_board(state, playouts, rng):
    return 9


def uct_stub(state, playouts, rng):
    raise NotImplementedError


def library_mcts(state, playouts, rng):
    from ttt_lib.search import mcts
    return mcts(state, playouts, rng=rng)


def library_tree(state, playouts, rng):
    return MCTSTree(state, rng=rng).run(playouts).best_move()


def library_solver(state, playouts, rng):
    from ttt_lib.search.monte_carlo import SolverTree
    tree = SolverTree(state, rng=rng)
    for _ in range(playouts):
        tree.iterate()
    return tree.best_move()


def library_flat(state, playouts, rng):
    from ttt_lib.search.monte_carlo import flat_monte_carlo
    values = flat_monte_carlo(state, max(1, playouts // len(state.moves())), rng=rng)
    return max(values, key=lambda m: values[m] * state.to_move)


def library_exact(state, playouts, rng):
    from ttt_lib.search import best_moves
    return best_moves(state)[0]


WRITE_IT.append(
    (teach.check_07_mcts,
     [right_uct_nodes, right_uct_best_mean, right_uct_dicts, right_uct_library_playout,
      numpy_uct],
     {result_for_player_to_move: "counted for the wrong player",
      result_for_x_everywhere: "counted for the wrong player",
      no_exploration: "no exploration", random_move: "finished no game",
      first_move: "finished no game", always_the_centre: "finished no game",
      first_move_after_playouts: "first legal move", exhaustive: "ignores the budget",
      ten_times_the_budget: "10 times the budget", flat_per_move: "not of each move",
      off_the_board: "not a legal move", uct_stub: "write the function"}))
CHEATS.append(
    (teach.check_07_mcts, {library_mcts: "mcts", library_tree: "MCTSTree.run",
                           library_solver: "SolverTree.iterate",
                           library_flat: "flat_monte_carlo", library_exact: "best_moves"}))
