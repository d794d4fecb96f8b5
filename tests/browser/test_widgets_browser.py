"""The widgets in a real JupyterLab, driven by Playwright in Debian's headless chromium.

Runs the demo notebook, plays a whole game through the PlayWidget by clicking its cells,
clicks an occupied cell and a cell after the game, drops pieces on a Connect Four board by a
column's button, a cell high in the column and the keyboard, steps the TraceStepper forward
and back, grows the MCTS tree, and saves screenshots (their paths are printed; set TTT_SCREENSHOTS to
keep them in a folder of your choice).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

WAIT = 60_000   # ms: generous, for a slow shared machine
STEP = 20_000   # ms for one click's answer
PREFERENCE = [4, 0, 2, 6, 8, 1, 3, 5, 7]  # which empty cell the test player clicks first

KERNEL_IDLE = """() => {
    const app = window.jupyterapp;
    const panel = app && app.shell.currentWidget;
    const context = panel && panel.sessionContext;
    const kernel = context && context.session && context.session.kernel;
    return !!(context && context.isReady && kernel && kernel.status === 'idle');
}"""


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TTT_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_play_step_and_grow_in_jupyterlab(chromium_launch, lab, shots):
    from playwright.sync_api import expect, sync_playwright

    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})

            def snap(target, name: str) -> None:
                page.wait_for_function(KERNEL_IDLE)  # the last click's updates have arrived
                path = shots / f"{name}.png"
                target.screenshot(path=str(path))
                saved.append(path)
                print(f"screenshot: {path}")

            page.set_default_timeout(WAIT)
            expect.set_options(timeout=STEP)
            page.goto(lab.notebook_url())
            page.wait_for_selector(".jp-Notebook .jp-Cell")
            page.wait_for_function(KERNEL_IDLE, timeout=WAIT)
            # started, not awaited: evaluate would wait on the command's promise without a limit
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
            page.wait_for_selector(".ttt-cell-4", state="visible", timeout=WAIT)

            play_a_game(page, expect, snap)
            heard = play_by_keyboard(page, expect)
            print("announced:", *heard, sep="\n  ")
            play_connect_four(page, expect, snap)
            step_the_trace(page, expect)
            snap(page.locator(".ttt-trace"), "trace-stepper-at-cutoff")
            grow_the_tree(page, expect)
            snap(page.locator(".ttt-mcts"), "mcts-grower")
            snap(page, "whole-page")
        finally:
            browser.close()
    assert all(path.stat().st_size > 0 for path in saved)


def status_text(page) -> str:
    return page.locator(".ttt-status").inner_text()


def board_marks(page) -> list[str]:
    return [page.locator(f".ttt-cell-{cell}").inner_text().strip() for cell in range(9)]


def play_a_game(page, expect, snap) -> None:
    page = page.locator(".ttt-play:not(.ttt-play-columns)")  # the 3x3 widget
    status = page.locator(".ttt-status")
    expect(status).to_contain_text("Your move: you are X", timeout=WAIT)
    for turn in range(5):  # X moves at most five times
        marks = board_marks(page)
        cell = next(c for c in PREFERENCE if marks[c] == "")
        page.locator(f".ttt-cell-{cell}").click()
        expect(status).to_have_text(
            re.compile(rf"You played cell {cell}\b.*(Your move|Game over)"))
        assert board_marks(page)[cell] == "X"
        if turn == 0:  # an occupied cell: explained, nothing changes
            before = board_marks(page)
            page.locator(f".ttt-cell-{cell}").click()
            expect(status).to_contain_text(f"Cell {cell} is taken (X is there)")
            assert board_marks(page) == before
            snap(page, "play-widget-occupied-cell")
        if "Game over" in status_text(page):
            break
    expect(status).to_contain_text("Game over")
    assert re.search(r"a draw|the computer wins", status_text(page)), status_text(page)
    snap(page, "play-widget-game-over")
    marks = board_marks(page)
    page.locator(f".ttt-cell-{PREFERENCE[0]}").click()  # after the end: explained
    expect(status).to_contain_text("The game is over")
    assert board_marks(page) == marks


PLACES = ["top left", "top centre", "top right", "middle left", "centre", "middle right",
          "bottom left", "bottom centre", "bottom right"]


def play_by_keyboard(page, expect) -> list[str]:
    """A new game and a whole game with Tab, Shift+Tab and Enter only, reading what a
    screen reader reads: each cell's accessible name (or, for a filled cell, its mark and
    description) and the polite live region's text after each move. Returns what it said."""
    root = page.locator(".ttt-play:not(.ttt-play-columns)")
    region = root.locator(".ttt-status [role=status]")
    expect(region).to_have_attribute("aria-live", "polite")
    root.locator(".ttt-new").focus()  # where the previous game left off: start again
    page.keyboard.press("Enter")
    expect(region).to_have_text("Your move: you are X. Click an empty cell.")
    assert board_marks(root) == [""] * 9  # the last game's marks are gone
    expect(root.locator(".ttt-side-state [role=status]")).to_have_text("you play X")
    snapshot = root.locator(".ttt-board").aria_snapshot()  # Chromium's accessibility tree
    assert all(f'button "cell {c}, {PLACES[c]}, empty"' in snapshot for c in range(9)), snapshot
    heard, at = [region.inner_text()], 9  # 9: the New game button, after cell 8
    for _ in range(5):
        names = [_cell_name(root, cell) for cell in range(9)]
        cell = next(c for c in PREFERENCE if names[c].endswith("empty"))
        assert names[cell] == f"cell {cell}, {PLACES[cell]}, empty", names
        for _ in range(abs(cell - at)):
            page.keyboard.press("Tab" if cell > at else "Shift+Tab")
        page.keyboard.press("Enter")
        at = cell
        expect(region).to_have_text(re.compile(rf"You played cell {cell} \({PLACES[cell]}\)"
                                               r".*(replied in cell \d \(|Game over)"))
        heard.append(region.inner_text())
        assert _cell_name(root, cell) == f"cell {cell}, {PLACES[cell]}, X"
        if "Game over" in heard[-1]:
            break
    assert "Game over" in heard[-1], heard
    return heard


def _cell_name(root, cell: int) -> str:
    """What a screen reader says for a cell: its name, and for a filled one its description
    (the mark is the name, the tooltip's position the description)."""
    button = root.locator(f".ttt-cell-{cell}")
    text, title = button.inner_text().strip(), button.get_attribute("title")
    role = root.get_by_role("button", name=title, exact=True) if not text else \
        root.get_by_role("button", name=text, exact=True)
    assert role.count() >= 1, (cell, text, title)
    assert title.startswith(f"cell {cell}, "), title
    return title


def play_connect_four(page, expect, snap) -> None:
    """A column's button, a cell high in a column, the keyboard: each drops a piece."""
    root = page.locator(".ttt-play-columns")
    status = root.locator(".ttt-status")
    expect(status).to_have_text("Your move: you are X. Click a column.", timeout=WAIT)
    assert "column 3" in root.locator(".ttt-column-3").get_attribute("title")
    root.locator(".ttt-column-3").click()
    expect(status).to_have_text(re.compile(
        r"You played column 3 \(row 1 from the bottom\); the computer \(greedy, O\) replied "
        r"in column \d \(row \d from the bottom\)\. Your move\."))
    assert root.locator(".ttt-cell-38").inner_text().strip() == "X"
    root.locator(".ttt-cell-3").click()  # the top cell of column 3
    expect(status).to_contain_text("You played column 3 (row ")
    root.locator(".ttt-column-1").focus()
    page.keyboard.press("Enter")
    expect(status).to_contain_text("You played column 1 (row 1 from the bottom)")
    assert root.locator(".ttt-cell-36").inner_text().strip() == "X"
    expect(root.locator(".ttt-cell-36")).to_have_attribute(
        "title", re.compile(r"column 1, row 1 from the bottom: X"))
    snap(root, "play-widget-connect-four")


def step_the_trace(page, expect) -> None:
    counter, line = page.locator(".ttt-trace-step"), page.locator(".ttt-trace-line")
    picture = page.locator(".ttt-trace-tree img")
    expect(counter).to_have_text("step 1 of 35", timeout=WAIT)
    expect(page.locator(".ttt-trace-step [role=status]")).to_have_attribute("aria-live", "polite")
    expect(line).to_contain_text("A -999 999 -999")
    assert "current step: 1 of 35" in picture.get_attribute("alt")
    first_picture = picture.get_attribute("src")
    nxt = page.locator(".ttt-trace-next")
    for step in range(2, 20):
        nxt.click()
        expect(counter).to_have_text(f"step {step} of 35")
    expect(line).to_contain_text("alpha >= beta, prune remaining children of C")
    assert picture.get_attribute("src") != first_picture
    page.locator(".ttt-trace-back").click()
    expect(counter).to_have_text("step 18 of 35")
    expect(line).to_contain_text("H improved beta( C ) to 2")
    nxt.click()
    expect(counter).to_have_text("step 19 of 35")
    expect(line).to_contain_text("prune remaining children of C")


def grow_the_tree(page, expect) -> None:
    total = page.locator(".ttt-mcts-total")
    expect(total).to_have_text("0 playouts so far", timeout=WAIT)
    page.locator(".ttt-mcts-10").click()
    expect(total).to_have_text(re.compile(r"^10 playouts so far; most visited: move \d"))
    page.locator(".ttt-mcts-100").click()
    expect(total).to_have_text(re.compile(r"^110 playouts so far; most visited"))
    assert "after 110 iterations" in page.locator(".ttt-mcts-tree img").get_attribute("alt")
    expect(page.locator(".ttt-mcts-table")).to_contain_text("exact for X")
