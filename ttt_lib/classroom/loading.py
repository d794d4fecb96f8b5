"""A class's agents from a folder: every ``.py`` file, and every notebook's cells tagged
``agent``, that defines exactly one agent (a subclass of ``ttt_lib.player.Agent`` or a
``choose(state)`` function).

This process only reads the files as text. Running a file's code (which is what importing
it means) happens in a sandbox, exactly as its games will; a file that does not compile,
raises, or defines no agent or two is listed with the reason and left out. Only files inside
the folder are read: a link pointing out of it is refused.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import AGENTS
from .worker import ClassroomError, Entrant, Forfeit, Limits, Sandbox, require_processes

TAG = "agent"  # the tag of a notebook's agent cells


@dataclass
class Roster:
    """The agents found in a folder, and the files left out with their reasons."""

    folder: str
    entrants: list[Entrant] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)

    def format(self) -> str:
        lines = [f"{len(self.entrants)} agents from {Path(self.folder).name}: "
                 f"{', '.join(e.label for e in self.entrants) or 'none'}"]
        lines += [f"  left out {name}: {reason}" for name, reason in self.rejected]
        return "\n".join(lines)


def load_folder(folder: str | Path, limits: Limits = Limits()) -> Roster:
    """The agents of ``folder``'s ``.py`` files and notebooks, in file-name order, each
    checked by loading it in a sandbox."""
    require_processes()
    root = Path(folder)
    if not root.is_dir():
        raise ClassroomError(f"no folder {str(folder)!r}")
    roster = Roster(str(folder))
    for path in sorted(root.iterdir()):
        if path.suffix not in (".py", ".ipynb") or path.name.startswith((".", "_")):
            continue
        try:
            entrant = read_entrant(path, root)
            check_label(entrant.label, roster)
            load(entrant, limits)
        except (ClassroomError, Forfeit) as error:
            roster.rejected.append((path.name, str(error)))
            continue
        roster.entrants.append(entrant)
    return roster


def read_entrant(path: Path, root: Path) -> Entrant:
    """The file's agent as data: its label (the file's stem) and its source."""
    if not path.resolve().is_relative_to(root.resolve()):
        raise ClassroomError("points outside the folder")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ClassroomError(f"cannot be read: {error}") from None
    source = text if path.suffix == ".py" else notebook_source(text)
    return Entrant(path.stem, filename=path.name, source=source)


def notebook_source(text: str) -> str:
    """The code of a notebook's cells tagged ``agent``, in order."""
    try:
        cells = json.loads(text)["cells"]
        tagged = ["".join(cell["source"]) if isinstance(cell["source"], list)
                  else cell["source"] for cell in cells
                  if cell.get("cell_type") == "code"
                  and TAG in cell.get("metadata", {}).get("tags", [])]
    except (ValueError, KeyError, TypeError):
        raise ClassroomError("is not a readable notebook") from None
    if not tagged:
        raise ClassroomError(f"has no code cell tagged {TAG!r}")
    return "\n\n".join(tagged)


def check_label(label: str, roster: Roster) -> None:
    if label in AGENTS:
        raise ClassroomError(f"is named like the built-in agent {label!r}; rename the file")
    if any(entrant.label == label for entrant in roster.entrants):
        raise ClassroomError(f"another file already defines an agent called {label!r}")


def load(entrant: Entrant, limits: Limits) -> None:
    """Run the file in a sandbox once: a ``Forfeit`` says why it cannot play."""
    sandbox = Sandbox(entrant, limits)
    try:
        sandbox.start()
    finally:
        sandbox.close()
