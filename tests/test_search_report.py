"""The node-count table: every variant's value and work, and what each speed-up buys."""
import ast
import json
import pathlib

import pytest

from ttt_lib.cli import main
from ttt_lib.search.report import SEARCHES, format_nodes_report, nodes_report

SEARCH_DIR = pathlib.Path(__file__).resolve().parent.parent / "ttt_lib" / "search"


@pytest.fixture(scope="module")
def report():
    return nodes_report()


def row(report, name):
    (found,) = [r for r in report["variants"] if r["name"] == name]
    return found


def test_every_variant_finds_the_draw_and_every_move_optimal(report):
    assert [r["name"] for r in report["variants"]] == [name for name, _, _ in SEARCHES]
    for r in report["variants"]:
        assert r["value"] == 0 and r["best_moves"] == list(range(9)), r["name"]
    assert json.loads(json.dumps(report)) == report


def test_the_plain_searches(report):
    assert row(report, "minimax")["nodes"] == row(report, "negamax")["nodes"] == 549_946
    assert row(report, "negamax + memo")["nodes"] == 5478
    plain = row(report, "alpha-beta (negamax)")
    for name in ("alpha-beta (max/min)", "alpha-beta fail-hard"):
        assert {k: v for k, v in row(report, name).items() if k != "name"} == \
            {k: v for k, v in plain.items() if k != "name"}
    assert plain["nodes"] < 549_946 / 20


def test_each_speed_up_on_its_own_saves_nodes(report):
    plain = row(report, "alpha-beta (negamax)")["nodes"]
    for name in ("alpha-beta, window (-1, 1)", "alpha-beta + table",
                 "alpha-beta + symmetric table", "alpha-beta + heuristic order",
                 "alpha-beta + threat order", "alpha-beta + killers", "PVS"):
        assert row(report, name)["nodes"] < plain, name
    assert row(report, "alpha-beta + symmetric table")["nodes"] < \
        row(report, "alpha-beta + table")["nodes"]
    assert row(report, "alpha-beta + table")["table_hits"] > 0


def test_the_best_combination_visits_at_most_600_nodes(report):
    best = row(report, "sym. table + heuristic order")
    assert best["nodes"] <= 600
    assert min(r["nodes"] for r in report["variants"]) <= best["nodes"]


def test_the_table_prints_every_row(report):
    text = format_nodes_report(report)
    assert "549,946" in text and "table hits" in text
    assert len(text.splitlines()) == 4 + len(SEARCHES)


def test_the_first_move_report_beside_the_published_counts(capsys):
    assert main(["nodes", "--first-move", "--opener", "O", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["opener"] == "O" and "adrian.idv.hk" in report["source"]
    for r in report["variants"]:
        assert r["nodes"] == r["published"], r["name"]
    assert main(["nodes", "--first-move"]) == 0
    text = capsys.readouterr().out
    assert "30,709" in text and "(O opens there)" in text


def guarded_names(tree):
    """Attribute uses of ``stats``/``trace`` (or ``self.stats``/``self.trace``) outside an
    ``if <that> is not None`` block: each one would cost something when they are absent."""
    def subject(node):
        if isinstance(node, ast.Name) and node.id in ("stats", "trace"):
            return node.id
        if (isinstance(node, ast.Attribute) and node.attr in ("stats", "trace")
                and isinstance(node.value, ast.Name) and node.value.id == "self"):
            return "self." + node.attr
        return None

    def guard(test):
        if (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.IsNot)
                and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value is None):
            return subject(test.left)
        return None

    unguarded = []

    def visit(node, guarded):
        if isinstance(node, ast.If) and guard(node.test):
            for child in node.body:
                visit(child, guarded | {guard(node.test)})
            for child in node.orelse:
                visit(child, guarded)
            return
        if isinstance(node, ast.Attribute) and subject(node.value) \
                and subject(node.value) not in guarded:
            unguarded.append((subject(node.value), node.attr, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, frozenset())
    return unguarded


@pytest.mark.parametrize("module", ["minimax", "alphabeta", "pvs", "expectimax", "driver"])
def test_stats_and_trace_are_only_touched_when_given(module):
    tree = ast.parse((SEARCH_DIR / f"{module}.py").read_text())
    assert guarded_names(tree) == []


def test_the_guard_check_can_fail():
    tree = ast.parse("def f(stats=None):\n    stats.nodes += 1\n")
    assert guarded_names(tree) == [("stats", "nodes", 2)]
