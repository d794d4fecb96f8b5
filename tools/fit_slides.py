"""Make every slide of the decks fit a 1280x720 slide, by setting the cells' slide types.

    python tools/fit_slides.py SOURCE [--check]    (SOURCE: a folder of notebooks or one .ipynb)

Each visible cell is measured alone in the deck's own CSS (headless chromium, tools/
slide_browser.py). Then, section by section, the cells are packed in order: the breaks already
there (``slide`` at cell 0 and each section, ``subslide``) stay, and a cell that would push the
slide past the height starts a ``subslide`` instead; the break moves up to the markdown cell just
before a code cell, so that prose stays with the cell it introduces. A cell too tall for any
slide on its own is side material: it becomes speaker ``notes`` (markdown) or ``skip`` (code),
except exercise cells (task, student cell, solution), which always stay on the slides.
Only slide types change; running the tool twice changes nothing the second time.
Exit status 1 when a cell that cannot be hidden is taller than a slide (split it), and
with ``--check`` (which writes nothing) when a notebook would change.
Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import copy
import re
import sys
import tempfile
from pathlib import Path

from course import main, parser, read, tags, write_if_changed
from handout import sources
from slides import HEIGHT, deck, exporter

SPARE = 6  # pixels of room for rounding: sums of cell heights against a whole slide
HIDDEN = {"skip", "notes"}
BREAKS = {"slide", "subslide"}
EXERCISE = re.compile(r"\*\*Exercise\b|\bcheck_\w+\s*\(")


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-") or "-"


def set_type(cell, kind: str) -> None:
    cell.metadata.setdefault("slideshow", {})["slide_type"] = kind


def is_exercise(cell) -> bool:
    return "solution" in tags(cell) or bool(EXERCISE.search(cell.source))


def cell_heights(paths: list[Path]) -> tuple[dict[Path, list[float]], float]:
    """For each notebook, the height of each visible cell laid out alone on a slide; and the
    height a slide has for its cells (the slide's less its own padding)."""
    from slide_browser import browser, measure, open_deck

    heights, slides, padding = {}, exporter(), 0.0
    with tempfile.TemporaryDirectory() as tmp, browser() as (context, _):
        page = context.new_page()
        for path in paths:
            nb = read(path)
            alone = copy.deepcopy(nb)
            for cell in alone.cells:
                if slide_type(cell) not in HIDDEN:
                    set_type(cell, "slide")
            source, target = Path(tmp) / path.name, Path(tmp) / f"{path.stem}.slides.html"
            write_if_changed(alone, source)
            target.write_text(deck(source, slides), encoding="utf-8")
            open_deck(page, target)
            measured = measure(page)
            visible = [c for c in nb.cells if slide_type(c) not in HIDDEN]
            assert len(measured) == len(visible), f"{path.name}: one slide per visible cell"
            heights[path] = [sum(c["height"] for c in s.cells) for s in measured]
            padding = max([padding] + [s.height - h for s, h in zip(measured, heights[path])])
    return heights, HEIGHT - padding - SPARE


def hide_tall_side_material(nb, tall: set[int]) -> list[int]:
    """Cells in ``tall`` (indexes) that are not exercises go to the speaker notes or are
    skipped; a section start they held passes to the next visible cell. Returns those hidden."""
    hidden = [i for i in sorted(tall) if i and not is_exercise(nb.cells[i])]
    for i in hidden:
        cell = nb.cells[i]
        was = slide_type(cell)
        set_type(cell, "notes" if cell.cell_type == "markdown" else "skip")
        if was in BREAKS:
            following = [c for c in nb.cells[i + 1:] if slide_type(c) not in HIDDEN]
            if following and slide_type(following[0]) != "slide":
                set_type(following[0], was)
    return hidden


def pack(nb, height: dict[int, float], budget: float) -> None:
    """Start a subslide wherever the cells so far would overflow (see the module's text)."""
    group: list[int] = []  # indexes of the visible cells on the current slide
    for i, cell in enumerate(nb.cells):
        kind = slide_type(cell)
        if kind in HIDDEN:
            continue
        if kind in BREAKS or not group:
            group = [i]
            continue
        if sum(height[j] for j in group) + height[i] <= budget:
            group.append(i)
            continue
        before = group[-1]
        if (cell.cell_type == "code" and len(group) > 1
                and nb.cells[before].cell_type == "markdown"
                and height[before] + height[i] <= budget):
            set_type(nb.cells[before], "subslide")
            group = [before, i]
        else:
            set_type(cell, "subslide")
            group = [i]


def fit(nb, heights: list[float], budget: float) -> tuple[list[int], list[int]]:
    """Set ``nb``'s slide types so that every slide fits (``heights``: of the visible cells,
    in order; ``budget``: the height for cells on one slide). Returns the cells hidden for
    being taller than a slide, and those that still cannot fit (cell 0, exercise cells)."""
    visible = [i for i, c in enumerate(nb.cells) if slide_type(c) not in HIDDEN]
    height = dict(zip(visible, heights))
    tall = {i for i in visible if height[i] > budget}
    hidden = hide_tall_side_material(nb, tall)
    pack(nb, height, budget)
    return hidden, sorted(tall - set(hidden))


def run(argv: list[str]) -> int:
    args = parser("fit_slides.py", "Set the slide types so that every slide fits 1280x720.")
    args.add_argument("source", help="a folder of notebooks, or one .ipynb")
    args.add_argument("--check", action="store_true", help="change nothing; status 1 if "
                      "a notebook would change")
    options = args.parse_args(argv)
    paths = sources(Path(options.source))
    changed, stuck_anywhere = [], False
    measured, budget = cell_heights(paths)
    for path, heights in measured.items():
        nb = read(path)
        before = [slide_type(c) for c in nb.cells]
        hidden, stuck = fit(nb, heights, budget)
        moved = sum(a != slide_type(c) for a, c in zip(before, nb.cells))
        stuck_anywhere = stuck_anywhere or bool(stuck)
        if moved:
            changed.append(path)
            if not options.check:
                write_if_changed(nb, path)
        print(f"{path}: {moved} slide type{'s' * (moved != 1)} "
              f"{'to change' if options.check else 'changed'}"
              + (f"; hidden for their height: cells {hidden}" if hidden else "")
              + (f"; STILL TOO TALL (split them): cells {stuck}" if stuck else ""))
    return 1 if stuck_anywhere or (options.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main(run))
