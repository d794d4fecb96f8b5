"""The node-count table: every variant's value and work, and what each speed-up buys."""
import json

import pytest

from ttt_lib.cli import main
from ttt_lib.studies.nodes import format_nodes_report, nodes_report, report_rows

# nodes_report() counts the library's searches once per process: this module and the other
# that reads the report (test_search_report.py, test_proof_minimal.py) share a worker
pytestmark = pytest.mark.xdist_group("the nodes report")


@pytest.fixture(scope="module")
def report():
    return nodes_report()


def row(report, name):
    (found,) = [r for r in report["variants"] if r["name"] == name]
    return found


def test_every_variant_finds_the_draw_and_every_move_optimal(report):
    assert [r["name"] for r in report["variants"]] == [r.name for r in report_rows()]
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
    assert len(text.splitlines()) == 4 + len(report_rows())


def test_the_first_move_report_beside_the_published_counts(capsys):
    assert main(["nodes", "--first-move", "--opener", "O", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["opener"] == "O" and "adrian.idv.hk" in report["source"]
    for r in report["variants"]:
        assert r["nodes"] == r["published"], r["name"]
    assert main(["nodes", "--first-move"]) == 0
    text = capsys.readouterr().out
    assert "30,709" in text and "(O opens there)" in text
