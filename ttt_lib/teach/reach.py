"""What a write-it's student code may not call: every entry point of the library that
searches, plays, learns or solves, found by walking the packages (one rule, no lists).

``entry_points()`` walks ``ttt_lib.search``, ``agents``, ``learn``, ``studies``, ``arena``,
``match`` and ``player`` (with ``game.count_tree``, and the checkers' own oracles: the
functions each ``teach.nbNN`` module exports): every function defined there, private ones
included (a checked wrapper counts with what it wraps), and every method of every class
defined there (its constructor, ``__call__`` and the rest; exceptions, enums and records
excepted). While a write-it is judged, all of them are unavailable to the student's code
(``session``), except what its checker ``allows``: the game protocol is no entry point (it
lives in ``boards`` and ``game``), and a checker names the helpers its exercise hands over
(``line_score`` for an evaluation given, ``Agent`` for an agent to subclass).
"""
from __future__ import annotations

import enum
import functools
import importlib
import inspect
import pkgutil
import re
import sys

__all__ = ["WALKED", "entry_points", "forbidden_for", "is_entry_point"]

WALKED = ("ttt_lib.search", "ttt_lib.agents", "ttt_lib.learn", "ttt_lib.studies",
          "ttt_lib.arena", "ttt_lib.match", "ttt_lib.player")
ALSO = (("ttt_lib.game", "count_tree"),)
ORACLES = re.compile(r"ttt_lib\.teach\.(nb\d\d\w*|tables)")  # their __all__'s functions
CONSTRUCTION = ("__init__", "__new__", "__call__", "__iter__", "__next__")


def _modules() -> list:
    """The walked modules, imported (one that cannot be, for want of an optional
    dependency, has nothing to reach)."""
    found = []
    for name in WALKED:
        try:
            package = importlib.import_module(name)
        except ImportError:
            continue
        found.append(package)
        for info in pkgutil.walk_packages(getattr(package, "__path__", []), name + "."):
            try:
                found.append(importlib.import_module(info.name))
            except ImportError:
                continue
    return found


def _walked(owner: object) -> bool:
    name = getattr(owner, "__module__", None)
    return isinstance(name, str) and any(name == root or name.startswith(root + ".")
                                         for root in WALKED)


def _record_like(cls: type) -> bool:
    return issubclass(cls, (BaseException, enum.Enum, tuple))


def _methods(cls: type) -> list[tuple[type, str]]:
    """The (class, name) of each function a class defines (constructors included)."""
    found = []
    for name, member in vars(cls).items():
        raw = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
        if inspect.isfunction(raw) and (not name.startswith("__") or name in CONSTRUCTION):
            found.append((cls, name))
    return found


@functools.lru_cache(maxsize=1)
def entry_points() -> tuple[tuple, tuple, tuple]:
    """(functions, (class, method) pairs, classes) of the library out of a write-it's
    reach, each once."""
    functions, classes = {}, {}
    for module in _modules():
        for value in list(vars(module).values()):
            if inspect.isclass(value) and _walked(value) and not _record_like(value):
                classes[id(value)] = value
            elif callable(value) and not inspect.isclass(value) and _walked(
                    inspect.unwrap(value) if inspect.isfunction(value) else value) \
                    and (inspect.isfunction(value) or hasattr(value, "__wrapped__")):
                functions[id(value)] = value
    for module_name, name in ALSO:
        value = getattr(importlib.import_module(module_name), name)
        functions[id(value)] = value
    for module_name, module in list(sys.modules.items()):
        if ORACLES.fullmatch(module_name) and module is not None:
            for name in getattr(module, "__all__", ()):
                value = getattr(module, name, None)
                if inspect.isfunction(value) and not name.startswith("check_"):
                    functions[id(value)] = value
    methods = [pair for cls in classes.values() for pair in _methods(cls)]
    return tuple(functions.values()), tuple(methods), tuple(classes.values())


def _allowed(checker) -> tuple[set, set]:
    """(ids of allowed functions, allowed (class, name) pairs) of a checker's ``allows``:
    functions, classes (all their methods, and those of their bases), (class, name) pairs."""
    ids, pairs = set(), set()
    for item in getattr(checker, "allows", ()):
        if isinstance(item, tuple):
            pairs.add(item)
        elif inspect.isclass(item):
            for base in item.__mro__:
                pairs.update((base, name) for name in vars(base))
        else:
            ids.add(id(inspect.unwrap(item)) if inspect.isfunction(item) else id(item))
            ids.add(id(item))
    return ids, pairs


def _faces(function) -> set[int]:
    """The ids of ``function`` and of what it is made from (``__func__``, ``__wrapped__``):
    a method that is an allowed helper (``score = staticmethod(line_score)``) is allowed."""
    found, face = set(), function
    for _ in range(8):
        found.add(id(face))
        face = getattr(face, "__func__", None) or getattr(face, "__wrapped__", None)
        if face is None:
            break
    return found


def forbidden_for(checker) -> tuple:
    """What the student's code may not call while ``checker`` judges it: the entry points
    less what it ``allows``, plus what it ``forbids`` besides (functions, and (class,
    name) pairs)."""
    functions, methods, _ = entry_points()
    ids, pairs = _allowed(checker)
    kept = [f for f in functions if not _faces(f) & ids]
    kept += [(cls, name) for cls, name in methods
             if (cls, name) not in pairs and not _faces(vars(cls)[name]) & ids]
    extra = [item for item in getattr(checker, "forbids", ()) if item not in kept]
    return tuple(kept + extra)


def is_entry_point(answer) -> str | None:
    """The name of the library class ``answer`` is, or is an instance of (an agent made by
    ``make_agent``), if it is one."""
    _, _, classes = entry_points()
    kind = answer if inspect.isclass(answer) else type(answer)
    return kind.__qualname__ if any(kind is cls for cls in classes) else None
