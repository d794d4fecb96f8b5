"""tools/links.py: the README's links come from the one setting (Repository in pyproject's
[project.urls]); the command fails while it is unset, and nothing a student runs carries a
placeholder address."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKS = ROOT / "tools" / "links.py"
sys.path.insert(0, str(ROOT / "tools"))
import links  # noqa: E402  (tools/links.py)

sys.path.remove(str(ROOT / "tools"))


def copy(tmp_path: Path, repository: str | None) -> Path:
    """A folder with this README and a pyproject.toml whose Repository is ``repository``."""
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    text = (ROOT / "pyproject.toml").read_text()
    if repository is not None:
        text = text.replace("[project.urls]\n", f'[project.urls]\nRepository = "{repository}"\n')
    (tmp_path / "pyproject.toml").write_text(text)
    return tmp_path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(LINKS), *args], capture_output=True, text=True,
                          timeout=60)


def test_unset_fails_with_one_line_saying_where_to_set_it(tmp_path):
    folder = copy(tmp_path, None)
    done = run("--root", str(folder))
    assert done.returncode == 2 and done.stdout == ""
    assert "set Repository under [project.urls]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert (folder / "README.md").read_text() == (ROOT / "README.md").read_text()


def test_not_a_github_address_fails(tmp_path):
    done = run("--root", str(copy(tmp_path, "https://example.org/course")))
    assert done.returncode == 2 and "not https://github.com/OWNER/NAME" in done.stderr


def test_set_writes_every_link_from_it_and_check_agrees(tmp_path):
    folder = copy(tmp_path, "https://github.com/some-school/ttt-search")
    assert run("--root", str(folder), "--check").returncode == 1  # not written yet
    assert run("--root", str(folder)).returncode == 0
    readme = (folder / "README.md").read_text()
    assert "https://some-school.github.io/ttt-search/lab/index.html?path=00_index.ipynb" in readme
    assert ("https://mybinder.org/v2/gh/some-school/ttt-search/HEAD?urlpath=lab/tree/handouts/"
            "00_index.ipynb") in readme
    assert ("https://colab.research.google.com/github/some-school/ttt-search/blob/handouts/"
            "00_index.ipynb") in readme
    assert links.UNSET not in readme
    assert run("--root", str(folder), "--check").returncode == 0
    assert run("--root", str(folder)).returncode == 0  # again: the same README
    assert (folder / "README.md").read_text() == readme


def test_the_readme_block_matches_the_setting():
    """Unset here: the README says so; once set, the block is what links.py writes."""
    readme = (ROOT / "README.md").read_text()
    start, end = links.block(readme)
    try:
        owner, name = links.repository(ROOT / "pyproject.toml")
    except links.Unset:
        assert readme[start:end].strip() == links.UNSET
    else:
        assert readme == links.with_links(readme, owner, name)


def test_no_placeholder_address_where_students_go():
    """Nothing a student opens or runs (the notebooks, the Binder set-up, the README, the
    tools that write them) carries OWNER/REPO."""
    places = [*sorted((ROOT / "notebooks").glob("*.ipynb")), *sorted((ROOT / ".binder").iterdir()),
              ROOT / "README.md", ROOT / "tools" / "lite.py", ROOT / "tools" / "handout.py"]
    assert not [str(path) for path in places if "OWNER/REPO" in path.read_text()]
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        first = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
        assert re.search(r'%pip install -q "ttt-search\[notebooks\]"', first), path.name
