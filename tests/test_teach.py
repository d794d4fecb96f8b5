"""ttt_lib.teach: the real code shown, and checkers that confirm right answers and hint at
wrong ones without giving the answer away."""
import inspect
import subprocess
import sys

import pytest

from ttt_lib import BitBoard, ListBoard, teach
from ttt_lib.search import solve
from ttt_lib.symmetry import encode

CHECKERS = sorted(name for name in dir(teach) if name.startswith("check_"))


def said(capsys, checker, answer) -> str:
    checker(answer)
    out = capsys.readouterr().out
    assert out.count("\n") == 1, f"{checker.__name__} should print one line, printed {out!r}"
    return out.strip()


# ---------------------------------------------------------------------------- show_source

def test_teach_imports_no_drawing_or_notebook_libraries():
    code = ("import sys, ttt_lib.teach;"
            "print(sorted({'matplotlib', 'networkx', 'ipywidgets', 'IPython'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_show_source_prints_the_real_code_outside_a_notebook(capsys):
    teach.show_source(solve)
    out = capsys.readouterr().out
    assert out == "# ttt_lib/search/minimax.py\n" + inspect.getsource(solve)


def test_show_source_dedents_methods(capsys):
    teach.show_source(ListBoard.moves)
    out = capsys.readouterr().out
    assert out.startswith("# ttt_lib/boards/list.py\ndef moves(self)")


def test_show_source_in_a_notebook_displays_highlighted_markdown(monkeypatch):
    pytest.importorskip("IPython")
    import IPython.display
    shown = []
    monkeypatch.setattr(teach.core, "_in_notebook", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda data, raw: shown.append((data, raw)))
    teach.show_source(encode)
    (data, raw), = shown
    assert raw is True
    assert data["text/plain"] == teach.source_text(encode)
    assert data["text/markdown"].startswith("```python\n# ttt_lib/symmetry.py\ndef encode(")
    assert data["text/markdown"].endswith("\n```")


def test_markdown_fence_outlasts_backticks_in_the_code():
    block = teach.core._markdown_block('s = "```"\n')
    assert block.startswith("````python\n") and block.endswith("\n````")


def test_source_names_its_file_relative_to_the_package():
    assert teach.source_text(BitBoard.play).startswith("# ttt_lib/boards/bit.py\n")
    assert "/work/" not in teach.source_text(BitBoard.play).splitlines()[0]


# ------------------------------------------------------------- every checker, generically

@pytest.mark.parametrize("name", CHECKERS)
def test_checker_is_documented_and_numbered(name):
    checker = getattr(teach, name)
    assert checker.__doc__, f"{name} needs a docstring saying what the exercise asks"
    assert name.split("_")[1].isdigit() and len(name.split("_")[1]) == 2, (
        f"{name}: checkers are named check_NN_what, NN the notebook's number")


@pytest.mark.parametrize("name", CHECKERS)
def test_unanswered_exercise_gets_a_hint(capsys, name):
    line = said(capsys, getattr(teach, name), None)
    assert line.startswith("Not yet: replace None with your answer. Hint: ")


@pytest.mark.parametrize("name", CHECKERS)
@pytest.mark.parametrize("nonsense", ["abc", 3.5, [], True, -1, {"a": 1}])
def test_checker_survives_any_answer(capsys, name, nonsense):
    assert said(capsys, getattr(teach, name), nonsense).startswith("Not yet: ")


# ---------------------------------- each notebook's checkers, with cases from teach_cases/

def load_cases():
    """(checker, a right answer computed with ttt_lib, wrong answers) from every
    tests/teach_cases/nbNN.py, so each notebook's author keeps its cases in a file of its own."""
    import importlib.util
    from pathlib import Path
    cases = []
    for path in sorted((Path(__file__).parent / "teach_cases").glob("nb*.py")):
        spec = importlib.util.spec_from_file_location(f"teach_cases_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cases += module.CASES
    return cases


CASES = load_cases()


@pytest.mark.parametrize("checker, right, wrongs", CASES, ids=[c[0].__name__ for c in CASES])
def test_right_answer_is_confirmed(capsys, checker, right, wrongs):
    assert said(capsys, checker, right).startswith("Right: ")


@pytest.mark.parametrize("checker, right, wrongs", CASES, ids=[c[0].__name__ for c in CASES])
def test_wrong_answers_get_hints_that_keep_the_answer_back(capsys, checker, right, wrongs):
    for wrong in wrongs:
        line = said(capsys, checker, wrong)
        assert line.startswith("Not yet: "), (wrong, line)
        assert len(line) > len("Not yet: ") + 10
        if isinstance(right, list):
            assert str(right) not in line
        else:
            assert str(right) not in line.replace(str(wrong), ""), (wrong, line)


def test_legal_moves_accept_any_order(capsys):
    moves = ListBoard.from_text(teach.BOARD_00_LEGAL_MOVES).moves()
    assert said(capsys, teach.check_00_legal_moves, tuple(reversed(moves))).startswith("Right")


def test_the_cases_cover_every_checker():
    covered = {checker.__name__ for checker, _, _ in CASES}
    assert covered == set(CHECKERS)
