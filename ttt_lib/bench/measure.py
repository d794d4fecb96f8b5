"""How a figure is measured and written down: the best of a few runs, runs taken in turn,
the figure's row, and the sanity check that both sides agree."""
from __future__ import annotations

import time
from collections.abc import Callable

QUICK_ROOT = "X../.O./..."  # the smoke run's trees start here (7,332 nodes)


def best_of(repeat: int, task: Callable[[], object]) -> tuple[float, object]:
    """The shortest wall-clock time of ``repeat`` runs of ``task``, and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = task()
        best = min(best, time.perf_counter() - start)
    return best, result


def side_by_side(repeat: int, tasks: dict[str, Callable[[], object]]) -> dict[str, tuple]:
    """``best_of`` for several tasks, their runs taken in turn (a, b, a, b...), so that a
    machine whose load changes slows every side alike: ``{name: (best seconds, result)}``."""
    best = {name: (float("inf"), None) for name in tasks}
    for _ in range(repeat):
        for name, task in tasks.items():
            seconds, result = best_of(1, task)
            best[name] = (min(best[name][0], seconds), result)
    return best


def figure(title: str, seconds: dict[str, float], ratio: float | None, ratio_of: str,
           target: str | None = None, met: bool | None = None, **details) -> dict:
    """One benchmark's row: the times (or rates), the ratio, the target and its outcome."""
    return {"title": title, "seconds": seconds, "ratio": ratio, "ratio_of": ratio_of,
            "target": target, "met": met, **details}


def expect(condition: bool, what: str) -> None:
    """A benchmark whose sides disagree measures nothing: stop with the reason."""
    if not condition:
        raise RuntimeError(f"benchmark sanity check failed: {what}")
