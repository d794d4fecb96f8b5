"""The notebooks as reveal.js slide shows, one HTML file each.

    python tools/slides.py SOURCE OUT       (SOURCE: a folder of notebooks or one .ipynb)

Uses nbconvert's SlidesExporter: each cell's ``slideshow.slide_type`` (slide, subslide,
fragment, skip, notes or -) decides where it goes. The HTML loads reveal.js from a CDN when it
is opened, so building needs no network. Input and output prompts (``In [3]:``) are left out.
Bad arguments exit with status 2 and one line.
"""
from __future__ import annotations

import sys
from pathlib import Path

from course import UsageError, main, parser, read
from handout import sources


def run(argv: list[str]) -> int:
    from nbconvert.exporters import SlidesExporter

    args = parser("slides.py", "The notebooks as reveal.js slides (HTML).")
    args.add_argument("source", help="a folder of notebooks, or one .ipynb")
    args.add_argument("out", help="the folder the slides go to")
    options = args.parse_args(argv)
    paths = sources(Path(options.source))
    out = Path(options.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
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
