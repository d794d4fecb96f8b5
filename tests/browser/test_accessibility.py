"""Every notebook's stored outputs, rendered by nbconvert and checked with axe-core (WCAG 2.1 A
and AA rules) in Debian's headless chromium: no violation in the course's own content, and
every picture with a description that is the course's own.

What nbconvert draws around the content is its own and is excluded, listed in README.md
("Accessibility"): the In/Out prompts and the syntax colours of code cells (``EXCLUDED``).
axe-core is pinned in the Makefile (``make axe`` installs it into build/axe).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# nbconvert's own chrome: prompts and the pygments colours of code (see README.md)
EXCLUDED = [[".jp-InputPrompt"], [".jp-OutputPrompt"], [".jp-InputArea-editor"],
            [".highlight"]]
NO_DESCRIPTION = "No description has been provided for this image"
# Violations that nbconvert's theme causes, whatever the course writes (README.md lists them):
# its stylesheet draws a link in running text in its own link colour, never underlined.
THEIRS = {"link-in-text-block": "link text: #0d47a1, surrounding text: #212121"}

RUN_AXE = """async ([tags, excluded]) => {
    const result = await axe.run({include: [["body"]], exclude: excluded},
                                 {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
    return result.violations.map(v => ({id: v.id, help: v.help,
        nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary.split("\\n")[1])}));
}"""
IMAGES = """() => Array.from(document.querySelectorAll(
    ".jp-OutputArea-output img, .jp-OutputArea-output svg, .jp-MarkdownOutput img"))
    .filter(e => !e.parentElement.closest("svg"))
    .map(e => ({tag: e.tagName.toLowerCase(), alt: e.getAttribute("alt"),
                role: e.getAttribute("role"),
                title: e.querySelector ? (e.querySelector(":scope > title") || {}).textContent : null}))"""


def html_of(notebook: Path, folder: Path) -> Path:
    """The notebook as nbconvert's HTML (the lab template), its stored outputs as they are."""
    import nbformat
    from nbconvert import HTMLExporter
    body, _ = HTMLExporter().from_notebook_node(nbformat.read(notebook, as_version=4))
    path = folder / (notebook.stem + ".html")
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser(chromium_launch):
    from playwright.sync_api import sync_playwright
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: run `make axe`", pytrace=False)
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch)
        try:
            yield browser
        finally:
            browser.close()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_notebook_html_passes_axe_and_describes_every_picture(notebook, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(html_of(notebook, tmp_path).as_uri(), wait_until="load")
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(RUN_AXE, [TAGS, EXCLUDED])
        images = page.evaluate(IMAGES)
    finally:
        page.close()
    ours = [v for v in violations
            if not all(THEIRS.get(v["id"], "\0") in node for node in v["nodes"])]
    assert ours == [], json.dumps(ours, indent=1, ensure_ascii=False)[:6000]
    undescribed = [image for image in images if not _described(image)]
    assert undescribed == [], f"{len(undescribed)} of {len(images)} pictures undescribed"


def _described(image: dict) -> bool:
    """An ``<img>`` with a real ``alt``, or an SVG with ``role="img"`` and a ``<title>``."""
    if image["tag"] == "img":
        return bool(image["alt"]) and image["alt"] != NO_DESCRIPTION
    return image["role"] == "img" and bool(image["title"])


OPEN = """async (path) => {
    const widget = await window.jupyterapp.commands.execute("docmanager:open",
                                                            {path, factory: "Notebook"});
    await widget.context.ready;
    return widget.id;
}"""
DRAWN = """([id, count]) => {
    const imgs = document.getElementById(id).querySelectorAll(".jp-OutputArea-output img");
    return imgs.length >= count && Array.from(imgs).every(i => i.complete && i.naturalWidth > 0);
}"""
LAB_IMAGES = """(id) => Array.from(document.getElementById(id).querySelectorAll(".jp-OutputArea-output"))
    .map(o => ({text: o.innerText.slice(0, 80), imgs: Array.from(o.querySelectorAll("img"))
                .map(i => ({alt: i.getAttribute("alt"), drawn: i.complete && i.naturalWidth > 0}))}))"""
CLOSE = """(id) => {
    for (const widget of window.jupyterapp.shell.widgets("main")) {
        if (widget.id === id) { widget.dispose(); }
    }
}"""


@pytest.fixture(scope="module")
def lab_page(browser, module_lab):
    """One JupyterLab page for every notebook (booting the app costs seconds of CPU): each
    test opens its notebook in it and closes it again."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(f"{module_lab.url}/lab/workspaces/accessibility?token={module_lab.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
        page.evaluate("async () => { await window.jupyterapp.started; "
                      "await window.jupyterapp.restored; }")
        yield page
    finally:
        page.close()


@pytest.mark.parametrize("name", [p.name for p in NOTEBOOKS], ids=lambda n: n[:2])
def test_an_untrusted_notebook_in_jupyterlab_shows_every_picture_described(
        name, lab_page, shared_lab):
    """A fresh clone is untrusted: JupyterLab then refuses stored SVG outputs, but shows the
    HTML ``<img>`` beside them, with its ``alt``. Opened without running a cell, in one
    JupyterLab page for every notebook, which draws every cell (not only those scrolled to)."""
    import shutil
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    shutil.copy(ROOT / "notebooks" / name, shared_lab.root / name)
    stored = _stored_pictures(ROOT / "notebooks" / name)
    widget = lab_page.evaluate(OPEN, name)
    try:
        try:  # every stored picture drawn, or the assertions below say what is missing
            lab_page.wait_for_function(DRAWN, arg=[widget, stored], timeout=60_000)
        except PlaywrightTimeout:
            pass
        outputs = lab_page.evaluate(LAB_IMAGES, widget)
    finally:
        lab_page.evaluate(CLOSE, widget)
    assert not [o for o in outputs if o["text"].startswith("<SVG")], "an SVG shown as text"
    images = [image for output in outputs for image in output["imgs"]]
    assert images and all(image["drawn"] for image in images)
    assert all(image["alt"] and image["alt"] != NO_DESCRIPTION for image in images), images
    assert len(images) == stored, (len(images), stored)


def _stored_pictures(path: Path) -> int:
    cells = json.loads(path.read_text())["cells"]
    return sum(1 for cell in cells for output in cell.get("outputs", [])
               if {"image/png", "image/svg+xml"} & set(output.get("data", {})))
