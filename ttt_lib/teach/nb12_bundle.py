"""A student's agent as one file of source, for the class tournament's box: the agent (a
function or an ``Agent`` class) and everything of the student's it reaches.

``bundle(agent)`` follows the names the agent's code uses through the namespace it was
written in (a notebook's, a module's): the student's own functions and classes are copied as
their source, modules become ``import`` lines, plain constants (numbers, strings, and tuples,
lists, sets and dicts of them) their ``repr``. Of ``ttt_lib``, the file may use only what the
exercise hands over (``HANDED_OVER``: the board, the agent base class, ``player_name``): a
name bound to anything else of the package, or an ``import`` of it in the student's code, is
refused with ``NotYours`` naming it. The rule is the same for every part of the package, so a
new library function needs no new entry here. The file imports the board from the box's kit
(``classroom.kit``): in the capstone's box no module of ``ttt_lib`` is there to import, so a
name built at run time (``__import__("ttt_" + "lib")``) finds nothing either.
"""
from __future__ import annotations

import ast
import inspect
import linecache
import re
import textwrap
import types

from ..boards.connect4 import ConnectFour
from ..classroom.kit import PACKAGE as KIT
from ..game import player_name
from ..player import Agent
from .session import library_taken

__all__ = ["HANDED_OVER", "NotYours", "bundle"]

HANDED_OVER = {"ConnectFour": ConnectFour, "Agent": Agent, "player_name": player_name}
PLAIN = (bool, int, float, complex, str, bytes, type(None))
ENTRY = "choose"  # the name the box looks for (see classroom.sandbox.agents_in)


class NotYours(Exception):
    """The agent reaches something it may not take with it: the sentence says what."""


def _package(value) -> str:
    module = value.__name__ if isinstance(value, types.ModuleType) else \
        getattr(value, "__module__", None) or ""
    return module.split(".")[0]


def _plain(value, depth: int = 0) -> bool:
    if type(value) in PLAIN:
        return True
    if depth < 6 and type(value) in (tuple, list, set, frozenset):
        return all(_plain(item, depth + 1) for item in value)
    if depth < 6 and type(value) is dict:
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _names(code: types.CodeType) -> set[str]:
    """Every global name a code object (and the code nested in it) may read."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _library_name(name: str, value, names: set[str]) -> str:
    """What a reference into ``ttt_lib`` names: the function or class itself, or, through a
    module, the entry point the code reads from it (``ttt_lib.search.minimax``: minimax)."""
    for _ in range(6):
        if not isinstance(value, types.ModuleType):
            break
        inner = [(key, getattr(value, key)) for key in sorted(names - {name})
                 if hasattr(value, key)]
        if not inner:
            break
        name, value = next(((k, v) for k, v in inner if not isinstance(v, types.ModuleType)),
                           inner[0])
    return getattr(value, "__qualname__", None) or name


def _referenced(obj) -> set[str]:
    if isinstance(obj, type):
        found = {base.__name__ for base in obj.__bases__}
        for value in vars(obj).values():
            function = getattr(value, "__func__", value)
            if isinstance(function, types.FunctionType):
                found |= _names(function.__code__)
        return found
    return _names(obj.__code__)


def _closed_over(obj) -> list[tuple[str, object]]:
    """The variables a function took from the function it was written in."""
    if not isinstance(obj, types.FunctionType) or not obj.__closure__:
        return []
    found = []
    for name, cell in zip(obj.__code__.co_freevars, obj.__closure__):
        try:
            found.append((name, cell.cell_contents))
        except ValueError:  # an empty cell: nothing to take
            continue
    return found


def _source(obj) -> str:
    """``obj``'s source; a class typed in a notebook cell is looked up in the cells' text
    (Python finds a class's source through its module's file, which a notebook lacks)."""
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        if not isinstance(obj, type):
            raise
    files = {value.__code__.co_filename for value in vars(obj).values()
             if isinstance(value, types.FunctionType)}
    pattern = re.compile(rf"class\s+{re.escape(obj.__name__)}\b")
    for filename in reversed(list(linecache.cache)):  # the latest cell first
        lines = linecache.getlines(filename)
        if files and filename not in files:
            continue
        starts = [i for i, line in enumerate(lines) if pattern.match(line)]
        if starts:
            return "".join(inspect.getblock(lines[starts[-1]:]))
    raise OSError("source code not available")


def _check_imports(source: str, name: str) -> None:
    for node in ast.walk(ast.parse(source)):
        modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if any(module.split(".")[0] == "ttt_lib" for module in modules):
            raise NotYours(f"your function imports ttt_lib's {modules[0]}; the agent is "
                           f"yours to write, with the board and nothing else: write it "
                           f"yourself")


class _Bundler:
    def __init__(self, agent) -> None:
        self.home = getattr(agent, "__module__", None)
        self.namespace = agent.__globals__ if isinstance(agent, types.FunctionType) else \
            vars(inspect.getmodule(agent) or types.ModuleType("none"))
        self.lines: list[str] = []
        self.sources: list[str] = []
        self.seen: set[str] = set(HANDED_OVER)

    def own(self, value) -> bool:
        return isinstance(value, (types.FunctionType, type)) and value.__module__ == self.home

    def visit(self, obj) -> None:
        reading = _referenced(obj)
        for name in sorted(reading):
            if name in self.seen or name not in self.namespace:
                continue
            self.seen.add(name)
            self.reading = reading  # the names this code reads (a nested visit changes it)
            self.take(name, self.namespace[name])
        for name, value in _closed_over(obj):  # a function written inside another
            if name not in self.seen:
                self.seen.add(name)
                self.reading = reading
                self.take(name, value)
        source = textwrap.dedent(_source(obj))
        _check_imports(source, obj.__name__)
        self.sources.append(source)

    def take(self, name: str, value) -> None:
        if _package(value) == "ttt_lib":
            library_taken(_library_name(name, value, self.reading))
            raise NotYours(f"your function uses ttt_lib's {name}; the agent is yours to "
                           f"write, with the board and nothing else: write it yourself")
        if self.own(value):
            self.visit(value)
        elif isinstance(value, types.ModuleType):
            self.lines.append(f"import {value.__name__} as {name}")
        elif isinstance(value, (types.FunctionType, type, types.BuiltinFunctionType)) \
                and getattr(value, "__module__", None):
            self.lines.append(f"from {value.__module__} import {value.__qualname__} as {name}")
        elif _plain(value):
            self.lines.append(f"{name} = {value!r}")
        else:
            raise NotYours(f"your agent uses {name}, a {type(value).__name__} that cannot be "
                           f"copied into its box; keep plain values, functions and classes")


def bundle(agent) -> str:
    """The source of a file that defines ``agent`` (a function of the state, or an
    ``Agent`` subclass) as the box's one agent, with what it uses. ``NotYours`` when it
    reaches into ``ttt_lib`` beyond the board, or holds something that cannot be copied."""
    if not (isinstance(agent, types.FunctionType) or
            (isinstance(agent, type) and issubclass(agent, Agent))):
        raise TypeError(f"agent is a function or an Agent class, not {type(agent).__name__}")
    bundler = _Bundler(agent)
    try:
        bundler.visit(agent)
    except (OSError, TypeError) as error:  # no source: typed in a console, or built
        raise NotYours(f"the source of your agent cannot be read ({error}); define it "
                       f"with def or class in a cell or a file") from None
    head = [f"from {KIT}.boards.connect4 import ConnectFour",
            f"from {KIT}.game import player_name", f"from {KIT}.player import Agent"]
    tail = [f"{ENTRY} = {agent.__name__}"] if isinstance(agent, types.FunctionType) \
        and agent.__name__ != ENTRY else []
    return "\n".join(head + bundler.lines) + "\n\n\n" + "\n\n".join(bundler.sources) + \
        "\n" + "\n".join(tail) + "\n"
