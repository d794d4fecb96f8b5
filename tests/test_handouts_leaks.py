"""What a handout shows before each exercise, read as a student reads it (tools/handout.py run
on the course, nothing executed):

- no answer of a question exercise appears in the text of a cell before the student's cell:
  every number, fraction and literal list in the code, the prose and the stored outputs before
  it is handed to the exercise's own checker, which must not say ``Right`` to any of them.
  Single digits and words are left out: a digit or a word stands in too many places to tell a
  given answer from a coincidence (the checkers' hints cover those exercises);
- no stored output of the solution's run: a code cell after an exercise that uses a name the
  student's cell defines has no stored output;
- a question's first hint names only what the handout has defined by then (no NameError).
"""
import ast
import contextlib
import io
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from ttt_lib import teach
from ttt_lib.teach.core import plain

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHECK_CALL = re.compile(r"(?<!def )(?<!\w)(check_\d\d_\w+)\s*\(")
NUMBER = re.compile(r"(?<![\w./])-?\d[\d,]*(?:\.\d+)?(?:/\d+)?(?![\w/])")
NOTEBOOK_NUMBER = re.compile(r"\bnotebooks? \d\d\b")
# Questions whose answer is necessarily one of the values shown with them: the question is which
CHOSEN_FROM_SHOWN = {"check_02_maxn": "a max^n value is one of the leaves' payoff triples"}
LITERAL = re.compile(r"[\[(][^\[\]()\n]{1,80}[\])]")
DEFINED = re.compile(r"^(?:def|class)\s+(\w+)|^(\w+)\s*=|^(?:from\s+\S+\s+)?import\s+(.+)$",
                     re.MULTILINE)


@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    out = tmp_path_factory.mktemp("handouts")
    made = subprocess.run([sys.executable, str(ROOT / "tools" / "handout.py"),
                           str(ROOT / "notebooks"), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    return {name: nbformat.read(str(out / name), as_version=4) for name in NOTEBOOKS}


def questions() -> dict:
    """Each question (value) checker by name; write-its take functions, not values."""
    return {name: getattr(teach, name) for name in teach.__all__
            if name.startswith("check_") and not getattr(getattr(teach, name), "write_it", 0)}


def cell_text(cell) -> str:
    """What a reader of the cell sees as text: its source and its stored text outputs."""
    parts = [cell.source]
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def candidates(text: str) -> list:
    """The values a text states: numbers (not single digits), fractions, literal lists."""
    found = []
    text = NOTEBOOK_NUMBER.sub("", text)  # "notebook 11" names a notebook, it states no value
    for token in NUMBER.findall(text):
        token = token.replace(",", "")
        if "/" in token:
            top, bottom = token.split("/")
            if int(bottom):
                found.append(Fraction(int(top), int(bottom)))
        elif "." in token:
            found.append(float(token))
        elif abs(int(token)) >= 10:
            found.append(int(token))
    for literal in LITERAL.findall(text):
        with contextlib.suppress(ValueError, SyntaxError, TypeError, MemoryError):
            value = ast.literal_eval(literal)
            if isinstance(value, (list, tuple)) and len(value) > 1:
                found.append(value)
    return found


def says_right(checker, answer) -> bool:
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        try:
            checker.__wrapped__(plain(answer))
        except Exception:  # a checker refusing an odd value says nothing right
            return False
    return said.getvalue().startswith("Right")


def exercises(nb) -> list[tuple[int, str]]:
    """(cell index, checker) of each question's student cell, in order."""
    asked = questions()
    return [(index, name) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for name in CHECK_CALL.findall(cell.source) if name in asked]


def test_candidates_are_read_as_a_reader_reads_them():
    text = "mask 292, cells [0, 3, 6], 14/5 = 2.8, cell 4 and 1,440 games (c = 0.5)"
    assert candidates(text) == [292, Fraction(14, 5), 2.8, 1440, 0.5, [0, 3, 6]]
    assert candidates("the boards of notebook 11, 12 boards") == [12]
    assert says_right(teach.check_09_right_value, Fraction(14, 5))
    assert not says_right(teach.check_09_right_value, 2.5)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_answer_of_a_question_before_its_exercise(handouts, name):
    nb = handouts[name]
    asked, leaks = questions(), []
    for index, checker in exercises(nb):
        if checker in CHOSEN_FROM_SHOWN:
            continue
        before = "\n".join(cell_text(cell) for cell in nb.cells[:index])
        for value in dict.fromkeys(map(repr, candidates(before))):
            if says_right(asked[checker], eval(value, {"Fraction": Fraction})):
                leaks.append((checker, value))
    assert not leaks, f"{name}: answers shown before their exercise: {leaks}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_stored_output_of_the_solution_run(handouts, name):
    theirs = set()
    for index, cell in enumerate(handouts[name].cells):
        if cell.cell_type != "code":
            continue
        if CHECK_CALL.search(cell.source):
            theirs |= {a or b for a, b, _ in DEFINED.findall(cell.source) if a or b} - {"answer"}
        elif any(re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", cell.source) for n in theirs):
            assert not cell.outputs, f"{name} cell {index} keeps the solution run's output"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_first_hint_names_only_what_the_handout_defined(handouts, name):
    """The hint printed for `answer = None` may name code to run: every function it calls
    (``name(``) is defined or imported before the exercise, or is a builtin or a method."""
    nb = handouts[name]
    asked = questions()
    for index, checker in exercises(nb):
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            asked[checker].__wrapped__(None)
        known = defined_names(nb.cells[:index])
        called = re.findall(r"(?<![\w.])([A-Za-z_]\w*)\(", said.getvalue())
        unknown = [f for f in called if f not in known and not hasattr(__builtins__, f)
                   and f not in dir(__builtins__)]
        assert not unknown, f"{name}: {checker}'s hint calls {unknown}, not defined before it"


def defined_names(cells) -> set[str]:
    """Every name the code cells bind: imports, functions, classes, assignments, loops."""
    names = set()
    for cell in cells:
        if cell.cell_type != "code":
            continue
        code = "\n".join(re.sub(r"^(\s*)[%!].*", r"\1pass", line)  # IPython's lines
                         for line in cell.source.splitlines())
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def test_the_score_given_for_08_exercise_2_is_told_that_draws_count_half(monkeypatch):
    """Answered with the cell's score (a draw counting half) instead of the share of games won,
    the checker says so."""
    from ttt_lib.teach import nb08

    games = nb08.RATE_08_GAMES
    monkeypatch.setattr(nb08, "_pair", lambda x, o: (1, 0, games - 1))  # 1 win, the rest draws
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        nb08.check_08_win_rate(Fraction(2 + games - 1, 2 * games))
    assert said.getvalue().startswith("Not yet") and "a draw counts half" in said.getvalue()
