"""The deadline agent at 0.2 s a move against greedy and MCTS-1000 on Connect Four 7x6.

A clock-driven agent plays different games on a busy machine than on a quiet one, and these
games take minutes, so the study runs once and keeps every game's result in
``deadline_ladder.json`` beside this module; notebook 12 fits the ratings from that file, and a
test replays a sample of its games and checks they end as stored.

For the games to replay, the deadline agent is replaced by its stand-in measured in nodes:
``calibrate`` measures how many nodes its iterative deepening searches in a second of processor
time, and 0.2 s of that, rounded to a hundred, is the stand-in's node budget (stored as
``nodes``), which plays the same moves on every machine. ``calibrated`` measures twice, the
second time at the budget the first found (a longer search spends a smaller share of its time
setting up).

Run it with ``python -m ttt_lib.studies.deadline_ladder [GAMES]`` (games per ordered pair).
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..agents import make_agent
from ..arena import PairResult, derive_seed, normalize_spec, spec_label
from ..boards import ConnectFour
from .ladder import Ratings, fit_ratings, game_task

SECONDS = 0.2
DATA = Path(__file__).with_name("deadline_ladder.json")


def calibrate(seconds: float = SECONDS, games: int = 2, seed: int = 0,
              budget: int = 1000) -> dict:
    """What ``seconds`` of search buy: the deadline agent with ``budget`` nodes a move plays
    ``games`` games against greedy from the empty 7x6 board (X and O in turn), its processor
    time counted. Processor time, not the wall clock: on a shared machine the clock agent gets
    a varying share of a core (0.2 s of wall clock bought a median of 151 to 1,056 nodes a move
    within an hour here), while the nodes a processor-second searches stay put."""
    nodes = spent = 0
    for g in range(games):
        agent = make_agent("deepening", seconds=None, nodes=budget, seed=seed + g)
        greedy = make_agent("greedy", seed=seed + g)
        state, mine = ConnectFour(), 1 if g % 2 == 0 else -1
        while not state.is_terminal():
            if state.to_move == mine:
                begun = time.process_time()
                move = agent.choose(state)
                spent += time.process_time() - begun
                nodes += agent.result.nodes
            else:
                move = greedy.choose(state)
            state = state.play(move)
    rate = nodes / spent
    return {"nodes": nodes, "seconds": spent, "rate": rate,
            "budget": max(100, int(round(rate * seconds, -2)))}


def agents(nodes: int) -> tuple:
    """The three agents: greedy, MCTS with 1000 playouts, the deadline agent's stand-in."""
    return (("greedy", {}), ("mcts", {"playouts": 1000}),
            ("deepening", {"seconds": None, "nodes": nodes}))


def tasks(specs: Sequence, games: int, seed: int = 0) -> list[tuple]:
    """Every game of the round robin, seeded as ``ladder.round_robin`` seeds it."""
    specs = [normalize_spec(spec) for spec in specs]
    labels = [spec_label(spec) for spec in specs]
    return [(len(labels) * i + j, specs[i], specs[j], derive_seed(seed, labels[i], labels[j], g),
             ConnectFour()) for i in range(len(specs)) for j in range(len(specs)) if i != j
            for g in range(games)]


def play(specs: Sequence, games: int, seed: int = 0) -> list[dict]:
    """Each game's record: X's and O's labels, its seed and its result for X."""
    records = []
    for task in tasks(specs, games, seed):
        _, x, o, game_seed, _ = task
        records.append({"x": spec_label(x), "o": spec_label(o), "seed": game_seed,
                        "result": game_task(task)[1]})
        print(records[-1], flush=True)
    return records


def pair_results(records: list[dict]) -> list[PairResult]:
    """The records counted per ordered pair."""
    counts: dict[tuple[str, str], list[int]] = {}
    for r in records:
        tally = counts.setdefault((r["x"], r["o"]), [0, 0, 0])
        tally[0 if r["result"] > 0 else 1 if r["result"] < 0 else 2] += 1
    return [PairResult(x, o, *tally) for (x, o), tally in counts.items()]


def load(path: Path = DATA) -> dict:
    """The stored study: ``seconds``, ``calibration`` (nodes a move), ``nodes``, ``games``,
    ``records``."""
    return json.loads(path.read_text())


def stored_ratings(study: dict | None = None) -> Ratings:
    """Bradley-Terry ratings of the stored games, greedy at 0."""
    study = load() if study is None else study
    labels = [spec_label(normalize_spec(spec)) for spec in agents(study["nodes"])]
    return fit_ratings(labels, pair_results(study["records"]))


def calibrated(seconds: float = SECONDS, games: int = 4) -> dict:
    """``calibrate`` twice: a search of a few hundred nodes spends a larger share of its time
    setting up than one of thousands, so the rate is measured again at the budget the first
    measurement found, the budget the stand-in then plays with (``first`` keeps the first)."""
    first = calibrate(seconds, games)
    return {**calibrate(seconds, games, budget=first["budget"]), "first": first}


def main(games: int = 10) -> None:
    calibration = calibrated()
    nodes = calibration["budget"]
    print(f"{calibration}: {SECONDS} s a move buys {nodes} nodes", flush=True)
    records = play(agents(nodes), games)
    DATA.write_text(json.dumps({"seconds": SECONDS, "calibration": calibration,
                                "nodes": nodes, "games": games, "records": records},
                               indent=1) + "\n")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
