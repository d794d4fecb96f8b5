"""Student copies of the notebooks: every cell tagged ``solution`` removed, the rest kept.

    python tools/handout.py SOURCE OUT      (SOURCE: a folder of notebooks or one .ipynb)

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


def handout(nb):
    """``nb`` without its solution cells (a new notebook; ``nb`` is left alone)."""
    import copy

    from nbconvert.preprocessors import TagRemovePreprocessor
    remover = TagRemovePreprocessor(remove_cell_tags={SOLUTION_TAG}, enabled=True)
    student, _ = remover.preprocess(copy.deepcopy(nb), {})
    return student


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

    paths, out, _ = sources_and_folder(
        argv, "handout.py", "Student copies of the notebooks, without solution cells.")
    exporter = NotebookExporter()
    for path in paths:
        nb = read(path)
        student = handout(nb)
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
