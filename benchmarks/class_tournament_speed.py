"""Games per second of a Connect Four class tournament: serially, on a pool of processes and on
a local Dask cluster (``make bench`` runs it after ``python -m ttt_lib bench``).

The example Connect Four class (``centre``, ``leftmost``, ``careless``, each in its sandbox)
meets greedy and MCTS with 200 playouts a move, every ordered pair ``--games`` times (7x6, a
clock of 2 s a move). The three runs must give the same table (checked here, as in
``tests/test_classroom_connect4.py``); their times are wall-clock, each the best of
``--repeat`` runs, and the figure is games per second and the speed-up over the serial run.
The package's layers keep the classroom above the benchmark code (``ttt_lib.bench`` may not
import it), so this figure is a script of its own.

    python benchmarks/class_tournament_speed.py [--games 2] [--workers 2] [--repeat 1] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from ttt_lib.classroom import (EXAMPLE_CONNECT4_AGENTS, Limits, class_tournament, load_folder,
                               open_executor)

BUILTINS = ["greedy", ("mcts", {"playouts": 200})]
LIMITS = Limits(move_time=2.0)


def timed_run(kind: str, games: int, workers: int, seed: int = 3) -> tuple[float, dict]:
    """One tournament on ``kind`` of executor: its wall-clock seconds (the executor's start
    included: a Dask cluster's start-up is part of its price) and its table."""
    begun = time.perf_counter()
    with open_executor(kind, workers=workers) as executor:
        roster = load_folder(EXAMPLE_CONNECT4_AGENTS, LIMITS)
        result = class_tournament(BUILTINS, roster, games=games, seed=seed, limits=LIMITS,
                                  executor=executor, game="connect4")
    return time.perf_counter() - begun, result.as_dict()


def measure(games: int = 2, workers: int = 2, repeat: int = 1) -> dict:
    """Games per second serially, on processes and on Dask, checked to give one table."""
    seconds, tables, played = {}, {}, None
    for kind in ("serial", "processes", "dask"):
        runs = [timed_run(kind, games, workers) for _ in range(repeat)]
        seconds[kind] = min(t for t, _ in runs)
        tables[kind] = runs[0][1]
        played = sum(pair["x_wins"] + pair["o_wins"] + pair["draws"]
                     for pair in tables[kind]["results"])
    if not tables["serial"] == tables["processes"] == tables["dask"]:
        raise SystemExit("the executors gave different tables: the figure is void")
    return {"games": played, "workers": workers, "cpus": os.cpu_count(),
            "seconds": seconds, "games_per_second": {k: played / s for k, s in seconds.items()},
            "speedup": {k: seconds["serial"] / s for k, s in seconds.items()}}


def report(figures: dict) -> str:
    lines = [f"Connect Four class tournament, {figures['games']} games ({figures['workers']} "
             f"workers, {figures['cpus']} CPUs): games per second, the same table each way"]
    for kind, rate in figures["games_per_second"].items():
        lines.append(f"    {kind:<10} {figures['seconds'][kind]:7.1f} s  {rate:6.2f} games/s  "
                     f"{figures['speedup'][kind]:.2f}x serial")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per ordered pair")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the best kept")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.games, args.workers, args.repeat)
    print(json.dumps(figures) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
