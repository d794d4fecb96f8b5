"""The notebook tools (navigation, handout, slides) and the conventions every notebook follows
(tools/NOTEBOOKS.md). The per-notebook tests run for each notebook present in notebooks/."""
import ast
import contextlib
import importlib
import io
import json
import re
import shutil
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import nbformat
import pytest

import ttt_lib.teach

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
FOLDER = ROOT / "notebooks"
PATHS = sorted(p for p in FOLDER.glob("*.ipynb") if re.match(r"\d\d_[a-z0-9_]+\.ipynb$", p.name))
SLIDE_TYPES = {"slide", "subslide", "fragment", "skip", "notes", "-"}
CHECK_CALL = re.compile(r"\b(check_\w+)\s*\(")


sys.path.insert(0, str(TOOLS))
import course  # noqa: E402  (the tools are scripts in tools/, imported by their plain names)

Result = namedtuple("Result", "returncode stdout stderr")


def tool(name, *args):
    """Run ``tools/<name> args`` in this process (the import of nbconvert is paid once)."""
    module = importlib.import_module(name.removesuffix(".py"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = course.main(module.run, [str(a) for a in args])
    return Result(code, out.getvalue(), err.getvalue())


def test_tools_run_as_scripts():
    result = subprocess.run([sys.executable, str(TOOLS / "navigation.py"), "--bogus"],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 2
    assert result.stderr == "navigation.py: unrecognized arguments: --bogus\n"


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


@pytest.fixture(params=PATHS, ids=[p.stem for p in PATHS])
def notebook(request):
    return request.param, nbformat.read(str(request.param), as_version=4)


def test_the_course_has_its_index():
    assert (FOLDER / "00_index.ipynb") in PATHS


# ------------------------------------------------------------------------------- navigation

def test_navigation_check_passes_on_the_repo():
    result = tool("navigation.py", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_navigation_is_idempotent(tmp_path):
    copy = shutil.copytree(FOLDER, tmp_path / "notebooks")
    for path in copy.glob("*.ipynb"):  # strip the navigation, so the first run has work to do
        nb = nbformat.read(str(path), as_version=4)
        nb.cells = [c for c in nb.cells if "navigation" not in tags(c)]
        nbformat.write(nb, str(path))
    assert tool("navigation.py", "--check", copy).returncode == 1
    first = tool("navigation.py", copy)
    assert first.returncode == 0 and first.stdout.count("updated") == len(PATHS)
    after_first = {p.name: p.read_bytes() for p in copy.glob("*.ipynb")}
    second = tool("navigation.py", copy)
    assert second.returncode == 0 and second.stdout == ""
    assert {p.name: p.read_bytes() for p in copy.glob("*.ipynb")} == after_first
    assert tool("navigation.py", "--check", copy).returncode == 0


def test_navigation_check_names_a_stale_notebook(tmp_path):
    copy = shutil.copytree(FOLDER, tmp_path / "notebooks")
    stale = copy / PATHS[-1].name
    nb = nbformat.read(str(stale), as_version=4)
    nb.cells[1].source = "[somewhere](else.ipynb)"
    nbformat.write(nb, str(stale))
    result = tool("navigation.py", "--check", copy)
    assert result.returncode == 1
    assert stale.name in result.stdout
    assert tool("navigation.py", copy).returncode == 0
    assert tool("navigation.py", "--check", copy).returncode == 0


def test_index_map_lists_every_planned_notebook_and_links_the_existing_ones():
    nb = nbformat.read(str(FOLDER / "00_index.ipynb"), as_version=4)
    (table,) = [c.source for c in nb.cells if "notebook-map" in tags(c)]
    rows = [line for line in table.splitlines() if re.match(r"\| (\[)?0[1-8] ", line)]
    assert len(rows) == 8
    for path in PATHS[1:]:
        assert f"]({path.name})" in table
    for target in re.findall(r"\]\(([^)]+)\)", table):
        assert (FOLDER / target).exists(), target


# ------------------------------------------------------------ conventions, per notebook

def test_cell0_has_the_numbered_title_and_learning_goals(notebook):
    path, nb = notebook
    cell = nb.cells[0]
    assert cell.cell_type == "markdown"
    assert cell.source.startswith(f"# {path.name[:2]} · "), "cell 0 starts '# NN · Title'"
    assert "Learning goals" in cell.source
    assert re.search(r"^- ", cell.source, re.MULTILINE), "goals are a bulleted list"


def test_navigation_in_cell1_and_the_last_cell(notebook):
    path, nb = notebook
    top, bottom = nb.cells[1], nb.cells[-1]
    for cell in (top, bottom):
        assert cell.cell_type == "markdown" and "navigation" in tags(cell)
        assert cell.metadata["slideshow"]["slide_type"] == "skip"
    assert bottom.source.startswith(top.source + "\n\n")
    licence = bottom.source[len(top.source):]  # under the bottom line: the licence
    assert "[CC BY 4.0](https://creativecommons.org/licenses/by/4.0/)" in licence
    assert all((ROOT / name).is_file() for name in ("LICENSE", "LICENSE-CONTENT", "CITATION.cff"))
    if path.name != "00_index.ipynb":
        assert "](00_index.ipynb)" in top.source
    for target in re.findall(r"\]\(([^)]+)\)", top.source):
        assert (FOLDER / target).exists(), target


def test_at_least_one_picture(notebook):
    _, nb = notebook
    kinds = {kind for cell in nb.cells if cell.cell_type == "code"
             for output in cell.outputs for kind in output.get("data", {})}
    assert kinds & {"image/png", "image/svg+xml"}


def test_at_least_two_checked_exercises_and_a_solution(notebook):
    _, nb = notebook
    student = [CHECK_CALL.findall(c.source) for c in nb.cells
               if c.cell_type == "code" and "solution" not in tags(c)]
    calls = [name for names in student for name in names]
    assert len(calls) >= 2, "at least two exercises, each a student cell calling check_*"
    for name in calls:
        assert hasattr(ttt_lib.teach, name), f"{name} is not in ttt_lib.teach"
    assert any("solution" in tags(c) for c in nb.cells)


def test_student_cells_start_unanswered(notebook):
    _, nb = notebook
    for cell in nb.cells:
        if cell.cell_type == "code" and "solution" not in tags(cell) and \
                CHECK_CALL.search(cell.source):
            # a number exercise starts unanswered; a write-it exercise starts as a stub
            assert (re.search(r"^answer = None\b", cell.source, re.MULTILINE)
                    or "raise NotImplementedError" in cell.source), cell.source


def bound_names(source: str) -> set[str]:
    """The names a cell's code binds at its top level: assignments, functions, classes, imports."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def test_no_cell_needs_what_a_needs_processes_cell_makes(notebook):
    """A cell tagged needs-processes may fail where no process can start (a grading box, a
    browser): no later cell may use a name it binds, or that cell would fail too."""
    _, nb = notebook
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    for index, cell in enumerate(code):
        if "needs-processes" not in tags(cell):
            continue
        made = bound_names(cell.source)
        for later in code[index + 1:]:
            if "needs-processes" in tags(later):
                continue
            used = {node.id for node in ast.walk(ast.parse(later.source))
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
            assert not used & made, (f"a cell uses {sorted(used & made)} from a needs-processes "
                                     f"cell: {later.source[:80]!r}")


def test_every_cell_has_slide_metadata(notebook):
    _, nb = notebook
    for i, cell in enumerate(nb.cells):
        slide_type = cell.metadata.get("slideshow", {}).get("slide_type")
        assert slide_type in SLIDE_TYPES, f"cell {i} has slide_type {slide_type!r}"
    assert nb.cells[0].metadata["slideshow"]["slide_type"] == "slide"


def test_has_a_summary(notebook):
    _, nb = notebook
    assert any(c.cell_type == "markdown" and re.search(r"^## Summary", c.source, re.MULTILINE)
               for c in nb.cells[-6:])


def test_executed_top_to_bottom_with_outputs_and_no_errors(notebook):
    _, nb = notebook
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), \
        "run the notebook top to bottom in a fresh kernel (tools/execute.py)"
    for cell in code:
        assert all(o.output_type != "error" for o in cell.outputs)
        assert "execution" not in cell.metadata, "no timing metadata (tools/execute.py)"


# ------------------------------------------------------------------------ handout, slides

@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    out = tmp_path_factory.mktemp("handout")
    result = tool("handout.py", FOLDER, out)
    assert result.returncode == 0, result.stderr
    return out


def test_handout_strips_solutions_and_keeps_the_rest(notebook, handouts):
    path, nb = notebook
    student = nbformat.read(str(handouts / path.name), as_version=4)
    kept = [c for c in nb.cells if "solution" not in tags(c)]
    assert len(student.cells) == len(kept) < len(nb.cells)
    for mine, theirs in zip(kept, student.cells):
        assert (mine.cell_type, mine.source) == (theirs.cell_type, theirs.source)
        if mine.cell_type == "code":  # kept, or cleared (the solution's run: test_handouts_leaks)
            assert theirs.outputs in (mine.outputs, [])
    assert not any("solution" in tags(c) for c in student.cells)


def test_handout_of_one_notebook(tmp_path):
    result = tool("handout.py", PATHS[0], tmp_path)
    assert result.returncode == 0
    assert [p.name for p in tmp_path.iterdir()] == [PATHS[0].name]


# The decks themselves (every notebook built by tools/slides.py, reveal.js inside, nothing
# fetched) are tested once, in tests/browser/test_slides.py, which opens them in chromium.


def test_the_makefile_fetches_the_versions_the_decks_use():
    import slides
    makefile = (ROOT / "Makefile").read_text()
    assert f"REVEAL_VERSION := {slides.REVEAL_VERSION}\n" in makefile
    assert f"MATHJAX_VERSION := {slides.MATHJAX_VERSION}\n" in makefile


def fitting(kinds, heights, sources=None):
    """A notebook of markdown cells with these slide types, fitted to a 100-pixel budget;
    its slide types afterwards."""
    import fit_slides
    sources = sources or ["text"] * len(kinds)
    nb = nbformat.v4.new_notebook(cells=[
        (nbformat.v4.new_code_cell if src.startswith("code") else nbformat.v4.new_markdown_cell)(
            src, metadata={"slideshow": {"slide_type": kind}})
        for kind, src in zip(kinds, sources)])
    visible = [h for kind, h in zip(kinds, heights) if kind not in ("skip", "notes")]
    fit_slides.fit(nb, visible, budget=100)
    return [c.metadata["slideshow"]["slide_type"] for c in nb.cells]


def test_fit_starts_a_subslide_where_a_slide_would_overflow():
    assert fitting(["slide", "-", "-", "-", "slide", "-"], [40, 40, 40, 40, 50, 50]) == [
        "slide", "-", "subslide", "-", "slide", "-"]
    # prose stays with the code cell it introduces
    assert fitting(["slide", "-", "-", "-"], [40, 20, 20, 50],
                   ["# T", "text", "text", "code()"]) == ["slide", "-", "subslide", "-"]


def test_fit_hides_tall_side_material_but_never_an_exercise():
    kinds = fitting(["slide", "-", "-", "subslide", "-", "-"], [30, 150, 30, 150, 150, 20],
                    ["# T", "long prose", "code()", "code()", "**Exercise 1.** ...",
                     "check_01_x(None)"])
    assert kinds == ["slide", "notes", "-", "skip", "subslide", "subslide"]


def test_fit_is_idempotent():
    kinds = ["slide", "-", "-", "fragment", "-", "slide", "-", "-"]
    heights = [30, 60, 200, 30, 45, 20, 90, 10]
    first = fitting(kinds, heights)
    assert first == ["slide", "-", "notes", "subslide", "-", "slide", "subslide", "-"]
    assert fitting(first, heights) == first


def test_fit_splits_a_tall_code_cell_by_its_outputs():
    from fit_slides import Measured, fit
    nb = nbformat.v4.new_notebook(cells=[
        (nbformat.v4.new_code_cell if src.startswith("code") else nbformat.v4.new_markdown_cell)(
            src, metadata={"slideshow": {"slide_type": kind}})
        for src, kind in [("# T", "slide"), ("code()", "skip"), ("text", "-"), ("code()", "-")]])
    # cell 1: 30 px of code and three 40-px outputs; cell 3: one output taller than a slide
    heights = [30, Measured(150, [40, 40, 40]), 20, Measured(130, [20, 100])]
    for _ in range(2):  # the second run changes nothing
        assert fit(nb, heights, budget=100, frame=10) == ([3], [])
        assert [c.metadata["slideshow"]["slide_type"] for c in nb.cells] == [
            "slide", "-", "subslide", "skip"]
        assert [c.metadata.get("slides") for c in nb.cells] == [
            None, {"output_groups": [[0], [1, 2]]}, None, {"too_tall": True}]


def test_a_deck_splits_a_cell_by_its_output_groups_and_long_texts_in_pieces():
    import slides
    text = "".join(f"line {i}\n" for i in range(30))
    cell = nbformat.v4.new_code_cell("f()", metadata={
        "slideshow": {"slide_type": "-"}, "slides": {"output_groups": [[0], [1, 2]]}})
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    nb = nbformat.v4.new_notebook(cells=[cell])
    first, second = slides.static_copy(nb).cells
    assert [o.text.count("\n") for o in first.outputs + second.outputs[1:]] == [10, 10, 10]
    assert "".join(o.text for o in first.outputs + second.outputs[1:]) == text
    assert second.outputs[0].data == {"text/html": slides.CONTINUED}
    assert second.metadata["transient"]["remove_source"] and first.id != second.id
    assert second.metadata["slideshow"]["slide_type"] == "subslide"
    cell.metadata["slides"]["output_groups"] = [[0], [1]]  # no longer the outputs: shown whole
    assert len(slides.static_copy(nb).cells) == 1


@pytest.mark.parametrize("args", [
    ["navigation.py", "--no-such-flag"],
    ["navigation.py", "/no/such/folder"],
    ["handout.py"],
    ["handout.py", "/no/such/folder", ROOT / "build" / "never"],
    ["handout.py", ROOT / "README.md", ROOT / "build" / "never"],
    ["handout.py", FOLDER, ROOT / "README.md"],
    ["slides.py", FOLDER],
    ["slides.py", FOLDER, ROOT / "build" / "never", "extra"],
    ["fit_slides.py"],
    ["fit_slides.py", "/no/such/folder"],
    ["execute.py", ROOT / "README.md"],
])
def test_bad_arguments_exit_2_with_one_line(args):
    result = tool(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


# ------------------------------------------------------------------------------ nbval set-up

def test_pytest_runs_the_notebooks_under_nbval_with_the_sanitize_file():
    try:
        import tomllib  # Python 3.11+
    except ImportError:  # 3.10: the same parser, as the package tomli (a test extra)
        import tomli as tomllib
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]
    assert "notebooks" in options["testpaths"]
    args = options["addopts"].split()
    assert "--nbval" in args
    sanitize = ROOT / args[args.index("--nbval-sanitize-with") + 1]
    from nbval.plugin import get_sanitize_patterns
    patterns = get_sanitize_patterns(sanitize.read_text())
    assert patterns
    for regex, _ in patterns:
        re.compile(regex)


def test_sanitize_patterns_hide_addresses_and_times_but_not_counts():
    from nbval.plugin import get_sanitize_patterns
    patterns = get_sanitize_patterns((TOOLS / "nbval_sanitize.cfg").read_text())

    def clean(text):
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    assert clean("<SVG at 0x7f49a0adac90>") == clean("<SVG at 0x7fffa1b2c3d4>")
    assert clean("search took 12.5 ms") == clean("search took 3.1 ms")
    assert clean("bitboard 3.4× faster") == clean("bitboard 2.9× faster")
    for exact in ("5,478 positions, 765 up to symmetry", "mask 0x1FF", "8 symmetries",
                  "nodes 18,297"):
        assert clean(exact) == exact


def test_notebooks_are_saved_as_jupyterlab_saves_them():
    for path in PATHS:
        nb = nbformat.read(str(path), as_version=4)
        assert path.read_text(encoding="utf-8") == nbformat.writes(nb) + "\n", path.name
        assert json.loads(path.read_text())["metadata"]["kernelspec"]["name"] == "python3"


def test_the_course_map_of_notebook_00_follows_the_plan():
    """The map ttt_lib.teach draws (the package cannot import tools/) names the plan's notebooks
    with the plan's titles, and every arrow points from a lower number to a higher one."""
    from ttt_lib.teach.nb00 import COURSE_00_MAP
    from course import PLAN
    planned = {title.split(" · ")[0]: title.split(" · ", 1)[1] for _, title, _ in PLAN[1:]}
    assert {number: title for number, title, _ in COURSE_00_MAP} == planned
    for number, _, needs in COURSE_00_MAP:
        assert all(need < number for need in needs), number


def test_the_tools_import_each_other_without_a_circle():
    import ast

    from test_house import find_circle
    folder = Path(__file__).resolve().parent.parent / "tools"
    names = {path.stem for path in folder.glob("*.py")}
    graph = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):  # inside functions too
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                found.add(node.module or "")
        graph[path.stem] = found & names
    assert graph["slides"] == {"course", "handout", "slide_browser"}
    assert find_circle(graph) is None, find_circle(graph)
