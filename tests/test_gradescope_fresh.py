"""The Gradescope autograder as Gradescope builds it: ``setup.sh`` run in an environment with
nothing of the development venv (a venv it makes from the system's python3, the package
installed from the zip with its ``autograde`` extra), then ``run_autograder`` on notebook 02
handed in right, wrong and blank: right scores every point of the course's 02, wrong and blank
score what ``grade`` gives them, exercise by exercise, with ``grade``'s statuses (the blank
one's exercises "not attempted").

pip installs from a folder of wheels downloaded once (``build/wheels/autograde-*``, reused
by later runs), so the test costs the install, not the download: here about 50 s of CPU for
setup.sh and 15 s for each run_autograder (the fixture prints its wall-clock times)."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from ttt_lib.teach.classfolder import course_cells, untouched
from ttt_lib.teach.grade import grade_folder
from ttt_lib.teach.gradebook import status
from ttt_lib.teach.papers import course_points

# it runs notebooks through the autograder (and installs a venv): outside the 60 s budget
pytestmark = pytest.mark.runs_notebooks

ROOT = Path(__file__).resolve().parent.parent
NAME = "02_minimax_and_negamax"
COURSE = ROOT / "notebooks" / f"{NAME}.ipynb"
WRONG_MINIMAX = ("def my_minimax(state):\n    if state.is_terminal():\n"
                 "        return state.utility()\n"
                 "    return max(my_minimax(state.play(m)) for m in state.moves())\n\n"
                 "check_02_minimax(my_minimax)")
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/usr/local/bin") or "python3"


def autograde_requirements() -> list[str]:
    """The autograde extra, and what pip needs to build the package from its source."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [*project["build-system"]["requires"],
            *project["project"]["optional-dependencies"]["autograde"]]


def python_tag(python: str) -> str:
    return subprocess.run([python, "-c", "import sys; print(sys.version_info[:2])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def wheel_folder(python: str) -> Path:
    """Wheels for the requirements, for ``python``'s version: downloaded once into build/
    (a fresh folder made whole, then renamed into place, so parallel runs never see half)."""
    requirements = autograde_requirements()
    key = hashlib.sha256(json.dumps([requirements, python_tag(python)]).encode()).hexdigest()
    folder = ROOT / "build" / "wheels" / f"autograde-{key[:12]}"
    if folder.is_dir():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".partial-"))
    version = python_tag(python).strip("()").replace(", ", "")
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                           "--disable-pip-version-check", "--only-binary", ":all:",
                           "--python-version", version, "-d", str(partial), *requirements],
                          capture_output=True, text=True, timeout=500)
    assert done.returncode == 0, done.stderr[-2000:]
    try:
        partial.rename(folder)
    except OSError:  # another run made it first
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def student_copies(folder: Path) -> dict[str, Path]:
    """Notebook 02 as three students hand it in: every solution typed into its exercise
    cell (right), minimax taking the largest at every level (wrong), the handout untouched
    (blank)."""
    course = nbformat.read(str(COURSE), as_version=4)
    cells, blank = [], []
    for cell in course.cells:
        if "solution" in cell.metadata.get("tags", []):
            cells[-1] = nbformat.from_dict({**cells[-1], "source": cell.source})
        else:
            cells.append(cell)
            blank.append(cell)
    papers = {"right": cells, "blank": blank,
              "wrong": [nbformat.from_dict({**cell, "source": WRONG_MINIMAX})
                        if "check_02_minimax(my_minimax)" in cell.source else cell
                        for cell in cells]}
    paths = {}
    for student, chosen in papers.items():
        nb = nbformat.from_dict({**course, "cells": chosen})
        paths[student] = folder / f"{student}.ipynb"
        nbformat.write(nb, str(paths[student]))
    return paths


def bash(script: Path, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(["bash", str(script)], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=500)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    return done


def clean_environment(root: Path, wheels: Path) -> dict[str, str]:
    """No venv, no PYTHONPATH: the system's PATH, pip pointed at the wheel folder only."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and not p.startswith(str(Path(sys.executable).parent)))
    return {"PATH": path, "HOME": str(root), "LANG": "C.UTF-8", "TTT_AUTOGRADER_ROOT": str(root),
            "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_CONFIG_FILE": os.devnull,
            "PIP_NO_COMPILE": "1"}  # Gradescope's build compiles; the test saves the time


@pytest.fixture(scope="module")
def autograded(tmp_path_factory):
    """The zip exported, setup.sh and run_autograder run for each student: their
    results.json, the times taken, and grade's rows of the same notebooks."""
    if subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--help"], capture_output=True).returncode:
        pytest.fail(f"{SYSTEM_PYTHON} cannot make a venv (install python3-venv)")
    work = tmp_path_factory.mktemp("gradescope-fresh")
    root = work / "autograder"
    zipped = work / "autograder.zip"
    done = subprocess.run([sys.executable, "-m", "ttt_lib", "export", "gradescope", str(zipped),
                           "--only", "02"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(root / "source")
    started = time.monotonic()
    wheels = wheel_folder(SYSTEM_PYTHON)
    env = clean_environment(root, wheels)
    env["PATH"] = os.pathsep.join([str(Path(SYSTEM_PYTHON).parent), env["PATH"]])
    downloaded = time.monotonic()
    bash(root / "source" / "setup.sh", env, cwd=root)
    installed = time.monotonic()
    (work / "papers").mkdir()
    papers = student_copies(work / "papers")
    running = {}
    for student, paper in papers.items():  # side by side, each in a root of its own
        place = work / student
        (place / "submission").mkdir(parents=True)
        shutil.copytree(root / "source", place / "source", ignore=shutil.ignore_patterns(
            "package"))
        shutil.copy(paper, place / "submission" / f"{NAME}.ipynb")
        running[student] = subprocess.Popen(
            ["bash", str(place / "source" / "run_autograder")], cwd=place,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**env, "TTT_AUTOGRADER_ROOT": str(place),
                 "TTT_PYTHON": str(root / "venv" / "bin" / "python")})
    try:
        rows = {Path(one.file).stem: one for one in grade_folder(work / "papers",
                                                                  case_seed=7, jobs=2)}
        found = {}
        for student, process in running.items():
            out, err = process.communicate(timeout=500)
            assert process.returncode == 0, (out[-2000:], err[-3000:])
            found[student] = json.loads((work / student / "results" /
                                         "results.json").read_text())
    finally:
        for process in running.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    graded = time.monotonic()
    times = {"wheels": downloaded - started, "setup.sh": installed - downloaded,
             "run_autograder x3 and grade, side by side": graded - installed}
    print("gradescope from a clean venv:", {k: f"{v:.0f} s" for k, v in times.items()})
    return root, found, rows, times


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_setup_sh_installs_into_a_venv_of_its_own(autograded):
    root, _, _, _ = autograded
    python = root / "venv" / "bin" / "python"
    assert python.is_file()
    where = subprocess.run([str(python), "-I", "-c", "import ttt_lib, sys; print(ttt_lib.__file__);"
                            "print(sys.prefix)"], capture_output=True, text=True, check=True,
                           env={"PATH": os.defpath}).stdout.split()
    assert where[0].startswith(str(root / "venv")) and where[1] == str(root / "venv")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_right_notebook_scores_every_point(autograded):
    _, found, _, _ = autograded
    right = found["right"]
    points = {name: value for name, value in course_points().items() if name[6:8] == "02"}
    assert right["score"] == sum(test["max_score"] for test in right["tests"]) \
        == sum(points.values()), right
    assert {test["name"]: test["max_score"] for test in right["tests"]} == points
    assert all(test["output"].startswith("Right") and test["status"] == "passed"
               for test in right["tests"])


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_wrong_and_blank_score_as_grade_grades_them(autograded):
    _, found, rows, _ = autograded
    wrong = {test["name"]: test for test in found["wrong"]["tests"]}
    assert found["wrong"]["score"] == found["right"]["score"] - wrong["check_02_minimax"][
        "max_score"] and found["blank"]["score"] == 0
    handed_out = course_cells()
    for student in ("right", "wrong", "blank"):
        tests = {test["name"]: test for test in found[student]["tests"]}
        assert set(tests) == set(rows[student].exercises)
        left = untouched((autograded[0].parent / "papers" / f"{student}.ipynb").read_bytes(),
                         handed_out)
        for name, test in tests.items():  # grade's status, the table's word for word
            said = status(rows[student], name, left)
            assert test["output"].split(":")[0] == test["tags"][0] == said, (student, name)
            assert said == ("not attempted" if student == "blank" else said)
            assert test["score"] == (test["max_score"] if
                                     rows[student].status(name) == "Right" else 0)
    assert wrong["check_02_minimax"]["output"].startswith("Not yet")
    assert "Every level takes the largest value" in wrong["check_02_minimax"]["output"]
