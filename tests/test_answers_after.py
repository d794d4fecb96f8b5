"""Answers after the exercise: no notebook names the library's answer to a write-it exercise
(imports it, calls it or shows its source) before the student's own cell, outside the
`solution` cells that handouts strip. The answer may come after the check, as the listing to
compare with."""
import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from ttt_lib import teach

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

# What each write-it exercise asks the student to write, as the library names it. None: the
# answer appears nowhere before the student's cell. A reason: the notebook uses the library's
# function as a black box before the exercise (its figures are the section's subject) but never
# shows its source there; the student's function cannot call it either way (``forbids``).
ANSWERS = {
    "check_01_count_tree": (["count_tree"], "the counts of the whole notebook come from it"),
    "check_02_minimax": (["minimax"], None),
    "check_02_negamax": (["negamax"], None),
    "check_03_alphabeta": (["alphabeta", "alphabeta_maxmin"], None),
    "check_04_ordering": (["heuristic_order", "threat_order", "Killers"],
                          "the node counts of the orderings are the section's subject"),
    "check_04_transposition": (["search_with_table", "bound_flag"], None),
    "check_05_evaluate": (["open_lines"], None),
    "check_05_deadline": (["deepening.iterative_deepening"],
                          "the node-budget rounds before the clock exercise are taught first"),
    "check_06_canonical": (["canonical", "canonical_code", "canonical_key"],
                           "the symmetry counts of the section come from it"),
    "check_07_ucb": (["ucb", "Node.ucb"], None),
    "check_07_backpropagate": (["backpropagate"], None),
    "check_07_mcts": (["mcts", "MCTSTree.run", "MCTSTree.iterate", "MCTSTree.select",
                       "MCTSTree.expand", "MCTSTree.simulate"],
                      "the tree grown an iteration at a time is the section's subject"),
    "check_08_agent": ([], None),  # any agent the student likes: the library's are opponents
    "check_09_expectiminimax": (["expectiminimax", "expectiminimax_memo"], None),
    "check_10_q_update": (["QTable.update"], None),
    "check_10_self_play": (["QTable.learn_game", "TDValues.learn_game"], None),
    "check_11_windows": (["winning_lines"],
                         "the pictures of the windows come first; the exercise is their count"),
    "check_12_threats": (["threat_cells"], None),
    "check_12_evaluate": ([], None),
    "check_12_order": ([], None),
    "check_12_search": ([], None),
    "check_12_deadline": ([], None),
    "check_12_agent": ([], None),
}
LISTING = re.compile(r"\b(?:show_source|source_text|getsource)\(([^()]*)\)")


def listed(source: str, answer: str) -> bool:
    """Whether ``source`` shows the code of ``answer`` (``show_source(answer)`` and kin)."""
    return any(named(argument, answer) for argument in LISTING.findall(source))


def write_its() -> list[str]:
    return sorted(name for name in teach.__all__ if getattr(getattr(teach, name), "write_it", False))


def test_every_write_it_names_its_answer():
    assert sorted(ANSWERS) == write_its()


def code_before_the_stub(path: Path, checker: str) -> list[tuple[int, str]] | None:
    """(code cell number, source) of the cells a handout keeps before ``checker``'s stub."""
    cells = [cell for cell in nbformat.read(str(path), as_version=4).cells
             if cell.cell_type == "code"]
    kept = [(number, cell.source) for number, cell in enumerate(cells, 1)
            if "solution" not in cell.metadata.get("tags", [])]
    call = re.compile(rf"\b{checker}\(")
    for index, (_, source) in enumerate(kept):
        if call.search(source):
            return kept[:index]
    return None


def names_in(source: str) -> set[str]:
    """The names a cell's code uses, each alone and each dotted run (``Node.ucb``); words in
    strings and comments are no code, and IPython's ``%`` and ``!`` lines are left out."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))
    names, run, module_path = set(), [], False
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.string in ("from", "import"):  # a module's path (from a.b import ...) names
            module_path, run = token.string == "from", []  # no function
        elif module_path:
            continue
        elif token.type == tokenize.NAME:
            run.append(token.string)
            names.update((token.string, ".".join(run)))
        elif token.string != "." or not run:
            run = []
    return names


def named(source: str, answer: str) -> bool:
    """Whether ``source``'s code names ``answer`` (not a longer name such as my_minimax,
    check_02_minimax or minimax_values, nor a word in a string)."""
    return answer in names_in(source)


CASES = [(path, checker) for path in NOTEBOOKS for checker in ANSWERS
         if f"{checker}(" in path.read_text()]


def test_every_exercise_is_found():
    assert {checker for _, checker in CASES} == set(ANSWERS)


@pytest.mark.parametrize("path, checker", CASES, ids=[f"{p.name[:2]}-{c}" for p, c in CASES])
def test_no_answer_before_the_exercise(path, checker):
    before = code_before_the_stub(path, checker)
    assert before is not None, f"{path.name}: no cell calls {checker}"
    answers, black_box = ANSWERS[checker]
    shown = [(number, answer) for number, source in before for answer in answers
             if (named if black_box is None else listed)(source, answer)]
    assert not shown, f"{path.name}: the answer to {checker} appears before its exercise " \
                      f"(code cell, name): {shown}"


def test_named_finds_names_not_parts_of_names():
    assert named("from ttt_lib.search import minimax, negamax", "minimax")
    assert named("show_source(Node.ucb)", "Node.ucb") and named("show_source(Node.ucb)", "ucb")
    assert not named("def my_minimax(state):", "minimax")
    assert not named("check_02_minimax(f)", "minimax")
    assert not named("minimax_values(tree)", "minimax")
    assert not named('draw_tree(tree, title="minimax: values")  # minimax', "minimax")
    assert named("tree.update(1)\nQTable.update(q)", "QTable.update")
    assert not named("table.update(1)", "QTable.update")
    assert listed("show_source(Node.ucb)", "Node.ucb") and not listed("Node.ucb(1)", "Node.ucb")
    assert not named("from ttt_lib.search.pruning import AlphaBeta", "alphabeta")
    assert named("from ttt_lib.search import alphabeta", "alphabeta")
    assert named("%pip install x\nfrom ttt_lib import negamax", "negamax")
