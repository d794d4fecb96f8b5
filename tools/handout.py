"""Student copies of the notebooks: every cell tagged ``solution`` removed, the rest kept.

    python tools/handout.py SOURCE OUT [--graded]   (SOURCE: a folder of notebooks or one .ipynb)

The practice handout keeps the answers after each exercise: the listing of the library's
answer (``show_source(minimax)`` after ``my_minimax``'s cell). It drops the stored outputs of
the cells after an exercise that use the student's names (``clear_student_outputs``: they were
made by the solution's run), so a student's stub shows ``Not yet`` and nothing below it shows
the solution's results. ``--graded`` (``make handout GRADED=1``), a copy for credit, also
drops the listings: after a write-it's student cell, every
``show_source`` (and ``source_text``, ``getsource``) of a function that write-it forbids
(its checker's ``forbids``: what would solve it) is taken out of its cell, and the cell with
it when nothing else is left; and every later cell that uses a name the student's cell
defines (``my_minimax``) keeps its code but loses its stored outputs.

Each exercise cell carries nbgrader's id of its answer cell in the course's nbgrader release
(``nbgrader_ids``), so a handout's copy handed in to nbgrader autogrades.

Uses nbconvert's TagRemovePreprocessor; the kept cells keep their stored outputs (the
removed cells take theirs with them), so a handout opens looking like the course, minus the
worked answers. An exercise checked only inside solution cells (``check_NN_...`` with no
student cell left) is named on stderr: its handout would not ask it. Bad arguments exit with
status 2 and one line.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from course import UsageError, course_notebooks, main, parser, read

SOLUTION_TAG = "solution"
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")  # as ttt_lib.teach.grade
LISTING = re.compile(r"\b(?:show_source|source_text|getsource)\(\s*([\w.]+)\s*\)")
DEFINED = re.compile(r"^(?:def|class)\s+(\w+)|^(\w+)\s*=", re.MULTILINE)


def handout(nb):
    """``nb`` without its solution cells (a new notebook; ``nb`` is left alone)."""
    import copy

    from nbconvert.preprocessors import TagRemovePreprocessor
    remover = TagRemovePreprocessor(remove_cell_tags={SOLUTION_TAG}, enabled=True)
    student, _ = remover.preprocess(copy.deepcopy(nb), {})
    return student


def nbgrader_ids(nb):
    """``nb`` (a handout) with nbgrader's id on each exercise cell, the id of that exercise's
    answer cell in ``python -m ttt_lib export nbgrader``'s release, so whatever copy a student
    hands in (this handout, the site's, Binder's, Colab's) autogrades (``teach.export``)."""
    from ttt_lib.teach.export import with_nbgrader_ids
    return with_nbgrader_ids(nb)


def clear_student_outputs(nb):
    """``nb`` (a handout) without the stored outputs of the solution's run: after each
    exercise's student cell, every code cell that uses a name the student's cell defines
    (``my_minimax``, a class ``WinBlock``; not ``answer``) keeps its code but loses its
    stored outputs, which the course's run made with the removed solution. The student's own
    cells keep theirs: run on the stub, they say ``Not yet``."""
    theirs: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if checked_cell(cell):
            theirs |= {a or b for a, b in DEFINED.findall(cell.source)} - {"answer"}
        elif theirs and _uses(cell.source, theirs):
            cell.outputs, cell.execution_count = [], None
    return nb


def forbidden_names(checker: str) -> set[str]:
    """The names of what a write-it checker forbids (functions, and methods both as
    ``Class.method`` and ``method``); empty for a checker that is not a write-it."""
    from ttt_lib import teach
    function = getattr(teach, checker, None)
    if not getattr(function, "write_it", False):
        return set()
    names = set()
    for item in function.forbids:
        if isinstance(item, tuple):
            owner, method = item
            owner = getattr(owner, "__name__", str(owner))
            names |= {method, owner, f"{owner}.{method}"}
        else:
            names.add(getattr(item, "__name__", str(item)))
    return names


def _code_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if not line.lstrip().startswith("#")]


def _uses(source: str, names: set[str]) -> bool:
    code = "\n".join(_code_lines(source))
    return any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", code) for name in names)


def graded(nb):
    """``nb`` (a handout) for credit: after each write-it's student cell, listings of what it
    forbids removed, and the stored outputs of cells using the student's names cleared."""
    forbidden: set[str] = set()
    theirs: set[str] = set()
    kept = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            kept.append(cell)
            continue
        calls = checked_cell(cell)
        if calls:
            for name in calls:
                forbidden |= forbidden_names(name)
            if any(forbidden_names(name) for name in calls):
                theirs |= {a or b for a, b in DEFINED.findall(cell.source)} - {"answer"}
            kept.append(cell)
            continue
        source = _without_listings(cell.source, forbidden)
        if source != cell.source:
            cell.source, cell.outputs, cell.execution_count = source, [], None
            if not any(line.strip() and not line.lstrip().startswith(("from ", "import "))
                       for line in _code_lines(source)):
                continue  # nothing left but imports: the cell goes
        if theirs and _uses(cell.source, theirs):
            cell.outputs, cell.execution_count = [], None
        kept.append(cell)
    nb.cells = kept
    return nb


def _without_listings(source: str, forbidden: set[str]) -> str:
    """``source`` without its lines that list a forbidden function's code; '' when a
    listing inside a block (``for f in (A.x, A.y): show_source(f)``) could list one."""
    def lists(line: str) -> bool:
        return any(argument in forbidden or argument.rsplit(".", 1)[-1] in forbidden
                   for argument in LISTING.findall(line))
    lines = source.splitlines()
    if any(LISTING.search(line) and line[:1].isspace() for line in lines) \
            and _uses(source, forbidden):
        return ""
    return "\n".join(line for line in lines if not lists(line)).strip("\n")


def checked_cell(cell) -> list[str]:
    """The checkers one code cell calls (commented-out lines left out)."""
    return [name for line in _code_lines(cell.source) for name in CHECK_CALL.findall(line)]


def checked(nb) -> set[str]:
    """The checkers the code cells of ``nb`` call (commented-out lines left out)."""
    return {name for cell in nb.cells if cell.cell_type == "code"
            for line in cell.source.splitlines() if not line.lstrip().startswith("#")
            for name in CHECK_CALL.findall(line)}


def sources(source: Path) -> list[Path]:
    if source.is_dir():
        found = course_notebooks(source) or sorted(source.glob("*.ipynb"))
        if not found:
            raise UsageError(f"{source} holds no notebooks")
        return found
    if source.suffix == ".ipynb" and source.is_file():
        return [source]
    raise UsageError(f"{source} is neither a folder nor a .ipynb file")


def sources_and_folder(argv: list[str], prog: str, description: str,
                       extra=None) -> tuple[list[Path], Path, object]:
    """Parse ``SOURCE OUT`` (what handout.py and slides.py both take; ``extra(parser)`` adds
    a tool's own options); create OUT. Returns the notebooks, OUT and the parsed options."""
    args = parser(prog, description)
    args.add_argument("source", help="a folder of notebooks, or one .ipynb")
    args.add_argument("out", help="the folder the results go to")
    if extra is not None:
        extra(args)
    options = args.parse_args(argv)
    paths = sources(Path(options.source))
    out = Path(options.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    return paths, out, options


def run(argv: list[str]) -> int:
    from nbconvert.exporters import NotebookExporter

    paths, out, options = sources_and_folder(
        argv, "handout.py", "Student copies of the notebooks, without solution cells.",
        lambda args: args.add_argument(
            "--graded", action="store_true",
            help="a copy for credit: no listing of a write-it's answer, no stored output of "
                 "the solution's run"))
    exporter = NotebookExporter()
    for path in paths:
        nb = read(path)
        student = nbgrader_ids(clear_student_outputs(handout(nb)))
        if options.graded:
            student = graded(student)
        text, _ = exporter.from_notebook_node(student)
        (out / path.name).write_text(text if text.endswith("\n") else text + "\n",
                                     encoding="utf-8")
        removed = len(nb.cells) - len(student.cells)
        print(f"{out / path.name}: {removed} solution cell{'s' * (removed != 1)} removed")
        for name in sorted(checked(nb) - checked(student)):
            print(f"{path.name}: {name} is checked only in solution cells", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
