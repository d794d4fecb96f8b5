"""The benchmarks: their structure (a quick smoke run) and the plain baselines' correctness.

No timing is compared with a target here; the figures only have to be positive numbers.
"""
import io
import json
import random
from numbers import Real
from pathlib import Path

import pytest

from ttt_lib import BitBoard, bench
from ttt_lib.cli import main
from ttt_lib.game import count_tree, reachable
from ttt_lib.search.minimax import solve_all


@pytest.fixture(scope="module")
def quick_figures():
    """One smoke run through the command line, read back from its JSON."""
    out = io.StringIO()
    assert main(["bench", "--quick", "--json"], out=out) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def plain():
    return bench.load_baselines()


def test_quick_run_has_every_figure(quick_figures):
    assert quick_figures["quick"] is True
    expected = [name for name in bench.BENCHMARKS if name not in bench.QUICK_SKIPS]
    assert list(quick_figures["figures"]) == expected


def test_every_figure_is_a_positive_number(quick_figures):
    assert quick_figures["total_seconds"] > 0
    for name, row in quick_figures["figures"].items():
        assert row["title"] and row["ratio_of"], name
        assert row["seconds"], name
        for seconds in row["seconds"].values():
            assert isinstance(seconds, Real) and seconds > 0, name
        assert row["ratio"] is None or row["ratio"] > 0, name
        assert row["met"] in (True, False, None), name
        assert (row["met"] is None) == (row["target"] is None), name
        for run in row.get("searches", {}).values():
            assert run["nodes"] > 0 and run["seconds"] > 0 and run["stored"] >= 0, name


def test_figures_carry_the_counts_they_measured(quick_figures):
    figures = quick_figures["figures"]
    root = BitBoard.from_text(bench.QUICK_ROOT)
    assert figures["full_tree"]["nodes"] == count_tree(root)
    assert figures["solve_all"]["positions"] == 5478
    assert figures["playouts"]["per_second"]["ours"] > 0
    assert figures["mnk_4x4_k3"]["value"] == 1
    searches = figures["best_exact_search"]["searches"]
    assert figures["best_exact_search"]["best"] in searches
    assert searches["negamax + memo"]["stored"] == len(reachable(root))


def test_the_report_names_every_figure(quick_figures):
    report = bench.format_benchmarks(quick_figures)
    for row in quick_figures["figures"].values():
        assert row["title"] in report
    assert "quick smoke run" in report


def test_format_marks_a_missed_target():
    figures = {"quick": False, "python": "3", "total_seconds": 1.0, "figures": {
        "x": bench.figure("a task", {"ours": 2.0}, 0.5, "plain / ours", "<= 1 s", False)}}
    report = bench.format_benchmarks(figures)
    assert "a task" in report and "0.50x" in report and "<= 1 s: MISSED" in report


def test_missing_baselines_fail_with_a_clear_message(tmp_path, monkeypatch, capsys):
    with pytest.raises(bench.MissingBaselinesError, match="plain baselines are missing"):
        bench.load_baselines(tmp_path)
    monkeypatch.setattr(bench, "BASELINES", tmp_path)
    assert main(["bench", "--quick"]) == 1  # not a bad argument: the machine lacks a folder
    error = capsys.readouterr().err
    assert str(tmp_path / "plain.py") in error and len(error.strip().splitlines()) == 1


def test_baselines_are_found_from_the_package():
    assert (bench.BASELINES / "plain.py").is_file()
    assert bench.BASELINES.parent == Path(bench.__file__).resolve().parent.parent


# ---------------------------------------------- the plain baselines compute the right things

@pytest.mark.parametrize("text", ["XO./.X./...", "X../.../...", "XOX/OX./..."])
def test_plain_minimax_walks_the_same_tree(plain, text):
    from ttt_lib.search.minimax import solve
    board = plain.board_from_text(text)
    counter = plain.Counter()
    value = plain.minimax(board, plain.to_move(board), counter)
    state = BitBoard.from_text(text)
    assert counter.nodes == count_tree(state)
    assert value == solve(state)
    assert plain.board_from_text(text) == board  # every move was taken back


def test_plain_solver_values_every_position_like_solve_all(plain):
    states = reachable(BitBoard())
    ours = {states[key].to_text().replace("/", ""): value
            for key, value in solve_all(BitBoard()).items()}
    memo = plain.solve_every_position()
    assert {key.replace(" ", "."): value for key, value in memo.items()} == ours


def test_plain_playouts_end_games_legally(plain):
    rng = random.Random(3)
    results = [plain.random_playout(plain.new_board(), "X", rng) for _ in range(300)]
    assert set(results) == {-1, 0, 1}
    won = plain.board_from_text("XXX/OO./...")
    assert plain.random_playout(won, "O", rng) == 1


def test_plain_mcts_finds_the_winning_move(plain):
    board = plain.board_from_text("XX./OO./...")
    assert plain.mcts_move(board, "X", 1000, random.Random(0)) == (0, 2)
    board = plain.board_from_text("XX./OO./X..")
    assert plain.mcts_move(board, "O", 1000, random.Random(0)) == (1, 2)
    assert plain.run_mcts(50, seed=1) in [(r, c) for r in range(3) for c in range(3)]
