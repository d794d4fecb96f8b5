"""One rule for every write-it (issue 43): while a write-it is judged, every entry point of the
library found by walking its packages (`teach.reach`) is out of the student's code's reach,
except what the checker allows; a delegating answer is Not yet and its verdict names the
library function it called (`Verdict.delegated`, the grader's `Graded.delegated`), and the
course's own solutions use nothing the rule forbids.

Cheap by construction: for each write-it, one library session and a call of every entry point
through it (a stub answers before the library's code runs), then one real judging of one
delegating answer."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import nbformat
import pytest

from ttt_lib.teach import papers, reach
from ttt_lib.teach.core import lenient
from ttt_lib.teach.session import _LibraryCall, _run_checker, forbidden_of, library_session

ROOT = Path(__file__).resolve().parent.parent
WRITE_ITS = [checker for checker in papers.package_checkers().values()
             if getattr(checker, "write_it", False)]


def _id(checker) -> str:
    return checker.__name__


def delegate(module, name, cls=None):
    """A student's function that hands its work to the library: the entry point fetched as a
    student's code would (``ttt_lib.search.minimax``, ``MCTSTree.iterate``) and called."""
    target = getattr(cls, name) if cls is not None else getattr(module, name)
    return target()


def reached(session, *args) -> str | None:
    """The library function the session saw the delegating call reach, or None."""
    session.called = None
    try:
        _run_checker(lambda _: delegate(*args), None)
    except _LibraryCall:
        pass
    except Exception:  # noqa: BLE001 (an entry point let through, called without arguments)
        pass
    return session.called


def test_the_walk_finds_the_searches_agents_learners_and_solvers():
    functions, methods, classes = reach.entry_points()
    names = {f.__name__ for f in functions} | {f"{c.__name__}.{n}" for c, n in methods}
    for expected in ("minimax", "alphabeta", "mcts", "threats", "play_game", "make_agent",
                     "count_tree", "MCTSTree.iterate", "MCTSTree.__init__",
                     "GreedyAgent.choose", "QTable.update", "tournament"):
        assert expected in names, expected
    assert len(functions) > 200 and len(methods) > 200 and len(classes) > 50


@pytest.mark.parametrize("checker", WRITE_ITS, ids=_id)
def test_every_entry_point_is_out_of_reach_of_every_write_it(checker):
    """Each function of each walked module (as its module holds it) and each method of
    each walked class: a student's call of it is seen, unless the checker allows it."""
    forbidden = forbidden_of(checker)
    functions = {id(item) for item in forbidden if not isinstance(item, tuple)}
    pairs = [item for item in forbidden if isinstance(item, tuple)]
    homes = [(module, name) for module in reach._modules()
             for name, value in list(vars(module).items()) if id(value) in functions]
    assert len(homes) >= len(functions) // 2
    session = library_session(checker, delegate)
    missed = []
    with session:
        missed += [f"{module.__name__}.{name}" for module, name in homes
                   if reached(session, module, name) is None]
        missed += [f"{cls.__qualname__}.{name}" for cls, name in pairs
                   if reached(session, None, name, cls) is None]
    assert not missed, missed[:10]


def _allowed_by(checker) -> list[str]:
    return [getattr(item, "__qualname__", str(item)) for item in checker.allows]


@pytest.mark.parametrize("checker", WRITE_ITS, ids=_id)
def test_a_delegating_answer_is_not_yet_and_says_what_it_called(checker):
    import ttt_lib.search

    def my_function(*args):  # whatever the checker hands it, the library answers
        return ttt_lib.search.minimax(*args[:1])

    class MyAgent:
        def choose(self, state):
            return ttt_lib.search.minimax(state)

    answer = MyAgent if checker.__name__ == "check_08_agent" else my_function
    said = lenient(checker)(answer)
    assert not said.right and said.delegated == "minimax", said.line
    assert "ttt_lib's minimax" in said.line


def test_the_known_holes_are_closed(capsys):
    """08's WinBlock as the greedy agent's choose, 12's agent growing the library's
    MCTSTree through iterate(): both Not yet, each naming what it used."""
    from ttt_lib import teach
    from ttt_lib.agents import make_agent
    from ttt_lib.search.monte_carlo import MCTSTree

    said = teach.check_08_agent(make_agent("greedy").choose)
    assert not said.right and "GreedyAgent" in said.delegated, said.line

    def grown(state):
        tree = MCTSTree(state, seed=0)
        for _ in range(50):
            tree.iterate()
        return tree.best_move()
    said = teach.check_12_agent(grown)
    assert not said.right and said.delegated.startswith("MCTSTree"), said.line
    capsys.readouterr()


# ---------------------------------------------------------- the course's solutions use none

def _solutions() -> list[tuple[str, str, str]]:
    """(notebook, write-it, solution cell's source) for every write-it a solution cell
    answers."""
    found = []
    names = {checker.__name__ for checker in WRITE_ITS}
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(str(path), as_version=4).cells:
            if cell.cell_type == "code" and "solution" in cell.metadata.get("tags", []):
                called = [name for name in papers.exercise_calls(cell.source) if name in names]
                found += [(path.name, name, cell.source) for name in called]
    return found


def _imports(path: Path) -> dict:
    """The names the notebook's import statements bind (nothing else of it is run)."""
    space: dict = {}
    for cell in nbformat.read(str(path), as_version=4).cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                exec(compile(ast.Module([node], []), path.name, "exec"), space)  # noqa: S102
    return space


SOLUTIONS = _solutions()


@pytest.mark.parametrize("notebook, exercise, source", SOLUTIONS,
                         ids=[f"{name}" for _, name, _ in SOLUTIONS])
def test_the_course_solutions_call_nothing_the_rule_forbids(notebook, exercise, source):
    """Every name the solution's own functions and classes use, read in the notebook's
    imports, is no forbidden entry point of its checker (so the solution stays Right)."""
    checker = papers.package_checkers()[exercise]
    space = _imports(ROOT / "notebooks" / notebook)
    forbidden = forbidden_of(checker)
    faces = {id(item) for item in forbidden if not isinstance(item, tuple)}
    faces |= {id(vars(cls)[name]) for cls, name in (i for i in forbidden if isinstance(i, tuple))}
    used = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            used |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    bad = []
    for name in sorted(used & set(space)):
        value = space[name]
        if id(value) in faces or id(inspect.unwrap(value) if inspect.isfunction(value)
                                    else value) in faces:
            bad.append(name)
        elif inspect.isclass(value) and reach.is_entry_point(value) and value not in getattr(
                checker, "allows", ()):
            bad.append(name)
    assert not bad, (exercise, bad, _allowed_by(checker))
    assert len(SOLUTIONS) >= 15
