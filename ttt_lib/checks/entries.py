"""Checked entry points: a function behind a check of its arguments, declared next to the
function (``argument_checks``) and published by its package (``publish_declared``).

A search is the algorithm alone: it recurses on the states it makes itself and checks nothing.
What a caller hands it is checked before it starts: ``entry(fn, error, state=GAME, ...)``
wraps ``fn`` so that each named argument is checked by its *kind* (``kinds.py``), types
first (``TypeError``), then values (``error``, one of the package's ``ValueError``
subclasses), and only then calls ``fn`` itself. The wrapper keeps ``fn``'s name, docstring
and signature, and ``__wrapped__`` leads back to the plain algorithm: ``show_source``,
``count_nodes`` and ``trace_calls`` see that one.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from types import ModuleType

def entry(fn: Callable, error: type, /, *, also: Callable | None = None,
          **kinds: Callable) -> Callable:
    """``fn`` behind a check of its arguments: each one named in ``kinds`` by its kind, then
    ``also(arguments, where, error)`` for what ties them together (e.g. low < high)."""
    signature = inspect.signature(fn)
    where = fn.__name__ if fn.__name__ != "__init__" else fn.__qualname__.split(".")[0]

    binder = FastBinder(signature)

    def check(*args, **kwargs) -> None:
        arguments = binder.bind(args, kwargs, also is not None)
        if arguments is None:  # a call the quick route does not take: Signature.bind says why
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


class FastBinder:
    """``Signature.bind`` for the common calls, a dict made directly (a recursive entry point
    is called once per position, ``derive_seed(*parts)`` once per game); None for anything
    it does not take (``**kwargs``, a missing or repeated argument), which
    ``Signature.bind`` then judges."""

    def __init__(self, signature: inspect.Signature) -> None:
        parameters = list(signature.parameters.values())
        self.varying = any(p.kind == p.VAR_KEYWORD for p in parameters)
        self.rest = next((p.name for p in parameters if p.kind == p.VAR_POSITIONAL), None)
        self.positional = [p.name for p in parameters
                           if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.by_name = {p.name for p in parameters
                        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        self.required = {p.name for p in parameters if p.default is p.empty
                         and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        self.defaults = {p.name: p.default for p in parameters if p.default is not p.empty}

    def bind(self, args: tuple, kwargs: dict, defaults: bool) -> dict | None:
        extra = len(args) > len(self.positional)
        if self.varying or (extra and self.rest is None):
            return None
        arguments = dict(zip(self.positional, args))
        for name in kwargs:
            if name not in self.by_name or name in arguments:
                return None
        arguments.update(kwargs)
        if len(arguments) < len(self.required) or not self.required <= arguments.keys():
            return None
        if self.rest is not None and (extra or defaults):  # *args: the values left over
            arguments[self.rest] = args[len(self.positional):]
        if defaults:
            for name, value in self.defaults.items():
                arguments.setdefault(name, value)
        return arguments


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


# ------------------------------------------------- declared in the module, published by the package

DECLARED = "__argument_checks__"


def argument_checks(thing: object, error: type, /, **keywords) -> object:
    """Declare, in ``thing``'s own module, how the arguments of the function or class
    ``thing`` are checked (``entry``'s keywords), and that its package offers it: the
    function stays the plain algorithm in its module (its listing unchanged) and the
    package publishes the checked entry point (``publish_declared``); a class is checked at
    once (``check_init``). Returns ``thing``."""
    setattr(thing, DECLARED, (error, keywords))
    if isinstance(thing, type) and keywords:
        check_init(thing, error, **keywords)
    return thing


def declared(thing) -> bool:
    """Does ``thing`` carry its own ``argument_checks`` (not one inherited from a base)?"""
    own = vars(thing) if isinstance(thing, type) else getattr(thing, "__dict__", {})
    return DECLARED in own


def public_names(module: ModuleType) -> list[str]:
    """What ``module`` offers its package: its ``__all__``, or else every function and class
    defined in it that declares its argument checks. A function in ``__all__`` must declare
    them: its package would otherwise hand it out unchecked."""
    if not hasattr(module, "__all__"):
        return [name for name, value in vars(module).items() if not name.startswith("_")
                and declared(value) and getattr(value, "__module__", None) == module.__name__]
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isfunction(value) and not declared(value):
            raise TypeError(f"{module.__name__}.{name} is public (in __all__) but declares no "
                            f"argument checks: declare them with argument_checks(...)")
    return list(module.__all__)


def publish_declared(namespace: dict) -> list[str]:
    """Import every module of the package whose ``__init__`` globals are ``namespace`` and
    put each module's public names there, a declared function as its checked entry point.
    Returns the names, sorted: the package's ``__all__``. A name offered twice, or one
    that would hide a module of the package, is refused."""
    found: dict[str, tuple[str, object]] = {}
    modules = [info.name for info in pkgutil.iter_modules(namespace["__path__"])]
    for module_name in modules:
        module = importlib.import_module(f"{namespace['__name__']}.{module_name}")
        for name in public_names(module):
            value = getattr(module, name)
            where, first = found.get(name, (module.__name__, value))
            if first is not value:
                raise ImportError(f"{name} is offered by both {where} and {module.__name__}")
            if name in modules:
                raise ImportError(f"{module.__name__}.{name} would hide the module {name}")
            found[name] = where, value
            namespace[name] = published(value, namespace["__name__"], name)
    return sorted(found)


def published(value, package: str, name: str):
    """A declared function's checked entry point, found under the package's name (so it
    pickles); anything else as it is."""
    if not inspect.isfunction(value) or not declared(value):
        return value
    error, keywords = getattr(value, DECLARED)
    checked = entry(value, error, **keywords)
    checked.__module__, checked.__qualname__ = package, name
    return checked
