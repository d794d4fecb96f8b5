"""Write the README's links to the course (JupyterLite on GitHub Pages, Binder, Colab) from the
one place the repository's address is set: ``Repository`` in pyproject.toml's [project.urls].

    python tools/links.py            # rewrite the README's block of links
    python tools/links.py --check    # fail if the block is not what the setting gives

Fails (status 2, one line) while the address is unset or not ``https://github.com/OWNER/NAME``:
the README then says where to set it instead of carrying links that lead nowhere. The links open
the students' copies: the Pages site is the handouts' (``make lite``), Binder builds the handouts
in ``postBuild`` and opens them, and Colab opens the ``handouts`` branch the Pages workflow pushes.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- links: begin (python tools/links.py writes this block) -->", "<!-- links: end -->"
ADDRESS = re.compile(r"https://github\.com/(?P<owner>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9._-]+?)/?")
UNSET = ("The links to the course appear here once its repository's address is set: "
         "`Repository` under `[project.urls]` in `pyproject.toml`, then `python tools/links.py` "
         "(see \"Publishing the course\").")
TABLE = """\
| route | open | good to know |
| --- | --- | --- |
| **JupyterLite** (no account) | <https://{owner}.github.io/{name}/lab/index.html?path=00_index.ipynb> | Python runs inside the browser (Pyodide, which comes with the site: nothing else is downloaded, so it works behind a school's proxy too). Your edits stay in the browser's storage. |
| **Binder** (no account) | <https://mybinder.org/v2/gh/{owner}/{name}/HEAD?urlpath=lab/tree/handouts/00_index.ipynb> | A real JupyterLab on a temporary server, set up from `.binder/`. Starting can take a few minutes; download what you want to keep. |
| **Google Colab** (Google account) | <https://colab.research.google.com/github/{owner}/{name}/blob/handouts/00_index.ipynb> | The first cell installs the course's package, `ttt-search`, from PyPI (about a minute). |"""


class Unset(SystemExit):
    """The address is not set, or is not a GitHub repository's."""


def repository(pyproject: Path) -> tuple[str, str]:
    """(owner, name) from ``Repository`` in [project.urls]."""
    urls = tomllib.loads(pyproject.read_text())["project"].get("urls", {})
    address = urls.get("Repository", "")
    if not address:
        raise Unset(f"links.py: set Repository under [project.urls] in {pyproject.name} (the "
                    f"course's GitHub address, https://github.com/OWNER/NAME) first")
    found = ADDRESS.fullmatch(address)
    if found is None:
        raise Unset(f"links.py: Repository is {address!r}, not https://github.com/OWNER/NAME")
    return found["owner"], found["name"]


def block(readme: str) -> tuple[int, int]:
    """Where the block's body starts and ends in ``readme``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"links.py: the README has no block between {BEGIN} and {END}")
    return start + len(BEGIN), end


def with_links(readme: str, owner: str, name: str) -> str:
    start, end = block(readme)
    return readme[:start] + "\n" + TABLE.format(owner=owner, name=name) + "\n" + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the README's block")
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)  # for the tests
    options = parser.parse_args(argv)
    root = Path(options.root)
    try:
        owner, name = repository(root / "pyproject.toml")
    except Unset as unset:
        print(unset.code, file=sys.stderr)
        return 2
    readme = (root / "README.md").read_text()
    written = with_links(readme, owner, name)
    if options.check:
        if written != readme:
            print("links.py: the README's links are not the ones Repository gives; run "
                  "python tools/links.py", file=sys.stderr)
            return 1
        return 0
    (root / "README.md").write_text(written)
    print(f"README links written for github.com/{owner}/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
