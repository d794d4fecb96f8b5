"""The smallest proof of the draw (``studies.draw_proof``), checked independently."""
import io

import pytest

from ttt_lib import BitBoard
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.exact import solve
from ttt_lib.search import Stats
from ttt_lib.cli import main
from ttt_lib.studies.draw_proof import (ProofGraph, ProofSearch, least_proof, minimal_proof,
                                           proof_search)
from ttt_lib.studies.nodes import format_nodes_report, nodes_report
from ttt_lib.symmetry import canonical_code

# nodes_report() counts the library's searches once per process: this module and the other
# that reads the report (test_search_report.py, test_proof_minimal.py) share a worker
pytestmark = pytest.mark.xdist_group("the nodes report")


@pytest.fixture(scope="module")
def found():
    return proof_search(2000)


def test_the_graph_is_tic_tac_toe_up_to_symmetry():
    graph = ProofGraph()
    assert len(graph.states) == 765  # the reachable positions up to symmetry
    codes = {canonical_code(state.cells()) for state in graph.states}
    assert len(codes) == 765
    for state, value in zip(graph.states[:50], graph.values[:50]):
        assert value == solve(state)


def test_the_proof_found_is_a_proof_of_the_draw(found):
    """Walk the stored proof with the rules alone: X holds the draw in one half, O in the
    other; every finished game in it is a draw or a win for the side holding."""
    search, figures = found
    graph, proof = search.graph, search.proof
    for side in (1, -1):
        assert proof[side] >> graph.root & 1
        for node, state in enumerate(graph.states):
            if not proof[side] >> node & 1:
                continue
            if state.is_terminal():
                assert state.utility() * side >= 0
                continue
            kids = {BitBoard.from_board(state.play(m)).canonical_key() for m in state.moves()}
            in_proof = {k for k in kids if proof[side] >> graph.index[k] & 1}
            if state.to_move == side:
                assert in_proof  # the side holding the draw has a move in the proof
            else:
                assert in_proof == kids  # every reply of the other side is answered
    union = proof[1] | proof[-1]
    assert union.bit_count() == figures["nodes"]


def test_figures_bound_the_minimum_and_compare_our_best_search(found):
    search, figures = found
    stats = Stats()
    alphabeta(BitBoard(), stats=stats, symmetry=True, ordering="heuristic")
    assert figures["best_search"] == stats.nodes
    assert figures["lower_bound"] <= figures["nodes"] <= figures["best_search"]
    assert figures["ratio"] == pytest.approx(stats.nodes / figures["nodes"])
    assert figures["positions"] == 765
    assert figures == minimal_proof(2000)  # deterministic


def test_the_integer_program_proves_the_least_proof(found):
    search, figures = found
    assert figures["proven"] and figures["lower_bound"] == figures["nodes"]
    graph = ProofGraph()
    size, proof = least_proof(graph)
    assert size == figures["nodes"] == (proof[1] | proof[-1]).bit_count()
    branch_and_bound = ProofSearch(graph, 2000)
    branch_and_bound.search(0, {1: 0, -1: 0}, [(1, graph.root), (-1, graph.root)], [])
    assert size <= branch_and_bound.best  # never worse than the search it proves


def test_a_larger_budget_never_finds_a_larger_proof():
    assert minimal_proof(5000)["nodes"] <= minimal_proof(200)["nodes"]


def test_the_nodes_report_states_the_ratio():
    report = nodes_report()
    proof = report["minimal_proof"]
    best = min(report["variants"], key=lambda row: row["nodes"])  # read from the table
    assert proof["best_search"] == best["nodes"] and proof["best_search_name"] == best["name"]
    assert all(proof["best_search"] <= row["nodes"] for row in report["variants"])
    out = io.StringIO()
    assert main(["nodes"], out=out) == 0
    text = out.getvalue()
    assert text.startswith(format_nodes_report(report))
    assert f"{proof['nodes']:,} nodes" in text and f"{proof['ratio']:.2f}x that proof" in text
    assert "minimal_proof" not in nodes_report(first_move=True, opener="O")
