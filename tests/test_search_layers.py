"""The search layer's house rules: it knows only the game protocol, its listings are short
enough to read whole, and instrumentation is one observer, never an ``if stats`` block."""
import ast
import importlib
from pathlib import Path

import pytest

SEARCH = Path(__file__).resolve().parent.parent / "ttt_lib" / "search"
ALLOWED = {"ttt_lib.game", "ttt_lib.errors", "ttt_lib.symmetry",
           "ttt_lib.checks"}  # the entry points' argument checks, over the protocol only
OBSERVERS = {"stats", "trace", "watch"}


def modules() -> list[Path]:
    return sorted(SEARCH.glob("*.py"))


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


def ttt_imports(path: Path) -> set[str]:
    """The ttt_lib modules ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "ttt_lib"}
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                target = node.module or ""
            else:
                base = ["ttt_lib", "search"][:3 - node.level]
                target = ".".join(base + ([node.module] if node.module else []))
            if target.split(".")[0] == "ttt_lib":
                found |= ({f"{target}.{a.name}" for a in node.names} if target == "ttt_lib"
                          else {target})
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_search_imports_only_the_protocol_and_itself(path):
    outside = {name for name in ttt_imports(path)
               if name not in ALLOWED
               and not name.startswith("ttt_lib.search")}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_import_check_sees_each_kind_of_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from ..bitboard import BitBoard\nfrom .. import viz\n"
                      "import ttt_lib.agents\nfrom .watch import Stats\n"
                      "def f():\n    from ..studies import nodes\n")
    assert ttt_imports(module) == {"ttt_lib.bitboard", "ttt_lib.viz", "ttt_lib.agents",
                                   "ttt_lib.search.watch", "ttt_lib.studies"}


def test_the_moved_names_live_in_the_studies():
    from ttt_lib import search, studies
    for name in ("HORIZON_EXAMPLE", "horizon_positions", "first_move", "replay", "nodes_report"):
        assert hasattr(studies, name) and not hasattr(search, name)


def observer_guards(tree: ast.AST) -> list[tuple[str, int]]:
    """``if`` statements testing whether an observer (``stats``, ``trace``, ``watch``, or
    ``self.`` one of them) is None: instrumentation that is not one line of the algorithm."""
    def observer(node) -> str | None:
        if isinstance(node, ast.Name) and node.id in OBSERVERS:
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in OBSERVERS:
            return ast.unparse(node)
        return None

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            for test in ast.walk(node.test):
                if (isinstance(test, ast.Compare) and observer(test.left)
                        and any(isinstance(op, (ast.Is, ast.IsNot)) for op in test.ops)):
                    found.append((observer(test.left), node.lineno))
    return found


# (the 30-code-line rule for these modules is checked in tests/test_house.py)


# observe.py observes: choosing to run plainly when no observer is given is its job.
ALGORITHMS = [path for path in modules() if path.name not in ("observe.py", "trace.py",
                                                              "watch.py")]


@pytest.mark.parametrize("path", ALGORITHMS, ids=lambda p: p.name)
def test_no_if_observer_is_not_none_blocks(path):
    assert observer_guards(parsed(path)) == []


def test_the_guard_check_finds_each_kind_of_guard():
    tree = ast.parse("if stats is not None:\n    stats.nodes += 1\n"
                     "if self.trace is not None and x:\n    pass\n"
                     "if watch is None:\n    pass\n"
                     "if self.table is not None:\n    pass\n")
    assert observer_guards(tree) == [("stats", 1), ("self.trace", 3), ("watch", 5)]


MOVED = {  # name -> the studies module it lives in now
    "first_move": "firstmove", "replay": "firstmove", "cached_minimax": "firstmove",
    "PUBLISHED_FIRST_MOVE": "firstmove", "nodes_report": "nodes",
    "format_nodes_report": "nodes", "report_rows": "nodes", "horizon_positions": "horizon",
    "HORIZON_EXAMPLE": "horizon", "HorizonExample": "horizon", "all_counts": "counting",
    "position_counts": "counting"}


@pytest.mark.parametrize("name, module", MOVED.items())
def test_the_studies_export_the_moved_names(name, module):
    studies = importlib.import_module("ttt_lib.studies")
    assert getattr(studies, name) is getattr(importlib.import_module(f"ttt_lib.studies.{module}"),
                                             name)
    assert not hasattr(importlib.import_module("ttt_lib.search"), name)
