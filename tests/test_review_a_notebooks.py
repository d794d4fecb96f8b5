"""Notebooks 00 to 05 read again (issue 44): each statement found false or out of order is
held to its fix here, on the stored notebooks (nothing is executed).

- a figure that summarises a table is the table's own (04's best search, 05's continuation);
- no short answer is printed before its exercise;
- a word is defined where it is first used (MAX and MIN in 01, fail-hard and fail-soft in 03),
  and 04 explains the canonical key itself instead of leaning on the optional 06;
- a sentence that quotes code quotes it exactly (03);
- every reference in 00 has an address.
"""
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


def notebook(number: str):
    (path,) = (ROOT / "notebooks").glob(f"{number}_*.ipynb")
    return nbformat.read(str(path), as_version=4)


def cell(nb, cell_id: str):
    (found,) = [c for c in nb.cells if c.get("id") == cell_id]
    return found


def output_text(code_cell) -> str:
    """What a code cell showed: its streams and its plain-text results."""
    parts = []
    for output in code_cell.get("outputs", []):
        parts.append(output.get("text", ""))
        parts.append(output.get("data", {}).get("text/plain", ""))
        parts.append(output.get("data", {}).get("text/markdown", ""))
    return "".join(parts)


def shown_before(nb, cell_id: str) -> str:
    """Everything the cells above ``cell_id`` showed, solution cells left out (a handout
    drops them)."""
    texts = []
    for c in nb.cells:
        if c.get("id") == cell_id:
            return "\n".join(texts)
        if c.cell_type == "code" and "solution" not in c.metadata.get("tags", []):
            texts.append(output_text(c))
    raise KeyError(cell_id)


def test_04_the_best_search_is_the_scoreboards_fewest_nodes():
    nb = notebook("04")
    table = output_text(cell(nb, "nb04-087"))
    rows = {}
    for line in table.splitlines():
        match = re.match(r"(\S.*?)\s{2,}(-?\d)\s+[\d,]+\s+([\d,]+)\s", line)
        if match:
            rows[match.group(1)] = int(match.group(3).replace(",", ""))
    assert len(rows) >= 15, table
    best = min(rows, key=rows.get)
    stated = output_text(cell(nb, "8968602a"))
    assert f"our best search, {best}: {rows[best]} nodes" in stated


def test_05_continuation_is_compared_with_the_plain_search_one_deeper_as_computed():
    nb = notebook("05")
    checks = output_text(cell(nb, "89e564b1"))
    assert "cheaper than plain one deeper at every depth: True" in checks
    assert "never more mistakes than plain one deeper: True" in checks
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "a fraction of" not in prose and "still errs more often" not in prose
    quiet = output_text(cell(nb, "89e564b7"))
    assert "cheaper than plain one deeper at depths: [2, 3, 4, 5]" in quiet  # 89e564b8 says so


def test_05_the_horizon_effect_is_the_textbooks_and_its_cures_are_named():
    nb = notebook("05")
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for words in ("delaying move", "*quiescence search*", "*stand pat*", "*Singular extensions*",
                  "*Forward pruning*", "*Endgame tables*"):
        assert words in prose, words
    fooled = output_text(cell(nb, "nb05-027f"))
    assert all(f"depth {d}: value for X" in fooled for d in range(1, 9))
    assert re.search(r"depth 8: value for X\s+1000000", fooled)


def test_05_imports_stay_where_they_are_used():
    nb = notebook("05")
    for c in nb.cells:
        if c.cell_type == "code":
            names = re.findall(r"\bimport\s+\(?([^)]*?)\)?(?:\n\n|\n(?!\s)|$)", c.source, re.S)
            count = sum(len([n for n in group.replace("\n", " ").split(",") if n.strip()])
                        for group in names)
            assert count <= 20, f"cell {c.get('id')} imports {count} names"  # was 28


# A short answer, as a cell above its exercise would print it, and the student's cell it
# must not precede. Numbers of one or two digits are too common to search for.
SHORT_ANSWERS = [
    ("00", "index-16", ["[1, 3, 5, 7, 8]"]),
    ("01", "c34", ["292", "100100100", "1 << 11"]),
    ("02", "c23", ["-7"]),
    ("02", "c32", ["[1, 3, 5, 7]"]),
    ("03", "nb03-028", ["['K', 'N', 'O']", "K, N, O"]),
    ("03", "nb03-035", ["-3)"]),
]


@pytest.mark.parametrize("number, student_cell, answers", SHORT_ANSWERS,
                         ids=[f"{n}-{c}" for n, c, _ in SHORT_ANSWERS])
def test_no_short_answer_is_shown_before_its_exercise(number, student_cell, answers):
    shown = shown_before(notebook(number), student_cell)
    assert not [answer for answer in answers if answer in shown]


def test_02_the_three_player_question_shows_its_tree_in_words():
    nb = notebook("02")
    tree = output_text(cell(nb, "c24i"))
    assert tree.count("payoffs (") == 8 and "player 3 to move" in tree
    # every max^n value is a leaf's payoffs, so the answer is among the leaves shown, and
    # nowhere else above the exercise
    assert shown_before(nb, "c24j").count("(5, 3, 4)") == 1


def first_markdown_with(nb, pattern: str):
    for c in nb.cells[1:]:  # cell 0 is the title and the goals
        if c.cell_type == "markdown" and re.search(pattern, c.source):
            return c
    raise AssertionError(pattern)


def test_words_are_defined_where_they_are_first_used():
    assert "*MAX*" in first_markdown_with(notebook("01"), r"\bMAX\b").source
    assert "*MIN*" in first_markdown_with(notebook("01"), r"\bMIN\b").source
    exercise = first_markdown_with(notebook("03"), r"fail-hard")
    assert "*fail-hard*" in exercise.source and "*fail-soft*" in exercise.source


def test_04_explains_the_canonical_key_without_notebook_06():
    nb = notebook("04")
    section = cell(nb, "nb04-018").source + cell(nb, "nb04-019a").source
    assert "*canonical form*" in section and "`<< 18`" in section
    assert "(notebook 06)" not in section
    shown = output_text(cell(nb, "nb04-019b"))
    keys = re.findall(r"canonical_key\s+(\d+)", shown)
    assert len(keys) == 10 and len(set(keys[:8])) == 1 and keys[8] != keys[9]


def test_03_quotes_the_code_it_explains():
    nb = notebook("03")
    listing = output_text(cell(nb, "nb03-010"))
    quoted = re.findall(r"`([^`]+)`", cell(nb, "nb03-011").source)
    assert quoted and all(code in listing for code in quoted), quoted


def test_00_every_reference_has_an_address():
    references = cell(notebook("00"), "9ef1b6b9").source
    assert "no address" not in references
    items = re.split(r"\n(?=\d+\. )", references)[1:]
    assert items and all("](http" in item for item in items)


@pytest.mark.parametrize("answer, node", [(["N", "O"], "E"), (["K"], "C"), (["K", "N"], "C")])
def test_03_ex2s_hint_names_the_node_whose_cut_off_skips_the_missing_leaves(answer, node,
                                                                           capsys):
    from ttt_lib.teach import check_03_pruned_leaves

    check_03_pruned_leaves(answer)
    line = capsys.readouterr().out
    assert line.startswith("Not yet:") and f"look again at {node}." in line
