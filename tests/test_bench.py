"""The benchmarks: their structure (a quick smoke run) and the plain baselines' correctness.

No timing is compared with a target here; the figures only have to be positive numbers.
"""
import json
import os
import random
import shutil
import subprocess
import sys
from numbers import Real
from pathlib import Path

import pytest

from ttt_lib import BitBoard, bench
from ttt_lib.game import count_tree, reachable
from ttt_lib.search.exact import solve_all


@pytest.fixture(scope="module")
def package_alone_run(tmp_path_factory) -> tuple[Path, list[str], dict]:
    """One smoke run (``python -m ttt_lib bench --quick --json`` through the command line's
    ``main``) of a copy of the package with no repository around it, as in an installed
    wheel: (the copy's folder, the files ``ttt_lib`` and its baselines came from, the
    figures read back from its JSON)."""
    root = tmp_path_factory.mktemp("package-alone")
    package = Path(bench.__file__).resolve().parent.parent
    shutil.copytree(package, root / "ttt_lib", ignore=shutil.ignore_patterns("__pycache__"))
    assert not (root / "benchmarks").exists()
    code = ("import json, sys, ttt_lib, ttt_lib.bench; from ttt_lib.cli import main; "
            "print(json.dumps([ttt_lib.__file__, ttt_lib.bench.plain.__file__])); "
            "sys.exit(main(['bench', '--quick', '--json']))")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    paths, figures = result.stdout.splitlines()
    return root, json.loads(paths), json.loads(figures)


@pytest.fixture(scope="module")
def quick_figures(package_alone_run) -> dict:
    """The smoke run's figures."""
    return package_alone_run[2]


@pytest.fixture(scope="module")
def plain():
    from ttt_lib.bench import plain
    return plain


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
    solver = figures["mnk_4x4_k3"]["searches"][bench.tasks.SOLVER]
    assert solver["value"] == 1 and solver["nodes"] >= solver["stored"] > 0
    assert set(figures["full_tree"]["seconds"]) == {"plain", "listboard", "bitboard"}
    assert figures["full_tree"]["ratio_of"].startswith("listboard / plain")
    assert set(figures["solve_process"]["seconds"]) == {"plain script",
                                                       "python -m ttt_lib solve"}


def test_side_by_side_takes_the_runs_in_turn():
    order = []
    runs = bench.tasks.side_by_side(3, {"a": lambda: order.append("a") or 1,
                                        "b": lambda: order.append("b") or 2})
    assert order == ["a", "b"] * 3
    assert runs["a"][1] == 1 and runs["b"][1] == 2 and runs["a"][0] >= 0


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


def test_bench_runs_from_the_package_alone(package_alone_run):
    """The smoke run imported the copy, not this checkout: the baselines come from inside
    the package."""
    root, paths, figures = package_alone_run
    for path in paths:
        assert Path(path).is_relative_to(root / "ttt_lib")
    assert figures["figures"]["full_tree"]["nodes"] == 7332


def test_the_baselines_are_part_of_the_package():
    assert bench.plain.__name__ == "ttt_lib.bench.plain"
    assert Path(bench.plain.__file__).parent == Path(bench.__file__).parent


# ---------------------------------------------- the plain baselines compute the right things

@pytest.mark.parametrize("text", ["XO./.X./...", "X../.../...", "XOX/OX./..."])
def test_plain_minimax_walks_the_same_tree(plain, text):
    from ttt_lib.search.exact import solve
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


def test_the_connect_four_probe_runs_either_search_in_a_fresh_process():
    from ttt_lib.bench.tasks import connect4_probe
    ours, plain = connect4_probe(4, 3), connect4_probe(4, 3, ours=False)
    assert ours["value"] == plain["value"] == 0
    assert plain["positions"] > ours["positions"] > 0 and plain["nodes"] == 0
    assert min(ours["peak_rss_mb"], plain["peak_rss_mb"], ours["seconds"],
               plain["seconds"]) > 0
