"""The capstone's ladder on 6x7 Connect Four (6 rows, 7 columns): five built-in rungs of rising strength and their
own round robin, played once and kept in ``connect4_ladder.json`` beside this module.

The rungs are random, greedy, MCTS with 500 and with 2,000 playouts a move, and the deadline
agent with a budget of 2,000 nodes a move (``deepening``: iterative deepening alpha-beta with
the board's own threat rules). Every rung's budget is counted in playouts or nodes, never in
seconds, so a rung plays the same moves on every machine, busy or idle, and the stored games
replay exactly (a test replays a sample). A student's agent measured against the rungs
(``teach.nb12_ladder``) is fitted together with these games, so its rating lands on the same
Bradley-Terry scale, random at 0.

Run it with ``python -m ttt_lib.studies.connect4_ladder [GAMES]`` (games per ordered pair).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..arena import PairResult, spec_label
from ..boards import ConnectFour
from .ladder import Ratings, fit_ratings, round_robin

RUNGS = (("random", {}), ("greedy", {}), ("mcts", {"playouts": 500}),
         ("mcts", {"playouts": 2000}), ("deepening", {"seconds": None, "nodes": 2000}))
"""The ladder, weakest first; each rung beaten is worth a point."""
LABELS = tuple(spec_label(rung) for rung in RUNGS)
SEED = 43
DATA = Path(__file__).with_name("connect4_ladder.json")


def play(games: int, seed: int = SEED) -> list[PairResult]:
    """The rungs' seeded round robin from the empty 6x7 board: ``games`` a ordered pair."""
    return round_robin(RUNGS, ConnectFour(), games=games, seed=seed)


def stored() -> list[PairResult]:
    """The stored round robin's results (see ``main``)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return [PairResult(*row) for row in data["results"]]


def stored_games() -> int:
    """Games a ordered pair in the stored round robin."""
    return json.loads(DATA.read_text(encoding="utf-8"))["games"]


def ratings_with(extra: list[PairResult], label: str | None = None) -> Ratings:
    """Bradley-Terry ratings of the rungs (and of ``label``, whose games are ``extra``),
    from the stored round robin and ``extra``; random at 0."""
    labels = LABELS + ((label,) if label else ())
    return fit_ratings(labels, stored() + list(extra), anchor=LABELS[0])


def main(argv: list[str] | None = None) -> None:
    """Play the rungs' round robin and store it in ``connect4_ladder.json``."""
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 6
    results = play(games)
    DATA.write_text(json.dumps({"seed": SEED, "games": games, "rungs": list(LABELS),
                                "results": [[r.x, r.o, r.x_wins, r.o_wins, r.draws]
                                            for r in results]}, indent=1) + "\n",
                    encoding="utf-8")
    print(ratings_with([]).format())


if __name__ == "__main__":
    main()
