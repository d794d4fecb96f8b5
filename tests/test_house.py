"""The house rules of ARCHITECTURE.md ("Layers", "House rules"): layers whose imports only
point down, small modules, listings of at most 30 code lines in the search layer, and notebooks
that show public names."""
from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ttt_lib"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# Each part of the package and the layer it sits on; a module may import its own layer's
# modules of the same part and anything on a lower layer.
LAYERS = {
    "errors": 0, "symmetry": 0, "game": 0, "progress": 0, "safetext": 0,
    "checks": 0,  # the entry points' argument checks (over game and safetext)
    "boards": 1,
    "search": 2,
    "agents": 3, "arena": 3, "match": 3, "pools": 3, "learn": 3, "player": 3,
    "studies": 4, "bench": 4,
    "viz": 5,
    "widgets": 6, "teach": 6,
    "classroom": 6,  # the class tournament: arena, agents, player; viz for its heatmap
    "cli": 7, "__main__": 8, "__init__": 8,
}


DATA = PACKAGE / "classroom" / "class_agents"  # example student files: data, not modules


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if DATA not in path.parents)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(name: str) -> str:
    """'ttt_lib.search.alphabeta' -> 'search'; the package's own __init__ -> '__init__'."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def is_module(name: str) -> bool:
    where = PACKAGE.parent / name.replace(".", "/")
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists()


def imported_modules(path: Path) -> set[str]:
    """Every ttt_lib module ``path`` imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("ttt_lib")}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("ttt_lib"):
                continue
            submodules = {f"{target}.{alias.name}" for alias in node.names
                          if is_module(f"{target}.{alias.name}")}
            # "from . import grid" imports the submodule; the package itself only when a
            # name comes from its __init__
            found |= submodules
            if len(submodules) < len(node.names):
                found.add(target)
    return found


def test_every_part_has_a_layer():
    parts = {part_of(module_name(path)) for path in modules()}
    assert parts <= set(LAYERS), f"parts without a layer: {sorted(parts - set(LAYERS))}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    here = part_of(module_name(path))
    upward = sorted(target for target in imported_modules(path)
                    if target != "ttt_lib" and part_of(target) != here
                    and LAYERS[part_of(target)] > LAYERS[here])
    assert not upward, f"{module_name(path)} ({here}) imports upward: {upward}"


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A chain of imports that comes back to where it started, or None."""
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> list[str] | None:
        state[name] = "open"
        for target in sorted(graph.get(name, ())):
            if state.get(target) == "open":
                return trail[trail.index(target):] + [target]
            if target in graph and target not in state:
                found = visit(target, trail + [target])
                if found:
                    return found
        state[name] = "done"
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name, [name])
            if found:
                return found
    return None


def test_no_import_circles():
    graph = {module_name(path): {t for t in imported_modules(path) if t != "ttt_lib"}
             for path in modules()}
    circle = find_circle(graph)
    assert circle is None, f"import circle: {' -> '.join(circle)}"


def test_the_circle_check_finds_a_circle():
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_450_lines(path):
    lines = len(path.read_text().splitlines())
    assert lines <= 450, f"{path.relative_to(ROOT)} has {lines} lines"


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not part of a docstring."""
    tree = ast.parse(source)
    docstring_lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                docstring_lines |= set(range(body[0].lineno, body[0].end_lineno + 1))
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENDMARKER):
            code |= set(range(token.start[0], token.end[0] + 1))
    return len(code - docstring_lines)


def test_code_lines_counts_what_it_should():
    source = 'def f(x):\n    """Doc.\n\n    More."""\n    # why\n\n    return (x +\n            1)\n'
    assert code_lines(source) == 3


def functions(path: Path):
    source = path.read_text()
    lines = source.splitlines(keepends=True)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            text = "".join(lines[start - 1:node.end_lineno])
            indent = len(text) - len(text.lstrip())
            dedented = "".join(line[indent:] if line.strip() else line
                               for line in text.splitlines(keepends=True))
            yield node.name, node.lineno, code_lines(dedented)


@pytest.mark.parametrize("path", sorted((PACKAGE / "search").glob("*.py")),
                         ids=lambda p: p.name)
def test_search_listings_are_at_most_30_code_lines(path):
    long = [(name, line, count) for name, line, count in functions(path) if count > 30]
    assert not long, f"{path.name}: functions over 30 code lines: {long}"


PRIVATE = [
    (re.compile(r"show_source\(\s*_"), "show_source of a private name"),
    (re.compile(r"show_source\([^)]*\._[A-Za-z]"), "show_source of a private attribute"),
    (re.compile(r"^\s*(from\s+\S+\s+)?import\s+[^#\n]*\b_[A-Za-z]\w*", re.M),
     "import of a private name"),
    (re.compile(r"\b[A-Za-z]\w*\._[A-Za-z]\w*(?<!_)\b"), "a private attribute"),
]


def notebook_code(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_show_public_names_only(path):
    problems = [(what, match.group(0).strip()) for source in notebook_code(path)
                for pattern, what in PRIVATE for match in pattern.finditer(source)]
    assert not problems, f"{path.name}: {problems}"


def test_the_private_name_check_catches_each_kind():
    samples = ["show_source(_pvs)", "show_source(MCTSTree._select)",
               "from ttt_lib.search.principal_variation import _pvs", "tree._iterate()"]
    for sample in samples:
        assert any(p.search(sample) for p, _ in PRIVATE), sample
    for fine in ["show_source(MCTSTree.select)", "board._repr_svg_()", "x.__class__"]:
        assert not any(p.search(fine) for p, _ in PRIVATE), fine


def test_no_module_is_shadowed_by_a_name_of_its_package():
    """``import ttt_lib.search.pruning as m`` gives the module: no package hands out a function
    or class under the name of one of its own modules (``search.alphabeta`` the function once
    hid ``search/alphabeta.py``)."""
    import importlib
    import pkgutil
    import types

    import ttt_lib

    shadowed = []
    for info in pkgutil.walk_packages(ttt_lib.__path__, "ttt_lib."):
        parent_name, _, child = info.name.rpartition(".")
        parent = importlib.import_module(parent_name)
        value = getattr(parent, child, None)
        if value is not None and not isinstance(value, types.ModuleType):
            shadowed.append(info.name)
    assert not shadowed
