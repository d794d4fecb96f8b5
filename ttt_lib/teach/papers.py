"""A class's submissions as the grader reads them, and the course they are graded against.

Each ``.ipynb`` under the class folder is read here, outside any box, as bytes checked for
shape at every level (a FIFO, a device, a folder, a link out of the folder, a file too long
or JSON of any shape gets its problem, never an exception); its exercises are the checkers
its cells call. Who handed it in: its first folder, its file name, or the roster.

The course decides what counts (``course_points``): the exercises and their points come from
the instructor's notebooks (the package's own ``notebooks/`` beside ``ttt_lib``, or the
folder ``--course`` names), never from a submission's cells, so an exercise a student made
up is ignored and flagged, and no submission changes anyone's points. A notebook reached
through a symbolic link (or the same file twice) is not graded as the linker's work; the
notebooks of one student are one student (``one_student_flags``), each exercise counted once.
"""
from __future__ import annotations

import ast
import json
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..safetext import Unreadable, printable, read_regular

__all__ = ["CHECK_CALL", "DEFAULT_POINTS", "MAX_BYTES", "MOST_POINTS", "Paper",
           "course_points", "exercise_calls", "notebooks_in", "one_student_flags",
           "package_checkers", "papers_in", "points_in", "read_paper", "redefined",
           "student_of"]

MAX_BYTES = 64 << 20  # a longer file is not graded
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # a call, not a def
CHECKER_NAME = re.compile(r"check_\d\d_\w+")
DEFAULT_POINTS = 1  # an exercise whose cell's metadata gives none ({"ttt": {"points": N}})
MOST_POINTS = 1000
COURSE = Path(__file__).resolve().parents[2] / "notebooks"  # the package's own notebooks


# ------------------------------------------------------------------------- exercise calls

def exercise_calls(source: str) -> list[str]:
    """The checkers a cell's code calls, in order (commented-out lines do not count)."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    return CHECK_CALL.findall(code)


def redefined(source: str) -> set[str]:
    """The checkers a cell's code binds to something of its own: ``def check_...``,
    ``check_... = ...``, an import ``as check_...`` or from elsewhere than ``ttt_lib.teach``."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))  # IPython's magics
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {name for node in ast.walk(tree) for name in _bound(node)
            if CHECKER_NAME.fullmatch(name)}


def _bound(node) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, ast.ImportFrom) and node.module == "ttt_lib.teach" and not node.level:
        return [a.asname for a in node.names if a.asname and a.asname != a.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name for a in node.names]
    return []


def notebooks_in(folder: Path) -> list[Path]:
    """Every ``.ipynb`` under ``folder``, in name order (hidden folders such as
    ``.ipynb_checkpoints`` skipped)."""
    return sorted(path for path in folder.rglob("*.ipynb")
                  if not any(part.startswith(".") for part in path.relative_to(folder).parts))



# --------------------------------------------------------------- reading a submission, safely

@dataclass
class Paper:
    """A submission as read out here: its bytes, the checkers its cells call, or why it is
    not graded."""

    path: Path
    name: str
    data: bytes = b""
    exercises: list[str] = field(default_factory=list)
    problem: str = ""
    points: dict[str, int] = field(default_factory=dict)  # what its cells' metadata say
    student: str = ""
    redefines: list[str] = field(default_factory=list)  # checkers its cells bind themselves
    unknown: list[str] = field(default_factory=list)  # exercises the course does not know
    flags: list[str] = field(default_factory=list)


def read_paper(path: Path, folder: Path) -> Paper:
    """The file's bytes and exercises; a FIFO, a device, a folder, a link out of ``folder``,
    a file too long or malformed JSON of any shape gets its problem instead (never an
    exception, never a hang)."""
    paper = Paper(path, path.relative_to(folder).as_posix())
    paper.student = student_of(paper.name)
    link = _link_in(path, folder)
    if link:
        paper.problem = f"not graded: it is a link to {printable(link)}, not this student's work"
        paper.flags.append("a link to another file")
        return paper
    try:
        paper.data = _read_regular(path, folder)
        cells = _code_cells(paper.data)
        paper.exercises = sorted({call for source, _ in cells for call in exercise_calls(source)})
        paper.points = {call: points for source, points in cells
                        for call in exercise_calls(source) if points is not None}
        paper.redefines = sorted({name for source, _ in cells for name in redefined(source)})
    except ValueError as error:
        paper.problem = str(error)
    return paper


def _link_in(path: Path, folder: Path) -> str:
    """Where ``path`` leads when it, or a folder on the way to it from ``folder``, is a
    symbolic link ('' when none is)."""
    step = folder
    for part in path.relative_to(folder).parts:
        step = step / part
        if step.is_symlink():
            try:
                return path.resolve().relative_to(folder.resolve()).as_posix()
            except ValueError:
                return "a file outside the folder"
    return ""


def student_of(name: str) -> str:
    """Who handed in the file ``name`` (relative to the class folder): its first folder
    (``alice/02_minimax.ipynb`` is alice's), else the file's name without ``.ipynb``."""
    parts = name.split("/")
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".ipynb")


def points_in(metadata) -> int | None:
    """An exercise cell's points (``{"ttt": {"points": N}}``, a whole number from 0 to
    ``MOST_POINTS``), or None when its metadata give none that is valid."""
    ttt = metadata.get("ttt") if isinstance(metadata, dict) else None
    points = ttt.get("points") if isinstance(ttt, dict) else None
    if isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= MOST_POINTS:
        return points
    return None


def _read_regular(path: Path, folder: Path) -> bytes:
    try:
        return read_regular(path, folder, MAX_BYTES)
    except Unreadable as error:
        raise ValueError(f"not graded: it {error}") from None


def written_definitions(data: bytes) -> frozenset[str]:
    """The text (dedented) of every function and class a submission's code cells define as
    code, read by the grader from its file, never from the box: a definition held in a
    string, or in a cell that is not Python, is not among them."""
    try:
        sources = _code_sources(data)
    except ValueError:
        return frozenset()
    found = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # a cell of IPython magics, or not Python: it defines nothing here
        found |= definitions(source, tree)
    return frozenset(found)


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def definitions(source: str, tree: ast.AST) -> set[str]:
    """The text of each function and class defined anywhere in ``tree``."""
    return {definition_text(source, node) for node in ast.walk(tree)
            if isinstance(node, DEFINITIONS)}


def definition_text(source: str, node: ast.AST) -> str:
    """A definition's text in ``source``, dedented (a method or nested function's too)."""
    return textwrap.dedent(ast.get_source_segment(source, node, padded=True) or "")


def _code_sources(data: bytes) -> list[str]:
    """The code cells' sources of a notebook's JSON, checked for shape at every level."""
    return [source for source, _ in _code_cells(data)]


def _code_cells(data: bytes) -> list[tuple[str, int | None]]:
    """(source, points from its metadata) of each code cell of a notebook's JSON, checked
    for shape at every level."""
    try:
        cells = json.loads(data.decode("utf-8")).get("cells")
    except RecursionError:
        raise ValueError("not a notebook: nested too deeply") from None
    except (ValueError, AttributeError):  # not UTF-8, not JSON, not an object
        raise ValueError("not a notebook: not a JSON object") from None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no list of cells")
    sources = []
    for number, cell in enumerate(cells, 1):
        source = cell.get("source", "") if isinstance(cell, dict) else None
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str) or not isinstance(cell.get("cell_type"), str):
            raise ValueError(f"not a notebook: cell {number} is malformed")
        if cell["cell_type"] == "code":
            sources.append((source, points_in(cell.get("metadata"))))
    return sources


def papers_in(folder: Path, roster: dict[str, dict[str, str]] | None = None,
              course: dict[str, int] | None = None) -> list[Paper]:
    """Every notebook of ``folder`` read, each with its student (from ``roster`` when it
    names the file by its path in the folder or by its name); with ``course``, the
    exercises it does not know are set apart (``unknown``) and flagged. A file met twice
    (a hard link) is graded once; the notebooks of one student are flagged."""
    papers = [read_paper(path, folder) for path in notebooks_in(folder)]
    seen: dict[tuple[int, int], str] = {}
    for paper in papers:
        entry = (roster or {}).get(paper.name) or (roster or {}).get(paper.path.name)
        paper.student = entry["student"] if entry else paper.student
        if course is not None:
            paper.unknown = [name for name in paper.exercises if name not in course]
            paper.exercises = [name for name in paper.exercises if name in course]
            if paper.unknown:
                paper.flags.append(f"ignores {', '.join(paper.unknown)} (not in the course)")
        _once(paper, seen)
    one_student_flags(papers)
    return papers


def _once(paper: Paper, seen: dict) -> None:
    """A file already graded under another name (the same inode) gets a problem instead."""
    if paper.problem:
        return
    try:
        status = paper.path.stat()
    except OSError:
        return
    first = seen.setdefault((status.st_dev, status.st_ino), paper.name)
    if first != paper.name:
        paper.problem = f"not graded: it is the same file as {printable(first)}"
        paper.exercises, paper.data = [], b""
        paper.flags.append("the same file as another")


def one_student_flags(papers: list[Paper]) -> None:
    """Flag each notebook of a student who handed in several: they are one student (the
    table and Canvas count each exercise once, from the best of them)."""
    from collections import Counter
    counts = Counter(paper.student for paper in papers)
    for paper in papers:
        if counts[paper.student] > 1:
            paper.flags.append(f"one of {counts[paper.student]} notebooks of "
                               f"{printable(paper.student)}: each exercise counted once")


# ------------------------------------------------------------------------------ the course

def package_checkers() -> dict[str, object]:
    """Every exercise the package defines: {name: its checker, the plain function of its
    ``nbNN`` module (not the exported wrapper)}."""
    import importlib
    import pkgutil

    from .. import teach
    found = {}
    for info in sorted(pkgutil.iter_modules(teach.__path__), key=lambda info: info.name):
        if info.name.startswith("nb"):
            module = importlib.import_module(f"{teach.__name__}.{info.name}")
            found.update({name: getattr(module, name) for name in module.__all__
                          if CHECKER_NAME.fullmatch(name)})
    return found


def course_points(course: Path | None = None) -> dict[str, int]:
    """{exercise: points} of the course: the checkers the instructor's notebooks in
    ``course`` call (default: the package's notebooks; every checker of the package when
    that folder is absent), each with the points its cell's metadata give
    (``DEFAULT_POINTS`` when none). Only exercises the package can judge count."""
    known = package_checkers()
    folder = COURSE if course is None else course
    if course is None and not folder.is_dir():
        return {name: DEFAULT_POINTS for name in sorted(known)}
    called, stated_points = set(), {}
    for path in notebooks_in(folder):
        try:
            cells = _code_cells(read_regular(path, folder, MAX_BYTES))
        except ValueError:  # an unreadable notebook of the course adds nothing
            continue
        for source, stated in cells:
            for name in exercise_calls(source):
                if name in known:
                    called.add(name)
                    if stated is not None:
                        stated_points.setdefault(name, stated)
    return {name: stated_points.get(name, DEFAULT_POINTS) for name in sorted(called)}
