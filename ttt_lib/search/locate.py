"""Where a watched search keeps its state and its window among its arguments.

A search is called on a game state, often with a window: two bounds (``alpha, beta``,
``lo, hi``...) or one ``(low, high)`` pair. The observer finds them by the parameters' names
and the values passed, never by position alone: ``f(state, depth, lo, hi)`` has the window
``(lo, hi)``, not ``(depth, lo)``. ``window=`` says it explicitly: two parameter names, one
name (a pair), or ``()`` for a search without a window. When neither the names nor the values
settle it, ``WindowNotFound`` says which arguments were read and how to say it.
"""
from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable
from types import CodeType

from ..errors import SearchOptionError

PAIRS = (("alpha", "beta"), ("lo", "hi"), ("low", "high"), ("lower", "upper"), ("lb", "ub"),
         ("a", "b"), ("α", "β"))
"""Two parameters named as a window's bounds, lower first."""

PAIR_NAMES = ("window", "bounds", "interval")
"""A parameter named as one ``(low, high)`` window."""

NOT_WINDOWS = frozenset({"depth", "ply", "color", "colour", "player", "sign", "turn", "side",
                         "maximizing", "maximising", "level", "height", "d", "limit",
                         "max_depth", "seed", "self"})
"""Numbers a search takes that are never its window."""


class WindowNotFound(SearchOptionError):
    """The observer could not tell which of a search's arguments are its window."""


def is_state(x) -> bool:
    """A game state, as the observer recognises one: it can be played and can end."""
    kind = type(x)
    known = _STATE_TYPES.get(kind)
    if known is None:  # asked of every call watched: a type's instances are states or not
        known = _STATE_TYPES[kind] = (hasattr(kind, "play") and hasattr(kind, "is_terminal")
                                      and not issubclass(kind, type))
    return known or (hasattr(x, "play") and hasattr(x, "is_terminal")
                     and not isinstance(x, type))  # methods of its own, not of its type


_STATE_TYPES: dict[type, bool] = {}


def is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def is_pair(x) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and all(map(is_number, x))


class Window:
    """How one search function receives its window: ``names`` (two parameters, or one
    holding a pair), or no window at all (``names == ()``)."""

    __slots__ = ("names",)

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def read(self, values: dict) -> tuple:
        """``(alpha, beta)`` from a call's variables, or ``(None, None)`` where they are not
        numbers (or the search has no window)."""
        if len(self.names) == 2:
            low, high = values.get(self.names[0]), values.get(self.names[1])
            return (low, high) if is_number(low) and is_number(high) else (None, None)
        if len(self.names) == 1:
            pair = values.get(self.names[0])
            return pair if is_pair(pair) else (None, None)
        return None, None


NO_WINDOW = Window(())


def parameters(fn: Callable | CodeType) -> list[str]:
    """The names of ``fn``'s parameters (``self`` of a bound method left out)."""
    func = getattr(fn, "__func__", fn)
    code = func if isinstance(func, CodeType) else func.__code__
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    return names[1:] if hasattr(fn, "__self__") else names


def explicit(fn: Callable, window) -> Window:
    """The window as ``window=`` states it, checked against ``fn``'s parameters."""
    names = (window,) if isinstance(window, str) else window
    if not isinstance(names, tuple) or len(names) > 2 or not all(
            isinstance(name, str) for name in names):
        raise TypeError("window= is two parameter names, such as ('lo', 'hi'), one name "
                        "(a parameter holding a (low, high) pair), or () for no window, "
                        f"not {window!r}")
    missing = [name for name in names if name not in parameters(fn)]
    if missing:
        raise WindowNotFound(f"window= names {', '.join(missing)}, but {name_of(fn)} has "
                             f"no such parameter (it takes {', '.join(parameters(fn))})")
    return Window(names)


def by_names(fn: Callable) -> Window | None:
    """The window ``fn``'s parameter names announce, if any."""
    names = set(parameters(fn))
    for pair in PAIRS:
        if set(pair) <= names:
            return Window(pair)
    for name in PAIR_NAMES:
        if name in names:
            return Window((name,))
    return None


def find_window(fn: Callable, values: dict, window=None, who: str = "the observer") -> Window:
    """How ``fn`` receives its window, from ``window=``, else its parameters' names, else the
    values of one call (``values``: parameter name -> value): a single ``(low, high)`` pair,
    or no number that could be one. Anything else raises ``WindowNotFound``."""
    if window is not None:
        return explicit(fn, window)
    named = by_names(fn)
    if named is not None:
        return named
    candidates = {name: value for name, value in values.items()
                  if name not in NOT_WINDOWS and (is_number(value) or is_pair(value))}
    pairs = [name for name, value in candidates.items() if is_pair(value)]
    if len(candidates) == 1 and pairs:
        return Window((pairs[0],))
    if sum(map(is_number, candidates.values())) <= 1 and not pairs:
        return NO_WINDOW
    read = ", ".join(f"{name}={short_value(value)}" for name, value in values.items()
                     if not is_state(value))
    raise WindowNotFound(
        f"{who} cannot tell which arguments of {name_of(fn)} are its window: it read "
        f"{read} and no parameter is named as one ({', '.join('/'.join(p) for p in PAIRS[:4])}"
        f", ...). Say it: window=('{list(candidates)[0]}', '{list(candidates)[-1]}') for two "
        f"parameters, window='name' for one (low, high) pair, or window=() if it has none")


def short_value(value) -> str:
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def name_of(fn: Callable | CodeType) -> str:
    if isinstance(fn, CodeType):
        return fn.co_qualname
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))


def call_values(fn: Callable, args: tuple, kwargs: dict) -> dict:
    """Parameter name -> value for the call ``fn(*args, **kwargs)``, defaults included."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(f"{name_of(fn)} cannot be called with these arguments: {error}") \
            from None
    bound.apply_defaults()
    return dict(bound.arguments)


def frame_state(frame) -> object:
    """The game state a call received: its first argument that is one (a method of the state
    itself, whose ``self`` is the state, is no search and gives None)."""
    code, values = frame.f_code, frame.f_locals
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    for i, name in enumerate(names):
        value = values.get(name)
        if is_state(value):
            return None if i == 0 and name == "self" else value
    return None
