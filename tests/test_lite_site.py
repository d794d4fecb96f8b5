"""The JupyterLite sites: the students' (``make lite``, build/lite: the handouts) and the
instructor's (``make lite-instructor``, build/lite-instructor: the full notebooks).

The students' site is self-contained: Pyodide's files come with it (static/pyodide), each
matching the sha256 of the release's official lock (npm's ``pyodide`` package), the kernel is
told not to fall back to PyPI, and every wheel the notebooks install is in the site's own index.
It holds no solution cell and no listing of a write-it exercise's answer before the exercise;
the instructor's site holds all of them. tests/browser/test_lite_notebooks.py runs the notebooks
in it; tools/lite.py's refusals are tested here on a tampered cache.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from test_answers_after import ANSWERS, listed, named

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "lite"
INSTRUCTOR = ROOT / "build" / "lite-instructor"
NPM_LOCK = ROOT / "build" / "node" / "node_modules" / "pyodide" / "pyodide-lock.json"
sys.path.insert(0, str(ROOT / "tools"))
import lite  # noqa: E402  (tools/lite.py)

sys.path.remove(str(ROOT / "tools"))


def course_notebooks() -> list[str]:
    return sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def built(site: Path, make: str) -> Path:
    if not (site / "index.html").exists():
        pytest.fail(f"{site.relative_to(ROOT)} is missing: `make {make}` builds it", pytrace=False)
    return site


@pytest.fixture(scope="module")
def student() -> Path:
    return built(SITE, "lite")


@pytest.fixture(scope="module")
def instructor() -> Path:
    """The instructor's site, built here (tools/lite.py --instructor) when it is missing."""
    if not (INSTRUCTOR / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "lite.py"), "--instructor",
                        str(INSTRUCTOR)], check=True, capture_output=True, timeout=600)
    return built(INSTRUCTOR, "lite-instructor")


def solution_cells(path: Path) -> int:
    return sum("solution" in cell.metadata.get("tags", [])
               for cell in nbformat.read(str(path), as_version=4).cells)


def code_before(path: Path, checker: str) -> list[tuple[int, str]]:
    """(number, source) of every code cell before the first that calls ``checker``, solution
    cells included (as a reader of the file sees them; test_answers_after.py leaves them out)."""
    cells = [cell.source for cell in nbformat.read(str(path), as_version=4).cells
             if cell.cell_type == "code"]
    first = next(n for n, source in enumerate(cells) if f"{checker}(" in source)
    return list(enumerate(cells[:first], 1))


def answers_before_exercises(path: Path) -> list[tuple[str, int, str]]:
    """(checker, code cell, answer) for each write-it answer the notebook names before its
    exercise: imported, called or listed (a black box's only listed), as test_answers_after.py
    judges it."""
    text, found = path.read_text(), []
    for checker, (answers, black_box) in ANSWERS.items():
        if f"{checker}(" in text:
            found += [(checker, number, answer) for number, source in code_before(path, checker)
                      for answer in answers
                      if (named if black_box is None else listed)(source, answer)]
    return found


# ------------------------------------------------------------------ the notebooks' first cell

@pytest.mark.parametrize("name", course_notebooks())
def test_every_notebook_installs_the_package_where_it_is_missing(name):
    """The first code cell starts with the install lines (a no-op where ttt_lib is
    installed: nbval runs every notebook with them)."""
    cells = json.loads((ROOT / "notebooks" / name).read_text())["cells"]
    first = next(cell for cell in cells if cell["cell_type"] == "code")
    assert "".join(first["source"]).startswith(lite.INSTALL_LINES + "\n")


def test_the_browser_install_line_covers_what_the_package_imports():
    """Pyodide loads a package only when a cell imports it, so the install line names every
    outside package ttt_lib's notebook-facing modules import (networkx from ttt_lib.viz)."""
    browser_line = next(line for line in lite.INSTALL_LINES.splitlines() if "%pip" in line)
    script = ("import sys, ttt_lib.viz, ttt_lib.widgets, ttt_lib.teach, ttt_lib.learn;"
              "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = set(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                check=True, timeout=120).stdout.split())
    for package in ("networkx", "numpy", "matplotlib", "ipywidgets"):
        assert package in loaded and f" {package}" in browser_line, package
    assert " ttt-search " in browser_line and "OWNER/REPO" not in lite.INSTALL_LINES


# ------------------------------------------------------------------ the students' site

def test_the_site_serves_the_handouts_of_every_notebook(student):
    listed_names = json.loads((student / "api" / "contents" / "all.json").read_text())
    assert sorted(item["name"] for item in listed_names["content"]) == course_notebooks()
    for name in course_notebooks():
        assert solution_cells(student / "files" / name) == 0, name


def test_no_answer_is_listed_before_its_exercise_in_the_site(student):
    shown = {name: answers_before_exercises(student / "files" / name)
             for name in course_notebooks()}
    assert not any(shown.values()), shown


def test_the_instructor_site_carries_every_solution(instructor):
    names = sorted(item["name"] for item in json.loads(
        (instructor / "api" / "contents" / "all.json").read_text())["content"])
    assert names == course_notebooks()
    for name in names:
        course = ROOT / "notebooks" / name
        assert (instructor / "files" / name).read_bytes() == course.read_bytes()
    assert sum(solution_cells(instructor / "files" / name) for name in names) == \
        sum(solution_cells(ROOT / "notebooks" / name) for name in names) > 0
    assert sum(len(answers_before_exercises(instructor / "files" / name)) for name in names) > 0


def test_the_site_index_has_every_wheel_the_kernel_installs(student):
    index = json.loads((student / "pypi" / "all.json").read_text())
    assert {"ttt-search", "ipywidgets", "jupyterlab-widgets", "comm", "networkx"} <= set(index)
    extensions = json.loads((student / "jupyter-lite.json").read_text())
    names = {ext["name"] for ext in extensions["jupyter-config-data"]["federated_extensions"]}
    assert "@jupyter-widgets/jupyterlab-manager" in names  # the widgets render in the page


def test_the_kernel_loads_the_sites_pyodide_and_never_pypi(student):
    config = json.loads((student / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.js"
    assert kernel["disablePyPIFallback"] is True
    assert all(url.startswith("./") for url in kernel["pipliteUrls"])  # the site's own indexes
    assert (student / "static" / "pyodide" / "pyodide.js").is_file()


def test_every_pyodide_file_matches_the_official_lock(student):
    """Each package file the site serves has the sha256 npm's lock of the release gives; the
    site's lock lists exactly those packages, its entries as in the official one."""
    official = json.loads(NPM_LOCK.read_text())
    pyodide = student / "static" / "pyodide"
    served = json.loads((pyodide / "pyodide-lock.json").read_text())
    assert served["info"] == official["info"] and served["info"]["version"] == lite.pyodide_version()
    assert served["packages"] and all(official["packages"][name] == entry
                                      for name, entry in served["packages"].items())
    for entry in served["packages"].values():
        data = (pyodide / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file_name"]
    wheels = {path.name for path in pyodide.iterdir()} - set(lite.CORE_FILES) - {
        "pyodide-lock.json", "verified.json"}
    assert wheels == {entry["file_name"] for entry in served["packages"].values()}
    for name in lite.CORE_FILES:
        npm = NPM_LOCK.parent / name
        assert (pyodide / name).read_bytes() == npm.read_bytes(), name


def test_the_site_carries_only_what_the_notebooks_use(student):
    packages = set(json.loads(
        (student / "static" / "pyodide" / "pyodide-lock.json").read_text())["packages"])
    assert {"numpy", "matplotlib", "micropip", "ipython", "packaging"} <= packages
    assert not packages & {"scipy", "pandas", "scikit-learn", "pyarrow", "networkx"}
    assert not list(student.rglob("*.map"))  # source maps: 46 MB no student needs


# ------------------------------------------------------------------ tools/lite.py's refusals

def test_a_file_unlike_the_lock_stops_the_build(tmp_path):
    lock = json.loads(NPM_LOCK.read_text())
    entry = lock["packages"]["six"]
    folder = tmp_path / lite.pyodide_version()
    folder.mkdir()
    (folder / entry["file_name"]).write_bytes(b"not the official wheel")
    with pytest.raises(lite.Refused, match="does not match the official lock"):
        lite.package_files(lock, ["six"], lite.pyodide_version(), cache=tmp_path)


def test_a_verified_cache_is_used_and_a_missing_file_refused(tmp_path, monkeypatch):
    lock = json.loads(NPM_LOCK.read_text())
    monkeypatch.setattr(lite, "from_release", lambda names, version: {})
    monkeypatch.setattr(lite, "from_carrier", lambda names, version, folder: {})
    with pytest.raises(lite.Refused, match="no source has"):
        lite.package_files(lock, ["six"], lite.pyodide_version(), cache=tmp_path)
    six = SITE / "static" / "pyodide" / lock["packages"]["six"]["file_name"]
    (tmp_path / lite.pyodide_version() / six.name).write_bytes(six.read_bytes())
    got = lite.package_files(lock, ["six"], lite.pyodide_version(), cache=tmp_path)
    assert got == {six.name: six.read_bytes()}


def test_the_closure_follows_the_lock():
    lock = json.loads(NPM_LOCK.read_text())
    needed = set(lite.closure(lock, ("matplotlib",)))
    assert {"matplotlib", "numpy", "pillow", "pyparsing", "python-dateutil"} <= needed
    assert all(dep in needed for name in needed for dep in lock["packages"][name]["depends"])
    with pytest.raises(lite.Refused, match="no package"):
        lite.closure(lock, ("no-such-package",))
