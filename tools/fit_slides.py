"""Make every slide of the decks fit a 1280x720 slide, by setting the cells' slide types.

    python tools/fit_slides.py SOURCE [--check]    (SOURCE: a folder of notebooks or one .ipynb)

Each visible cell is measured alone in the deck's own CSS (headless chromium, tools/
slide_browser.py). Then, section by section, the cells are packed in order: the breaks already
there (``slide`` at cell 0 and each section, ``subslide``) stay, and a cell that would push the
slide past the height starts a ``subslide`` instead; the break moves up to the markdown cell just
before a code cell, so that prose stays with the cell it introduces. A code cell too tall
for one slide whose outputs are several (each ``show_source``, picture or piece of a long text is
one, see tools/slides.py) is split in the decks: ``metadata.slides.output_groups`` lists its
outputs in groups, in order; the first group goes with the code, each other one on a subslide
of its own under a "(continued)" line (greedily, as many as fit). A cell too tall for any
slide on its own otherwise is side material: it becomes speaker ``notes`` (markdown) or
``skip`` (code), marked ``metadata.slides.too_tall``, except exercise cells (task, student cell,
solution), which always stay on the slides. Hidden cells so marked, and code cells on ``skip``,
are measured again each run and come back once they fit. Only slide types and
``metadata.slides`` change; running the tool twice changes nothing the second time.
Exit status 1 when a cell that cannot be hidden is taller than a slide (split it), and
with ``--check`` (which writes nothing) when a notebook would change.
Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import copy
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from course import main, parser, read, tags, write_if_changed
from handout import sources
from slides import HEIGHT, deck, exporter

SPARE = 6  # pixels of room for rounding: sums of cell heights against a whole slide
HIDDEN = {"skip", "notes"}
BREAKS = {"slide", "subslide"}
EXERCISE = re.compile(r"\*\*Exercise\b|\bcheck_\w+\s*\(")
PROBE = "fit-probe"  # a made-up cell split in two: measures a "(continued)" part's frame


@dataclass
class Measured:
    """A cell laid out alone: its height and each of its outputs' (as the deck shows them)."""
    height: float
    outputs: list[float] = field(default_factory=list)


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-") or "-"


def set_type(cell, kind: str) -> None:
    cell.metadata.setdefault("slideshow", {})["slide_type"] = kind


def fit_notes(cell) -> dict:
    """What this tool wrote in ``metadata.slides``: ``output_groups``, ``too_tall``."""
    return cell.metadata.get("slides", {})


def set_note(cell, key: str, value) -> None:
    notes = cell.metadata.setdefault("slides", {})
    if value:
        notes[key] = value
    else:
        notes.pop(key, None)
    if not notes:
        del cell.metadata["slides"]


def is_exercise(cell) -> bool:
    return "solution" in tags(cell) or bool(EXERCISE.search(cell.source))


def is_measured(cell) -> bool:
    """A cell on the slides, or one hidden for its height, which may fit again: marked
    ``too_tall``, or a code cell on ``skip`` (only this tool hides code; not the navigation)."""
    return (slide_type(cell) not in HIDDEN or bool(fit_notes(cell).get("too_tall"))
            or (cell.cell_type == "code" and "navigation" not in tags(cell)))


def measuring_copy(nb):
    """``nb`` with each measured cell on a slide of its own and shown whole, and the probe."""
    alone = copy.deepcopy(nb)
    for cell in alone.cells:
        if is_measured(cell):
            set_type(cell, "slide")
        if "output_groups" in fit_notes(cell):
            set_note(cell, "output_groups", None)
    probe = nbformat.v4.new_code_cell("", id=PROBE, metadata={
        "slideshow": {"slide_type": "slide"}, "slides": {"output_groups": [[0], [1]]}})
    probe.outputs = [nbformat.v4.new_output("stream", name="stdout", text="-\n")] * 2
    alone.cells.append(probe)
    return alone


def cell_heights(paths: list[Path]) -> tuple[dict[Path, list[Measured]], float, float]:
    """For each notebook, each measured cell laid out alone on a slide; the height a slide has
    for its cells (the slide's less its own padding); the height of a "(continued)" part's
    frame (its outputs left out)."""
    from slide_browser import browser, measure, open_deck

    heights, slides, padding, frame = {}, exporter(), 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp, browser() as (context, _):
        page = context.new_page()
        for path in paths:
            nb = read(path)
            source, target = Path(tmp) / path.name, Path(tmp) / f"{path.stem}.slides.html"
            write_if_changed(measuring_copy(nb), source)
            target.write_text(deck(source, slides), encoding="utf-8")
            open_deck(page, target)
            *measured, _, probe = measure(page)
            count = sum(map(is_measured, nb.cells))
            assert len(measured) == count, f"{path.name}: one slide per measured cell"
            heights[path] = [Measured(sum(c["height"] for c in s.cells),
                                      [h for c in s.cells for h in c["outputs"]])
                             for s in measured]
            padding = max([padding] + [s.height - m.height
                                       for s, m in zip(measured, heights[path])])
            [cell] = probe.cells
            frame = max(frame, cell["height"] - cell["outputs"][1])
    return heights, HEIGHT - padding - SPARE, frame


Parts = list[tuple[list[int], float]]  # a cell's slides: (output indexes, height) each


def parts(size: Measured, budget: float, frame: float, room: float | None = None) -> Parts | None:
    """The cell's slides: one part when it fits whole in ``room`` (default: a whole slide),
    else its outputs grouped in order, as many as fit with the code (in ``room``), then on
    slides of their own under a "(continued)" frame each; None when the code or one output
    alone is too tall."""
    room = budget if room is None else room
    if size.height <= room:
        return [(list(range(len(size.outputs))), size.height)]
    code = size.height - sum(size.outputs)
    if not size.outputs or code > room:
        return None
    groups: Parts = [([], code)]
    for k, height in enumerate(size.outputs):
        group, used = groups[-1]
        if used + height <= (room if len(groups) == 1 else budget):
            groups[-1] = (group + [k], used + height)
        elif frame + height <= budget:
            groups.append(([k], frame + height))
        else:
            return None
    return groups


def hide_tall_side_material(nb, tall: set[int]) -> list[int]:
    """Cells in ``tall`` (indexes) that are not exercises go to the speaker notes or are
    skipped (marked ``too_tall``); a section start they held passes to the next visible cell.
    Returns those hidden."""
    hidden = [i for i in sorted(tall) if i and not is_exercise(nb.cells[i])]
    for i in hidden:
        cell = nb.cells[i]
        was = slide_type(cell)
        set_type(cell, "notes" if cell.cell_type == "markdown" else "skip")
        set_note(cell, "too_tall", True)
        if was in BREAKS:
            following = [c for c in nb.cells[i + 1:] if slide_type(c) not in HIDDEN]
            if following and slide_type(following[0]) != "slide":
                set_type(following[0], was)
    return hidden


def pack(nb, size: dict[int, Measured], budget: float, frame: float) -> dict[int, Parts]:
    """Start a subslide wherever the cells so far would overflow (see the module's text);
    a cell split over subslides starts on the current slide if its code and at least one
    output fit there, and the next cells join its last part. Returns each visible cell's
    parts."""
    def there(i: int, room: float) -> Parts | None:
        found = parts(size[i], budget, frame, room)
        return found if found and (len(found) == 1 or found[0][0]) else None

    placed: dict[int, Parts] = {}
    group: list[int] = []  # indexes of the visible cells on the current slide
    used = 0.0  # their height
    for i, cell in enumerate(nb.cells):
        kind = slide_type(cell)
        if kind in HIDDEN:
            continue
        follows = kind not in BREAKS and bool(group)
        found = there(i, budget - used) if follows else None
        before = group[-1] if group else i
        if (found is None and follows and cell.cell_type == "code" and len(group) > 1
                and nb.cells[before].cell_type == "markdown"):
            found = there(i, budget - size[before].height)
            if found:
                set_type(nb.cells[before], "subslide")
                group, used = [before], size[before].height
        if found is None:
            if follows:
                set_type(cell, "subslide")
            found = parts(size[i], budget, frame) or [([], size[i].height)]
            group, used = [], 0.0
        placed[i] = found
        group, used = ([i], found[-1][1]) if len(found) > 1 else (group + [i], used + found[0][1])
    return placed


def fit(nb, heights: list, budget: float, frame: float = 0.0) -> tuple[list[int], list[int]]:
    """Set ``nb``'s slide types and output groups so that every slide fits (``heights``: of
    the measured cells, in order, each a number or a ``Measured``; ``budget``: the height for
    cells on one slide; ``frame``: a "(continued)" part without its outputs). Returns the
    cells hidden for being taller than a slide, and those that still cannot fit (cell 0,
    exercise cells)."""
    shown = [i for i, c in enumerate(nb.cells) if is_measured(c)]
    size = {i: h if isinstance(h, Measured) else Measured(h) for i, h in zip(shown, heights)}
    tall = {i for i in shown if parts(size[i], budget, frame) is None}
    for i in set(shown) - tall:
        if slide_type(nb.cells[i]) in HIDDEN:
            set_type(nb.cells[i], "-")  # it fits again (or can be split)
        set_note(nb.cells[i], "too_tall", None)
    hidden = hide_tall_side_material(nb, tall)
    placed = pack(nb, size, budget, frame)
    for i in shown:
        groups = [group for group, _ in placed.get(i, [])]
        set_note(nb.cells[i], "output_groups", groups if len(groups) > 1 else None)
    return hidden, sorted(tall - set(hidden))


def state(cell) -> tuple:
    """What this tool may change in a cell."""
    notes = fit_notes(cell)
    return slide_type(cell), notes.get("output_groups"), notes.get("too_tall")


def run(argv: list[str]) -> int:
    args = parser("fit_slides.py", "Set the slide types (and output groups) so that every "
                  "slide fits 1280x720.")
    args.add_argument("source", help="a folder of notebooks, or one .ipynb")
    args.add_argument("--check", action="store_true", help="change nothing; status 1 if "
                      "a notebook would change")
    options = args.parse_args(argv)
    paths = sources(Path(options.source))
    changed, stuck_anywhere = [], False
    measured, budget, frame = cell_heights(paths)
    for path, heights in measured.items():
        nb = read(path)
        before = [state(c) for c in nb.cells]
        hidden, stuck = fit(nb, heights, budget, frame)
        moved = sum(a != state(c) for a, c in zip(before, nb.cells))
        stuck_anywhere = stuck_anywhere or bool(stuck)
        if moved:
            changed.append(path)
            if not options.check:
                write_if_changed(nb, path)
        split = [i for i, c in enumerate(nb.cells) if fit_notes(c).get("output_groups")]
        print(f"{path}: {moved} cell{'s' * (moved != 1)} "
              f"{'to change' if options.check else 'changed'}"
              + (f"; split over subslides: cells {split}" if split else "")
              + (f"; hidden for their height: cells {hidden}" if hidden else "")
              + (f"; STILL TOO TALL (split them): cells {stuck}" if stuck else ""))
    return 1 if stuck_anywhere or (options.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main(run))
