"""Watching a search from outside: ``trace_calls``, ``count_nodes`` and the ``stats=``/
``trace=`` keywords of the library's own searches.

A search is a plain recursive function; nothing in it reports anything. The observer runs it
with its calls caught (``watch``), finds the state and window among each call's arguments
(``locate``), and writes down what the calls did (``record``): the nodes it searched, the
windows they received, the values they returned, the moves they left unvisited. Nothing is
replayed from the textbook: where the code departs from the textbook's bookkeeping, the trace
says so at that line.

The function given may be the search itself (it calls itself by name), or anything that runs
one: a checked entry point, a driver such as ``solve(s)`` with an inner recursive function,
a lambda, a pair ``max_value``/``min_value``; the recursion is then discovered as it runs.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..errors import SearchOptionError
from .locate import call_values, find_window, is_state, name_of
from .record import Recorder
from .trace import Stats, Trace
from .watch import Watcher, calls_itself, code_of

FORMS = ("maxmin", "negamax")


class NoSearchSeen(SearchOptionError):
    """The function ran, but no recursive search could be seen in it."""


def trace_calls(fn: Callable, state, *args, window=None, **kwargs) -> tuple[object, Trace]:
    """Run ``fn(state, *args, **kwargs)`` and record what each call of the search did:
    ``(value, trace)``; ``str(trace)`` is the slides' printed trace. ``window``: how the
    search receives its window, when its parameters' names do not say (``("lo", "hi")``, one
    name holding a pair, or ``()`` for none)."""
    value, _, trace, _ = observe_call(fn, state, args, kwargs, Trace(), window)
    return value, trace


def count_nodes(fn: Callable, state, *args, window=None, **kwargs) -> tuple[object, Stats]:
    """Run ``fn(state, *args, **kwargs)`` and count its work: ``(value, stats)``."""
    value, stats, _, _ = observe_call(fn, state, args, kwargs, None, window)
    return value, stats


def count_nodes_in_form(fn: Callable, state, *args, window=None,
                        **kwargs) -> tuple[object, Stats, str | None]:
    """``count_nodes``, and the form the search was seen to be written in: "maxmin",
    "negamax", or None when nothing seen told them apart."""
    value, stats, _, recorder = observe_call(fn, state, args, kwargs, None, window)
    return value, stats, FORMS[recorder.form()] if recorder.evidence() else None


def observe_call(fn: Callable, state, args: tuple, kwargs: dict, trace: Trace | None,
                 window=None) -> tuple:
    """``fn(state, *args, **kwargs)`` observed: ``(value, stats, trace, recorder)``."""
    if not callable(fn):
        raise TypeError(f"the search is a function, not {type(fn).__name__}")
    if not is_state(state):
        raise TypeError(f"the search is run on a game state, not {type(state).__name__}")
    search, stats = unwrap(fn), Stats()
    recorder = Recorder(trace is not None, stats)
    if calls_itself(search):
        values = call_values(search, (state, *args), kwargs)
        spec = find_window(search, values, window, who=f"observing {name_of(search)}")
        watcher = Watcher(recorder, [search], [], {next(iter(code_of([search]))): spec})
        value = watcher.run(lambda: watcher.around(fn, spec, values, state, args, kwargs),
                            [search], patch=trace is None)
    else:
        watcher = Watcher(recorder, [], [], discover=True, window=window)
        value = watcher.run(lambda: fn(state, *args, **kwargs), [], patch=False)
        if not watcher.found():
            if not state.is_terminal():
                raise NoSearchSeen(
                    f"{name_of(search)} ran, but no search was seen in it: no function was "
                    f"called on a position and again on another one while the first ran "
                    f"(a search with its own stack, not recursion, cannot be watched)")
            stats.nodes = stats.leaves = 1
    finish(recorder, trace)
    return value, stats, trace, recorder


def unwrap(fn: Callable) -> Callable:
    """The function behind checked entry points and other wrappers (``__wrapped__``)."""
    seen = set()
    while callable(getattr(fn, "__wrapped__", None)) and id(fn) not in seen:
        seen.add(id(fn))
        fn = fn.__wrapped__
    return fn


def observe(run: Callable[[], object], nodes: Iterable, wrappers: Iterable = (),
            stats: Stats | None = None, trace: Trace | None = None) -> tuple:
    """Call ``run()`` watching the library's search functions ``nodes`` (each call on a state
    is a node) and ``wrappers`` (a call that reaches no node is a table hit):
    ``(value, stats, trace)``. The counts are added to ``stats`` (a fresh ``Stats`` if
    None), the events to ``trace`` (if given)."""
    nodes, wrappers = [unwrap(fn) for fn in nodes], [unwrap(fn) for fn in wrappers]
    stats = Stats() if stats is None else stats
    recorder = Recorder(trace is not None, stats, declared=True)
    watcher = Watcher(recorder, nodes, wrappers)
    value = watcher.run(run, nodes + wrappers, patch=trace is None)
    finish(recorder, trace)
    return value, stats, trace


def observed(run: Callable[[], object], nodes: Iterable, wrappers: Iterable = (),
             stats: Stats | None = None, trace: Trace | None = None):
    """``run()``'s value, observed as ``observe`` does when ``stats`` or ``trace`` is given,
    else simply run: what the public entry points' ``stats=``/``trace=`` keywords call."""
    if stats is None and trace is None:
        return run()
    return observe(run, nodes, wrappers, stats, trace)[0]


def finish(recorder: Recorder, trace: Trace | None) -> None:
    """Put the events of the form the evidence favours into ``trace``."""
    if trace is not None:
        form = recorder.form()
        trace.events.extend(recorder.events[form])
        trace.form = FORMS[form]
