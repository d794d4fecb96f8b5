"""ttt_lib/boards: imports only point down, no circle, and the old module paths still work."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

BOARDS = Path(__file__).resolve().parent.parent / "ttt_lib" / "boards"
MODULES = sorted(path.stem for path in BOARDS.glob("*.py") if path.stem != "__init__")
# the protocol, its errors, symmetry, and the base layer's text and argument checks
BELOW_THE_BOARDS = {"ttt_lib.game", "ttt_lib.errors", "ttt_lib.symmetry", "ttt_lib.safetext",
                    "ttt_lib.checks"}


def imports_of(path: Path, package: tuple[str, ...] = ("ttt_lib", "boards")) -> set[str]:
    """The ttt_lib modules a file of ``package`` imports, as absolute names."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("ttt_lib")}
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = list(package[:len(package) + 1 - node.level])
            if node.module:
                found.add(".".join(base + [node.module]))
            else:  # from . import grid
                found |= {".".join(base + [alias.name]) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ttt_lib"):
            found.add(node.module)
    return found


def test_boards_import_only_the_protocol_errors_symmetry_and_each_other():
    for name in MODULES + ["__init__"]:
        for module in imports_of(BOARDS / f"{name}.py"):
            assert module in BELOW_THE_BOARDS or module.startswith("ttt_lib.boards."), (
                name, module)


def test_no_import_circle_between_the_board_modules():
    graph = {name: {module.rsplit(".", 1)[1] for module in imports_of(BOARDS / f"{name}.py")
                    if module.startswith("ttt_lib.boards.")} for name in MODULES}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' -> '.join(path + (name,))}"
        if name not in done:
            for imported in graph[name]:
                visit(imported, path + (name,))
            done.add(name)

    for name in MODULES:
        visit(name, ())


def test_the_layers_below_do_not_import_the_boards():
    below = [BOARDS.parent / f"{name}.py" for name in ("game", "errors", "symmetry", "safetext")]
    for path in below + sorted((BOARDS.parent / "checks").glob("*.py")):
        package = ("ttt_lib",) if path.parent == BOARDS.parent else ("ttt_lib", "checks")
        imported = {name for name in imports_of(path, package)
                    if not name.startswith("ttt_lib.checks.")}
        assert imported <= BELOW_THE_BOARDS, (path.name, imported)


@pytest.mark.parametrize("name", MODULES)
def test_each_board_module_imports_first_in_a_fresh_interpreter(name):
    code = (f"import sys, ttt_lib.boards.{name};"
            f"above = [m for m in sys.modules if m.split('.')[:2] in "
            f"(['ttt_lib', 'search'], ['ttt_lib', 'viz'], ['ttt_lib', 'agents'], "
            f"['ttt_lib', 'arena'], ['ttt_lib', 'widgets'])];"
            f"print(sorted(above))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_package_exports_the_boards():
    import ttt_lib
    from ttt_lib import boards
    assert ttt_lib.BitBoard is boards.BitBoard and ttt_lib.ListBoard is boards.ListBoard
    assert ttt_lib.MNKBoard is boards.MNKBoard


def test_no_board_module_is_over_450_lines():
    for path in BOARDS.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 450, path.name
