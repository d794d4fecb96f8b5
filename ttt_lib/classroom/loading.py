"""A class's agents from a folder: every ``.py`` file, and every notebook's cells tagged
``agent``, that defines exactly one agent (a subclass of ``ttt_lib.player.Agent`` or a
``choose(state)`` function).

This process only reads the files as text. Running a file's code (which is what importing
it means) happens in the student's box, where its games will be played (the box stays, with
the file loaded); a file that does not compile, raises, or defines no agent or two is listed
with the reason and left out. Only regular files inside the folder are read (a link pointing
out of it, a FIFO, a device or a folder is left out), at most ``MAX_BYTES`` each, and a
notebook whose JSON is malformed in any way is left out with what is wrong.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import AGENTS
from . import jail
from ..safetext import Unreadable, printable, read_regular
from ..arena import processes_available
from .worker import BROWSER_ROSTER, Box, CannotStart, ClassroomError, Entrant, Forfeit, Limits

TAG = "agent"  # the tag of a notebook's agent cells
MAX_BYTES = 4 << 20  # a longer file is not a student's agent


@dataclass
class Roster:
    """The agents found in a folder, and the files left out with their reasons."""

    folder: str
    entrants: list[Entrant] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    unavailable: str = ""  # why no agent could be loaded here (in a browser), else ""

    def format(self) -> str:
        names = ", ".join(printable(e.label) for e in self.entrants) or "none"
        lines = [self.unavailable] if self.unavailable else []
        lines += [f"{len(self.entrants)} agents from {printable(Path(self.folder).name)}: {names}"]
        lines += [f"  left out {printable(name)}: {printable(reason)}"
                  for name, reason in self.rejected]
        return "\n".join(lines)


def load_folder(folder: str | Path, limits: Limits = Limits()) -> Roster:
    """The agents of ``folder``'s ``.py`` files and notebooks, in file-name order, each
    checked by loading it in a sandbox. In a browser, where no sandbox can start, the roster
    is empty and says why (a class tournament then plays the built-in agents only)."""
    if not processes_available():
        return Roster(str(folder), unavailable=BROWSER_ROSTER)
    root = Path(folder)
    if not root.is_dir():
        raise ClassroomError(f"no folder {str(folder)!r}")
    if limits.isolated:
        jail.require("a student's agent")
    roster = Roster(str(folder))
    for path in sorted(root.iterdir()):
        if path.suffix not in (".py", ".ipynb") or path.name.startswith((".", "_")):
            continue
        try:
            entrant = read_entrant(path, root)
            check_label(entrant.label, roster)
            load(entrant, limits)
        except CannotStart:
            raise
        except (ClassroomError, Forfeit) as error:
            roster.rejected.append((path.name, str(error)))
            continue
        roster.entrants.append(entrant)
    return roster


def read_entrant(path: Path, root: Path) -> Entrant:
    """The file's agent as data: its label (the file's stem) and its source."""
    text = read_text(path, root)
    source = text if path.suffix == ".py" else notebook_source(text)
    return Entrant(path.stem, filename=path.name, source=source)


def read_text(path: Path, root: Path, most: int = MAX_BYTES) -> str:
    """A regular file's text: opened without blocking (a FIFO cannot hang us) and checked
    again once open, at most ``most`` bytes."""
    try:
        data = read_regular(path, root, most)
    except Unreadable as error:
        raise ClassroomError(str(error)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ClassroomError("is not UTF-8 text") from None


def notebook_source(text: str) -> str:
    """The code of a notebook's cells tagged ``agent``, in order."""
    tagged = [source for kind, source, tags in notebook_cells(text)
              if kind == "code" and TAG in tags]
    if not tagged:
        raise ClassroomError(f"has no code cell tagged {TAG!r}")
    return "\n\n".join(tagged)


def notebook_cells(text: str) -> list[tuple[str, str, list[str]]]:
    """Each cell's (type, source, tags), or a ``ClassroomError`` saying what is malformed."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ClassroomError("is not a readable notebook (nested too deeply)") from None
    except ValueError as error:
        where = f": line {error.lineno}" if isinstance(error, json.JSONDecodeError) else ""
        raise ClassroomError(f"is not a readable notebook (not JSON{where})") from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise ClassroomError("is not a readable notebook (no list of cells)")
    found = []
    for number, cell in enumerate(cells, 1):
        source = cell.get("source", "") if isinstance(cell, dict) else None
        source = "".join(source) if isinstance(source, list) and all(
            isinstance(line, str) for line in source) else source
        metadata = cell.get("metadata", {}) if isinstance(cell, dict) else None
        tags = metadata.get("tags", []) if isinstance(metadata, dict) else None
        if not isinstance(source, str) or not isinstance(tags, list) \
                or not isinstance(cell.get("cell_type"), str):
            raise ClassroomError(f"is not a readable notebook (cell {number} is malformed)")
        found.append((cell["cell_type"], source, [t for t in tags if isinstance(t, str)]))
    return found


def check_label(label: str, roster: Roster) -> None:
    if label in AGENTS:
        raise ClassroomError(f"is named like the built-in agent {label!r}; rename the file")
    if any(entrant.label == label for entrant in roster.entrants):
        raise ClassroomError(f"another file already defines an agent called {label!r}")


def load(entrant: Entrant, limits: Limits) -> None:
    """Start the student's box, which loads the file once: a ``Forfeit`` says why it cannot
    play. The box stays for the games (``Box.get``)."""
    Box.get(entrant, limits)
