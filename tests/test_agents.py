import random
from fractions import Fraction

import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.agents import (AGENTS, MCTSAgent, PerfectAgent, RandomAgent, UnknownAgentError,
                            make_agent)
from ttt_lib.cli import main
from ttt_lib.search.depthlimit import depth_limited_choice
from ttt_lib.search.exact import best_moves
from ttt_lib.search import Stats

NAMES = ["random", "greedy", "minimax", "alphabeta", "perfect", "heuristic", "expectimax", "flat-mc", "deepening",
         "mcts", "qtable", "td", "qnet", "zero"]
NO_SEARCH = {"random", "greedy", "qtable", "td", "qnet"}
EXACT_AGENTS = [("minimax", {}), ("alphabeta", {}), ("perfect", {}),
                ("alphabeta", {"ordering": "threats", "killers": True}),
                ("alphabeta", {"table": True, "symmetry": True, "ordering": "heuristic"}),
                ("expectimax", {"epsilon": 0})]
# A few marks each, so the full-width searches (minimax) stay quick.
POSITIONS = ["X../.O./...", "X../.O./..X", "XO./.X./...", "XX./OO./...", "X.X/.O./...",
             "O../.X./...", "XOX/.O./..."]


# The learned agents train on first use; these tests ask what every agent must do (legal,
# seeded, reproducible moves), not how strong it is (tests/test_learn.py plays the full
# budgets against perfect play), so they train on a small seeded budget.
SMALL_TRAINING = {"qtable": 500, "td": 500, "qnet": 60, "zero": 8}


# A clocked agent is reproducible on a node budget ("the same moves on every machine"); on
# its default clock a loaded machine reaches other depths.
BUDGETED = {"deepening": {"seconds": None, "nodes": 5000}}


def agent_named(name: str, **options):
    """``make_agent(name, **options)``, a learned agent on its small training budget and a
    clocked one on a node budget."""
    if name in SMALL_TRAINING:
        options.setdefault("games", SMALL_TRAINING[name])
    for option, value in BUDGETED.get(name, {}).items():
        options.setdefault(option, value)
    return make_agent(name, **options)


def few_marks(all_bitboards, count, seed=0):
    live = [p for p in all_bitboards
            if not p.is_terminal() and bin(p.x | p.o).count("1") >= 3]
    return random.Random(seed).sample(live, count)


def test_the_registry_has_every_agent_of_the_design():
    assert sorted(AGENTS) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_plays_legal_moves_with_only_a_seed(name):
    agent = agent_named(name, seed=3)
    for text in POSITIONS:
        state = BitBoard.from_text(text)
        move = agent.choose(state)
        assert move in state.moves()
        if name in NO_SEARCH:  # a random or a learned move: no search, nothing to count
            assert agent.stats is None
        else:
            assert isinstance(agent.stats, Stats) and agent.stats.nodes > 0


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_is_reproducible(name):
    def choices(seed):
        agent = agent_named(name, seed=seed)
        return [agent.choose(BitBoard.from_text(text)) for text in POSITIONS * 2]
    assert choices(5) == choices(5)


@pytest.mark.parametrize("name", NAMES)
def test_an_agent_seeded_with_an_rng_plays_like_one_seeded_with_its_seed(name):
    states = [BitBoard.from_text(text) for text in POSITIONS]
    by_seed, by_rng = agent_named(name, seed=11), agent_named(name, rng=random.Random(11))
    assert [by_seed.choose(s) for s in states] == [by_rng.choose(s) for s in states]


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_plays_on_the_list_board_too(name):
    state = ListBoard.from_text("X../.O./...")
    assert agent_named(name, seed=0).choose(state) in state.moves()


@pytest.mark.parametrize("name", NAMES)
def test_a_finished_game_has_no_move_to_choose(name):
    with pytest.raises(ValueError, match=f"the game is over: the {name} agent has no move"):
        agent_named(name, seed=0).choose(BitBoard.from_text("XXX/OO./..."))


@pytest.mark.parametrize("name, options", EXACT_AGENTS)
def test_exact_agents_play_only_optimal_moves(all_bitboards, name, options):
    agent = make_agent(name, seed=1, **options)
    for state in few_marks(all_bitboards, 25):
        assert agent.choose(state) in best_moves(state), state.to_text()


@pytest.mark.parametrize("name, options", EXACT_AGENTS)
def test_exact_agents_break_ties_at_random(name, options):
    state = BitBoard.from_text("X../.O./..X")  # O holds the draw on any edge: 1, 3, 5, 7
    chosen = {make_agent(name, seed=seed, **options).choose(state) for seed in range(40)}
    assert chosen == set(best_moves(state)) == {1, 3, 5, 7}


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_heuristic_agent_plays_a_best_move_of_the_depth_limited_search(all_bitboards, depth):
    agent = make_agent("heuristic", depth=depth, seed=0)
    for state in few_marks(all_bitboards, 25, seed=depth):
        assert agent.choose(state) in depth_limited_choice(state, depth)[1], state.to_text()


def test_heuristic_agent_wins_and_blocks():
    agent = make_agent("heuristic", seed=0)  # two moves deep: its own and the reply
    assert agent.choose(BitBoard.from_text("XX./OO./...")) == 2
    assert agent.choose(BitBoard.from_text("X.X/.O./...")) == 1


def random_opponent_value(state, player):
    """X's expected result when ``player`` plays best and the other side uniformly at random
    (a direct recursion, independent of the expectimax module)."""
    if state.is_terminal():
        return Fraction(state.utility())
    values = [random_opponent_value(state.play(m), player) for m in state.moves()]
    if state.to_move != player:
        return sum(values) / len(values)
    return max(values) if player == 1 else min(values)


def test_expectimax_agent_plays_best_against_a_random_opponent(all_bitboards):
    agent = make_agent("expectimax", seed=0)
    for state in few_marks(all_bitboards, 20, seed=4):
        me = state.to_move
        values = {m: random_opponent_value(state.play(m), me) for m in state.moves()}
        best = max(values.values()) if me == 1 else min(values.values())
        assert values[agent.choose(state)] == best, state.to_text()


def test_expectimax_gambles_where_minimax_plays_safe():
    # O to move. Against perfect play only 6 and 8 hold the draw, but against a random X the
    # centre wins most often: expectimax takes it, and with epsilon=0 it plays safe again.
    state = BitBoard.from_text("XO./.../.X.")
    values = {m: random_opponent_value(state.play(m), -1) for m in state.moves()}
    assert min(values, key=values.get) == 4 and 4 not in best_moves(state) == [6, 8]
    assert make_agent("expectimax", seed=0).choose(state) == 4
    assert make_agent("expectimax", epsilon=0, seed=0).choose(state) in [6, 8]


@pytest.mark.parametrize("name", ["flat-mc", "mcts"])
def test_monte_carlo_agents_win_and_block(name):
    agent = make_agent(name, seed=0)
    assert agent.choose(BitBoard.from_text("XX./OO./...")) == 2
    assert agent.choose(BitBoard.from_text("X.X/.O./...")) == 1


def test_mcts_agent_keeps_its_tree_and_uses_its_options():
    agent = make_agent("mcts", playouts=200, shared=False, solver=True, c=1.0, seed=0)
    agent.choose(BitBoard.from_text("X../.O./..."))
    assert agent.tree.iterations <= 200 and agent.tree.c == 1.0
    assert agent.tree.solver and not agent.tree.shared
    assert agent.stats.leaves == agent.tree.iterations
    assert isinstance(agent, MCTSAgent)


def test_the_random_and_perfect_agents_keep_their_classes():
    assert isinstance(make_agent("random", seed=0), RandomAgent)
    assert isinstance(make_agent("perfect", seed=0), PerfectAgent)
    assert AGENTS["random"] is RandomAgent and AGENTS["perfect"] is PerfectAgent


# ----------------------------------------------------------------------------- errors

def test_an_unknown_agent_lists_every_valid_name():
    with pytest.raises(UnknownAgentError) as error:
        make_agent("deep-blue")
    message = str(error.value)
    assert message.startswith("unknown agent 'deep-blue'; choose one of: ")
    assert all(name in message for name in NAMES)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("name, valid", [
    ("random", ["seed", "rng"]), ("minimax", ["seed", "rng"]),
    ("alphabeta", ["ordering", "killers", "table", "symmetry", "seed", "rng"]),
    ("perfect", ["seed", "rng"]), ("heuristic", ["depth", "seed", "rng"]),
    ("expectimax", ["epsilon", "seed", "rng"]), ("flat-mc", ["playouts", "seed", "rng"]),
    ("mcts", ["playouts", "c", "shared", "solver", "seed", "rng"])])
def test_an_unknown_option_lists_the_valid_ones(name, valid):
    with pytest.raises(UnknownAgentError,
                       match=f"agent '{name}' has no option 'depht'; its options are: "
                             f"{', '.join(valid)}$"):
        make_agent(name, depht=3)


@pytest.mark.parametrize("name, options, message", [
    ("mcts", {"playouts": 1}, "playouts .* >= 2, not 1"),
    ("mcts", {"c": -1.0}, "exploration constant c"),
    ("flat-mc", {"playouts": 0}, "playouts .* >= 1, not 0"),
    ("heuristic", {"depth": 0}, "depth .* >= 1, not 0"),
    ("expectimax", {"epsilon": 1.5}, "epsilon is a probability"),
    ("alphabeta", {"ordering": "alphabetical"}, "unknown ordering 'alphabetical'"),
])
def test_bad_option_values_are_named(name, options, message):
    with pytest.raises(ValueError, match=message):
        make_agent(name, seed=0, **options)


# -------------------------------------------------------------------------------- CLI

@pytest.mark.parametrize("name", NAMES)
def test_selfplay_accepts_every_agent(name, capsys, monkeypatch):
    # The agent plays O, so minimax's first search starts after one mark (~60k nodes); a
    # learned agent trains on its small budget (what is asked is that the command takes it).
    from ttt_lib.learn import train
    if name in SMALL_TRAINING:
        monkeypatch.setitem(train.DEFAULT_GAMES, name, SMALL_TRAINING[name])
    assert main(["selfplay", "--x", "random", "--o", name, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert f"O: {name}" in out
    assert out.rstrip().endswith(("X wins.", "O wins.", "Tied."))


def test_greedy_agent_wins_else_blocks_on_tic_tac_toe(all_bitboards):
    agent = make_agent("greedy", seed=0)
    for state in few_marks(all_bitboards, 200, seed=7):
        mine = [m for m in state.moves() if state.play(m).winner() is not None]
        marked = list(state.cells())
        theirs = []
        for m in state.moves():
            trial = list(marked)
            trial[m] = 2 if state.to_move == 1 else 1
            if any(all(trial[c] == trial[m] for c in line) for line in state.lines()):
                theirs.append(m)
        assert agent.choose(state) in (mine or theirs or state.moves()), state.to_text()


def test_greedy_agent_wins_else_blocks_on_connect_four():
    from ttt_lib import ConnectFour
    rng, agent, checked = random.Random(12), make_agent("greedy", seed=3), 0
    while checked < 150:
        state = ConnectFour(5, 4)
        for _ in range(rng.randrange(4, 14)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.moves()))
        if state.is_terminal():
            continue
        # the same pieces with the other side to move: an empty board of the same
        # parity has the other side opening
        passed = ConnectFour._make(state.geometry, state.x, state.o, -state.to_move,
                                   state.first, 0)
        wins = [m for m in state.moves() if state.play(m).winner() is not None]
        blocks = [m for m in state.moves() if passed.play(m).winner() is not None]
        assert agent.choose(state) in (wins or blocks or state.moves()), state.to_text()
        checked += 1


@pytest.mark.parametrize("name, options", [("perfect", {}), ("expectimax", {}),
                                           ("expectimax", {"epsilon": Fraction(1, 4)})])
def test_an_exact_agent_remembers_a_position_with_the_work_its_search_counted(name, options):
    from ttt_lib.search.exact import solve
    from ttt_lib.search.opponent_model import epsilon_perfect, expectimax, uniform_random
    state = BitBoard.from_text("X../.O./...")
    counted = Stats()  # the same search, observed afresh
    if name == "perfect":
        solve(state, {}, counted)
    else:
        model = uniform_random if not options else epsilon_perfect(options["epsilon"])
        for move in state.moves():
            expectimax(state.play(move), state.to_move, model, stats=counted)
    agent = make_agent(name, seed=0, **options)
    for _ in range(3):  # the first answer is searched, the others remembered
        agent.choose(state)
        assert agent.stats == counted
        agent.stats.nodes += 1000  # a copy: the next answer is not changed by this
    listed = make_agent(name, seed=0, **options)  # another board type: searched on its own
    listed.choose(ListBoard.from_text("X../.O./..."))
    assert listed.stats == counted
