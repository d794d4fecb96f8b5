"""Live slides: the RISE extension (jupyterlab-rise) loads in JupyterLab on a course notebook.

Starts JupyterLab (conftest's `lab`: loopback, a free port, a token, --allow-root as root),
opens a course notebook in headless chromium, checks that RISE's commands are registered and
its slideshow button is in the notebook's toolbar, then opens RISE's preview of the notebook
and waits for the reveal.js slides in it. Saves a screenshot to build/rise/ (or to the folder
TTT_SCREENSHOTS names).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "03_alpha_beta_pruning.ipynb"
WAIT = 60_000  # ms: JupyterLab booting on a loaded machine (as the widgets test)
# The preview is a second JupyterLab inside an iframe (its own bundle, the notebook, a kernel):
# on a loaded machine (CI runs it beside three other workers) that alone took over 30 s.
PREVIEW_WAIT = 150_000  # ms
COMMANDS = ["RISE:slideshow", "RISE:preview", "RISE:set-slide-type"]


def test_rise_presents_a_course_notebook(chromium_launch, lab):
    from playwright.sync_api import sync_playwright

    shutil.copy(NOTEBOOK, lab.root / NOTEBOOK.name)
    shots = Path(os.environ.get("TTT_SCREENSHOTS") or ROOT / "build" / "rise")
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(WAIT)
            page.goto(lab.notebook_url(NOTEBOOK.name))
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell")
            has = page.evaluate(f"""() => {COMMANDS!r}.map(
                (id) => window.jupyterapp.commands.hasCommand(id))""")
            assert has == [True] * len(COMMANDS), dict(zip(COMMANDS, has))
            label = page.evaluate("window.jupyterapp.commands.label('RISE:preview')")
            button = page.locator(".jp-NotebookPanel-toolbar [data-jp-item-name='RISE-button']")
            assert button.count() == 1 and button.is_visible(), "no RISE button in the toolbar"
            title = button.locator("jp-button").get_attribute("title")
            assert "Slideshow" in label and "Alt+R" in title, (label, title)
            # started, not awaited (the command's promise has no time limit); the frame is waited for
            page.evaluate("() => { window.jupyterapp.commands.execute('RISE:preview'); }")
            frame = page.frame_locator("iframe[src*='/rise/']")
            frame.locator(".reveal .slides section").first.wait_for(timeout=PREVIEW_WAIT)
            heading = frame.locator(".reveal .slides h1").first
            assert "Alpha-beta pruning" in heading.inner_text()
            path = shots / "rise-preview.png"
            page.screenshot(path=str(path))
            print(f"RISE: {label!r}, toolbar: {title!r}; screenshot: {path}")
        finally:
            browser.close()
    assert path.stat().st_size > 0
