"""No test can hang: every test and every notebook cell has a time limit, and a test that
hangs fails within it, naming the limit and showing where it hung."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOST = 600  # seconds: no test may ask for more


def run_pytest(folder: Path, *args: str, limit: float = 240) -> tuple[subprocess.CompletedProcess, float]:
    """pytest on ``folder`` in a child process (no project options), and how long it took."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-o", "addopts=", "--rootdir", str(folder), *args],
                          cwd=folder, capture_output=True, text=True, timeout=limit)
    return done, time.monotonic() - start


def test_the_suite_has_a_time_limit(pytestconfig):
    limit = float(pytestconfig.getini("timeout"))
    assert 0 < limit <= MOST
    assert pytestconfig.getini("timeout_method") == "signal"  # fails the test, not the run


def test_no_test_asks_for_more_than_the_most():
    asked = [(path.name, float(seconds)) for path in ROOT.joinpath("tests").rglob("*.py")
             for seconds in re.findall(r"mark\.timeout\(\s*([0-9.]+)", path.read_text())]
    assert asked, "the slow tests name their limits"
    assert all(0 < seconds <= MOST for _, seconds in asked), asked


def test_slow_tests_get_the_longer_limit(request, pytestconfig):
    assert request.node.get_closest_marker("timeout") is None  # this test: the suite's limit
    spec = importlib.util.spec_from_file_location("suite_conftest", ROOT / "tests" / "conftest.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)  # by path: a bare "import conftest" may find another one
    assert float(pytestconfig.getini("timeout")) < suite.SLOW_LIMIT <= MOST


def test_a_hanging_test_fails_within_its_limit(tmp_path):
    (tmp_path / "test_hang.py").write_text(
        "import time\n\ndef test_waits_forever():\n    time.sleep(10_000)  # hangs here\n")
    done, took = run_pytest(tmp_path, "--timeout", "2", "--timeout-method", "signal")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Timeout (>2.0s" in done.stdout or "Timeout >2.0s" in done.stdout, done.stdout
    assert "hangs here" in done.stdout  # the stack shows where it hung
    assert "1 failed" in done.stdout and took < 60


@pytest.mark.timeout(180)
def test_a_hanging_notebook_cell_fails_within_its_limit(tmp_path):
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
              "outputs": [], "source": source}
             for i, source in enumerate(["print(1 + 1)", "import time\ntime.sleep(10_000)"])]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "hangs.ipynb").write_text(json.dumps(notebook))
    done, took = run_pytest(tmp_path, "--nbval-lax", "--nbval-current-env", "--timeout", "10",
                            "--timeout-method", "signal", "hangs.ipynb")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Timeout (>10.0s" in done.stdout or "Timeout >10.0s" in done.stdout, done.stdout
    assert "1 failed, 1 passed" in done.stdout and took < 120
