"""Every notebook of the students' JupyterLite site (``make lite``, build/lite) runs in headless
chromium, offline: the site is served on 127.0.0.1, every other host name is unresolvable, and
any request that leaves 127.0.0.1 is recorded and fails the test.

Each notebook is opened in the site, run through JupyterLab's own "run all cells" command and
then read back from the page: the kernel is idle, every code cell ran, no cell shows an error
except the cells tagged ``needs-processes`` (a class tournament, Dask), which must show the
library's "not in a browser" message instead, and the widgets the notebook shows render.

``make test`` runs the notebooks in ``IN_MAKE_TEST``; ``make test-lite`` (and CI) runs them
all (``-m lite_all``). Each notebook's time is printed (``-s`` shows it).
"""
from __future__ import annotations

import functools
import json
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SITE = ROOT / "build" / "lite"
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# The notebooks make test runs, about 3.5 minutes here (the index; one with widgets drawn by
# the kernel; one with widgets and a cell that needs processes); the other ten run under
# `make test-lite` (about 12 minutes here), which CI runs too.
IN_MAKE_TEST = ("00_index.ipynb", "03_alpha_beta_pruning.ipynb",
                "12_capstone_connect_four.ipynb")
NEEDS_PROCESSES = "needs-processes"  # the tag of a cell that cannot run in a browser
MESSAGE = "not in a browser"
OPEN = 120_000  # ms for the page and its kernel to be ready (Pyodide starts in about 15 s)
RUN = 420_000   # ms for one notebook's cells (08's serial tournaments: 210 s here)
OFFLINE = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KERNEL_IDLE = """() => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const context = panel && panel.sessionContext;
    const kernel = context && context.session && context.session.kernel;
    return !!(context && context.isReady && kernel && kernel.status === 'idle'
              && panel.content && panel.content.widgets.length > 0);
}"""
# started, not awaited by evaluate: the test waits for window.__ran with its own limit
RUN_ALL = """() => {
    window.__ran = null;
    window.jupyterapp.commands.execute('notebook:run-all-cells').then(
        ok => { window.__ran = {ok: ok}; }, error => { window.__ran = {error: String(error)}; });
}"""
# every code cell: its tags, execution count and outputs, from the notebook's model
CELLS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code')
    .map(cell => { const json = cell.model.toJSON();
                   return {tags: (json.metadata || {}).tags || [], count: json.execution_count,
                           outputs: json.outputs}; })"""


class Site(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".json": "application/json"}

    def log_message(self, *args) -> None:  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def site_url():
    """build/lite served on loopback for this module's tests."""
    if not (SITE / "static" / "pyodide" / "pyodide.js").exists():
        pytest.fail("build/lite (with its Pyodide) is missing: `make lite` builds it",
                    pytrace=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Site, directory=SITE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(chromium_launch):
    """One chromium for every notebook, offline but for 127.0.0.1."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            **{**chromium_launch, "args": chromium_launch["args"] + OFFLINE})
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def context(browser):
    """One browser context (its cache shared by the notebooks) that records every request
    for a host other than 127.0.0.1."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.outside = []
    context.on("request", lambda request: _record(context.outside, request.url))
    context.route("**/jupyter-lite.json", _expose_the_app)
    yield context
    context.close()


def _expose_the_app(route) -> None:
    """The site's settings as served, plus ``exposeAppInBrowser`` (window.jupyterapp, which
    the test reads the notebook from); the published site leaves it off."""
    response = route.fetch()
    config = response.json()
    config.setdefault("jupyter-config-data", {})["exposeAppInBrowser"] = True
    route.fulfill(response=response, json=config)


def _record(outside: list, url: str) -> None:
    parsed = urlparse(url)
    if parsed.scheme in ("http", "https", "ws", "wss") and parsed.hostname != "127.0.0.1":
        outside.append(url)


def run_notebook(context, site_url: str, name: str) -> tuple[list[dict], dict]:
    """Open ``name`` in the site, run all its cells; its code cells as the page has them,
    and the seconds taken (kernel ready, cells run)."""
    page = context.new_page()
    try:
        page.set_default_timeout(OPEN)
        start = time.monotonic()
        page.goto(f"{site_url}/lab/index.html?path={name}")
        page.wait_for_function(KERNEL_IDLE, timeout=OPEN)
        ready = time.monotonic()
        page.evaluate(RUN_ALL)
        page.wait_for_function("() => window.__ran !== null", timeout=RUN, polling=500)
        page.wait_for_function(KERNEL_IDLE, timeout=OPEN)
        ran = page.evaluate("() => window.__ran")
        cells = page.evaluate(CELLS)
        widgets = page.locator(".jp-OutputArea-output .jupyter-widgets").count()
        broken = page.get_by_text("Error displaying widget").count()
        times = {"kernel": ready - start, "cells": time.monotonic() - ready}
        return cells, {**times, "ran": ran, "widgets": widgets, "broken": broken}
    finally:
        page.close()


def _text(output: dict) -> str:
    if output["output_type"] == "stream":
        text = output["text"]
    elif output["output_type"] == "error":
        text = f"{output['ename']}: {output['evalue']}"
    else:
        text = output.get("data", {}).get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def shows_widgets(name: str) -> bool:
    """Whether the served notebook's stored outputs hold a widget view."""
    cells = json.loads((SITE / "files" / name).read_text())["cells"]
    return any("application/vnd.jupyter.widget-view+json" in output.get("data", {})
               for cell in cells for output in cell.get("outputs", []))


def check_notebook(context, site_url: str, name: str) -> None:
    before = len(context.outside)
    cells, seen = run_notebook(context, site_url, name)
    print(f"\n{name}: kernel ready in {seen['kernel']:.1f} s, {len(cells)} code cells run in "
          f"{seen['cells']:.1f} s, {seen['widgets']} widget views")
    assert context.outside[before:] == [], f"requests left 127.0.0.1: {context.outside[before:]}"
    assert cells and all(cell["count"] for cell in cells), \
        f"{name}: cells not run: {[n for n, cell in enumerate(cells, 1) if not cell['count']]}"
    for number, cell in enumerate(cells, 1):
        errors = [_text(out) for out in cell["outputs"] if out["output_type"] == "error"]
        if NEEDS_PROCESSES in cell["tags"]:
            shown = "".join(_text(out) for out in cell["outputs"])
            assert MESSAGE in shown, f"{name} code cell {number}: no '{MESSAGE}' message: {shown}"
        else:
            assert not errors, f"{name} code cell {number} failed: {errors}"
    assert seen["ran"] == {"ok": True} or any(NEEDS_PROCESSES in c["tags"] for c in cells), seen
    if shows_widgets(name):
        assert seen["widgets"] > 0 and seen["broken"] == 0, seen


@pytest.mark.parametrize("name", IN_MAKE_TEST)
def test_notebook_runs_in_the_browser(context, site_url, name):
    check_notebook(context, site_url, name)


@pytest.mark.lite_all
@pytest.mark.parametrize("name", [name for name in NOTEBOOKS if name not in IN_MAKE_TEST])
def test_the_other_notebooks_run_in_the_browser(context, site_url, name):
    check_notebook(context, site_url, name)


def test_the_split_covers_the_course():
    assert set(IN_MAKE_TEST) <= set(NOTEBOOKS) and len(NOTEBOOKS) == 13
