"""The notebooks as reveal.js slide shows that work offline, one HTML file each.

    python tools/slides.py SOURCE OUT [--pdf]   (SOURCE: a folder of notebooks or one .ipynb)

Uses nbconvert's SlidesExporter with our own template (tools/slides.html.j2): each cell's
``slideshow.slide_type`` (slide, subslide, fragment, skip, notes or -) decides where it goes,
cells of type ``notes`` become reveal's speaker notes (press ``s`` in a deck). Each deck is one
self-contained file: reveal.js, its notes plugin and their style sheets are written into it
from the npm packages `make slide-assets` puts in build/reveal (the build needs no network),
and MathJax too, but only in a deck whose notebook has math. Widgets cannot run in a static
page: their outputs become a line saying so (present the notebook live: `make present`).
A code cell too tall for a slide is spread over subslides by the output groups tools/
fit_slides.py writes in its ``metadata.slides.output_groups`` (a printed text longer than
LONG_TEXT lines counts as several outputs); live RISE slides show the cell whole.
``--pdf`` also prints each deck to ``NN_topic.slides.pdf`` (reveal's print view in headless
chromium). Input and output prompts are left out. Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import copy
import os
import re
import sys
from pathlib import Path

import nbformat

from course import ROOT, UsageError, main, read
from handout import sources_and_folder
from slide_browser import HEIGHT, WIDTH, print_pdfs  # the slide size; PDFs printed by a browser

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "slides.html.j2"
ASSETS = Path(os.environ.get("SLIDE_ASSETS", ROOT / "build" / "reveal" / "node_modules"))
# The reveal.js release nbconvert's own reveal template is written for, and MathJax 3.
REVEAL_VERSION, MATHJAX_VERSION = "4.0.2", "3.2.2"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = ('<p class="live-only">An interactive widget: it runs when the notebook itself '
               'is presented (<code>make present</code>).</p>')
PICTURES = ("image/png", "image/svg+xml", "image/jpeg")
PICTURE_CODE_LINES = 6  # a cell drawing a picture with longer code shows only the picture
LONG_TEXT, PIECE_LINES = 24, 12  # a printed text of more lines is shown in even pieces
CONTINUED = '<p class="continued">(continued)</p>'  # heads a cell's outputs on a later slide
MATH = re.compile(r"\$\$|\\\(|\\\[|(?<![\\$])\$(?=\S)[^$\n]+(?<=\S)\$")

# Sizes for a 1280x720 slide: text stays readable from the back of a room, code and outputs
# get most lines on one slide, and pictures shrink to fit instead of scrolling.
COURSE_CSS = """
:root { --jp-ui-font-size1: 20px; --jp-content-font-size1: 22px; --jp-code-font-size: 16px;
        --jp-content-line-height: 1.35; --jp-code-line-height: 1.25; }
.reveal { font-size: 22px; }
.reveal .slides > section, .reveal .slides > section > section { padding: 10px 0; }
.reveal h1, .reveal h2, .reveal h3 { text-transform: none; }
.reveal a.anchor-link { display: none; }
.reveal h1 { font-size: 46px; margin: 0 0 14px; }
.reveal h2 { font-size: 36px; margin: 0 0 12px; }
.reveal h3 { font-size: 28px; margin: 0 0 10px; }
.reveal p, .reveal ul, .reveal ol { margin: 0 0 10px; line-height: 1.35; }
.reveal li { margin: 2px 0; }
.reveal .jp-RenderedHTMLCommon { padding-right: 0; }
.reveal pre, .reveal code { font-size: var(--jp-code-font-size); line-height: 1.25; }
.reveal pre { white-space: pre-wrap; overflow-wrap: anywhere; box-sizing: border-box;
              width: 100%; }
.reveal .jp-OutputArea-output pre, .reveal .jp-OutputArea-output div.highlight > pre {
  font-size: 15px; line-height: 1.2; width: 100%; }
.reveal section img, .reveal .jp-RenderedImage img, .reveal .jp-RenderedSVG svg {
  max-height: 440px; max-width: 100%; width: auto; height: auto; object-fit: contain; }
.reveal table { font-size: 18px; }
.reveal .jp-Cell { padding: 2px 0; }
.reveal .live-only { font-style: italic; color: #555; }
/* printed text: one block however many outputs (or pieces, see text_pieces) it comes in */
.reveal .jp-OutputArea-output.jp-RenderedText pre { padding-top: 0; padding-bottom: 0; }
.reveal .jp-Cell-outputArea:has(> .jp-OutputArea-child > .jp-RenderedText) { padding: 6px 0; }
.reveal p.continued { font-size: 16px; line-height: 20px; height: 20px; margin: 0;
                      font-style: italic; color: #777; }
/* print view: no empty page after the last slide */
html.print-pdf .reveal .slides > .pdf-page:last-child,
html.print-pdf .reveal .slides > section:last-child > .pdf-page:last-child { break-after: avoid; }
"""


def asset(relative: str) -> str:
    """The text of one file of the npm packages, made safe to write inside a <script>."""
    path = ASSETS / relative
    if not path.is_file():
        raise UsageError(f"{path} is missing: run `make slide-assets` (npm install of "
                         f"reveal.js@{REVEAL_VERSION} and mathjax@{MATHJAX_VERSION})")
    text = path.read_text(encoding="utf-8")
    return text.replace("</script", "<\\/script").replace("<!--", "<\\!--")


def theme_css() -> str:
    """reveal's white theme without its web-font import (the system sans-serif stands in)."""
    return re.sub(r"@import url\([^)]*\);", "", asset("reveal.js/dist/theme/white.css"))


def has_math(nb) -> bool:
    """True if a markdown cell, or a markdown/LaTeX output, holds TeX math."""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and MATH.search(cell.source):
            return True
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/latex" in data or MATH.search(str(data.get("text/markdown", ""))):
                return True
    return False


def draws_at_length(cell) -> bool:
    """True for a code cell with a picture among its outputs and more than a few lines of
    code: the deck shows its picture without the code (the notebook has both)."""
    return (cell.cell_type == "code" and len(cell.source.splitlines()) > PICTURE_CODE_LINES
            and any(k in o.get("data", {}) for o in cell.outputs for k in PICTURES))


def text_pieces(output) -> list:
    """A printed (stream) output of more than LONG_TEXT lines as pieces of at most PIECE_LINES
    lines, of even lengths (tools/fit_slides.py may put them on different slides); any other
    output whole."""
    lines = str(output.get("text", "")).splitlines(keepends=True)
    if output.get("output_type") != "stream" or len(lines) <= LONG_TEXT:
        return [output]
    count = -(-len(lines) // PIECE_LINES)
    ends = [len(lines) * k // count for k in range(count + 1)]
    return [nbformat.v4.new_output("stream", name=output.get("name", "stdout"),
                                   text="".join(lines[a:b])) for a, b in zip(ends, ends[1:])]


def output_groups(cell) -> list[list[int]]:
    """The groups of output indexes (as the deck shows the outputs: see ``text_pieces``) that
    tools/fit_slides.py wrote for a cell too tall for one slide, each group on a slide of its
    own; [] for a cell shown whole."""
    return [list(g) for g in cell.metadata.get("slides", {}).get("output_groups", [])]


def split_cell(cell) -> list:
    """``cell`` as one cell per output group: the first with the code, the others with only
    their outputs under a "(continued)" line, each starting a subslide."""
    groups = output_groups(cell)
    hidden = cell.metadata.get("slideshow", {}).get("slide_type") in ("skip", "notes")
    if not groups or hidden or sum(groups, []) != list(range(len(cell.get("outputs", [])))):
        return [cell]  # shown whole (groups that no longer match the outputs are ignored)
    parts = []
    for k, group in enumerate(groups):
        part = copy.deepcopy(cell)
        part.outputs = [cell.outputs[i] for i in group]
        if k:
            if "id" in cell:
                part.id = f"{cell.id}-{k}"
            part.outputs.insert(0, nbformat.v4.new_output(
                "display_data", data={"text/html": CONTINUED}))
            part.metadata.setdefault("transient", {})["remove_source"] = True
            part.metadata.setdefault("slideshow", {})["slide_type"] = "subslide"
        parts.append(part)
    return parts


def static_copy(nb):
    """``nb`` ready for a static page: widget outputs replaced by a note, widget state gone,
    the code of long picture-drawing cells left out, long printed texts in pieces, and a cell
    with output groups split across subslides (live RISE slides show the notebook as it is)."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [piece for o in cell.outputs for piece in text_pieces(o)]
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                output["data"] = {"text/html": WIDGET_NOTE}
        if draws_at_length(cell):
            cell.metadata.setdefault("transient", {})["remove_source"] = True
    nb.cells = [part for cell in nb.cells for part in split_cell(cell)]
    return nb


def deck_resources(nb) -> dict:
    return {"reveal_css": asset("reveal.js/dist/reveal.css"), "theme_css": theme_css(),
            "reveal_js": asset("reveal.js/dist/reveal.js"),
            "notes_js": asset("reveal.js/plugin/notes/notes.js"), "course_css": COURSE_CSS,
            "mathjax": asset("mathjax/es5/tex-svg-full.js") if has_math(nb) else "",
            "width": WIDTH, "height": HEIGHT}


def exporter():
    from nbconvert.exporters import SlidesExporter
    return SlidesExporter(template_file=str(TEMPLATE), exclude_input_prompt=True,
                          exclude_output_prompt=True)


def deck(path: Path, slides=None) -> str:
    """The offline HTML deck of the notebook at ``path``."""
    nb = static_copy(read(path))
    html, _ = (slides or exporter()).from_notebook_node(nb, resources={
        "metadata": {"name": path.stem}, "deck": deck_resources(nb)})
    return html


def run(argv: list[str]) -> int:
    def pdf_option(args) -> None:
        args.add_argument("--pdf", action="store_true", help="also print each deck to PDF")

    paths, out, options = sources_and_folder(
        argv, "slides.py", "The notebooks as offline reveal.js slides (HTML, and PDF).",
        pdf_option)
    slides = exporter()
    targets = []
    for path in paths:
        target = out / f"{path.stem}.slides.html"
        target.write_text(deck(path, slides), encoding="utf-8")
        targets.append(target)
        print(target)
    if options.pdf:
        for pdf in print_pdfs(targets):
            print(pdf)
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
