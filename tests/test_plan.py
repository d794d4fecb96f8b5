"""The three-week unit (ttt_lib.teach.plan): the path respects the course map, the counts are
the notebooks' own, and the README's table is the one notebook 00 computes."""
import subprocess
import sys
from pathlib import Path

import nbformat

from ttt_lib.teach import COURSE_00_MAP
from ttt_lib.teach.plan import (ASSUMES, MINUTES_PER_CODE_CELL, MINUTES_PER_SHORT_EXERCISE,
                                MINUTES_PER_WRITE_IT, READING_WORDS_PER_MINUTE, UNIT_WEEKS,
                                plan_markdown, read_plan, unit_plan)

ROOT = Path(__file__).resolve().parent.parent
v4 = nbformat.v4


def test_every_week_comes_after_what_it_builds_on():
    week_of = {number: week for week, numbers in UNIT_WEEKS for number in numbers}
    for number, _, needs in COURSE_00_MAP:
        if number in week_of:
            assert all(need in week_of and week_of[need] <= week_of[number] for need in needs), \
                number


def test_every_notebook_is_core_or_optional_once_and_says_what_it_assumes():
    core = [number for _, numbers in UNIT_WEEKS for number in numbers]
    assert len(core) == len(set(core))
    assert set(ASSUMES) == {number for number, _, _ in COURSE_00_MAP}
    assert all(where is None or where.startswith("https://") for _, where in ASSUMES.values())


def test_a_notebook_is_counted_as_a_student_sees_it(tmp_path):
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# 02 · Minimax and negamax\n\nfive words of prose here"),
        v4.new_code_cell("check_02_minimax_value(None)"),
        v4.new_code_cell("check_02_minimax(my_minimax)\ncheck_02_minimax(other)"),
        v4.new_code_cell("check_02_negamax(answer)  # the solution", metadata={"tags": ["solution"]}),
        v4.new_markdown_cell("not counted", metadata={"tags": ["navigation"]}),
    ])
    path = tmp_path / "02_minimax_and_negamax.ipynb"
    nbformat.write(nb, str(path))
    plan = read_plan(path)
    assert (plan.number, plan.title, plan.week) == ("02", "Minimax and negamax", 1)
    assert (plan.words, plan.code_cells) == (11, 2)  # the heading's 6 tokens and 5 words
    assert plan.short_exercises == ("check_02_minimax_value",)
    assert plan.write_its == ("check_02_minimax",)
    assert plan.minutes == round(11 / READING_WORDS_PER_MINUTE + 2 * MINUTES_PER_CODE_CELL
                                 + MINUTES_PER_SHORT_EXERCISE + MINUTES_PER_WRITE_IT)


def test_the_course_plan_covers_every_notebook_but_the_index():
    plans = unit_plan(ROOT / "notebooks")
    assert [plan.number for plan in plans] == [number for number, _, _ in COURSE_00_MAP]
    assert all(plan.minutes > 0 and plan.code_cells > 0 for plan in plans)
    table = plan_markdown(plans)
    assert table.count("\n") == len(plans) + 1 and "| optional |" in table


def test_the_readme_states_the_plan_notebook_00_computes():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "unit_plan.py"), "--check"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (f"minutes = words / {READING_WORDS_PER_MINUTE} (careful reading) + "
            f"{MINUTES_PER_CODE_CELL} per code cell\n+ {MINUTES_PER_SHORT_EXERCISE} per "
            f"short-answer exercise + {MINUTES_PER_WRITE_IT} per *write it* exercise") in readme
