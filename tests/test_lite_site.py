"""The JupyterLite site (``make lite``, in build/lite) opens in headless chromium, served on
loopback, and its file browser lists every course notebook.

Only the site is tested here: running a notebook in it needs Pyodide's packages from its CDN,
which this machine cannot reach (the core under Pyodide is tested by test_pyodide.py).
"""
from __future__ import annotations

import functools
import json
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "lite"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def course_notebooks() -> list[str]:
    return sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def site_url():
    """build/lite served on loopback for the length of this module's tests."""
    if not (SITE / "index.html").exists():
        pytest.fail("build/lite is missing: `make lite` builds it (`make test` does first)",
                    pytrace=False)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # keep the test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=SITE))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _install_lines() -> str:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from lite import INSTALL_LINES
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return INSTALL_LINES


@pytest.mark.parametrize("name", course_notebooks())
def test_every_notebook_installs_the_package_where_it_is_missing(name):
    """The first code cell starts with the install lines (a no-op where ttt_lib is
    installed: nbval runs every notebook with them)."""
    cells = json.loads((ROOT / "notebooks" / name).read_text())["cells"]
    first = next(cell for cell in cells if cell["cell_type"] == "code")
    assert "".join(first["source"]).startswith(_install_lines() + "\n")


def test_the_site_holds_every_notebook_and_the_wheels():
    listed = json.loads((SITE / "api" / "contents" / "all.json").read_text())
    assert sorted(item["name"] for item in listed["content"]) == course_notebooks()
    for name in course_notebooks():
        assert (SITE / "files" / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    index = json.loads((SITE / "pypi" / "all.json").read_text())
    assert {"ttt-lib", "ipywidgets", "jupyterlab-widgets"} <= set(index)
    extensions = json.loads((SITE / "jupyter-lite.json").read_text())
    names = {ext["name"] for ext in extensions["jupyter-config-data"]["federated_extensions"]}
    assert "@jupyter-widgets/jupyterlab-manager" in names  # the widgets render in the page


@pytest.mark.browser
def test_the_site_opens_and_lists_the_notebooks(site_url):
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"chromium is missing at {CHROMIUM}: `make chromium` installs it",
                    pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{site_url}/lab/index.html")
            listing = page.locator(".jp-DirListing-content")
            listing.locator(".jp-DirListing-itemName", has_text=course_notebooks()[-1]).wait_for(
                timeout=60_000)
            shown = sorted(listing.locator(".jp-DirListing-itemName").all_inner_texts())
            assert page.title().startswith("JupyterLite") or "Jupyter" in page.title()
        finally:
            browser.close()
    assert [name for name in shown if name.endswith(".ipynb")] == course_notebooks()
