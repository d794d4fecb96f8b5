"""A Gradescope autograder for the course: ``python -m ttt_lib export gradescope OUT.zip``.

The zip holds what Gradescope asks for: ``setup.sh`` (run once when the autograder is built:
Python, then this package from ``package/`` inside the zip, with nbclient and ipykernel) and
``run_autograder`` (run for each submission), plus ``points.json`` (each exercise's points,
read from the course notebooks' cell metadata at export). ``run_autograder`` calls
``python -m ttt_lib.teach.export_gradescope``, which grades every ``.ipynb`` in
``/autograder/submission`` with the course's grader (each notebook run afresh in its own
process, its answers judged again on fresh cases, printed verdicts never read) and writes
``/autograder/results/results.json``: ``score``, and one test per exercise (``name``,
``score``, ``max_score``, ``output``: the checker's line, its hint when Not yet). The root
``/autograder`` can be moved with the environment variable ``TTT_AUTOGRADER_ROOT`` (the tests
lay out a temporary one), the Python with ``TTT_PYTHON``.
"""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

from .grade import TIMEOUT, Graded, fresh_seed, grade_in_box, notebooks_in, papers_in

__all__ = ["export_gradescope", "results", "run_autograder"]

ROOT_VARIABLE = "TTT_AUTOGRADER_ROOT"
SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder: Python and the course's package.
set -euo pipefail
apt-get update -qq && apt-get install -y -qq python3 python3-pip python3-venv >/dev/null
pip3 install --break-system-packages /autograder/source/package nbclient nbformat ipykernel \\
  || pip3 install /autograder/source/package nbclient nbformat ipykernel
"""
RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for each submission: the notebooks in submission/ graded afresh,
# results/results.json written (python -m ttt_lib export gradescope made this file).
set -u
exec "${TTT_PYTHON:-python3}" -m ttt_lib.teach.export_gradescope \\
  --root "${TTT_AUTOGRADER_ROOT:-/autograder}"
"""
PACKAGE_FILES = ("pyproject.toml", "README.md", "CITATION.cff")  # beside ttt_lib/


def export_gradescope(points: dict[str, int], out: Path) -> str:
    """Write the autograder zip ``out`` for exercises worth ``points`` ({checker: points})."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", SETUP)
        _add(archive, "run_autograder", RUN)
        _add(archive, "points.json", json.dumps(points, indent=1, sort_keys=True) + "\n")
        _add_package(archive)
    return f"{len(points)} exercises, {sum(points.values())} points"


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

def results(graded: list[Graded], points: dict[str, int]) -> dict:
    """Gradescope's results.json for a submission's graded notebooks: one test per exercise
    of ``points`` (Right in any notebook counts), the checker's line as its output."""
    tests = []
    for name in sorted(points):
        found = [one for one in graded if one.status(name) != "missing"]
        right = next((one for one in found if one.status(name) == "Right"), None)
        shown = right or (found[0] if found else None)
        output = shown.lines.get(name) if shown else f"missing: no cell calls {name}"
        tests.append({"name": name, "score": points[name] if right else 0,
                      "max_score": points[name], "output": output, "visibility": "visible"})
    notes = [f"{one.file}: {text}" for one in graded for text in (one.problem, one.flags) if text]
    return {"score": sum(test["score"] for test in tests), "tests": tests,
            "output": "\n".join(notes) or "graded on fresh cases, every notebook run afresh"}


def run_autograder(root: Path, timeout: float = TIMEOUT) -> dict:
    """Grade ``root/submission/*.ipynb`` (no sandbox: Gradescope's container is one) and
    write ``root/results/results.json``; return what it holds."""
    points = json.loads((root / "source" / "points.json").read_text(encoding="utf-8"))
    submission = root / "submission"
    seed = fresh_seed()
    graded = [grade_in_box(paper, timeout, None, seed)
              for paper in papers_in(submission)] if notebooks_in(submission) else []
    found = results(graded, points)
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(found, indent=1) + "\n",
                                                   encoding="utf-8")
    return found


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.teach.export_gradescope")
    parser.add_argument("--root", default=os.environ.get(ROOT_VARIABLE, "/autograder"))
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    arguments = parser.parse_args()
    run_autograder(Path(arguments.root), arguments.timeout)
