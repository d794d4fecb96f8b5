"""Watching a search from outside: ``trace_calls`` and ``count_nodes``.

A search is a plain recursive function; nothing in it reports anything. To see what it does,
run it under Python's own tracing (``sys.settrace``, which Pyodide has too) and record each
call of the function on a game state:

- a call is a node *entered*, with the window it received (the two numbers after the state,
  when there are any);
- a call that makes no further call is a *leaf* (a finished game, or the depth limit);
- a return is the node's *exit*, with the value returned;
- in between, each child's value is replayed through the textbook's bookkeeping (best so
  far, alpha, beta), which gives the *best* and *improve* events; a node whose window closes,
  or that returns with moves left unvisited, was *cut off*.

Max/min form (values for X) or negamax form (values for the player to move) is told from the
calls themselves: what a finished game returns when O is to move, and the window passed to
the first child. The same works for the library's searches and for a student's, whatever
the parameters are called; ``compare_traces`` names the first line where two traces differ.

A speed-up that wraps the search (a transposition table) is observed as a *wrapper*: a call
of it that never reaches the search is a table hit. A child searched twice in a row by the
same parent (principal variation search) is a re-search.
"""
from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable, Hashable, Iterable
from types import CodeType

from ..checks import check_arguments, plain
from ..game import MAX, Game, is_chance
from .trace import Stats, Trace, TraceEvent, node_name

INF = math.inf
FORMS = ("maxmin", "negamax")


def trace_calls(fn: Callable, state: Game, *args, **kwargs) -> tuple[object, Trace]:
    """Run ``fn(state, *args, **kwargs)`` and record every call of ``fn`` on a state:
    ``(value, trace)``; ``str(trace)`` is the slides' printed trace."""
    return observe(None, [fn], trace=Trace(), call=(fn, state, args, kwargs))[::2]


def count_nodes(fn: Callable, state: Game, *args, **kwargs) -> tuple[object, Stats]:
    """Run ``fn(state, *args, **kwargs)`` and count its work: ``(value, stats)``."""
    return observe(None, [fn], call=(fn, state, args, kwargs))[:2]


def observe(run: Callable[[], object] | None, nodes: Iterable, wrappers: Iterable = (),
            stats: Stats | None = None, trace: Trace | None = None,
            call: tuple | None = None) -> tuple:
    """Call ``run()`` watching the functions ``nodes`` (each call on a state is a node) and
    ``wrappers`` (a call that reaches no node is a table hit): ``(value, stats, trace)``.

    The counts are added to ``stats`` (a fresh ``Stats`` if None), the events to ``trace``
    (if given); all but the cut-offs as the search goes. The library's ``stats=``/``trace=``
    keywords come here. ``call``, instead of
    ``run``, is ``(fn, state, args, kwargs)``: the first call, recorded as it is made.
    """
    nodes, wrappers = [plain(fn) for fn in nodes], [plain(fn) for fn in wrappers]
    stats = Stats() if stats is None else stats
    recorder = Recorder(code_of(nodes), code_of(nodes + wrappers), keep=trace is not None,
                        counts=stats)
    if call is not None:
        fn, state, args, kwargs = call
        if not is_state(state):
            raise TypeError(f"the search is run on a game state, not {type(state).__name__}")
        check_arguments(fn, state, *args, **kwargs)  # a checked entry point's own checks
        run = lambda: recorder.wrap(plain(fn))(state, *args, **kwargs)
    value = recorded_run(recorder, run, nodes + wrappers)
    form = recorder.form()
    stats.cutoffs += recorder.cutoffs[form]
    if trace is not None:
        trace.events.extend(recorder.events[form])
        trace.form = FORMS[form]
    return value, stats, trace


def observed(run: Callable[[], object], nodes: Iterable, wrappers: Iterable = (),
             stats: Stats | None = None, trace: Trace | None = None):
    """``run()``'s value, observed as ``observe`` does when ``stats`` or ``trace`` is given,
    else simply run: what the public entry points' ``stats=``/``trace=`` keywords call."""
    if stats is None and trace is None:
        return run()
    return observe(run, nodes, wrappers, stats, trace)[0]


def recorded_run(recorder: "Recorder", run: Callable[[], object], functions: list):
    """``run()`` with every call of ``functions`` going through ``recorder``: by replacing
    the names they are called by (a module's global, an object's method) with recording
    wrappers, or, where a function cannot be reached that way, with ``sys.settrace``."""
    patches = [patch_points(fn) for fn in functions]
    if all(patches):
        undo = []
        try:
            for points in patches:
                for namespace, name, fn in points:
                    undo.append((namespace, name, namespace.get(name, MISSING)))
                    namespace[name] = recorder.wrap(fn)
            return run()
        finally:
            for namespace, name, old in reversed(undo):
                if old is MISSING:
                    del namespace[name]
                else:
                    namespace[name] = old
    previous = sys.gettrace()
    sys.settrace(recorder.global_trace)
    try:
        return run()
    finally:
        sys.settrace(previous)


MISSING = object()


def patch_points(fn) -> list[tuple[dict, str, Callable]]:
    """Where calls of ``fn`` are looked up: (namespace, name, function to call) triples, or
    [] if some call could bypass them (a nested function, a method taken from its class)."""
    owner = getattr(fn, "__self__", None)
    if owner is not None and hasattr(owner, "__dict__") and hasattr(fn, "__func__"):
        names = [name for name, value in vars(owner).items()
                 if getattr(value, "__func__", None) is fn.__func__
                 and getattr(value, "__self__", None) is owner]
        return [(vars(owner), name, fn) for name in [fn.__name__] + names]
    code = getattr(fn, "__code__", None)
    if (code is None or code.co_freevars or "<locals>" in fn.__qualname__
            or "." in fn.__qualname__ or fn.__globals__.get(fn.__name__) is not fn):
        return []
    return [(fn.__globals__, fn.__name__, fn)]


def code_of(functions: Iterable) -> frozenset[CodeType]:
    """The code objects of functions, bound methods or code objects."""
    codes = set()
    for fn in functions:
        fn = getattr(fn, "__func__", fn)
        code = fn if isinstance(fn, CodeType) else getattr(fn, "__code__", None)
        if code is None:
            raise TypeError(f"cannot watch {fn!r}: it is not a Python function")
        codes.add(code)
    return frozenset(codes)


def state_and_window(frame) -> tuple:
    """The first argument of a call that is a game state, and the two numbers after it."""
    code, values = frame.f_code, frame.f_locals
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    args = [values.get(name) for name in names]
    for i, arg in enumerate(args):
        if is_state(arg):
            return split_window(arg, args[i + 1:i + 3])
    return None, None, None


def split_window(state: Game, window: list) -> tuple:
    if len(window) == 2 and is_number(window[0]) and is_number(window[1]):
        return state, window[0], window[1]
    return state, None, None


def window_defaults(fn) -> list[tuple[str, object]]:
    """The names and default values of the two parameters after ``fn``'s state (None where
    there is no default), for calls that leave them out."""
    func = getattr(fn, "__func__", fn)
    code, skip = func.__code__, 1 if hasattr(fn, "__self__") else 0
    names = code.co_varnames[skip:code.co_argcount][1:3]
    defaults = dict(zip(code.co_varnames[:code.co_argcount][::-1],
                        (func.__defaults__ or ())[::-1]))
    return [(name, defaults.get(name)) for name in names]


def is_state(x) -> bool:
    return hasattr(x, "play") and hasattr(x, "is_terminal")


def is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


class Window:
    """The textbook's bookkeeping at one node, in one form: best so far, alpha and beta."""

    __slots__ = ("alpha", "beta", "best", "up", "negamax", "chance", "cut")

    def __init__(self, state: Game, alpha, beta, negamax: bool) -> None:
        self.chance = is_chance(state)
        self.negamax, self.alpha, self.beta, self.cut = negamax, alpha, beta, False
        self.up = negamax or state.to_move == MAX  # this node takes the largest value
        self.best = 0 if self.chance else (-INF if self.up else INF)

    def child(self, value) -> list[tuple]:
        """The events a child's returned ``value`` causes here: (kind, bound, value)."""
        if self.chance or value is None:
            return []
        value = -value if self.negamax else value
        events = []
        if (value > self.best) if self.up else (value < self.best):
            self.best = value
            events.append(("best", None, value))
        if self.alpha is None:
            return events
        if self.up and self.best > self.alpha:
            self.alpha = self.best
            events.append(("improve", "alpha", self.alpha))
        if not self.up and self.best < self.beta:
            self.beta = self.best
            events.append(("improve", "beta", self.beta))
        if self.alpha >= self.beta and not self.cut:
            self.cut = True
            events.append(("cutoff", None, None))
        return events


class Call:
    """One node as the recorder sees it: its state, window, path and what happened so far."""

    __slots__ = ("state", "alpha", "beta", "path", "searched", "children", "pending",
                 "windows", "moves")

    def __init__(self, state: Game, alpha, beta, path: tuple | None) -> None:
        self.state, self.alpha, self.beta, self.path = state, alpha, beta, path
        self.searched, self.children, self.pending = False, 0, None
        self.windows: list[Window] | None = None  # made at the first child, for each form
        self.moves: dict | None = None  # key of each child -> the move to it (for paths)

    def forms(self) -> list[Window]:
        if self.windows is None:
            self.windows = [Window(self.state, self.alpha, self.beta, negamax)
                            for negamax in (False, True)]
        return self.windows


class Recorder:
    """The hooks: one ``Call`` per node on a stack; counts and events kept in both forms."""

    def __init__(self, nodes: frozenset, watched: frozenset, keep: bool,
                 counts: Stats | None = None) -> None:
        self.nodes, self.watched = nodes, watched
        self.keep, self.stack = keep, []
        self.counts = Stats() if counts is None else counts  # what both forms agree on
        self.cutoffs = [0, 0]       # max/min form, negamax form
        self.events: list[list[TraceEvent]] = [[], []]
        self.votes = [0, 0]         # evidence for each form
        self.windowed = False       # some call received a window

    def form(self) -> int:
        """0 for max/min, 1 for negamax: the form the evidence favours (max/min if none)."""
        return int(self.votes[1] > self.votes[0])

    # ------------------------------------------------------------------------ the hooks
    def global_trace(self, frame, event, arg):
        if event != "call" or frame.f_code not in self.watched:
            return None
        state, alpha, beta = state_and_window(frame)
        if state is None:
            return None
        self.enter(state, alpha, beta, frame.f_code in self.nodes)
        frame.f_trace_lines = False
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "return":
            self.leave(arg)
        return self.local_trace

    def wrap(self, fn: Callable) -> Callable:
        """``fn`` recording its calls on states (the patched route)."""
        is_node = bool(code_of([fn]) & self.nodes)
        enter, leave, defaults = self.enter, self.leave, window_defaults(fn)

        def recorded(*args, **kwargs):
            if not args or not is_state(args[0]):
                return fn(*args, **kwargs)
            window = args[1:3]
            if len(window) < 2:
                window = [*window, *(kwargs.get(name, default) for name, default
                                     in defaults[len(window):])]
            state, alpha, beta = split_window(args[0], window)
            enter(state, alpha, beta, is_node)
            value = None
            try:
                value = fn(*args, **kwargs)
            finally:
                leave(value)
            return value

        return recorded

    # ---------------------------------------------------------------------------- entering
    def enter(self, state: Game, alpha, beta, is_node: bool) -> None:
        stack = self.stack
        parent = stack[-1] if stack else None
        if parent is not None and parent.state is state:  # a wrapper's inner layer
            stack.append(parent)
            if is_node and not parent.searched:
                self.search(parent)
            return
        if parent is not None:
            self.settle_pending(parent, state)
        call = Call(state, alpha, beta, self.path_to(parent, state) if self.keep else None)
        if alpha is not None:
            self.windowed = True
            if parent is not None and parent.children == 1:
                self.vote_window(parent, call)
        stack.append(call)
        if is_node:
            self.search(call)

    def search(self, call: Call) -> None:
        call.searched = True
        self.counts.nodes += 1
        if self.keep:
            for form in (0, 1):
                best = Window(call.state, call.alpha, call.beta, bool(form)).best
                self.record(form, "enter", call, alpha=call.alpha, beta=call.beta, value=best)

    def settle_pending(self, parent: Call, state: Game) -> None:
        """A new child call: the previous child's value counts now, unless this call searches
        the same child again (a re-search)."""
        pending, parent.pending = parent.pending, None
        if pending is not None and pending[0] is state:
            self.counts.researches += 1
            return
        parent.children += 1
        if pending is not None:
            self.child_value(parent, *pending)

    # ----------------------------------------------------------------------------- leaving
    def leave(self, value) -> None:
        call = self.stack.pop()
        stack = self.stack
        if stack and stack[-1] is call:
            return  # an inner layer: the outermost return is what the parent sees
        if call.pending is not None:
            self.child_value(call, *call.pending)
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
                self.record(form, "hit", call, value=value)

    def leaf(self, call: Call, value) -> None:
        self.counts.leaves += 1
        if self.keep or self.windowed:
            self.vote_leaf(call.state, value)
        if self.keep:
            for form in (0, 1):
                self.record(form, "leaf", call, value=value)

    def exit(self, call: Call, value) -> None:
        left = self.moves_left(call) or self.failed_chance(call, value)
        if call.alpha is None and not self.keep:  # no window: only unvisited moves cut
            self.cutoffs[0] += left
            self.cutoffs[1] += left
            return
        windows = call.forms()
        self.votes[0] += windows[0].best == value  # which form's best is what it returned?
        self.votes[1] += windows[1].best == value
        for form, window in enumerate(windows):
            if left and not window.cut:
                window.cut = True
                self.cutoff(form, call, window)
            if self.keep:
                self.record(form, "exit", call, alpha=window.alpha, beta=window.beta,
                            value=value)

    def failed_chance(self, call: Call, value) -> bool:
        """A chance node that returns a bound outside its window (Star1's cut-off)."""
        return (call.alpha is not None and value is not None and is_chance(call.state)
                and not call.alpha < value < call.beta)

    def moves_left(self, call: Call) -> bool:
        """Whether the node returned with some of its moves (or outcomes) never searched."""
        state = call.state
        total = len(state.outcomes()) if is_chance(state) else len(state.moves())
        return call.children < total

    def child_value(self, parent: Call, state: Game, child: Call, value) -> None:
        if parent.alpha is None and not self.keep:
            return
        for form, window in enumerate(parent.forms()):
            for kind, bound, number in window.child(value):
                if kind == "cutoff":
                    self.cutoff(form, parent, window)
                elif self.keep:
                    self.record(form, kind, child, value=number, bound=bound,
                                parent=node_name(parent.state))

    def cutoff(self, form: int, call: Call, window: Window) -> None:
        self.cutoffs[form] += 1
        if self.keep:
            self.record(form, "cutoff", call, alpha=window.alpha, beta=window.beta, below=1)

    # ---------------------------------------------------------------------- the evidence
    def record(self, form: int, kind: str, call: Call, below: int = 0, **fields) -> None:
        state = call.state
        self.events[form].append(TraceEvent(kind, len(call.path) + below, node_name(state),
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


def child_keys(state: Game) -> dict[Hashable, object]:
    """The key of each child of ``state`` -> the move (or outcome index) that reaches it."""
    if state.is_terminal():
        return {}
    if is_chance(state):
        return {child.key(): i for i, (_, child) in enumerate(state.outcomes())}
    return {state.play(move).key(): move for move in reversed(state.moves())}
