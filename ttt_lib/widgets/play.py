"""``PlayWidget``: play the computer on any grid board (3x3, m,n,k, Connect Four).

On a board whose moves are cells, a click on an empty cell plays it. On Connect Four a move is
a column: a click anywhere in a column, or on the column's button above the board, drops a
piece there. Every button says in its tooltip (the name a screen reader reads for an empty
cell) where it is and what it holds, so the board can be played with the keyboard alone (Tab to
a button, Enter). The status line says what changed: your move and the computer's reply.
"""
from __future__ import annotations

import ipywidgets as widgets

from ..agents import AGENTS, make_agent
from ..arena import play_turn
from ..boards.bit import BitBoard
from ..boards.connect4 import ConnectFour
from ..boards.grid import GridBoard
from ..boards.rules import full_lines
from ..boards.tictactoe import Board3x3
from ..game import MAX, player_name
from ..viz.style import HIGHLIGHT_COLOUR, O_COLOUR, WIN_CELL, X_COLOUR
from ..boards.alt import cell_place
from .parts import _button, _status_html, live

LAST_MOVE = HIGHLIGHT_COLOUR  # as the SVG boards highlight a cell
WINNING_LINE = WIN_CELL
ANY_BOARD = ("deepening", "greedy", "mcts", "random")
"""The opponents that play any board in a few seconds a move at most (the others search to
the end, fine on 3x3 and hopeless on a bigger board)."""
BIG_BOARD_OPTIONS = {"deepening": {"seconds": None, "nodes": 10_000},
                     "mcts": {"playouts": 1000}}
"""Their options on a board bigger than 3x3 unless given: a node or playout budget, so a seed
replays the same game; on Connect Four 7x6 about a quarter of a second of search a move for
deepening (over 40,000 nodes a processor-second, ``studies.deadline_ladder``), under half a
second for MCTS."""
MARK = {0: "empty", 1: "X", 2: "O"}
QUOTE_NEW = "\u201cNew game\u201d"


def _opponents(board: GridBoard) -> list[str]:
    return sorted(AGENTS) if isinstance(board, Board3x3) else list(ANY_BOARD)


def _check_board(board) -> GridBoard:
    if board is None:
        return BitBoard()
    if not isinstance(board, GridBoard):
        raise TypeError(f"board is a board of the package (BitBoard, MNKBoard, ConnectFour), "
                        f"not {type(board).__name__}")
    if board.is_terminal():
        raise ValueError("the game is over on this board: start from one with moves left")
    return board


def _check_opponent(opponent, board: GridBoard) -> str:
    choices = _opponents(board)
    if opponent is None:
        return "perfect" if isinstance(board, Board3x3) else "deepening"
    if opponent not in choices:
        where = "" if isinstance(board, Board3x3) else " on this board"
        raise ValueError(f"unknown opponent {opponent!r}{where}; choose one of: "
                         f"{', '.join(choices)}")
    return opponent


class PlayWidget(widgets.VBox):
    """Play against an agent on ``board`` (by default the empty 3x3 board): click a cell, or
    on Connect Four a column, and the computer replies.

    ``opponent`` is an agent name (see ``ttt_lib.agents.AGENTS``; on a board bigger than 3x3
    one of ``ANY_BOARD``, ``deepening`` unless given), ``options`` its options
    (``{"nodes": 5000}``), ``human`` the side you play ('X' opens). Choosing another side or
    opponent starts a new game from ``board``.
    """

    def __init__(self, opponent: str | None = None, human: str = "X", *, seed: int = 0,
                 board: GridBoard | None = None, options: dict | None = None) -> None:
        self.start = _check_board(board)
        opponent = _check_opponent(opponent, self.start)
        if human not in ("X", "O"):
            raise ValueError(f"human plays 'X' or 'O', not {human!r}")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options is a dict of the opponent's options, "
                            f"not {type(options).__name__}")
        self.gravity = isinstance(self.start, ConnectFour)
        self.seed, self.games, self._status = seed, 0, ""
        self.options = {opponent: dict(options or {})}
        make_agent(opponent, seed=seed, **self._options(opponent))  # bad options fail now
        self.board, self.moves, self.last_cell = self.start, [], None
        self._build(opponent, human)
        self.new_game()

    def _build(self, opponent: str, human: str) -> None:
        shape = self.start.shape
        self.cells = [self._cell_button(cell) for cell in range(shape.size)]
        self.columns = [self._column_button(c) for c in range(shape.n)] if self.gravity else []
        self.status_line = _status_html("", "ttt-status")
        self.side_choice = widgets.ToggleButtons(
            options=[("X (moves first)", "X"), ("O (moves second)", "O")], value=human,
            description="You play", tooltips=["play X, the first move", "play O, second"])
        self.side_state = _status_html("", "ttt-side-state")  # says the chosen side
        self.side_choice.add_class("ttt-side")
        self.opponent_choice = widgets.Dropdown(options=_opponents(self.start), value=opponent,
                                                description="Opponent")
        self.opponent_choice.add_class("ttt-opponent")
        self.new_button = _button("New game", "start again with the chosen side and opponent",
                                  "ttt-new", icon="refresh")
        self.new_button.on_click(lambda _: self.new_game())
        self.side_choice.observe(lambda _: self.new_game(), names="value")
        self.opponent_choice.observe(lambda _: self.new_game(), names="value")
        size = f"{self._side()}px"
        grid = widgets.GridBox(self.columns + self.cells, layout=widgets.Layout(
            grid_template_columns=f"repeat({shape.n}, {size})", grid_gap="4px",
            width="max-content"))
        grid.add_class("ttt-board")
        super().__init__([widgets.HBox([self.side_choice, self.side_state]),
                          self.opponent_choice, grid,
                          self.status_line, self.new_button])
        self.add_class("ttt-play")
        if self.gravity:
            self.add_class("ttt-play-columns")

    def _side(self) -> int:
        """A cell's side in pixels: large on 3x3, smaller on the bigger boards."""
        return 64 if self.start.shape.n <= 3 else 44

    def _cell_button(self, cell: int) -> widgets.Button:
        side = self._side()
        button = _button("", "", "ttt-cell", layout=widgets.Layout(width=f"{side}px",
                                                                   height=f"{side}px"))
        button.add_class(f"ttt-cell-{cell}")
        button.style.font_size = "28px" if side == 64 else "20px"
        button.style.font_weight = "bold"
        button.on_click(lambda _, cell=cell: self.click_cell(cell))
        return button

    def _column_button(self, column: int) -> widgets.Button:
        button = _button(f"\u2193{column}", "", "ttt-column",
                         layout=widgets.Layout(width=f"{self._side()}px"))
        button.add_class(f"ttt-column-{column}")
        button.on_click(lambda _, column=column: self.click(column))
        return button

    # -- what the buttons do

    @property
    def human(self) -> int:
        return MAX if self.side_choice.value == "X" else -MAX

    @property
    def status(self) -> str:
        """The status line's text."""
        return self._status

    def _options(self, name: str) -> dict:
        if name in self.options:
            return self.options[name]
        return {} if isinstance(self.start, Board3x3) else BIG_BOARD_OPTIONS.get(name, {})

    def new_game(self) -> str:
        """Start again with the chosen side and opponent; the computer opens if it plays X."""
        try:
            # a new seed for each game, so "New game" does not replay the same game
            name = self.opponent_choice.value
            self.agent = make_agent(name, seed=self.seed + self.games, **self._options(name))
            self.games += 1
            self.board, self.moves, self.last_cell = self.start, [], None
            opening = ""
            if self.human != self.board.to_move:
                opening = f"The computer ({self._who()}) opened in {self._reply()}. "
            self._show(opening + f"Your move: you are {player_name(self.human)}. "
                       + ("Click a column." if self.gravity else "Click an empty cell."))
        except Exception as error:  # the widget must never raise into the notebook
            self._say(f"Something went wrong starting the game: {error}")
        return self.status

    def click_cell(self, cell) -> str:
        """A click on cell ``cell``: on Connect Four it plays the cell's column."""
        if self.gravity and isinstance(cell, int) and not isinstance(cell, bool) \
                and 0 <= cell < self.start.shape.size:
            return self.click(cell % self.start.shape.n)
        return self.click(cell)

    def click(self, move) -> str:
        """Play ``move`` (a cell, or on Connect Four a column) for the human, as a click
        would, then the computer's reply.

        A click that cannot be played changes nothing; the status line says why.
        Returns the status line.
        """
        try:
            reason = self._why_not(move)
            if reason:
                self._say(reason)
                return self.status
            played = self._play(move)
            if self.board.is_terminal():
                self._show(f"You played {played}. " + self._result())
                return self.status
            self._show(f"You played {played}. The computer ({self._who()}) is thinking...")
            reply = self._reply()
            ending = self._result() if self.board.is_terminal() else "Your move."
            self._show(f"You played {played}; the computer ({self._who()}) replied in "
                       f"{reply}. {ending}")
        except Exception as error:  # the widget must never raise into the notebook
            self._say(f"Something went wrong: {error}. Press {QUOTE_NEW} to start again.")
        return self.status

    def _why_not(self, move) -> str | None:
        unit, count = ("column", self.start.shape.n) if self.gravity \
            else ("cell", self.start.shape.size)
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < count:
            return f"There is no {unit} {move!r}: the {unit}s are numbered 0 to {count - 1}."
        if self.board.is_terminal():
            return (f"The game is over ({self._outcome()}): no more moves. "
                    f"Press {QUOTE_NEW} to play again.")
        if self.gravity and move not in self.board.moves():
            return f"Column {move} is full: choose another column."
        mark = 0 if self.gravity else self.board.cells()[move]
        if mark:
            return f"Cell {move} is taken ({MARK[mark]} is there): choose an empty cell."
        if self.board.to_move != self.human:
            return "Wait: it is the computer's turn."
        return None

    def _play(self, move) -> str:
        """Play ``move`` on the board; returns how the status line names it."""
        self.last_cell = self.board.landing_cell(move) if self.gravity else move
        self.board = self.board.play(move)
        self.moves.append(move)
        return self._move_name(move)

    def _move_name(self, move) -> str:
        if not self.gravity:
            return f"cell {move} ({cell_place(move, self.start.shape.m, self.start.shape.n)})"
        row = self.start.shape.m - self.last_cell // self.start.shape.n
        return f"column {move} (row {row} from the bottom)"

    def _reply(self) -> str:
        before = self.board
        move, self.board = play_turn(self.board, self.agent)  # the arena's turn, as in play_game
        self.last_cell = before.landing_cell(move) if self.gravity else move
        self.moves.append(move)
        return self._move_name(move)

    def _who(self) -> str:
        return f"{self.opponent_choice.value}, {player_name(-self.human)}"

    def _outcome(self) -> str:
        winner = self.board.winner()
        if winner is None:
            return "a draw"
        return f"{winner} won: " + ("you win" if winner == player_name(self.human)
                                    else "the computer wins")

    def _result(self) -> str:
        return f"Game over: {self._outcome()}. Press {QUOTE_NEW} to play again."

    # -- showing the board

    def _say(self, text: str) -> None:
        self._status = text
        self.status_line.value = live(text)

    def _show(self, text: str) -> None:
        cells = self.board.cells()
        line = _winning_cells(self.board, cells)
        for cell, (button, mark) in enumerate(zip(self.cells, cells)):
            # a space, never "": ipywidgets keeps a button's old text when its description
            # becomes empty, and a blank cell's accessible name is then its tooltip
            button.description = " XO"[mark]
            button.tooltip = self._cell_tip(cell, mark)
            button.style.text_color = X_COLOUR if mark == 1 else O_COLOUR
            button.style.button_color = WINNING_LINE if cell in line else \
                LAST_MOVE if cell == self.last_cell else None
        for column, button in enumerate(self.columns):
            button.tooltip = self._column_tip(column, cells)
        self.side_state.value = live(f"you play {self.side_choice.value}")
        self._say(text)

    def _cell_tip(self, cell: int, mark: int) -> str:
        m, n = self.start.shape.m, self.start.shape.n
        row, column = divmod(cell, n)
        if not self.gravity:
            return f"cell {cell}, {cell_place(cell, m, n)}, {MARK[mark]}"
        return (f"column {column}, row {m - row} from the bottom: {MARK[mark]}; "
                f"click to drop a piece in column {column}")

    def _column_tip(self, column: int, cells) -> str:
        m, n = self.start.shape.m, self.start.shape.n
        pieces = [MARK[cells[r * n + column]] for r in reversed(range(m))
                  if cells[r * n + column]]
        held = f"holds {', '.join(pieces)} from the bottom" if pieces else "is empty"
        if len(pieces) == m:
            return f"column {column} is full: it {held}"
        return f"drop a piece in column {column}: it {held}, {m - len(pieces)} places free"

    def __repr__(self) -> str:  # what a notebook saved without widget state shows instead
        where = "" if isinstance(self.start, Board3x3) else f" on {_board_name(self.start)}"
        return (f"<PlayWidget: you play {self.side_choice.value} against "
                f"{self.opponent_choice.value}{where}; run the notebook to play>")


def _board_name(board: GridBoard) -> str:
    shape = board.shape
    if isinstance(board, ConnectFour):
        return f"Connect Four, {shape.n} columns x {shape.m} rows, {shape.k} in a row"
    return f"a {shape.m}x{shape.n} board, {shape.k} in a row"


def _winning_cells(board: GridBoard, cells) -> set[int]:
    """The cells of every line the winner has filled (none before the end)."""
    winner = board.winner()
    if winner is None:
        return set()
    return {cell for line in full_lines(board.shape, cells, 1 if winner == "X" else 2)
            for cell in line}
