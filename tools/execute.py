"""Execute notebooks top to bottom in a fresh kernel, save them with their outputs, then
refresh every navigation line. Prints how long each notebook took.

    python tools/execute.py [NOTEBOOK ...]      (default: every notebook in notebooks/)

This is ``jupyter nbconvert --to notebook --execute --inplace`` followed by
``tools/navigation.py``, except that no per-cell timing metadata is stored (it would change the
file on every run without changing anything a reader sees). A cell that raises stops the run
with exit status 1; bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from course import NOTEBOOKS, UsageError, course_notebooks, main, parser, read, write_if_changed

import navigation


def execute(path: Path, timeout: int = 600):
    """The notebook at ``path`` run in a fresh kernel whose working folder is its folder."""
    from nbclient import NotebookClient

    nb = read(path)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    return nb


def run(argv: list[str]) -> int:
    from nbclient.exceptions import CellExecutionError

    args = parser("execute.py", "Execute notebooks in place, then refresh the navigation.")
    args.add_argument("notebooks", nargs="*", help="the notebooks (default: all of the course)")
    args.add_argument("--no-navigation", action="store_true",
                      help="leave the navigation lines alone (run tools/navigation.py later)")
    options = args.parse_args(argv)
    paths = [Path(p) for p in options.notebooks] or course_notebooks(NOTEBOOKS)
    for path in paths:
        if path.suffix != ".ipynb" or not path.is_file():
            raise UsageError(f"{path} is not a notebook file")
    total = 0.0
    for path in paths:
        start = time.perf_counter()
        try:
            nb = execute(path)
        except CellExecutionError as error:
            print(f"{path.name}: a cell failed\n{error}", file=sys.stderr)
            return 1
        seconds = time.perf_counter() - start
        total += seconds
        write_if_changed(nb, path)
        print(f"{path.name}: executed in {seconds:.1f} s")
    if len(paths) > 1:
        print(f"all {len(paths)}: {total:.1f} s")
    if options.no_navigation:
        return 0
    for folder in sorted({p.parent.resolve() for p in paths}):
        navigation.run([str(folder)])
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
