import random

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search.exact import solve
from ttt_lib.search import Trace, TraceEvent
from ttt_lib.widgets import MCTSGrower, PlayWidget, TraceStepper, explain

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
PLACES = [f"{row} {column}".replace("middle centre", "centre")
          for row in ("top", "middle", "bottom") for column in ("left", "centre", "right")]


def marks(widget: PlayWidget) -> list[str]:
    return [button.description.strip() for button in widget.cells]


# -------------------------------------------------------------------------- PlayWidget

def test_clicks_play_and_the_computer_replies():
    game = PlayWidget(opponent="perfect", human="X", seed=0)
    assert game.status == "Your move: you are X. Click an empty cell."
    assert marks(game) == [""] * 9
    game.cells[4].click()  # the button itself, as in the browser
    assert marks(game)[4] == "X" and marks(game).count("O") == 1
    assert "You played cell 4 (centre); the computer (perfect, O) replied in cell" in game.status
    reply = game.moves[1]
    assert f"replied in cell {reply} ({PLACES[reply]})" in game.status
    # a polite live region: a screen reader says the reply
    assert game.status_line.value.startswith(
        '<span role="status" aria-live="polite">You played cell 4 (centre)')


def test_an_occupied_cell_is_explained_and_changes_nothing():
    game = PlayWidget(seed=0)
    game.click(4)
    before, moves = marks(game), list(game.moves)
    reply = game.moves[1]
    assert game.click(4) == "Cell 4 is taken (X is there): choose an empty cell."
    assert game.click(reply) == f"Cell {reply} is taken (O is there): choose an empty cell."
    assert marks(game) == before and game.moves == moves


@pytest.mark.parametrize("cell", [9, -1, "a", None, True, 2.0])
def test_a_bad_cell_never_raises(cell):
    game = PlayWidget(seed=0)
    assert game.click(cell).startswith(f"There is no cell {cell!r}")
    assert marks(game) == [""] * 9


@pytest.mark.parametrize("seed", range(4))
def test_perfect_play_never_loses_and_the_end_is_explained(seed):
    game, rng = PlayWidget(opponent="perfect", human="X", seed=seed), random.Random(seed)
    while not game.board.is_terminal():
        game.click(rng.choice(game.board.moves()))
    assert game.board.winner() != "X"
    assert "Game over:" in game.status and "New game" in game.status
    final = marks(game)
    for cell in range(9):
        assert game.click(cell).startswith("The game is over (")
    assert marks(game) == final


def test_the_winning_line_and_the_last_move_are_coloured():
    game = PlayWidget(opponent="random", seed=0)
    game.board, game.moves = BitBoard.from_text("XX./OO./..."), [0, 3, 1, 4]
    assert game.click(2).startswith("You played cell 2 (top right). Game over: X won: you win.")
    colours = [button.style.button_color for button in game.cells]
    assert colours[:3] == ["#c8f0d0"] * 3 and set(colours[3:]) == {None}
    game.new_game()
    game.click(4)
    colours = [button.style.button_color for button in game.cells]
    assert colours[game.moves[-1]] == "#fff3b0" and colours.count(None) == 8


def test_playing_o_lets_the_computer_open_and_choices_start_new_games():
    game = PlayWidget(opponent="perfect", human="O", seed=0)
    assert marks(game).count("X") == 1 and game.status.startswith("The computer (perfect, X) "
                                                                   "opened in cell")
    game.click(next(c for c in range(9) if marks(game)[c] == ""))
    game.side_choice.value = "X"
    assert marks(game) == [""] * 9 and game.status.startswith("Your move: you are X")
    game.opponent_choice.value = "random"
    assert game.agent.name == "random" and marks(game) == [""] * 9
    game.click(0)
    game.new_button.click()
    assert marks(game) == [""] * 9 and game.moves == []


def test_a_failing_opponent_is_reported_not_raised(monkeypatch):
    game = PlayWidget(seed=0)

    def broken(state):
        raise RuntimeError("no idea")

    monkeypatch.setattr(game.agent, "choose", broken)
    assert game.click(4).startswith("Something went wrong: no idea. Press")
    assert game.new_game().startswith("Your move")


def test_the_computer_moves_through_the_arena_s_turn(monkeypatch):
    game = PlayWidget(seed=0)
    monkeypatch.setattr(game.agent, "choose", lambda state: 4)  # the cell the human just took
    assert game.click(4).startswith("Something went wrong: <perfect agent> chose an illegal "
                                    "move: cell 4 is occupied")


def test_the_computer_replies_as_in_play_game():
    from ttt_lib.agents import Agent, make_agent
    from ttt_lib.arena import play_game
    game, rng = PlayWidget(opponent="perfect", human="X", seed=2), random.Random(2)
    while not game.board.is_terminal():
        game.click(rng.choice(game.board.moves()))

    class Clicks(Agent):  # the human's clicks, again
        name = "clicks"

        def __init__(self, cells):
            super().__init__()
            self.cells = iter(cells)

        def choose(self, state):
            return next(self.cells)

    record = play_game(Clicks(game.moves[0::2]), make_agent("perfect", seed=2))
    assert record.moves == game.moves


def test_bad_arguments_are_refused_at_construction():
    with pytest.raises(ValueError, match="unknown opponent 'grandmaster'"):
        PlayWidget(opponent="grandmaster")
    with pytest.raises(ValueError, match="human plays 'X' or 'O'"):
        PlayWidget(human="x")


def test_play_widget_classes_and_tooltips_for_the_browser():
    game = PlayWidget()
    for cell, button in enumerate(game.cells):
        assert {"ttt-cell", f"ttt-cell-{cell}"} <= set(button._dom_classes)
        assert button.tooltip == f"cell {cell}, {PLACES[cell]}, empty"  # its accessible name
    assert "ttt-status" in game.status_line._dom_classes
    assert "ttt-new" in game.new_button._dom_classes and game.new_button.description


# ------------------------------------------------------------------------ TraceStepper

def test_stepping_through_the_classic_trace():
    stepper = TraceStepper(AIMA)
    assert stepper.value == 3 and stepper.step == 0
    assert len(stepper.lines) == 35 and "A -999 999 -999" in stepper.current_line.value
    first_picture = stepper.picture.value
    for _ in range(18):
        stepper.next()
    assert stepper.step == 18 and stepper.slider.value == 19
    assert "prune remaining children of C" in stepper.current_line.value
    assert "step 19 of 35" in stepper.counter.value
    assert stepper.picture.value != first_picture
    assert stepper.back().strip() == "H improved beta( C ) to 2"


def test_stepping_past_either_end_says_so_and_stays():
    stepper = TraceStepper(TreeNode(AIMA, labels=True))
    stepper.buttons[1].click()  # Back, at the first step
    assert stepper.step == 0 and "first step" in stepper.note.value
    stepper.buttons[3].click()  # End (no cut-off line after D's last leaf: nothing is left)
    assert stepper.step == 34 and stepper.note.value == ""
    stepper.buttons[2].click()  # Next, at the last step
    assert stepper.step == 34 and "last step (35 of 35)" in stepper.note.value
    stepper.buttons[0].click()  # Start
    assert stepper.step == 0


def test_the_slider_moves_the_stepper():
    stepper = TraceStepper(AIMA)
    stepper.slider.value = 10
    assert stepper.step == 9 and stepper.lines[9] in stepper.current_line.value


def test_trace_stepper_on_a_position():
    position = BitBoard.from_text("XO./.X./O..")
    stepper = TraceStepper(position, depth=1, form="negamax")
    assert stepper.value == solve(position) == 1
    assert "negamax form: values for the player to move" in repr(stepper)
    stepper.go(len(stepper.lines) - 1)
    assert stepper.picture.value
    with pytest.raises(ValueError, match="pass a smaller depth"):
        TraceStepper(BitBoard())


def test_every_trace_event_is_explained():
    trace = Trace()
    for event in [TraceEvent("enter", 0, "A", alpha=-float("inf"), beta=float("inf")),
                  TraceEvent("leaf", 1, "B", value=3),
                  TraceEvent("best", 1, "B", parent="A"),
                  TraceEvent("improve", 1, "B", value=3, parent="A", bound="alpha"),
                  TraceEvent("cutoff", 1, "A", alpha=3, beta=2),
                  TraceEvent("exit", 0, "A", alpha=3, beta=2, value=3),
                  TraceEvent("hit", 1, "C", value=1, bound="exact")]:
        trace.events.append(event)
        assert explain(event)
    assert explain(trace.events[0]) == "Enter A with the window alpha -∞, beta ∞."
    assert "pruned" in explain(trace.events[4])


# ------------------------------------------------------------------------- MCTSGrower

def test_growing_the_tree_playout_by_playout():
    grower = MCTSGrower("X../.O./..X", seed=0)
    assert grower.tree.iterations == 0 and "0 playouts so far" in grower.total.value
    assert grower.grow(1) == 1
    grower.grow_buttons[1].click()
    grower.grow_buttons[2].click()
    assert grower.tree.iterations == 111 and "111 playouts so far" in grower.total.value
    rows = grower.rows()
    assert [row["move"] for row in rows] == [1, 2, 3, 5, 6, 7]
    assert sum(row["visits"] for row in rows) == 110  # the first playout starts at the root
    assert {row["move"]: row["exact"] for row in rows} == {1: 0, 2: 1, 3: 0, 5: 0, 6: 1, 7: 0}
    assert "<table" in grower.table.value and grower.picture.value


def test_the_same_seed_grows_the_same_tree_and_start_over_resets():
    first, second = MCTSGrower(seed=3), MCTSGrower(seed=3)
    first.grow(40)
    second.grow(40)
    assert first.rows() == second.rows()
    first.reset_button.click()
    assert first.tree.iterations == 0 and "No playouts yet" in first.table.value


def test_grower_reports_bad_counts_and_refuses_finished_games():
    grower = MCTSGrower(seed=0)
    assert grower.grow(-1) == 0 and "Something went wrong" in grower.total.value
    with pytest.raises(ValueError, match="the game is over"):
        MCTSGrower("XXX/OO./...")
    assert {"ttt-mcts-1", "ttt-mcts-10", "ttt-mcts-100"} == {
        cls for b in grower.grow_buttons for cls in b._dom_classes}


def test_saved_notebooks_show_a_short_stable_text_for_each_widget():
    assert repr(PlayWidget(opponent="random", human="O")) == (
        "<PlayWidget: you play O against random; run the notebook to play>")
    stepper = TraceStepper(TreeNode([[7, 5], [3, 1, 9]], labels=True))
    assert repr(stepper) == (
        f"<TraceStepper: {len(stepper.lines)} steps of alpha-beta from A, max/min form: "
        "values for X (MAX); run the notebook to step through>")
    assert repr(MCTSGrower("X../.O./..X", seed=3)) == (
        "<MCTSGrower: UCT from X../.O./..X, seed 3; run the notebook to grow the tree>")
