"""The three-week unit (ttt_lib.teach.plan): the path respects the course map, the counts are
the notebooks' own, and the README's table is the one notebook 00 computes."""
import subprocess
import sys
from pathlib import Path

import nbformat

from ttt_lib.teach import COURSE_00_MAP
from ttt_lib.teach.plan import (ASSUMES, CODE_LINES_PER_MINUTE, MINUTES_PER_BRANCH,
                                MINUTES_PER_CODE_CELL, OUTPUT_LINES_PER_MINUTE,
                                MINUTES_PER_SHORT_EXERCISE, MINUTES_PER_SOLUTION_LINE,
                                MINUTES_PER_WRITE_IT, READING_WORDS_PER_MINUTE, UNIT_WEEKS,
                                plan_markdown, read_plan, solution_size, unit_plan,
                                write_it_minutes)

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
    assert plan.sizes == {"check_02_minimax": (0, 0)}  # its solution cell: a checker call
    assert (plan.code_lines, plan.output_lines) == (3, 0)
    assert plan.minutes == round(11 / READING_WORDS_PER_MINUTE + 2 * MINUTES_PER_CODE_CELL
                                 + 3 / CODE_LINES_PER_MINUTE
                                 + MINUTES_PER_SHORT_EXERCISE + MINUTES_PER_WRITE_IT)


def test_what_a_student_reads_and_runs_is_counted(tmp_path):
    """Code lines (cells and library listings) and printed lines count at their own rates;
    a picture's text stand-in does not, nor does anything in a solution cell."""
    listing = v4.new_code_cell("show_source(minimax)", outputs=[v4.new_output(
        "display_data", data={"text/markdown": "```python\ndef f():\n    return 1\n```",
                              "text/plain": "def f():\n    return 1"})])
    printed = v4.new_code_cell("print(table)\nprint(more)", outputs=[
        v4.new_output("stream", name="stdout", text="a\nb\nc\n"),
        v4.new_output("execute_result", data={"text/plain": "Stats(nodes=3)"})])
    picture = v4.new_code_cell("draw_tree(t)", outputs=[v4.new_output(
        "execute_result", data={"image/png": "", "text/plain": "<Picture 10x10>"})])
    hidden = v4.new_code_cell("print(1)\nprint(2)", metadata={"tags": ["solution"]},
                              outputs=[v4.new_output("stream", name="stdout", text="1\n2\n")])
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# 09 · Chance"), listing, printed,
                                picture, hidden])
    path = tmp_path / "09_chance.ipynb"
    nbformat.write(nb, str(path))
    plan = read_plan(path)
    assert (plan.code_lines, plan.output_lines) == (1 + 2 + 1 + 2, 3 + 1)
    assert plan.minutes == round(3 / READING_WORDS_PER_MINUTE + 3 * MINUTES_PER_CODE_CELL
                                 + 6 / CODE_LINES_PER_MINUTE + 4 / OUTPUT_LINES_PER_MINUTE)


def test_a_write_it_weighs_what_its_solution_must_write():
    minimax = ('def my_minimax(state):\n    """The value for X."""\n    if state.is_terminal():\n'
               '        return state.utility()\n'
               '    values = [my_minimax(state.play(m)) for m in state.moves()]\n'
               '    return max(values) if state.to_move == 1 else min(values)\n\n'
               'check_02_minimax(my_minimax)')
    # def, if, return, values =, return: 5 statements; if, comprehension, conditional: 3
    assert solution_size(minimax) == (5, 3)
    assert solution_size("x = a or b and c\ntry:\n    y = 1\nexcept KeyError:\n    y = 2") \
        == (4, 3)  # x =, try, y = 1, y = 2; or, and, except
    assert write_it_minutes(5, 3) == (MINUTES_PER_WRITE_IT + 5 * MINUTES_PER_SOLUTION_LINE
                                      + 3 * MINUTES_PER_BRANCH)


def test_no_week_holds_twice_another_weeks_work():
    plans = {plan.number: plan for plan in unit_plan(ROOT / "notebooks")}
    weeks = [sum(plans[number].minutes for number in numbers) for _, numbers in UNIT_WEEKS]
    assert max(weeks) < 2 * min(weeks), weeks
    sizes = {name: plan.sizes[name] for plan in plans.values() for name in plan.write_its}
    assert set(sizes) == {name for plan in plans.values() for name in plan.write_its}, \
        "every write-it has a solution to weigh"
    assert write_it_minutes(*sizes["check_07_mcts"]) > 2 * write_it_minutes(
        *sizes["check_02_minimax"])


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
            f"{MINUTES_PER_CODE_CELL} per code cell\n+ code lines / {CODE_LINES_PER_MINUTE} "
            f"(the cells and the library listings they show) + output lines / "
            f"{OUTPUT_LINES_PER_MINUTE}\n+ {MINUTES_PER_SHORT_EXERCISE} per "
            f"short-answer exercise + each *write it* exercise's own: "
            f"{MINUTES_PER_WRITE_IT} + {MINUTES_PER_SOLUTION_LINE} per line\nand "
            f"{MINUTES_PER_BRANCH} per branch of its worked solution") in readme
