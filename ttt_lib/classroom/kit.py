"""The capstone's box kit: the Connect Four board and the sandbox program, without the package.

A capstone agent (notebook 12) may use the board and the standard library, nothing else of
``ttt_lib``: the bundle refuses names that reach the library, but a name can be built at run
time (``__import__("ttt_" + "lib")``). So its box is given a folder of its own instead of the
package (``folder()``): the modules the board needs (``ROOTS`` and what they import, found by
reading their imports), copied under another package name (``PACKAGE``, each package's
``__init__`` empty unless names are imported from it), and the sandbox program (``sandbox.py``, its two imports of the package
pointed at the copy). The box binds that folder and not the package's (``jail``: a package
installed inside a bound folder is hidden under an empty one), so no module of ``ttt_lib``
is there to import, by any name. A bundle imports its board from ``PACKAGE``.
"""
from __future__ import annotations

import ast
import atexit
import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = ["PACKAGE", "ROOTS", "command", "folder", "modules"]

PACKAGE = "capstone_kit"
ROOTS = ("boards/connect4.py", "player.py")  # the board, and the agent base class
SANDBOX = "capstone_sandbox.py"
LIBRARY = Path(__file__).resolve().parents[1]  # this ttt_lib
IMPORTS = ("from ttt_lib.boards.named import position_from_text\n"
           "from ttt_lib.player import Agent\n")
KIT_IMPORTS = f'''from {PACKAGE}.boards.connect4 import ConnectFour
from {PACKAGE}.player import Agent


def position_from_text(game, text, first="X"):
    """A Connect Four position of ``game`` (``connect4[:C,R[,K]]``) written as ``text``."""
    kind, _, size = game.partition(":")
    numbers = [int(part) for part in size.split(",")] if size else []
    if kind != "connect4" or len(numbers) not in (0, 2, 3):
        raise ValueError(f"this box plays Connect Four, not {{game!r}}")
    columns, rows, k = numbers + [7, 6, 4][len(numbers):]
    position = ConnectFour.from_text(text, k=k, first=first)
    if (position.columns, position.rows) != (columns, rows):
        raise ValueError(f"the text {{text!r}} is not a {{game}} position")
    return position
'''


def _imported(path: Path) -> set[Path]:
    """The package's modules (files, relative to it) that ``path`` imports."""
    found = set()
    package = path.parent.relative_to(LIBRARY).parts
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(
                alias.name.split(".")[0] == "ttt_lib" for alias in node.names):
            raise ValueError(f"{path.name} imports ttt_lib by name: the kit cannot carry it")
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0:
            if (node.module or "").split(".")[0] == "ttt_lib":
                raise ValueError(f"{path.name} imports ttt_lib by name: the kit cannot "
                                 f"carry it")
            continue
        base = list(package[:len(package) - node.level + 1])
        parts = base + (node.module.split(".") if node.module else [])
        candidates = [parts] if node.module else [parts + [alias.name] for alias in node.names]
        for candidate in candidates:
            module = LIBRARY.joinpath(*candidate).with_suffix(".py")
            init = LIBRARY.joinpath(*candidate, "__init__.py")
            if module.is_file():
                found.add(module.relative_to(LIBRARY))
            elif init.is_file() and node.module:  # names from a package's __init__
                found.add(init.relative_to(LIBRARY))
    return found


def modules() -> list[Path]:
    """The package's modules the board needs (relative paths), the roots included."""
    wanted, seen = [Path(root) for root in ROOTS], set()
    while wanted:
        path = wanted.pop()
        if path not in seen:
            seen.add(path)
            wanted += sorted(_imported(LIBRARY / path) - seen)
    return sorted(seen)


@functools.lru_cache(maxsize=None)
def folder() -> str:
    """The kit's folder (made once a process, removed when it ends): ``PACKAGE`` with the
    board's modules, and the sandbox program."""
    made = Path(tempfile.mkdtemp(prefix="ttt-kit-"))
    atexit.register(_remove, made, os.getpid())
    for module in modules():
        target = made / PACKAGE / module
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(LIBRARY / module, target)
        for package in [target.parent, *target.parent.parents]:
            if package == made:
                break
            (package / "__init__.py").touch()
    program = (LIBRARY / "classroom" / "sandbox.py").read_text(encoding="utf-8")
    if IMPORTS not in program:
        raise ValueError("sandbox.py's imports of the package changed: update kit.IMPORTS")
    (made / SANDBOX).write_text(program.replace(IMPORTS, KIT_IMPORTS), encoding="utf-8")
    absent = made / "absent"  # jail.ABSENT: bound over the package where a box holds it
    absent.mkdir()
    (absent / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'ttt_lib' in the capstone's box\")\n")
    for path in made.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    made.chmod(0o755)
    return str(made)


def _remove(made: Path, owner: int) -> None:
    """Remove the kit's folder, in the process that made it (not in a fork of it)."""
    if os.getpid() == owner:
        shutil.rmtree(made, ignore_errors=True)


def command(*args: str) -> list[str]:
    """The sandbox program of the kit with ``args``: only the kit's folder (and the
    interpreter's own) on its path."""
    place = folder()
    code = (f"import runpy, sys; sys.path.insert(0, {place!r}); "
            f"runpy.run_path({str(Path(place) / SANDBOX)!r}, run_name='__main__')")
    return [sys.executable, "-I", "-c", code, *args]
