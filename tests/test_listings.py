"""Every listing a notebook shows (the stored output of ``show_source``) is the algorithm alone:
no observer (``watch``, ``stats``, ``trace``, ``Stats``, ``Trace``) and no ``path`` of moves
threaded through the calls. Counting and tracing are done from outside (ARCHITECTURE.md,
"Observation from outside")."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

OBSERVER = re.compile(r"\b(watch|stats|trace|Stats|Trace)\b"
                      r"|\bpath\s*[:=]\s*Path\b|\bpath\s*\+\s*\(|\bchild_path\b|\bpath=path\b")

# Listings that may name these words, and why: each is a module's header line in the output.
ALLOWED = {
    # agents report each choice's work in ``stats`` (the agent interface, ARCHITECTURE.md)
    "ttt_lib/agents.py", "ttt_lib/player.py",
    # the course's experiments, whose result is a count (the blog's per-child driver)
    "ttt_lib/studies/firstmove.py",
}
# Notebooks whose stored outputs predate issue 31 and are re-executed after the merge
# (another branch rewrites them); strict, so the mark must go once they pass.
PENDING: set[str] = set()  # notebooks whose listings wait for a re-execution


def listings(path: Path) -> list[str]:
    """The text of every ``show_source`` output stored in a notebook."""
    found = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code" or "show_source" not in "".join(cell["source"]):
            continue
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", output.get("text", "")))
            found += ["# ttt_lib/" + part for part in text.split("# ttt_lib/")[1:]]
    return found


def offending(listing: str) -> list[str]:
    header = listing.splitlines()[0][2:].strip()
    if header in ALLOWED:
        return []
    return [f"{header}: {match.group(0)!r}" for match in OBSERVER.finditer(listing)]


def marked(path: Path):
    if path.name in PENDING:
        return pytest.param(path, marks=pytest.mark.xfail(
            strict=True, reason="re-executed after the merge of issue 31"))
    return path


@pytest.mark.parametrize("path", [marked(p) for p in NOTEBOOKS], ids=lambda p: p.name)
def test_listings_carry_no_observer(path):
    problems = [problem for listing in listings(path) for problem in offending(listing)]
    assert not problems, f"{path.name}: {problems}"


def test_the_scan_sees_listings_and_each_kind_of_observer():
    assert sum(len(listings(path)) for path in NOTEBOOKS) > 40
    for bad in ["watch.enter(state)", "stats: Stats | None = None", "trace=trace",
                "def f(state, path: Path = ())", "f(child, path + (move,))", "child_path = 1"]:
        assert offending("# ttt_lib/search/x.py\n" + bad), bad
    for fine in ["path.append(node)", "for node in path:", "best = max(best, value)"]:
        assert not offending("# ttt_lib/search/x.py\n" + fine), fine
    assert not offending("# ttt_lib/agents.py\nself.stats = Stats()")
