"""Write (or check) the navigation line of every notebook and the index's map of the course.

    python tools/navigation.py [--check] [FOLDER]        (FOLDER defaults to notebooks/)

Each notebook gets the line "previous · index · next", built from the notebooks' titles (the
first heading of each cell 0), in cell 1 and in its last cell (with the licence under it); both
cells are tagged ``navigation``. In ``00_index.ipynb`` the cell tagged ``notebook-map`` gets the table of all
the notebooks of the plan (``course.PLAN``), linked where they exist. Notebooks not written
yet are skipped: "next" links the next notebook that exists.

Running it twice changes nothing the second time. With ``--check`` nothing is written: the
exit status is 1 and the stale notebooks are listed if any navigation is missing or out of
date. Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat

from course import (INDEX, NOTEBOOKS, PLAN, UsageError, course_notebooks, dumps, main, parser,
                    read, tags, title, write_if_changed)

NAV_TAG = "navigation"
MAP_TAG = "notebook-map"
NAV_METADATA = {"tags": [NAV_TAG], "slideshow": {"slide_type": "skip"}}
# Under the bottom navigation line of every notebook: what a reader may do with the course.
LICENCE_LINE = ("The course's prose and figures are licensed under [CC BY 4.0]"
                "(https://creativecommons.org/licenses/by/4.0/) (see `LICENSE-CONTENT`), its "
                "code under the MIT licence (see `LICENSE`): reuse and adapt them, naming the "
                "course (`CITATION.cff`).")


def link(text: str, target: str) -> str:
    return f"[{text}]({target})"


def navigation_line(names: list[str], titles: dict[str, str], name: str) -> str:
    """'[← previous](...) · [Index](00_index.ipynb) · [next →](...)' for notebook ``name``."""
    at = names.index(name)
    parts = []
    if at > 0 and names[at - 1] != INDEX:
        parts.append(link(f"← {titles[names[at - 1]]}", names[at - 1]))
    parts.append("**Index**" if name == INDEX else link("Index", INDEX))
    if at + 1 < len(names):
        parts.append(link(f"{titles[names[at + 1]]} →", names[at + 1]))
    return " · ".join(parts)


def notebook_map(titles: dict[str, str]) -> str:
    """The index's table of the whole course: every planned notebook, linked if it exists."""
    rows = ["| Notebook | The question it answers |", "| --- | --- |"]
    for name, planned, question in PLAN:
        if name == INDEX:
            continue
        shown = link(titles[name], name) if name in titles else f"{planned} (in preparation)"
        rows.append(f"| {shown} | {question} |")
    return "\n".join(rows)


def nav_cell(line: str, old, new_id: str):
    """A markdown navigation cell holding ``line``; it keeps an old cell's id and metadata."""
    cell = nbformat.v4.new_markdown_cell(line)
    cell["id"] = old.get("id", new_id) if old is not None else new_id
    if old is not None:
        cell.metadata = copy.deepcopy(old.metadata)
    cell.metadata["tags"] = sorted(set(tags(cell)) | {NAV_TAG})
    cell.metadata["slideshow"] = dict(NAV_METADATA["slideshow"])
    return cell


def is_nav(cell) -> bool:
    return cell.cell_type == "markdown" and NAV_TAG in tags(cell)


def with_navigation(nb, line: str, table: str | None):
    """A copy of ``nb`` with ``line`` in cell 1 and the last cell (and the map, for 00)."""
    nb = copy.deepcopy(nb)
    navs = [cell for cell in nb.cells if is_nav(cell)]  # stray ones elsewhere are dropped
    body = [cell for cell in nb.cells if not is_nav(cell)]
    top = nav_cell(line, navs[0] if navs else None, "navigation-top")
    bottom = nav_cell(f"{line}\n\n{LICENCE_LINE}", navs[-1] if len(navs) > 1 else None,
                      "navigation-bottom")
    nb.cells = cells = body[:1] + [top] + body[1:] + [bottom]
    if nb.get("nbformat_minor", 0) < 5:  # cell ids arrived with nbformat 4.5
        for cell in (cells[1], cells[-1]):
            cell.pop("id", None)
    if table is not None:
        for cell in cells:
            if cell.cell_type == "markdown" and MAP_TAG in tags(cell):
                cell.source = table
    return nb


def planned(folder: Path) -> dict[Path, object]:
    """Every course notebook in ``folder`` with its navigation as it should be."""
    paths = course_notebooks(folder)
    notebooks = {p: read(p) for p in paths}
    names = [p.name for p in paths]
    titles = {p.name: title(nb, p) for p, nb in notebooks.items()}
    table = notebook_map(titles)
    return {p: with_navigation(nb, navigation_line(names, titles, p.name),
                               table if p.name == INDEX else None)
            for p, nb in notebooks.items()}


def run(argv: list[str]) -> int:
    args = parser("navigation.py", "Write or check the notebooks' navigation lines.")
    args.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 listing notebooks whose navigation is stale")
    args.add_argument("folder", nargs="?", default=str(NOTEBOOKS), help="the notebooks folder")
    options = args.parse_args(argv)
    folder = Path(options.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    if not course_notebooks(folder):
        raise UsageError(f"{folder} holds no notebooks named like 05_topic.ipynb")
    wanted = planned(folder)
    if options.check:
        stale = [p.name for p, nb in wanted.items() if dumps(read(p)) != dumps(nb)]
        for name in stale:
            print(f"stale navigation: {name} (run: python tools/navigation.py)")
        return 1 if stale else 0
    for path, nb in wanted.items():
        if write_if_changed(nb, path):
            print(f"updated {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
