"""Checking what a public function is given, once, at its entry point.

A search is the algorithm alone: it recurses on the states it makes itself and checks nothing.
What a caller hands it is checked before it starts: ``entry(fn, error, state=GAME, ...)``
wraps ``fn`` so that each named argument is checked by its *kind* (a small function), types
first (``TypeError``), then values (``error``, one of the package's ``ValueError``
subclasses), and only then calls ``fn`` itself. The wrapper keeps ``fn``'s name, docstring
and signature, and ``__wrapped__`` leads back to the plain algorithm: ``show_source``,
``count_nodes`` and ``trace_calls`` see that one.

Every message names the argument and shows at most a short ``repr`` of what came (``short``),
so a list nested 5,000 deep or an int of a million digits cannot make the message itself fail.
"""
from __future__ import annotations

import functools
import inspect
import numbers
import random
from collections.abc import Callable, Mapping

from .game import MAX, Game
from .safetext import short

MAX_COUNT = 1_000_000
"""The most playouts, games or iterations one call does: about a minute of work for the
slowest search here, and a typo such as 10**9 would run for days."""

MAX_DEPTH = 1_000
"""The deepest a depth limit goes: more than the number of cells of any board the library
plays (19x19 = 361), so no game needs more, and a bigger number is a typo."""


def type_name(value) -> str:
    return type(value).__name__


def is_int(value) -> bool:
    """A whole number: an ``int`` (or a numpy integer), not ``True``/``False``."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


# ------------------------------------------------------------------------- argument kinds
# A kind is ``kind(value, name, where, error)``: it returns the value or raises.

def game(verb: str) -> Callable:
    """The kind of a game state: anything with the ``ttt_lib.Game`` methods (a board, a
    ``TreeNode``); ``verb`` says what the function does with it ("searches", "takes")."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not _GAME_TYPES.get(type(value)) and not _is_game(value):
            raise TypeError(f"{where} {verb} a game state (ttt_lib.Game), "
                            f"not {type_name(value)}")
        return value
    return kind


GAME, STATE = game("searches"), game("takes")


MAX_FLOAT = 2 ** 1023  # about the largest int a float holds

_GAME_TYPES: dict[type, bool] = {}  # the types seen to be games: checked once per type


def _is_game(value) -> bool:
    """Is ``value`` a ``Game``? Classes whose instances have the methods are remembered
    (a Protocol check is slow, and a recursive entry point asks it of every state)."""
    game = not isinstance(value, type) and isinstance(value, Game)
    if game and all(callable(getattr(type(value), name, None)) for name in GAME_METHODS):
        _GAME_TYPES[type(value)] = True
    return game


GAME_METHODS = ("moves", "play", "is_terminal", "utility", "key")


def NUMBER(value, name: str, where: str, error: type) -> object:
    """A real number (infinities allowed), not NaN."""
    if not is_real(value):
        raise TypeError(f"{where}: {name} is a number, not {type_name(value)}")
    if value != value:  # NaN (math.isnan would overflow on a huge int)
        raise error(f"{where}: {name} is a number, not NaN")
    if isinstance(value, numbers.Integral) and abs(value) > MAX_FLOAT:
        raise error(f"{where}: {name} is at most about 1.8e308 in size (a float's range: "
                    f"the search mixes it with floats), not {short(value)}")
    return value


def FLAG(value, name: str, where: str, error: type) -> object:
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {name} is True or False, not {type_name(value)}")
    return value


def FUNCTION(value, name: str, where: str, error: type) -> object:
    if not callable(value):
        raise TypeError(f"{where}: {name} is a function, not {type_name(value)}")
    return value


def TABLE(value, name: str, where: str, error: type) -> object:
    """A table the search fills in: a dict (or any mutable mapping)."""
    if not isinstance(value, (dict, Mapping)) or not hasattr(value, "__setitem__"):
        raise TypeError(f"{where}: {name} is a dict, not {type_name(value)}")
    return value


def RNG(value, name: str, where: str, error: type) -> object:
    if not isinstance(value, random.Random):
        raise TypeError(f"{where}: {name} is a random.Random, not {type_name(value)}")
    return value


def SEED(value, name: str, where: str, error: type) -> object:
    if value is not None and not is_int(value):
        raise TypeError(f"{where}: {name} is an int or None, not {type_name(value)}")
    return value


def PLAYER(value, name: str, where: str, error: type) -> object:
    """+1 (X) or -1 (O)."""
    if not is_int(value):
        raise TypeError(f"{where}: {name} is +1 (X) or -1 (O), not {type_name(value)}")
    if value not in (MAX, -MAX):
        raise error(f"{where}: {name} is +1 (X) or -1 (O), not {short(value)}")
    return value


def MOVES(value, name: str, where: str, error: type) -> object:
    """A list (or tuple) of moves; ``legal_moves`` checks them against the state."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{where}: {name} is a list of moves, not {type_name(value)}")
    return value


def count(least: int, most: int = MAX_COUNT, why: str = "") -> Callable:
    """The kind of a whole number in ``least..most``; ``why`` says why ``most`` is the bound."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not is_int(value):
            raise TypeError(f"{where}: {name} is a whole number, not {type_name(value)}")
        if not least <= value <= most:
            bound = f" and at most {most:,}" if most < float("inf") else ""
            reason = f" ({why})" if why else ""
            raise error(f"{where}: {name} is a whole number of at least {least}{bound}{reason}, "
                        f"not {short(value)}")
        return int(value)
    return kind


COUNT = count(0, MAX_COUNT, "a typo would run for days")
DEPTH = count(0, MAX_DEPTH, "deeper than any board the library plays")


def instance(cls: type, what: str) -> Callable:
    """The kind of an instance of ``cls`` (``what`` names it in the message)."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not isinstance(value, cls):
            raise TypeError(f"{where}: {name} is {what}, not {type_name(value)}")
        return value
    return kind


def optional(kind: Callable) -> Callable:
    """``kind``, or None."""
    def maybe(value, name: str, where: str, error: type) -> object:
        return value if value is None else kind(value, name, where, error)
    return maybe


def either(*kinds: Callable, what: str) -> Callable:
    """A value that passes one of ``kinds`` (tried in order; ``what`` names them all)."""
    def kind(value, name: str, where: str, error: type) -> object:
        for each in kinds:
            try:
                return each(value, name, where, error)
            except TypeError:
                continue
        raise TypeError(f"{where}: {name} is {what}, not {type_name(value)}")
    return kind


def choice(*choices: str) -> Callable:
    """One of the strings ``choices``."""
    def kind(value, name: str, where: str, error: type) -> object:
        if not isinstance(value, str):
            raise TypeError(f"{where}: {name} is a string, not {type_name(value)}")
        if value not in choices:
            raise error(f"{where}: {name} is one of {', '.join(map(repr, choices))}, "
                        f"not {short(value)}")
        return value
    return kind


# ------------------------------------------------------------------------- the entry point

def entry(fn: Callable, error: type, /, *, also: Callable | None = None,
          **kinds: Callable) -> Callable:
    """``fn`` behind a check of its arguments: each one named in ``kinds`` by its kind, then
    ``also(arguments, where, error)`` for what ties them together (e.g. low < high)."""
    signature = inspect.signature(fn)
    where = fn.__name__ if fn.__name__ != "__init__" else fn.__qualname__.split(".")[0]

    simple = [p.name for p in signature.parameters.values()
              if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty]

    def check(*args, **kwargs) -> None:
        if len(args) == len(simple) and not kwargs and also is None:  # the quick common case
            arguments = dict(zip(simple, args))
        else:
            arguments = bound_arguments(signature, where, args, kwargs, also is not None)
        for name, kind in kinds.items():
            if name in arguments:
                kind(arguments[name], name, where, error)
        if also is not None:
            also(arguments, where, error)

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        check(*args, **kwargs)
        return fn(*args, **kwargs)

    checked.check = check
    return checked


def bound_arguments(signature: inspect.Signature, where: str, args: tuple, kwargs: dict,
                    defaults: bool) -> dict:
    """The arguments of a call by name (with the defaults too if ``defaults``)."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as wrong:
        raise TypeError(f"{where}: {wrong}") from None
    if defaults:
        bound.apply_defaults()
    return bound.arguments


def publish(namespace: dict, error: type, entries: dict[str, dict]) -> None:
    """Replace each function named in ``entries`` in ``namespace`` (a module's globals) by its
    checked entry point (``entries[name]`` are ``entry``'s keywords); the entry point is
    found under the module's name, so it pickles."""
    for name, keywords in entries.items():
        checked = entry(namespace[name], error, **keywords)
        checked.__module__, checked.__qualname__ = namespace["__name__"], name
        namespace[name] = checked


def check_init(cls: type, error: type, /, **keywords) -> None:
    """Check the arguments of ``cls(...)`` as ``entry`` does, before ``cls.__init__`` runs
    (a class that inherits its ``__init__`` inherits the check too)."""
    if "__init__" in vars(cls):
        cls.__init__ = entry(cls.__init__, error, **keywords)


def plain(fn: Callable) -> Callable:
    """The algorithm behind a checked entry point (``fn`` itself if it has no check)."""
    while hasattr(fn, "check") and hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return fn


def check_arguments(fn: Callable, *args, **kwargs) -> None:
    """Run ``fn``'s entry check on these arguments, if ``fn`` has one."""
    check = getattr(fn, "check", None)
    if check is not None and hasattr(fn, "__wrapped__"):
        check(*args, **kwargs)
