"""Widgets for the notebooks (ipywidgets 8): play the computer, step through an alpha-beta
trace, grow an MCTS tree.

Each widget is a ``VBox`` whose Python methods do what its buttons do (``PlayWidget.click(4)``,
``TraceStepper.next()``, ``MCTSGrower.grow(10)``), so the logic is tested without a browser.
A bad click never raises: the widget says in its status line why nothing happened. The
buttons carry stable descriptions, tooltips and CSS classes (``ttt-cell-4``,
``ttt-status``...) for the browser test. The play widget lives in ``play.py``: it plays any
board of the grid kind (3x3, m,n,k, Connect Four, where a click in a column drops a piece).
"""
from __future__ import annotations

import html
import math
from collections.abc import Callable

import ipywidgets as widgets

from ..boards.bit import BitBoard
from ..search.pruning import alphabeta
from ..search.monte_carlo import SQRT2, MCTSTree
from ..search.exact import solve
from ..search.observe import trace_calls
from ..search.trace import Trace, node_name
from ..game import player_name
from ..viz import as_state, draw_mcts, draw_tree, game_tree
from ..viz.mcts import check_view, mover_reward
from ..viz.style import MUTED_INK
from .parts import _button, _picture_widget, _status_html, live, picture_html
from .play import PlayWidget

VIEWS = {"maxmin": "max/min form: values for X (MAX)",  # whose view a trace's numbers are
         "negamax": "negamax form: values for the player to move"}


# ------------------------------------------------------------------------- alpha-beta trace

class TraceStepper(widgets.VBox):
    """Step through an alpha-beta search of a textbook tree (nested lists or a ``TreeNode``)
    or a position, the tree redrawn at each step.

    The drawing shows each node's alpha and beta as the search last set them, the values
    found so far, the cut-offs (a bar across each skipped edge) and the current node (ringed
    in green); the trace line of the step is shown above it. ``depth`` limits the drawing
    (the search itself is complete); ``form`` and ``fail`` are passed to ``alphabeta``:
    the default max/min form gives every number from X's point of view, the negamax form
    from the view of the player to move at each node (the picture's title says which).
    ``search``, any alpha-beta function ``search(state, alpha, beta)`` (your own), is
    stepped through instead, traced from outside from the full window, in its own form.
    """

    def __init__(self, tree_or_position, *, depth: int | None = None, form: str = "maxmin",
                 fail: str = "soft", max_nodes: int = 150,
                 search: Callable | None = None) -> None:
        self.root = as_state(tree_or_position)
        self.depth = depth
        self.graph = game_tree(self.root, depth, max_nodes=max_nodes)  # errors early
        if search is None:
            self.trace = Trace()
            self.value = alphabeta(self.root, trace=self.trace, form=form, fail=fail)
        else:
            self.value, self.trace = trace_calls(search, self.root, -math.inf, math.inf)
        self.form = self.trace.form if search is not None else form
        self.lines = self.trace.lines()
        last = len(self.lines) - 1
        self.slider = widgets.IntSlider(value=1, min=1, max=last + 1, description="Step",
                                        continuous_update=False)  # 1-based, as people count
        self.slider.add_class("ttt-trace-slider")
        self.buttons = [
            _button("Start", "go to the first step", "ttt-trace-start", icon="fast-backward"),
            _button("Back", "one step back", "ttt-trace-back", icon="step-backward"),
            _button("Next", "one step forward", "ttt-trace-next", icon="step-forward"),
            _button("End", "go to the last step", "ttt-trace-end", icon="fast-forward"),
        ]
        for button, target in zip(self.buttons, (lambda: 0, lambda: self.step - 1,
                                                 lambda: self.step + 1, lambda: last)):
            button.on_click(lambda _, target=target: self.go(target()))
        self.counter = _status_html("", "ttt-trace-step")
        self.current_line = _status_html("", "ttt-trace-line")
        self.note = _status_html("", "ttt-trace-note")
        self.listing = widgets.HTML()
        self.listing.add_class("ttt-trace-lines")
        self.picture = _picture_widget("ttt-trace-tree")
        self.slider.observe(lambda change: self._show(change["new"] - 1), names="value")
        super().__init__([widgets.HBox(self.buttons + [self.counter]), self.slider,
                          self.current_line, self.note, self.picture, self.listing])
        self.add_class("ttt-trace")
        self._show(0)

    @property
    def step(self) -> int:
        """The event shown, counted from 0 (the slider and counter count from 1)."""
        return self.slider.value - 1

    def go(self, step: int) -> str:
        """Show step ``step`` (0-based); beyond either end, say so and stay. Returns the line."""
        try:
            if not 0 <= step < len(self.lines):
                edge = "first" if step < 0 else "last"
                self.note.value = live(f"This is the {edge} step "
                                       f"({self.step + 1} of {len(self.lines)}).")
                return self.lines[self.step]
            self.slider.value = step + 1  # redraws through the observer
        except Exception as error:  # the widget must never raise into the notebook
            self.note.value = live(f"Something went wrong: {error}")
        return self.lines[self.step]

    def next(self) -> str:
        return self.go(self.step + 1)

    def back(self) -> str:
        return self.go(self.step - 1)

    def _show(self, step: int) -> None:
        picture = draw_tree(self.root, self.depth, trace=self.trace, step=step,
                            max_nodes=self.graph.number_of_nodes(), title=VIEWS[self.form])
        self.picture.value = picture_html(picture)  # drawn first: the counter changes last
        self.note.value = ""
        event = self.trace.events[step]
        self.current_line.value = (f"<pre style='margin:0'><b>{html.escape(self.lines[step])}"
                                   f"</b></pre><span>{html.escape(explain(event))}</span>")
        first = max(0, step - 7)
        shown = [html.escape(line) if i != step else f"<b>{html.escape(line)}</b>"
                 for i, line in enumerate(self.lines[first:step + 1], first)]
        self.listing.value = f"<pre style='margin:0;color:{MUTED_INK}'>" + "\n".join(shown) + "</pre>"
        self.counter.value = live(f"step {step + 1} of {len(self.lines)}")

    def __repr__(self) -> str:  # what a notebook saved without widget state shows instead
        return (f"<TraceStepper: {len(self.lines)} steps of alpha-beta from "
                f"{node_name(self.root)}, {VIEWS[self.form]}; run the notebook to step "
                f"through>")


def explain(event) -> str:
    """One sentence saying what a trace event means."""
    n = _bound_text
    return {
        "enter": lambda e: f"Enter {e.name} with the window alpha {n(e.alpha)}, "
                           f"beta {n(e.beta)}.",
        "leaf": lambda e: f"{e.name} is an end position worth {n(e.value)}.",
        "best": lambda e: f"{e.name} is now the best child of {e.parent}.",
        "improve": lambda e: f"{e.name}'s value moves {e.parent}'s {e.bound} to {n(e.value)}.",
        "loosen": lambda e: f"After {e.name}, {e.parent}'s {e.bound} moves back to "
                            f"{n(e.value)}.",
        "departure": lambda e: f"{e.note}.",
        "cutoff": _explain_cutoff,
        "exit": lambda e: f"Leave {e.name}: its value is {n(e.value)} "
                          f"(alpha {n(e.alpha)}, beta {n(e.beta)}).",
        "hit": lambda e: (f"{e.name} is answered ({n(e.value)}) without a search: its table, "
                          f"or an early return." if e.bound == "early" else
                          f"The table already knows {e.name}: {n(e.value)}."),
    }.get(event.kind, lambda e: "")(event)


def _explain_cutoff(event) -> str:
    n = _bound_text
    if event.alpha is not None and event.beta is not None and event.alpha >= event.beta:
        return (f"At {event.name} alpha {n(event.alpha)} >= beta {n(event.beta)}: the "
                f"remaining children cannot change the result, so they are pruned.")
    return f"{event.name} returns with {event.value} of its moves never searched."


def _bound_text(value) -> str:
    if value is None:
        return "?"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ------------------------------------------------------------------------------ MCTS growing

class MCTSGrower(widgets.VBox):
    """Grow an MCTS/UCT tree from ``position`` a few playouts at a time and watch the root's
    children: visits, mean result, UCB1 score, and the exact value to compare. Results are
    X's in [-1, 1] (``view="x"``) or the reward in [0, 1] of the root's player to move, who
    moves into each child (``view="mover"``)."""

    def __init__(self, position=None, seed: int = 0, *, c: float = SQRT2,
                 depth: int = 1, view: str = "x") -> None:
        state = BitBoard() if position is None else as_state(position)
        if state.is_terminal():
            raise ValueError("the game is over in this position: there is nothing to search")
        self.state, self.seed, self.c, self.depth = state, seed, c, depth
        self.view = check_view(view)
        self.exact = {move: solve(state.play(move)) for move in state.moves()}
        self.grow_buttons = []
        for count in (1, 10, 100):
            label = f"+{count} playout" + ("s" if count > 1 else "")
            button = _button(label, f"run {count} more MCTS iteration"
                             + ("s" if count > 1 else ""), f"ttt-mcts-{count}")
            button.on_click(lambda _, count=count: self.grow(count))
            self.grow_buttons.append(button)
        self.reset_button = _button("Start over", "a fresh tree with the same seed",
                                    "ttt-mcts-reset", icon="refresh")
        self.reset_button.on_click(lambda _: self.reset())
        self.total = _status_html("", "ttt-mcts-total")
        self.table = widgets.HTML()
        self.table.add_class("ttt-mcts-table")
        self.picture = _picture_widget("ttt-mcts-tree")
        super().__init__([widgets.HBox(self.grow_buttons + [self.reset_button, self.total]),
                          self.table, self.picture])
        self.add_class("ttt-mcts")
        self.reset()

    def reset(self) -> None:
        """A new tree from the same position and seed."""
        self.tree = MCTSTree(self.state, c=self.c, seed=self.seed)
        self._show()

    def grow(self, playouts: int) -> int:
        """Run ``playouts`` more iterations; returns the total so far."""
        try:
            self.tree.run(playouts)
            self._show()
        except Exception as error:  # the widget must never raise into the notebook
            self.total.value = live(f"Something went wrong: {error}")
        return self.tree.iterations

    def rows(self) -> list[dict]:
        """What the table shows: one dict per root move (``x_value`` and X's exact value, or
        in the mover view ``reward`` and the exact reward of the player to move)."""
        if self.view == "mover":
            return [{"move": row.move, "visits": row.visits, "reward": row.value,
                     "ucb": row.ucb, "exact": mover_reward(self.exact[row.move], row.node.mover)}
                    for row in self.tree.children()]
        return [{"move": row.move, "visits": row.visits, "x_value": row.x_value,
                 "ucb": row.ucb, "exact": self.exact[row.move]}
                for row in self.tree.children()]

    def _show(self) -> None:
        if self.tree.root.visits:  # drawn first, so the counter changes last
            self.picture.value = picture_html(draw_mcts(self.tree, self.depth, view=self.view))
        self.table.value = _mcts_table(self.rows(), self.state.to_move, self.view)
        best = max(self.rows(), key=lambda row: row["visits"], default=None)
        most = "" if best is None or not best["visits"] else (
            f"; most visited: move {best['move']}, {best['visits']} visits")
        self.total.value = live(f"{self.tree.iterations} playouts so far{most}")

    def __repr__(self) -> str:  # what a notebook saved without widget state shows instead
        return (f"<MCTSGrower: UCT from {self.state.to_text()}, seed {self.seed}; "
                "run the notebook to grow the tree>")


def _mcts_table(rows: list[dict], to_move: int, view: str = "x") -> str:
    if not rows:
        return "<p>No playouts yet: the root has no children to compare.</p>"
    most = max(row["visits"] for row in rows)
    mover, fmt = player_name(to_move), (_fmt if view == "x" else _fmt_reward)
    names = (("mean for X", "exact for X") if view == "x" else
             (f"mean reward for {mover}", f"exact for {mover}"))
    note = "" if view == "x" else f"; {mover} moves into each child (win 1, draw ½, loss 0)"
    head = "".join(f"<th style='padding:2px 10px'>{name}</th>" for name in
                   ("move", "visits", names[0], "UCB1", names[1]))
    body = []
    for row in rows:
        bold = " style='font-weight:bold'" if row["visits"] == most else ""
        cells = (row["move"], row["visits"], fmt(row.get("x_value", row.get("reward"))),
                 fmt(row["ucb"]), fmt(row["exact"]))
        body.append(f"<tr{bold}>" + "".join(f"<td style='padding:2px 10px'>{cell}</td>"
                                            for cell in cells) + "</tr>")
    return (f"<table style='border-collapse:collapse;text-align:right'><caption>"
            f"{mover} to move; bold: the most visited move{note}</caption><tr>{head}</tr>"
            f"{''.join(body)}"
            f"</table>")


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and math.isinf(value):
        return "∞"
    if not value:
        return "0"
    return f"{value:+.2f}" if isinstance(value, float) else f"{value:+d}"


def _fmt_reward(value) -> str:
    """A reward in [0, 1] (or a UCB1 score) unsigned; ∞ for an unvisited child."""
    return "-" if value is None else "∞" if math.isinf(value) else f"{value:.2f}"


__all__ = ["MCTSGrower", "PlayWidget", "TraceStepper", "explain"]
