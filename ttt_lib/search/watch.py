"""How a search's calls are caught while it runs, without changing a line of it.

Two routes, both available in Pyodide:

- *patching*: the names the search calls itself by (a module's global, an object's method)
  are replaced by recording wrappers and put back afterwards. Fast, and enough to count;
- *tracing*: ``sys.settrace`` sees every call and return, and gives each call's frame, so a
  search's own variables (its alpha and beta) can be read as they change. Used for traces,
  and wherever patching cannot reach (nested functions, methods called through the class).

Tracing can also *discover* the search behind a driver (``solve(s)`` calling an inner
function, a lambda, a checked entry point, ``max_value``/``min_value`` calling each other): a
function called on a state while another call of the same function on a different state is
still running is a recursive search, and so is every call between those two.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from types import CodeType

from .locate import NO_WINDOW, Window, by_names, find_window, frame_state, is_state
from .record import Recorder

MISSING = object()


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


def calls_itself(fn: Callable) -> bool:
    """Whether ``fn``'s code refers to its own name (a global, a closure or an attribute such
    as ``self.search``): a recursive search, as opposed to a driver that calls one."""
    func = getattr(fn, "__func__", fn)
    code = getattr(func, "__code__", None)
    name = getattr(func, "__name__", None)
    return code is not None and any(name in inner.co_names + inner.co_freevars
                                    for inner in nested_codes(code))


def nested_codes(code: CodeType) -> list[CodeType]:
    """``code`` and the code of every comprehension, lambda or function written inside it."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found += nested_codes(const)
    return found


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


class Watcher:
    """Feeds a ``Recorder`` the calls of the watched functions, by either route.

    ``nodes``/``wrappers``: the functions watched from the start (a wrapper's call that never
    reaches a node is a table hit); ``windows``: how each code receives its window;
    ``discover``: also find recursive functions among everything the run calls;
    ``window``: the caller's ``window=`` for discovered functions."""

    quick = True  # counting alone takes the recorder's quick route (tests compare the two)

    def __init__(self, recorder: Recorder, nodes: list, wrappers: list,
                 windows: dict | None = None, discover: bool = False, window=None) -> None:
        self.recorder, self.discover, self.explicit = recorder, discover, window
        self.nodes, self.watched = set(code_of(nodes)), set(code_of(nodes + wrappers))
        self.windows = dict(windows or {})
        for fn in nodes + wrappers:
            code = code_of([fn]).__iter__().__next__()
            self.windows.setdefault(code, by_names(fn) or NO_WINDOW)
        self.patching = False
        self.shadow: list[list] = []   # tracing: [code, state, frame, recorded] per call
        self.ignored: set[CodeType] = set()

    def run(self, run: Callable[[], object], functions: list, patch: bool):
        """``run()`` with the watched calls recorded: patched if ``patch`` and every function
        can be patched, else traced."""
        patches = [patch_points(fn) for fn in functions] if patch and not self.discover else []
        self.patching = bool(patches) and all(patches)
        if self.patching:
            return self.patched(run, patches)
        previous = sys.gettrace()
        sys.settrace(self.global_trace)
        try:
            return run()
        finally:
            sys.settrace(previous)

    def patched(self, run: Callable[[], object], patches: list):
        undo = []
        try:
            for points in patches:
                for namespace, name, fn in points:
                    undo.append((namespace, name, namespace.get(name, MISSING)))
                    namespace[name] = self.wrap(fn)
            return run()
        finally:
            for namespace, name, old in reversed(undo):
                if old is MISSING:
                    del namespace[name]
                else:
                    namespace[name] = old

    def around(self, fn: Callable, window: Window, values: dict, state, args: tuple,
               kwargs: dict):
        """``fn(state, *args, **kwargs)``, its own call recorded when patching (the calls it
        makes go through the patched names; this one does not)."""
        if not self.patching:
            return fn(state, *args, **kwargs)
        self.recorder.enter(state, *window.read(values), True)
        value = None
        try:
            value = fn(state, *args, **kwargs)
        finally:
            self.recorder.leave(value)
        return value

    def found(self) -> bool:
        """Whether any search was watched (discovered, when discovering)."""
        return bool(self.watched)

    def wrap(self, fn: Callable) -> Callable:
        """``fn`` recording its calls on states (the patched route)."""
        code = next(iter(code_of([fn])))
        is_node, window, recorder = code in self.nodes, self.windows[code], self.recorder
        if recorder.counts_only:
            window = NO_WINDOW  # counting the library's own search needs no window
        names, defaults = argument_names(fn)
        if self.quick and not window.names and not recorder.keep:
            return self.counted(fn, is_node)

        def recorded(*args, **kwargs):
            if not args or not is_state(args[0]):
                return fn(*args, **kwargs)
            alpha = beta = None
            if window.names:
                values = {**defaults, **dict(zip(names, args)), **kwargs}
                alpha, beta = window.read(values)
            recorder.enter(args[0], alpha, beta, is_node)
            value = None
            try:
                value = fn(*args, **kwargs)
            finally:
                recorder.leave(value)
            return value

        return recorded

    def counted(self, fn: Callable, is_node: bool) -> Callable:
        """``fn`` counting its calls on states, when it receives no window and no trace is
        kept (the recorder's quick route)."""
        enter, leave = self.recorder.enter_quick, self.recorder.leave_quick

        def recorded(*args, **kwargs):
            if not args or not is_state(args[0]):
                return fn(*args, **kwargs)
            enter(args[0], is_node)
            value = None
            try:
                value = fn(*args, **kwargs)
            finally:
                leave(value)
            return value

        return recorded

    # ---------------------------------------------------------------------- the traced route
    def global_trace(self, frame, event, arg):
        code = frame.f_code
        if event != "call" or code in self.ignored:
            return None
        if code not in self.watched:
            return self.candidate(frame) if self.discover else None
        state = frame_state(frame)
        if state is None:
            return None
        self.shadow.append([code, state, frame, True])
        self.enter(frame, state)
        frame.f_trace_lines = False
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "return":
            code, state, seen, recorded = self.shadow.pop()
            if recorded:
                self.recorder.leave(arg, frame if self.recorder.keep else None)
        return self.local_trace

    def enter(self, frame, state) -> None:
        if self.recorder.counts_only:
            return self.recorder.enter(state, None, None, frame.f_code in self.nodes)
        code = frame.f_code
        window = self.windows.get(code)
        if window is None:
            window = self.windows[code] = self.window_of(frame)
        alpha, beta = window.read(frame.f_locals)
        self.recorder.enter(state, alpha, beta, code in self.nodes,
                            frame if self.recorder.keep else None, window)

    def candidate(self, frame):
        """A call of a function not (yet) known as a search: followed while it runs, and
        promoted to a search if the same function is called again on another state."""
        state = frame_state(frame)
        if state is None:
            self.ignored.add(frame.f_code)
            return None
        code = frame.f_code
        first = next((i for i, (c, s, _, _) in enumerate(self.shadow)
                      if c is code and s is not state), None)
        if first is not None:
            self.promote(first)
            self.shadow.append([code, state, frame, True])
            self.enter(frame, state)
        else:
            self.shadow.append([code, state, frame, False])
        frame.f_trace_lines = False
        return self.local_trace

    def promote(self, first: int) -> None:
        """The calls from ``shadow[first]`` down are a recursive search: watch their
        functions from now on, and enter the calls still running, outermost first."""
        for entry in self.shadow[first:]:
            code, state, frame, recorded = entry
            self.watched.add(code)
            if not recorded:
                entry[3] = True
                self.enter(frame, state)

    def window_of(self, frame) -> Window:
        """How a discovered function receives its window (``window=`` if it names its
        parameters, else their names, else the values of this call)."""
        code = frame.f_code
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        explicit = self.explicit
        wanted = (explicit,) if isinstance(explicit, str) else explicit
        if wanted is not None and not set(wanted) <= set(names):
            explicit = None
        values = {name: frame.f_locals.get(name) for name in names}
        return find_window(code, values, explicit)


def argument_names(fn: Callable) -> tuple[list[str], dict]:
    """The names ``fn``'s positional arguments bind to, and its defaults by name."""
    func = getattr(fn, "__func__", fn)
    code = func.__code__
    names = list(code.co_varnames[:code.co_argcount])
    defaults = dict(zip(names[::-1], (func.__defaults__ or ())[::-1]))
    defaults.update(func.__kwdefaults__ or {})
    return (names[1:] if hasattr(fn, "__self__") else names), defaults
