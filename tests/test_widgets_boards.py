"""The play widget on boards other than 3x3: Connect Four (a click in a column drops a piece)
and m,n,k boards (a click on a cell), driven by simulated clicks."""
import random

import pytest

from ttt_lib import ConnectFour, MNKBoard
from ttt_lib.agents import Agent, UnknownAgentError, make_agent
from ttt_lib.arena import play_game
from ttt_lib.widgets import PlayWidget
from ttt_lib.widgets.play import ANY_BOARD, BIG_BOARD_OPTIONS


def marks(widget: PlayWidget) -> list[str]:
    return [button.description.strip() for button in widget.cells]


def connect4(opponent="greedy", **options) -> PlayWidget:
    return PlayWidget(opponent, board=ConnectFour(), seed=0, **options)


def test_a_column_button_drops_a_piece_and_the_computer_replies():
    game = connect4()
    assert game.status == "Your move: you are X. Click a column."
    assert len(game.cells) == 42 and len(game.columns) == 7
    game.columns[3].click()  # the button itself, as in the browser
    reply = game.moves[1]
    expected = ConnectFour().play(3).play(reply)
    assert game.board == expected and game.moves == [3, reply]
    assert marks(game) == [" XO"[d].strip() for d in expected.cells()]
    assert marks(game)[38] == "X"  # the bottom row: cells 35..41
    assert game.status.startswith("You played column 3 (row 1 from the bottom); the computer "
                                  f"(greedy, O) replied in column {reply} (row ")
    assert game.status.endswith("Your move.")


@pytest.mark.parametrize("cell", [3, 10, 24, 38])  # every row of column 3, top to bottom
def test_a_click_anywhere_in_a_column_plays_that_column(cell):
    game = connect4()
    game.cells[cell].click()
    assert game.moves[0] == 3 and marks(game)[38] == "X"


def test_a_full_column_is_explained_and_changes_nothing():
    game = connect4()
    game.board = ConnectFour.from_text("O....../X....../O....../X....../O....../X......")
    game.moves = [0] * 6
    game._show("set up")
    before = marks(game)
    assert game.click(0) == "Column 0 is full: choose another column."
    assert game.cells[7].click() is None and game.status == "Column 0 is full: choose another column."
    assert game.columns[0].tooltip.startswith("column 0 is full: it holds X, O, X, O, X, O")
    assert marks(game) == before and game.moves == [0] * 6
    assert game.click(1).startswith("You played column 1")


@pytest.mark.parametrize("column", [7, -1, "a", None, True, 2.0])
def test_a_bad_column_never_raises(column):
    game = connect4()
    assert game.click(column) == (f"There is no column {column!r}: the columns are numbered "
                                  f"0 to 6.")
    assert marks(game) == [""] * 42 and game.moves == []


def test_tooltips_say_where_each_button_is_and_what_it_holds():
    game = connect4()
    assert game.columns[2].tooltip == "drop a piece in column 2: it is empty, 6 places free"
    assert game.cells[0].tooltip == ("column 0, row 6 from the bottom: empty; click to drop a "
                                     "piece in column 0")
    game.click(2)
    pieces = "X" if game.moves[1] != 2 else "X, O"
    assert game.columns[2].tooltip.startswith(f"drop a piece in column 2: it holds {pieces} "
                                              f"from the bottom")
    assert game.cells[37].tooltip.startswith("column 2, row 1 from the bottom: X;")
    for column, button in enumerate(game.columns):
        assert {"ttt-column", f"ttt-column-{column}"} <= set(button._dom_classes)
        assert button.description == f"\u2193{column}"


@pytest.mark.parametrize("seed", range(3))
def test_a_whole_game_is_the_arena_s_game_and_the_end_is_explained(seed):
    game, rng = PlayWidget("greedy", board=ConnectFour(5, 4), seed=seed), random.Random(seed)
    while not game.board.is_terminal():
        game.click(rng.choice(game.board.moves()))
    assert "Game over:" in game.status and "New game" in game.status
    final = marks(game)
    for column in range(5):
        assert game.click(column).startswith("The game is over (")
    assert marks(game) == final

    class Clicks(Agent):  # the human's clicks, again
        name = "clicks"

        def __init__(self, columns):
            super().__init__()
            self.columns = iter(columns)

        def choose(self, state):
            return next(self.columns)

    record = play_game(Clicks(game.moves[0::2]), make_agent("greedy", seed=seed),
                       start=ConnectFour(5, 4))
    assert record.moves == game.moves


def test_the_winning_line_and_the_last_piece_are_coloured():
    game = connect4("random")
    game.board = ConnectFour.from_text("......./......./......./......./OOO..../XXX....")
    game.moves = [0, 0, 1, 1, 2, 2]
    assert game.click(3).startswith("You played column 3 (row 1 from the bottom). Game over: "
                                    "X won: you win.")
    colours = [button.style.button_color for button in game.cells]
    assert [c for c, colour in enumerate(colours) if colour] == [35, 36, 37, 38]
    assert set(colours[35:39]) == {"#c8f0d0"}
    game.new_game()
    game.click(6)
    last = game.last_cell
    colours = [button.style.button_color for button in game.cells]
    assert colours[last] == "#fff3b0" and colours.count(None) == 41 and last >= 35


def test_playing_o_the_computer_opens_and_the_opponents_fit_the_board():
    game = PlayWidget("deepening", "O", board=ConnectFour(), options={"nodes": 50,
                                                                       "seconds": None})
    assert game.status.startswith("The computer (deepening, X) opened in column ")
    assert list(game.opponent_choice.options) == list(ANY_BOARD)
    assert game.agent.nodes == 50
    game.opponent_choice.value = "mcts"
    assert game.agent.playouts == BIG_BOARD_OPTIONS["mcts"]["playouts"]
    assert len(game.moves) == 1 and marks(game).count("X") == 1
    assert repr(game) == ("<PlayWidget: you play O against mcts on Connect Four, 7 columns x 6 "
                          "rows, 4 in a row; run the notebook to play>")


def test_an_mnk_board_is_played_by_cells():
    game = PlayWidget("greedy", board=MNKBoard(4, 4, 3), seed=1)
    assert game.columns == [] and len(game.cells) == 16
    assert game.status == "Your move: you are X. Click an empty cell."
    game.cells[5].click()
    assert marks(game)[5] == "X"
    assert game.status.startswith("You played cell 5 (row 2, column 2); the computer")
    assert game.click(5) == "Cell 5 is taken (X is there): choose an empty cell."
    assert game.click(16).startswith("There is no cell 16: the cells are numbered 0 to 15.")
    assert game.cells[5].tooltip == "cell 5, row 2, column 2, X"


def test_a_failing_opponent_is_reported_not_raised(monkeypatch):
    game = connect4()
    monkeypatch.setattr(game.agent, "choose", lambda state: 9)
    assert game.click(3).startswith("Something went wrong: <greedy agent> chose an illegal "
                                    "move: column 9 is off the board")
    assert game.new_game().startswith("Your move")


def test_bad_arguments_are_refused_at_construction():
    with pytest.raises(ValueError, match="unknown opponent 'perfect' on this board"):
        PlayWidget("perfect", board=ConnectFour())
    with pytest.raises(TypeError, match="board is a board of the package"):
        PlayWidget(board="7x6")
    with pytest.raises(TypeError, match="options is a dict"):
        PlayWidget(board=ConnectFour(), options=[("nodes", 5)])
    with pytest.raises(UnknownAgentError, match="has no option 'depth'"):
        PlayWidget("mcts", board=ConnectFour(), options={"depth": 3})
    with pytest.raises(ValueError, match="the game is over"):
        PlayWidget(board=ConnectFour(4, 4, 2).play(0).play(1).play(0))
    assert PlayWidget(board=ConnectFour(), options={"seconds": None,
                                                    "nodes": 10}).agent.name == "deepening"


def test_the_connect_four_widget_has_its_own_class_for_the_browser():
    assert "ttt-play-columns" in connect4()._dom_classes
    assert "ttt-play-columns" not in PlayWidget(board=MNKBoard(4, 4, 3))._dom_classes
