"""Decks in headless chromium: measure every slide, catch network requests, print to PDF.

Shared by ``tools/slides.py --pdf``, ``tools/fit_slides.py`` and tests/browser/test_slides.py.
Drives Debian's chromium through Playwright (``CHROMIUM``, default /usr/bin/chromium). Sizes are
CSS pixels of the slide itself (reveal scales the whole slide to the window afterwards), so a
measure does not depend on the window, only on the deck's fonts and CSS.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

WIDTH, HEIGHT = 1280, 720  # the slide size every deck is laid out (and checked) at
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LOCAL_SCHEMES = {"file", "data", "blob", "about"}
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}

# Wait until reveal is ready, MathJax (if any) has typeset and every picture has loaded.
READY_JS = """async () => {
  while (!(window.Reveal && Reveal.isReady())) await new Promise(r => setTimeout(r, 20));
  if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
  await Promise.all(Array.from(document.images).map(i => i.decode().catch(() => null)));
  return true;
}"""

# Step through every slide; for each: where it is, its content's size, the elements showing a
# scroll bar (content larger than their box), and each cell's id, height and outputs' heights.
MEASURE_JS = """() => {
  const scrolls = (el) => {
    const s = getComputedStyle(el);
    const x = /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
    const y = /(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
    return x || y;
  };
  const cellHeight = (el) => {
    const s = getComputedStyle(el);
    return el.offsetHeight + parseFloat(s.marginTop) + parseFloat(s.marginBottom);
  };
  return Reveal.getSlides().map((slide) => {
    const where = Reveal.getIndices(slide);
    Reveal.slide(where.h, where.v);
    const cells = Array.from(slide.querySelectorAll('.jp-Cell')).filter(
      (c) => !c.closest('aside.notes'));
    return {
      h: where.h, v: where.v || 0,
      height: slide.scrollHeight, width: slide.scrollWidth,
      scrollers: Array.from(slide.querySelectorAll('*')).filter(scrolls).map(
        (el) => el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0]),
      cells: cells.map((c) => ({id: (c.id || '').replace('cell-id=', ''),
                                height: cellHeight(c),
                                outputs: Array.from(c.querySelectorAll('.jp-OutputArea-child'))
                                  .map(cellHeight)})),
    };
  });
}"""


@dataclass
class Slide:
    """One slide of a deck as the browser laid it out (sizes in slide pixels)."""
    h: int
    v: int
    height: int
    width: int
    scrollers: list[str]
    cells: list[dict]

    @property
    def overflows(self) -> bool:
        return self.height > HEIGHT or self.width > WIDTH or bool(self.scrollers)

    def describe(self) -> str:
        return (f"slide {self.h}.{self.v}: {self.width}x{self.height} px"
                + (f", scroll bars in {', '.join(self.scrollers)}" if self.scrollers else ""))


@dataclass
class Requests:
    """Every request a page tried that would leave the machine (each one is refused)."""
    outside: list[str] = field(default_factory=list)

    def route(self, route) -> None:
        url = route.request.url
        parts = urlparse(url)
        if parts.scheme in LOCAL_SCHEMES or parts.hostname in LOOPBACK:
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()


@contextlib.contextmanager
def browser(viewport: tuple[int, int] = (WIDTH, HEIGHT)):
    """A chromium page of ``viewport`` and the list of its outside requests (all refused)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        try:
            context = chromium.new_context(viewport={"width": viewport[0],
                                                     "height": viewport[1]})
            requests = Requests()
            context.route("**/*", requests.route)
            yield context, requests
        finally:
            chromium.close()


def open_deck(page, deck: Path, query: str = "") -> None:
    """Load ``deck`` and wait until it is laid out (fonts, math, pictures)."""
    page.goto(deck.resolve().as_uri() + query)
    page.evaluate(READY_JS)


def measure(page) -> list[Slide]:
    """Every slide of the open deck, in order, measured."""
    return [Slide(**s) for s in page.evaluate(MEASURE_JS)]


def print_pdfs(decks: list[Path], context=None) -> list[Path]:
    """Each deck printed through reveal's print view (one slide per page) next to it, in
    ``context`` (a browser of its own when None)."""
    if context is None:
        with browser() as (own, _):
            return print_pdfs(decks, own)
    pdfs, page = [], context.new_page()
    for deck in decks:
        open_deck(page, deck, "?print-pdf")
        pdf = deck.with_suffix("").with_suffix(".slides.pdf")
        # reveal's print view sets the page size (@page) to the slide and its margin
        page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
        pdfs.append(pdf)
    page.close()
    return pdfs
