"""Training a learner by name, and ``python -m ttt_lib train``'s work.

``trained(kind, seed, games)`` trains once per process and remembers the result, so a
tournament that rebuilds its agents for every game trains each model once. ``train_command``
is the command: train with a one-line counter on stderr, report the share of optimal moves,
and optionally write the policy file and the saved model; Ctrl-C stops it cleanly.
"""
from __future__ import annotations

import json
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import TextIO

from .policy import LearnError, check_games, check_seed, optimal_share, policy_table
from .store import KINDS, learner_class, save

# The command's training budgets: with seed 0, on one core of a 2-core course machine, they
# took 0.5 s (qtable), 1.9 s (td), 6.8 s (qnet) and 8.5 s (zero).
DEFAULT_GAMES = {"qtable": 20_000, "td": 20_000, "qnet": 5_000, "zero": 1_000}


def default_games(kind: str) -> int:
    """How many games ``kind`` trains for when no number is given."""
    learner_class(kind)  # an unknown kind is refused with the list of kinds
    return DEFAULT_GAMES[kind]


def trained(kind: str, seed: int = 0, games: int | None = None):
    """A ``kind`` learner trained for ``games`` games (default: the command's) from ``seed``.

    Remembered per process: do not train the object further (make a new one for that).
    """
    games = default_games(kind) if games is None else check_games(games)
    return _trained(kind, check_seed(seed), games)


@lru_cache(maxsize=16)
def _trained(kind: str, seed: int, games: int):
    return learner_class(kind)(seed=seed).train(games)


class Counter:
    """A one-line progress counter on a stream, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream, self.label, self.shown = stream, label, 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.shown >= 0.1 or done == total:
            self.shown = now
            end = "\n" if done == total else ""
            print(f"\r{self.label}: game {done:,} of {total:,}", end=end, file=self.stream,
                  flush=True)


def train_command(kind: str, seed: int = 0, games: int | None = None,
                  policy_path: str | None = None, save_path: str | None = None,
                  out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Train, report, write the files asked for; the exit status (130 after Ctrl-C).

    Bad values raise ``LearnError`` (a ``ValueError``) before any training, an output file
    in a folder that does not exist included.
    """
    games = default_games(kind) if games is None else check_games(games)
    learner = learner_class(kind)(seed=check_seed(seed))
    for what, path in (("policy", policy_path), ("save", save_path)):
        check_writable(path, what)
    try:
        start = time.perf_counter()
        learner.train(games, Counter(err, f"training {kind}"))
        seconds = time.perf_counter() - start
        share = optimal_share(learner.best_move)
        print(f"{kind}: {games:,} games, seed {seed}, {seconds:.1f} s; optimal moves in "
              f"{share:.2%} of the 4,520 positions", file=out)
        if policy_path is not None:
            moves = json.dumps(policy_table(learner.best_move), indent=0)
            Path(policy_path).write_text(moves + "\n")
            print(f"policy written to {policy_path}", file=out)
        if save_path is not None:
            save(learner, save_path)
            print(f"model saved to {save_path}", file=out)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {learner.games:,} games", file=err)
        return 130
    return 0


def check_writable(path: str | None, what: str) -> None:
    """An output file's folder exists and the path is not a folder (checked before training)."""
    if path is None:
        return
    if not isinstance(path, (str, Path)):
        raise TypeError(f"{what} is a file path, not {type(path).__name__}")
    target = Path(path)
    if target.is_dir():
        raise LearnError(f"cannot write --{what} {path}: it is a folder")
    if not target.parent.is_dir():
        raise LearnError(f"cannot write --{what} {path}: no folder {str(target.parent)!r}")


__all__ = ["DEFAULT_GAMES", "KINDS", "Counter", "default_games", "train_command", "trained"]
