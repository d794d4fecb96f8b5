"""The chance study (slip curve, choices, simulation), the `chance` command, chance pictures and
the reusable judge of student functions."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from ttt_lib.cli import main
from ttt_lib.game import Chance, TreeNode
from ttt_lib.search.chance import chance_value
from ttt_lib.boards.slippery import SlipperyBoard
from ttt_lib.studies.chance import compare_choices, simulate, slip_curve, solve_slippery
from ttt_lib.teach.judge import (Case, TimeLimit, Watched, call_limited, judge, random_tree,
                                 random_trees, same_value, tree_size, tree_text)


# ---------------------------------------------------------------------------------- study

def test_solution_of_the_empty_board():
    solution = solve_slippery("1/4")
    assert solution.value == chance_value(SlipperyBoard("1/4"))
    assert solution.best == [4] and solution.nodes > 0
    assert solution.as_dict() == {"slip": "1/4", "value": str(solution.value), "best": [4],
                                  "nodes": solution.nodes}


def test_slip_curve_starts_at_perfect_play():
    curve = slip_curve(4)
    assert [p for p, _ in curve] == [0, Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1]
    assert curve[0][1] == 0 and all(value > 0 for _, value in curve[1:])
    assert curve[1][1] == solve_slippery("1/4").value
    with pytest.raises(ValueError):
        slip_curve(0)


def test_choices_narrow_then_leave_perfect_play():
    small, half = compare_choices("1/4"), compare_choices("1/2")
    assert small.positions == half.positions == 4520
    assert small.outside == 0 and small.narrower > 0
    assert half.outside > 0
    text, perfect, best = half.example
    assert not set(best) <= set(perfect)


@pytest.mark.parametrize("slip, seed", [("1/10", 1), ("1/4", 2), ("1/2", 3)])
def test_simulation_agrees_with_the_exact_value(slip, seed):
    run = simulate(slip, 600, seed)
    assert run.exact == solve_slippery(slip).value
    assert run.within(4), run
    assert run.standard_error > 0


def test_simulation_is_seeded():
    assert simulate("1/4", 50, 7) == simulate("1/4", 50, 7)


# ----------------------------------------------------------------------------- command line

def test_chance_command_json(capsys):
    assert main(["chance", "--slip", "1/4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == solve_slippery("1/4").as_dict()
    assert Fraction(data["value"]) == chance_value(SlipperyBoard("1/4"), symmetry=True)


def test_chance_command_text(capsys):
    assert main(["chance", "--slip", "0"]) == 0
    out = capsys.readouterr().out
    assert "value of the empty board: 0 " in out and "0, 1, 2, 3, 4, 5, 6, 7, 8" in out


@pytest.mark.parametrize("bad", ["2", "--slip=-1/4", "abc", "1/0"])
def test_chance_command_refuses_a_bad_slip(bad):
    argv = ["chance", bad] if bad.startswith("--") else ["chance", "--slip", bad]
    run = subprocess.run([sys.executable, "-m", "ttt_lib", *argv], capture_output=True,
                         text=True)
    assert run.returncode == 2
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    assert "--slip" in run.stderr


# ---------------------------------------------------------------------------------- picture

def test_chance_nodes_are_drawn_as_diamonds():
    from ttt_lib.viz import draw_tree
    from ttt_lib.viz.trees import game_tree, minimax_values
    tree = [Chance(("1/2", 20), ("1/2", -5)), Chance(("2/5", 1), ("3/5", 4))]
    graph = game_tree(tree)
    assert graph.edges[(1,), (1, 0)]["probability"] == Fraction(2, 5)
    assert minimax_values(graph)[()] == Fraction(15, 2)
    assert draw_tree(tree, highlight="pv").png().startswith(b"\x89PNG")


# ------------------------------------------------------------------------------------ judge

def test_random_trees_are_seeded_varied_and_smallest_first():
    trees = random_trees(3, 60, chance=True)
    assert trees == random_trees(3, 60, chance=True)
    sizes = [tree_size(t) for t in trees]
    assert sizes == sorted(sizes) and sizes[0] < 5 < sizes[-1]
    text = " ".join(map(tree_text, trees))
    assert "Chance(" in text and "[" in text
    assert any(isinstance(t, list) and len(t) == 1 for t in trees)  # single-child roots
    tree = random_tree(random.Random(1), 3, chance=True)
    assert eval(tree_text(tree), {"Chance": Chance}) == tree  # the notation pastes back


def test_watched_states_record_visits():
    root = Watched(TreeNode([[1, 2], Chance(("1/2", 3), ("1/2", 4))]))
    root.play(0).play(1).utility()
    [(_, child)] = root.play(1).outcomes()[:1]
    child.utility()
    assert root.visits.leaves == [(0, 1), (1, 0)]
    assert root.visits.expanded == [(1,)]


def test_call_limited_stops_an_endless_loop():
    def spin():
        while True:
            pass
    with pytest.raises(TimeLimit):
        call_limited(spin, (), 0.2)
    assert call_limited(max, (1, 2), 0.2) == 2


def test_numbers_compare_by_value():
    assert same_value(8, 8.0) and same_value(Fraction(14, 5), 2.8)
    assert not same_value(1, True) and not same_value(1, "1") and not same_value(1, None)


def test_judge_reports_the_first_failure_and_right(capsys):
    cases = [Case.tree([3, 5]), Case.tree([[1, 2], [4], [5]])]
    judge(lambda s: 2, cases, oracle=lambda s: len(s.moves()), hint=lambda *a: "hint.",
          right="fine.")
    assert capsys.readouterr().out == ("Not yet: on [[1, 2], [4], [5]] the answer is 3, your "
                                       "function gave 2. hint.\n")
    judge(lambda s: 1 / 0, cases, oracle=lambda s: 0, hint=lambda *a: "", right="fine.")
    assert capsys.readouterr().out.startswith("Not yet: on [3, 5] it raised ZeroDivisionError")
    judge(lambda s: 0, cases, oracle=lambda s: 0, hint=lambda *a: "", right="fine.")
    assert capsys.readouterr().out == "Right: fine.\n"

