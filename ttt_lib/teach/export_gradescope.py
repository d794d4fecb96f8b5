"""A Gradescope autograder for the course: ``python -m ttt_lib export gradescope OUT.zip``.

The zip holds what Gradescope asks for: ``setup.sh`` (run once when the autograder is built)
and ``run_autograder`` (run for each submission), plus ``points.json`` (each exercise's points,
read from the course notebooks' cell metadata at export) and ``package/`` (this package's
source). ``setup.sh`` makes a venv of its own, ``ROOT/venv``, from the system's ``python3``
(the system Python is left alone) and installs the package there with its ``autograde``
extra: what running a course notebook needs (matplotlib, networkx, numpy, scipy, ipywidgets,
dask) and the kernel that runs it (nbclient, nbformat, ipykernel). ``run_autograder`` calls
``python -m ttt_lib.teach.export_gradescope`` with that venv's Python, which grades every
``.ipynb`` in ``ROOT/submission`` with the course's grader (each notebook run afresh in its
own process, its answers judged again on fresh cases, printed verdicts never read) and writes
``ROOT/results/results.json``: ``score``, and one test per exercise in the course's order
(``name``, ``score``, ``max_score``, ``status``: Gradescope's ``passed`` when Right, else
``failed``; ``tags``: the status ``grade``'s table gives, ``Right``, ``Not yet``, ``not
attempted`` or ``missing``, and ``delegated`` when the write-it called the library; ``output``:
that status first, then the checker's line and hint, ``delegated: check_02_negamax
(negamax)`` when so, or why it was never judged). ``course.json`` holds the course's order and
each exercise cell as handed out, so a cell still the handout's stub is "not attempted" as in
``grade``'s table. ``export gradescope --keep-going`` writes ``--keep-going`` into
``run_autograder``: every cell then runs past one that raised (nbgrader's way); without it a
notebook's run stops there, as ``grade``'s does by default.

Two environment variables move things (Gradescope sets neither): ``TTT_AUTOGRADER_ROOT``,
the root (``/autograder`` on Gradescope; setup.sh's default is the folder above its own),
and ``TTT_PYTHON``, the Python that grades (default ``ROOT/venv/bin/python``; setup.sh
then installs into it instead of making a venv). setup.sh's pip obeys pip's own variables
(``PIP_INDEX_URL``, ``PIP_FIND_LINKS``, ``PIP_NO_INDEX``), so it can install offline.
"""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

from .classfolder import Course, untouched
from .grade import TIMEOUT, Graded, fresh_seed, grade_in_box, notebooks_in, papers_in
from .gradebook import NOT_ATTEMPTED, delegated, in_order, status

__all__ = ["export_gradescope", "results", "run_autograder"]

ROOT_VARIABLE = "TTT_AUTOGRADER_ROOT"
SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder (python -m ttt_lib export
# gradescope made this file): a venv of its own at ROOT/venv, from the system's python3, and
# in it the course's package with what grading a notebook needs (its autograde extra).
# ROOT: $TTT_AUTOGRADER_ROOT, else the folder above this one (/autograder on Gradescope).
# $TTT_PYTHON: install into that Python instead of making a venv.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="${TTT_AUTOGRADER_ROOT:-$(dirname "$here")}"
python="${TTT_PYTHON:-$root/venv/bin/python}"
if [ -z "${TTT_PYTHON:-}" ] && [ ! -x "$python" ]; then
  if ! python3 -m venv "$root/venv" 2>/dev/null; then
    # Debian and Ubuntu ship venv apart from Python (Gradescope's images are Ubuntu)
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \\
      apt-get install -y -qq python3 python3-venv >/dev/null
    python3 -m venv --clear "$root/venv"
  fi
fi
"$python" -m pip install --quiet --disable-pip-version-check "$here/package[autograde]"
"$python" -c "import ttt_lib, matplotlib, nbclient, ipykernel"
echo "setup.sh: ttt-search installed for $python"
"""
RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for each submission: the notebooks in submission/ graded afresh,
# results/results.json written (python -m ttt_lib export gradescope made this file).
# --keep-going at the end: every cell runs past one that raised (export ... --keep-going).
set -u
root="${TTT_AUTOGRADER_ROOT:-/autograder}"
exec "${TTT_PYTHON:-$root/venv/bin/python}" -m ttt_lib.teach.export_gradescope --root "$root"@KEEP_GOING@
"""
KEEP_GOING = " --keep-going"  # run_autograder's word for running past a cell that raised
BEST_FIRST = ("Right", "Not yet", NOT_ATTEMPTED, "missing")  # grade's statuses, best first
PACKAGE_FILES = ("pyproject.toml", "README.md", "CITATION.cff")  # beside ttt_lib/


def export_gradescope(points: dict[str, int], out: Path, course: Course | None = None,
                      keep_going: bool = False) -> str:
    """Write the autograder zip ``out`` for exercises worth ``points`` ({checker: points});
    ``course``: their order and cells as handed out (``classfolder.course_cells``);
    ``keep_going``: run every cell past one that raised (default: stop there, as ``grade``)."""
    course = course or Course(sorted(points), {})
    handed_out = {"order": [name for name in course.order if name in points],
                  "stubs": {name: sorted(course.stubs[name]) for name in sorted(points)
                            if name in course.stubs}}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", SETUP)
        _add(archive, "run_autograder",
             RUN.replace("@KEEP_GOING@", KEEP_GOING if keep_going else ""))
        _add(archive, "points.json", json.dumps(points, indent=1, sort_keys=True) + "\n")
        _add(archive, "course.json", json.dumps(handed_out, indent=1) + "\n")
        _add_package(archive)
    return (f"{len(points)} exercises, {sum(points.values())} points"
            f"{', every cell run past an error' if keep_going else ''}")


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.external_attr = (0o755 if not name.endswith(".json") else 0o644) << 16
    archive.writestr(info, text)


def _add_package(archive: zipfile.ZipFile) -> None:
    """The package's source, to install with pip: ttt_lib/ and the files its build reads."""
    top = Path(__file__).resolve().parents[2]
    names = [*PACKAGE_FILES, *(p.name for p in top.glob("LICENSE*"))]
    for name in names:
        if (top / name).is_file():
            archive.write(top / name, f"package/{name}")
    for path in sorted((top / "ttt_lib").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            archive.write(path, f"package/{path.relative_to(top).as_posix()}")


# ------------------------------------------------------------------ inside Gradescope

def results(graded: list[Graded], points: dict[str, int],
            left: dict[str, set[str]] | None = None, order: list[str] | None = None) -> dict:
    """Gradescope's results.json for a submission's graded notebooks: one test per exercise
    of ``points`` in the course's ``order`` (Right in any notebook counts), each with the
    status ``grade``'s table gives it (``left``: {file: its exercises not attempted})."""
    tests = [_test(name, points[name], graded, left or {}) for name in in_order(points, order)]
    notes = [f"{one.file}: {text}" for one in graded for text in (one.problem, one.flags) if text]
    return {"score": sum(test["score"] for test in tests), "tests": tests,
            "output": "\n".join(notes) or "graded on fresh cases, every notebook run afresh"}


def _test(name: str, most: int, graded: list[Graded], left: dict[str, set[str]]) -> dict:
    """One exercise's test, with the status ``grade``'s table gives it, from the notebook
    that did best on it (Right, else Not yet, else not attempted, else missing)."""
    seen = [(status(one, name, left.get(one.file, set())), one) for one in graded
            if name in one.exercises or name in one.lines]
    said, shown = min(seen, key=lambda pair: BEST_FIRST.index(pair[0]), default=("missing", None))
    line = shown.lines.get(name, "") if shown else ""
    called = delegated(shown, [name]) if shown and said == "Not yet" else ""
    if said == "missing":
        output = f"missing: {_never_judged(name, graded)}"
    elif said == NOT_ATTEMPTED:
        output = "\n".join(part for part in (f"{NOT_ATTEMPTED}: the cell is still the "
                                              "handout's stub", line) if part)
    else:
        output = "\n".join([line] + [f"delegated: {called}"] * bool(called))
    return {"name": name, "score": most if said == "Right" else 0, "max_score": most,
            "status": "passed" if said == "Right" else "failed",
            "tags": [said] + ["delegated"] * bool(called), "output": output,
            "visibility": "visible"}


def _never_judged(exercise: str, graded: list[Graded]) -> str:
    """Why no notebook has a verdict on ``exercise``: no cell calls it, or every notebook
    that calls it stopped (its problem said) before that cell's checker printed one."""
    calling = [one for one in graded if exercise in one.exercises]
    if not calling:
        return f"no cell calls {exercise}"
    one = calling[0]
    why = f": {one.problem}" if one.problem else ""
    return (f"{one.file} calls {exercise}, but its run stopped before that checker gave a "
            f"verdict{why}")


def run_autograder(root: Path, timeout: float = TIMEOUT, keep_going: bool = False) -> dict:
    """Grade ``root/submission/*.ipynb`` (no sandbox: Gradescope's container is one), each
    exercise of the course's ``points.json`` judged as ``grade`` judges it (``keep_going``:
    every cell runs past one that raised), and write ``root/results/results.json``; return
    what it holds."""
    source = root / "source"
    points = json.loads((source / "points.json").read_text(encoding="utf-8"))
    course = _handed_out(source / "course.json")
    submission = root / "submission"
    seed = fresh_seed()
    papers = papers_in(submission, course=points) if notebooks_in(submission) else []
    graded = [grade_in_box(paper, timeout, None, seed, keep_going=keep_going)
              for paper in papers]
    left = {paper.name: untouched(paper.data, course) for paper in papers}
    found = results(graded, points, left, course.order)
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(found, indent=1) + "\n",
                                                   encoding="utf-8")
    return found


def _handed_out(path: Path) -> Course:
    """The course's order and exercise cells as handed out (none from an older zip)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Course([], {})
    return Course(list(found.get("order", [])),
                  {name: set(cells) for name, cells in found.get("stubs", {}).items()})


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.teach.export_gradescope")
    parser.add_argument("--root", default=os.environ.get(ROOT_VARIABLE, "/autograder"))
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--keep-going", action="store_true",
                        help="run the cells after one that raised (default: stop at it)")
    arguments = parser.parse_args()
    run_autograder(Path(arguments.root), arguments.timeout, arguments.keep_going)
