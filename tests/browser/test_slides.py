"""The offline slide decks (`make slides`) in headless chromium at 1280x720.

Every deck of notebooks/ is built, opened from a file and stepped through with reveal's API:
each slide must fit the configured 1280x720 slide (its content's height and width, and no
element showing a scroll bar) and no request may leave the machine. A small made-up notebook
checks speaker notes (in reveal's speaker view), math typeset by the bundled MathJax, widgets,
and the PDF print (one page per slide). Needs `make slide-assets` (reveal.js and MathJax from
npm, into build/reveal); `make test` runs it first.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import slide_browser  # noqa: E402  (tools/ holds scripts, imported by their plain names)
import slides  # noqa: E402
import course  # noqa: E402
from course import course_notebooks, read  # noqa: E402

# SLIDES_NOTEBOOKS: another folder of notebooks to check (a copy being fitted, say)
NOTEBOOKS = course_notebooks(Path(os.environ.get("SLIDES_NOTEBOOKS", ROOT / "notebooks")))
NOTE = "Ask the class which branch they would cut first."
SHOWN = {"slide", "subslide", "-", "fragment"}


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    """Every deck, built once by the tool's own command (`python tools/slides.py FOLDER OUT`,
    what `make slides` runs), in this process."""
    if not (slides.ASSETS / "reveal.js" / "dist" / "reveal.js").is_file():
        pytest.fail(f"reveal.js is missing in {slides.ASSETS}: run `make slide-assets`",
                    pytrace=False)
    out = tmp_path_factory.mktemp("decks")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert course.main(slides.run, [str(NOTEBOOKS[0].parent), str(out)]) == 0
    assert said.getvalue().split() == [str(out / f"{p.stem}.slides.html") for p in NOTEBOOKS]
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_slides_build_reveal_html(path, decks):
    """Each deck is reveal.js HTML with the notebook's title, offline: reveal.js and its
    notes plugin are in the file, and nothing is loaded from elsewhere."""
    html = (decks / f"{path.stem}.slides.html").read_text(encoding="utf-8")
    assert "reveal" in html.lower() and "<section" in html
    title = read(path).cells[0].source.splitlines()[0].lstrip("# ").split(" · ")[-1]
    assert title.replace("&", "&amp;") in html
    assert "Reveal.initialize" in html and "RevealNotes" in html
    assert not re.search(r"""(src=|<link[^>]*href=)["']?(https?:)?//""", html)


@pytest.fixture(scope="module")
def chromium(chromium_launch):
    """One page for every deck, and the list of requests that tried to leave the machine."""
    with slide_browser.browser() as (context, requests):
        yield context, requests


def expected_slides(nb) -> int:
    """Slides a deck of ``nb`` must have, counted from the slide types alone: each ``slide``
    or ``subslide`` cell starts one, and each output group after the first of a shown cell
    split by tools/fit_slides.py one more."""
    kinds = [c.metadata.get("slideshow", {}).get("slide_type", "-") for c in nb.cells]
    more = [len(slides.output_groups(c)) - 1 for c, kind in zip(nb.cells, kinds)
            if kind in SHOWN and slides.output_groups(c)]
    return sum(kind in ("slide", "subslide") for kind in kinds) + sum(more)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_slide_fits_and_nothing_is_fetched(path, decks, chromium):
    context, requests = chromium
    page = context.new_page()
    try:
        start = time.monotonic()
        slide_browser.open_deck(page, decks / f"{path.stem}.slides.html")
        measured = slide_browser.measure(page)
        seconds = time.monotonic() - start
    finally:
        page.close()
    print(f"{path.stem}: {len(measured)} slides in {seconds:.1f} s")
    assert len(measured) == expected_slides(read(path))
    too_big = [s.describe() for s in measured if s.overflows]
    assert not too_big, (f"{len(too_big)} slides do not fit {slides.WIDTH}x{slides.HEIGHT}: "
                         f"{too_big}; run `python tools/fit_slides.py notebooks`")
    assert requests.outside == []


@pytest.fixture(scope="module")
def made_up(tmp_path_factory) -> Path:
    """A notebook with a speaker note, math, a widget output and a fragment; its deck."""
    folder = tmp_path_factory.mktemp("made-up")
    widget = new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": {"model_id": "m1", "version_major": 2,
                                                     "version_minor": 0},
        "text/plain": "PlayWidget()"})
    cells = [new_markdown_cell("# 99 · Made up\n\nThe value is $\\max_a Q(s, a)$."),
             new_markdown_cell(NOTE), new_code_cell("widget"),
             new_markdown_cell("## Second\n\n$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$"),
             new_markdown_cell("Shown on a click.")]
    cells[2].outputs = [widget]
    nb = new_notebook(cells=cells, metadata={"widgets": {"state": {}}})
    for cell, kind in zip(nb.cells, ["slide", "notes", "-", "slide", "fragment"]):
        cell.metadata["slideshow"] = {"slide_type": kind}
    path = folder / "99_made_up.ipynb"
    nbformat.write(nb, str(path))
    deck = folder / "99_made_up.slides.html"
    deck.write_text(slides.deck(path), encoding="utf-8")
    return deck


def test_speaker_notes_math_and_widgets_offline(made_up, chromium):
    context, requests = chromium
    page = context.new_page()
    try:
        slide_browser.open_deck(page, made_up)
        assert page.evaluate("Reveal.hasPlugin('notes')")
        assert NOTE in page.evaluate("Reveal.getSlideNotes(Reveal.getSlides()[0])")
        math = page.locator(".slides mjx-container > svg")  # inline and display, drawn
        assert math.count() == 2
        assert "$" not in page.locator(".slides").inner_text()
        assert "make present" in page.locator(".live-only").inner_text()
        with context.expect_page() as opened:
            page.keyboard.press("s")  # reveal's speaker view, in its own window
        speaker = opened.value
        speaker.wait_for_selector(".speaker-controls-notes .value")
        speaker.wait_for_function(
            f"document.querySelector('.speaker-controls-notes .value').textContent"
            f".includes({NOTE!r})")
        speaker.close()
    finally:
        page.close()
    assert requests.outside == []


def test_math_is_bundled_only_where_a_notebook_has_math(made_up, decks):
    assert "MathJax" in made_up.read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        html = (decks / f"{path.stem}.slides.html").read_text(encoding="utf-8")
        has_math = any(re.search(r"\$[^$\n]+\$", c.source) for c in read(path).cells
                       if c.cell_type == "markdown")
        assert ("window.MathJax" in html) == has_math, path.name
        assert not re.search(r"""(src=|<link[^>]*href=)["']https?:""", html), path.name


def test_the_pdf_has_one_page_per_slide(made_up, chromium):
    [pdf] = slide_browser.print_pdfs([made_up], chromium[0])
    assert pdf == made_up.parent / "99_made_up.slides.pdf"
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf.read_bytes()))
    assert pages == expected_slides(read(made_up.with_name("99_made_up.ipynb"))) == 2
