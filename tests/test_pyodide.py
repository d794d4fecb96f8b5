"""The core under Pyodide: the npm registry's ``pyodide`` package (PYODIDE_VERSION in the
Makefile, the release the lite site carries), run by node, loads ``ttt_lib`` from the
``ttt-search`` wheel that ``make lite`` puts in the site, and gives exactly CPython's
results for a seeded self-play, all 5,478 positions solved and a seeded tournament.

``make test`` installs node (Debian's ``nodejs``) and ``pyodide`` (into build/node) when they
are missing; a missing runtime is a failure, not a skip.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "lite"
PYODIDE = ROOT / "build" / "node" / "node_modules" / "pyodide"
WHEELS = ROOT / "build" / "lite-wheels"

pytestmark = [pytest.mark.pyodide, pytest.mark.slow]


def _wheel() -> Path:
    wheels = sorted(WHEELS.glob("ttt_search-*.whl"))
    if not wheels:
        pytest.fail("no ttt-search wheel in build/lite-wheels: `make lite` builds it", pytrace=False)
    return wheels[-1]


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (PYODIDE / "pyodide.mjs").exists():
        pytest.fail("node or build/node/node_modules/pyodide is missing: `make pyodide` "
                    "installs both", pytrace=False)
    return node


@pytest.fixture(scope="module")
def both() -> tuple[dict, dict]:
    """The scenario's results under Pyodide (from the wheel) and under this CPython."""
    scenario = HERE / "scenario.py"
    pyodide = subprocess.run([_node(), str(HERE / "pyodide.mjs"), str(PYODIDE), str(_wheel()),
                              str(scenario)], capture_output=True, text=True, timeout=300)
    assert pyodide.returncode == 0, pyodide.stderr[-3000:]
    cpython = subprocess.run([sys.executable, str(scenario)], capture_output=True, text=True,
                             timeout=300, cwd=ROOT)
    assert cpython.returncode == 0, cpython.stderr[-3000:]
    return json.loads(pyodide.stdout), json.loads(cpython.stdout)


def test_pyodide_runs_the_wheel_not_this_checkout(both):
    pyodide, cpython = both
    assert pyodide["platform"] == "emscripten" and cpython["platform"] != "emscripten"
    assert "site-packages" in pyodide["module"] and "site-packages" not in cpython["module"]
    assert pyodide["version"] == cpython["version"] == _wheel().name.split("-")[1]


def test_node_runs_the_pyodide_of_the_lite_site():
    """build/lite carries the same Pyodide release as the one tested here: the Makefile's
    PYODIDE_VERSION (the JupyterLite pins in pyproject.toml are the ones written for it)."""
    makefile = (ROOT / "Makefile").read_text()
    (version,) = re.findall(r"^PYODIDE_VERSION\s*:=\s*(\S+)", makefile, re.M)
    site = ROOT / "build" / "lite" / "static" / "pyodide"
    carried = json.loads((site / "package.json").read_text())["version"]
    lock = json.loads((site / "pyodide-lock.json").read_text())["info"]["version"]
    tested = json.loads((PYODIDE / "package.json").read_text())["version"]
    assert carried == lock == tested == version
    assert (site / "pyodide.asm.wasm").read_bytes() == (PYODIDE / "pyodide.asm.wasm").read_bytes()


def test_selfplay_is_the_same_game(both):
    pyodide, cpython = both
    assert pyodide["selfplay"] == cpython["selfplay"]
    assert pyodide["selfplay"].rstrip().endswith(("wins.", "Tied."))


def test_a_search_is_traced_from_outside_alike(both):
    pyodide, cpython = both
    assert pyodide["traces"] == cpython["traces"]
    library, nested = pyodide["traces"]
    assert library == nested and library.splitlines()[-1] == "A 5 999 5"
    assert "    alpha >= beta, prune remaining children of C" in library.splitlines()


def test_every_position_solved_alike(both):
    pyodide, cpython = both
    assert pyodide["positions"] == cpython["positions"] == 5478 == len(pyodide["solved"])
    assert pyodide["solved"] == cpython["solved"]
    assert pyodide["solved"]["." * 9]["value"] == 0  # perfect play draws


def test_seeded_tournament_alike_and_serial_without_processes(both):
    pyodide, cpython = both
    assert pyodide["tournament"] == cpython["tournament"]
    assert pyodide["platform_has_processes"] is False  # the tournament fell back to serial
    assert cpython["platform_has_processes"] is True
    assert (pyodide["pool"], cpython["pool"]) == ("SerialExecutor", "ProcessPoolExecutor")
    games = {(r["x"], r["o"]): r["x_wins"] + r["o_wins"] + r["draws"]
             for r in pyodide["tournament"]["results"]}
    assert len(games) == 9 and set(games.values()) == {4}
