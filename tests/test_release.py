"""The package PyPI gets (the release workflow's, .github/workflows/release.yml): the wheel
and sdist of ``ttt-search`` build and pass ``twine check --strict``; the wheel installs the
import package ``ttt_lib`` with its data files."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import ttt_lib

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # build's isolated environments filled by uv where make's venv has it (the same build)
    uv = ["--installer", "uv"] if (Path(sys.executable).parent / "uv").is_file() else []
    built = subprocess.run([sys.executable, "-m", "build", *uv, "--outdir", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    return out


def test_wheel_and_sdist_are_named_after_the_course(dist):
    names = {path.name for path in dist.iterdir()}
    version = ttt_lib.__version__
    assert names == {f"ttt_search-{version}.tar.gz", f"ttt_search-{version}-py3-none-any.whl"}


def test_twine_check_passes(dist):
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                              *map(str, sorted(dist.iterdir()))],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_the_wheel_holds_ttt_lib_and_its_data(dist):
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ttt_lib/__init__.py" in names
    tracked = set(subprocess.run(["git", "ls-files", "ttt_lib"], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split())
    assert "ttt_lib/studies/connect4_ladder.json" in tracked
    assert tracked <= set(names), f"files the wheel leaves out: {sorted(tracked - set(names))}"
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Name: ttt-search" in text and "Provides-Extra: notebooks" in text
