"""Turning the calls seen of a search into counts (``Stats``) and trace events, as they happen.

The recorder is told each call on a state (``enter``, with the window received and the frame
that holds the function's own variables) and each return (``leave``, with the value). What
it writes down is what the calls show:

- a call is a *node* once it searches: it calls the search on a child, or its position is
  finished (a *leaf*); a call that returns on an unfinished position without searching a
  child answered without a search (a table hit, or an early return), and so did a call on a
  finished position that never reached the innermost layer every searched node reaches (a
  table in front of the search). For the library's own searches, which say which function
  is the search (``declared``), every call of it is a node, so a depth limit's evaluation is
  a leaf;
- a child's value is compared with its siblings' (the *best* child so far);
- in a trace, the node's own window variables (named by ``locate``) are read from its frame
  when a child is entered and when the node returns: a bound that changed is an *improve*
  event, and the exit line shows them as they ended (or the value alone, when they cannot be
  read);
- a child entered with a window wider than the textbook's bookkeeping gives (the parent's
  best so far not passed on) gets a *departure* line that says so;
- a node that returns with moves never searched is *cut off*: the only cut-offs counted.

Both forms (max/min: values for X; negamax: values for the player to move) are kept until the
end, and the evidence (what a finished game returns with O to move, the first child's window,
which form's best a node returned) picks one.
"""
from __future__ import annotations

import math
from fractions import Fraction
from collections.abc import Hashable

from ..game import MAX, Game, is_chance
from .locate import NO_WINDOW, Window
from .trace import Stats, TraceEvent, node_name

INF = math.inf


class Bookkeeping:
    """The textbook's bookkeeping at one node in one form, from the values its children
    returned: best so far (and which child gave it), and the window it would pass on."""

    __slots__ = ("alpha", "beta", "best", "best_child", "up", "negamax", "chance")

    def __init__(self, state: Game, alpha, beta, negamax: bool) -> None:
        self.chance = is_chance(state)
        self.negamax, self.alpha, self.beta, self.best_child = negamax, alpha, beta, None
        self.up = negamax or state.to_move == MAX  # this node takes the largest value
        self.best = 0 if self.chance else (-INF if self.up else INF)

    def child(self, state: Game, value) -> bool:
        """Take a child's (``state``'s) returned ``value``: whether it is the best so far."""
        if self.chance or value is None:
            return False
        value = -value if self.negamax else value
        better = (value > self.best) if self.up else (value < self.best)
        if better:
            self.best, self.best_child = value, state  # named only if a line says so
        if self.alpha is not None and self.up:
            self.alpha = max(self.alpha, self.best)
        elif self.alpha is not None:
            self.beta = min(self.beta, self.best)
        return better

    def wider(self, alpha, beta) -> list[tuple[str, object, object]]:
        """The sides on which a child's window (in the child's view) is wider than the one the
        textbook passes on: (side, the bound passed, the textbook's), in this node's view."""
        if self.chance or self.alpha is None or alpha is None:
            return []
        low, high = (-beta, -alpha) if self.negamax else (alpha, beta)
        return ([("alpha", low, self.alpha)] if low < self.alpha else []) + \
            ([("beta", high, self.beta)] if high > self.beta else [])


class Call:
    """One call on a state as the recorder sees it: window received, path, what happened."""

    __slots__ = ("state", "alpha", "beta", "path", "searched", "children", "pending",
                 "books", "moves", "frame", "window", "known", "last_child", "final", "layers",
                 "_name")

    def __init__(self, state: Game, alpha, beta, path: tuple | None) -> None:
        self.state, self.alpha, self.beta, self.path = state, alpha, beta, path
        self.searched, self.children, self.pending = False, 0, None
        self.books: list[Bookkeeping] | None = None  # made at the first child, for each form
        self.moves: dict | None = None  # key of each child -> the move to it (for paths)
        self.frame, self.window, self.final = None, NO_WINDOW, None
        self.known, self.last_child, self.layers = (alpha, beta), None, 1
        self._name: str | None = None

    def name(self) -> str:
        """The node's name in the trace (worked out once: a board's name is its text)."""
        if self._name is None:
            self._name = node_name(self.state)
        return self._name

    def forms(self) -> list[Bookkeeping]:
        if self.books is None:
            self.books = [Bookkeeping(self.state, self.alpha, self.beta, negamax)
                          for negamax in (False, True)]
        return self.books

    def variables(self) -> tuple:
        """The node's own window variables now, or (None, None) if they cannot be read."""
        if self.frame is None:
            return None, None
        return self.window.read(self.frame.f_locals)


class Recorder:
    """The calls on a stack of ``Call``s; counts in ``counts``, events kept in both forms.

    ``declared``: True when the watched node functions are known to be the search (the
    library's ``observed``): every call of one is a node. Otherwise a call is a node once it
    searches (a child call, or a finished position)."""

    def __init__(self, keep: bool, counts: Stats | None = None, declared: bool = False) -> None:
        self.keep, self.declared, self.stack = keep, declared, []
        self.counts = Stats() if counts is None else counts
        self.events: list[list[TraceEvent]] = [[], []]  # max/min form, negamax form
        self.votes = [0, 0]         # evidence for each form
        self.layers = 1             # the most nested calls on one state that searched it
        # counts alone of the library's own search: no trace, and its form is known, so
        # neither windows nor the textbook's bookkeeping are needed
        self.counts_only = declared and not keep

    def form(self) -> int:
        """0 for max/min, 1 for negamax: the form the evidence favours (max/min if none)."""
        return int(self.votes[1] > self.votes[0])

    def evidence(self) -> bool:
        """Whether anything was seen that tells the two forms apart."""
        return self.votes[0] != self.votes[1]

    # ---------------------------------------------------------------------------- entering
    def enter(self, state: Game, alpha, beta, is_node: bool, frame=None,
              window: Window = NO_WINDOW) -> None:
        stack = self.stack
        parent = stack[-1] if stack else None
        if parent is not None and parent.state is state:  # a wrapper's inner layer
            stack.append(parent)
            parent.layers += 1
            if frame is not None and window.names:
                parent.frame, parent.window = frame, window
            if is_node and self.declared and not parent.searched:
                self.search(parent)
            return
        call = Call(state, alpha, beta, self.path_to(parent, state) if self.keep else None)
        if window.names:
            call.frame, call.window = frame, window
        if parent is not None:
            self.new_child(parent, call)
        stack.append(call)
        if is_node and self.declared:
            self.search(call)

    def new_child(self, parent: Call, call: Call) -> None:
        """``call`` starts under ``parent``: settle the previous child, read the parent's
        window, and say where the window passed on departs from the textbook."""
        if not parent.searched:
            self.search(parent)
        if parent.layers > self.layers:
            self.layers = parent.layers
        if not self.settle_pending(parent, call.state):
            return  # a re-search of the same child
        if self.keep:
            self.read_variables(parent)
        if call.alpha is not None and parent.children == 1:
            self.vote_window(parent, call)
        if self.keep and parent.alpha is not None:
            for form, books in enumerate(parent.forms()):
                for side, passed, textbook in books.wider(call.alpha, call.beta):
                    self.depart(form, parent, call, books, (side, passed, textbook))

    def search(self, call: Call) -> None:
        call.searched = True
        self.counts.nodes += 1
        if self.keep:
            for form in (0, 1):
                best = Bookkeeping(call.state, call.alpha, call.beta, bool(form)).best
                self.record(form, "enter", call, alpha=call.alpha, beta=call.beta, value=best)

    def settle_pending(self, parent: Call, state: Game) -> bool:
        """A new child call: the previous child's value counts now, unless this call searches
        the same child again (a re-search: False)."""
        pending, parent.pending = parent.pending, None
        if pending is not None and pending[0] is state:
            self.counts.researches += 1
            return False
        parent.children += 1
        if pending is not None:
            self.child_value(parent, *pending)
        return True

    # ------------------------------------------------- counting alone: the quick route
    # What ``enter`` and ``leave`` do for a call that receives no window while nothing is
    # kept (no trace): the same counts and form votes, without the steps that only serve a
    # trace or a window (about half the observer's cost per call, most of it when counting).
    def enter_quick(self, state: Game, is_node: bool) -> None:
        """``enter(state, None, None, is_node)`` when nothing is kept."""
        stack, counts = self.stack, self.counts
        if not stack:
            call = Call(state, None, None, None)
        else:
            parent = stack[-1]
            if parent.state is state:  # a wrapper's inner layer
                stack.append(parent)
                parent.layers += 1
                if is_node and self.declared and not parent.searched:
                    parent.searched = True
                    counts.nodes += 1
                return
            call = Call(state, None, None, None)
            if not parent.searched:
                parent.searched = True
                counts.nodes += 1
            if parent.layers > self.layers:
                self.layers = parent.layers
            pending, parent.pending = parent.pending, None
            if pending is not None and pending[0] is state:
                counts.researches += 1  # the same child searched again
            else:
                parent.children += 1
                if pending is not None and parent.alpha is not None and not self.counts_only:
                    self.child_value(parent, *pending)  # (a window-less node has no books)
        stack.append(call)
        if is_node and self.declared:
            call.searched = True
            counts.nodes += 1

    def leave_quick(self, value) -> None:
        """``leave(value)`` when nothing is kept, for a call entered by ``enter_quick``."""
        stack, counts = self.stack, self.counts
        call = stack.pop()
        if stack and stack[-1] is call:
            return  # an inner layer
        if call.pending is not None and call.alpha is not None and not self.counts_only:
            self.child_value(call, *call.pending)
        state = call.state
        if (not (call.searched or self.declared) and call.layers >= self.layers
                and state.is_terminal()):
            call.searched = True
            counts.nodes += 1
        if not call.searched:
            counts.table_hits += 1
        elif call.children == 0:
            counts.leaves += 1
            if not self.counts_only and state.to_move != MAX:
                self.vote_leaf(state, value)
        else:
            total = len(state.outcomes()) if is_chance(state) else len(state.moves())
            counts.cutoffs += total > call.children
        if stack:
            stack[-1].pending = (state, call, value)

    # ----------------------------------------------------------------------------- leaving
    def leave(self, value, frame=None) -> None:
        call = self.stack.pop()
        stack = self.stack
        if frame is not None and frame is call.frame:
            call.final = call.variables()  # the node's variables as it returns
        if stack and stack[-1] is call:
            return  # an inner layer: the outermost return is what the parent sees
        if call.pending is not None:
            self.child_value(call, *call.pending)
        if (not (call.searched or self.declared) and call.layers >= self.layers
                and call.state.is_terminal()):
            self.search(call)  # a finished position, looked at as the search looks (not
            # answered by an outer layer, a table, before reaching the search itself)
        if not call.searched:
            self.hit(call, value)
        elif call.children == 0:
            self.leaf(call, value)
        else:
            self.exit(call, value)
        if stack:
            stack[-1].pending = (call.state, call, value)

    def hit(self, call: Call, value) -> None:
        self.counts.table_hits += 1
        if self.keep:
            for form in (0, 1):
                self.record(form, "hit", call, value=value, bound=None if self.declared
                            else "early")

    def leaf(self, call: Call, value) -> None:
        self.counts.leaves += 1
        if call.state.to_move != MAX and not self.counts_only:
            self.vote_leaf(call.state, value)
        if self.keep:
            for form in (0, 1):
                self.record(form, "leaf", call, value=value)

    def exit(self, call: Call, value) -> None:
        final = call.final if call.final is not None else call.variables()
        if self.keep:
            self.read_variables(call, final)
        left = self.moves_left(call)
        self.counts.cutoffs += left > 0
        if self.keep or (call.alpha is not None and not self.counts_only):
            books = call.forms()
            self.votes[0] += books[0].best == value  # which form's best did it return?
            self.votes[1] += books[1].best == value
        if not self.keep:
            return
        for form in (0, 1):
            if left:
                self.record(form, "cutoff", call, alpha=final[0], beta=final[1], value=left,
                            below=1, bound="outcome" if is_chance(call.state) else "move")
            self.record(form, "exit", call, alpha=final[0], beta=final[1], value=value)

    def moves_left(self, call: Call) -> int:
        """How many of the node's moves (or outcomes) it never searched."""
        state = call.state
        total = len(state.outcomes()) if is_chance(state) else len(state.moves())
        return max(total - call.children, 0)

    def child_value(self, parent: Call, state: Game, child: Call, value) -> None:
        parent.last_child = child
        if not self.keep and (parent.alpha is None or self.counts_only):
            return
        for form, books in enumerate(parent.forms()):
            if books.child(child.state, value) and self.keep:
                self.record(form, "best", child, value=books.best,
                            parent=parent.name())

    def read_variables(self, call: Call, now: tuple | None = None) -> None:
        """Compare the node's window variables with what was last seen of them: each bound
        that moved is an event about the child that returned last."""
        now = call.variables() if now is None else now
        if now[0] is None or call.last_child is None:
            return
        for side, before, after in zip(("alpha", "beta"), call.known, now):
            if after != before:
                tighter = (after > before) if side == "alpha" else (after < before)
                for form in (0, 1):
                    self.record(form, "improve" if tighter else "loosen", call.last_child,
                                value=after, bound=side, parent=call.name())
        call.known = now

    def depart(self, form: int, parent: Call, call: Call, books: Bookkeeping,
               side: tuple) -> None:
        """A line saying that ``call`` is searched with a wider window than the textbook's."""
        bound, passed, textbook = side
        name, child, n = parent.name(), call.name(), number
        held = parent.known[0 if bound == "alpha" else 1]
        raised = books.best_child is not None and (
            held is None or (held < textbook if bound == "alpha" else held > textbook))
        verb = "raises" if bound == "alpha" else "lowers"
        if raised:
            note = (f"{child} is searched with {name}'s {bound} still {n(passed)}, but {name} "
                    f"already has {n(books.best)} from {node_name(books.best_child)}: the textbook "
                    f"{verb} {bound}( {name} ) to {n(textbook)} before searching {child}")
        else:
            note = (f"{child} is searched with {name}'s {bound} as {n(passed)}, but {name}'s "
                    f"{bound} is {n(textbook)}: the window is not passed on to {child}")
        self.record(form, "departure", call, parent=name, bound=bound, value=textbook,
                    note=note)

    # ---------------------------------------------------------------------- the evidence
    def record(self, form: int, kind: str, call: Call, below: int = 0, **fields) -> None:
        state = call.state
        self.events[form].append(TraceEvent(kind, len(call.path) + below, call.name(),
                                            state.key(), path=call.path, **fields))

    def vote_leaf(self, state: Game, value) -> None:
        """A finished game with O to move: X's utility (max/min) or O's (negamax)?"""
        if value is not None and state.is_terminal() and state.to_move != MAX:
            utility = state.utility()
            if utility != 0:
                self.votes[0] += value == utility
                self.votes[1] += value == -utility

    def vote_window(self, parent: Call, child: Call) -> None:
        """The first child's window: the parent's own (max/min) or negated (negamax)."""
        if parent.alpha is None or parent.alpha == -parent.beta:
            return
        self.votes[0] += (child.alpha, child.beta) == (parent.alpha, parent.beta)
        self.votes[1] += (child.alpha, child.beta) == (-parent.beta, -parent.alpha)

    def path_to(self, parent: Call | None, state: Game) -> tuple:
        """The moves from the root to ``state`` (at a chance node, the outcome's index)."""
        if parent is None:
            return ()
        if parent.moves is None:
            parent.moves = child_keys(parent.state)
        return parent.path + (parent.moves.get(state.key(), "?"),)


def number(value) -> str:
    """A bound or value in a sentence: infinity as 999, as the slides print it."""
    if value is None:
        return "?"
    if math.isinf(value):
        value = math.copysign(999, value)
    if float(value).is_integer():
        return str(int(value))
    return str(value) if isinstance(value, Fraction) else f"{value:g}"  # exact: 21/5


def child_keys(state: Game) -> dict[Hashable, object]:
    """The key of each child of ``state`` -> the move (or outcome index) that reaches it."""
    if state.is_terminal():
        return {}
    if is_chance(state):
        return {child.key(): i for i, (_, child) in enumerate(state.outcomes())}
    return {state.play(move).key(): move for move in reversed(state.moves())}
