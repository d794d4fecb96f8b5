"""The notebooks as reveal.js slide shows, one HTML file each.

    python tools/slides.py SOURCE OUT       (SOURCE: a folder of notebooks or one .ipynb)

Uses nbconvert's SlidesExporter: each cell's ``slideshow.slide_type`` (slide, subslide,
fragment, skip, notes or -) decides where it goes. The HTML loads reveal.js from a CDN when it
is opened, so building needs no network. Input and output prompts (``In [3]:``) are left out.
Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import sys
from course import main, read
from handout import sources_and_folder


def run(argv: list[str]) -> int:
    from nbconvert.exporters import SlidesExporter

    paths, out = sources_and_folder(argv, "slides.py", "The notebooks as reveal.js slides (HTML).")
    exporter = SlidesExporter(exclude_input_prompt=True, exclude_output_prompt=True,
                              reveal_theme="white", reveal_transition="none")
    for path in paths:
        html, _ = exporter.from_notebook_node(read(path), resources={"metadata": {
            "name": path.stem}})
        target = out / f"{path.stem}.slides.html"
        target.write_text(html, encoding="utf-8")
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(run))
