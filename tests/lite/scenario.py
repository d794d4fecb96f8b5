"""The same work in any Python: CPython here, Pyodide under node (tests/lite/pyodide.mjs).

Prints one JSON object: a seeded self-play transcript, every reachable position solved and a
seeded tournament, which both runtimes must give alike, then the facts of the platform (its
name, whether it has processes, the pool it gets, where ttt_lib was imported from).
"""
import io
import json
import sys
from importlib import metadata

import ttt_lib
from ttt_lib import cli
from ttt_lib.arena import process_pool, processes_available, tournament


def run(*argv: str) -> str:
    """What ``python -m ttt_lib ARGV`` prints."""
    out = io.StringIO()
    assert cli.main(list(argv), out) == 0
    return out.getvalue()


def selfplay() -> str:
    return run("selfplay", "--x", "mcts", "--o", "heuristic", "--seed", "3")


def pool_kind() -> str:
    with process_pool(2) as pool:
        return type(pool).__name__


def traces() -> list[str]:
    """The slides' trace of alpha-beta observed from outside both ways: the library's function
    (its global name replaced while it runs) and a nested one (watched by sys.settrace)."""
    from ttt_lib import TreeNode
    from ttt_lib.search import alphabeta_maxmin, trace_calls

    def nested(state, alpha, beta):
        if state.is_terminal():
            return state.utility()
        up = state.to_move == 1
        best = -999 if up else 999
        for move in state.moves():
            value = nested(state.play(move), alpha, beta)
            best = max(best, value) if up else min(best, value)
            alpha, beta = (max(alpha, best), beta) if up else (alpha, min(beta, best))
            if alpha >= beta:
                break
        return best

    root = TreeNode([[7, 5], [3, 1, 9]], labels=True)
    return [str(trace_calls(search, root, -999, 999)[1]) for search in (alphabeta_maxmin, nested)]


def main() -> None:
    table = json.loads(run("solve", "--json", "-"))
    result = tournament(["random", ("mcts", {"playouts": 40}), "perfect"], games=4, seed=11)
    print(json.dumps({
        "selfplay": selfplay(),
        "traces": traces(),
        "positions": len(table),
        "solved": table,
        "tournament": result.as_dict(),
        "platform_has_processes": processes_available(),
        "pool": pool_kind(),
        "platform": sys.platform,
        "module": ttt_lib.__file__,
        "version": metadata.version("ttt-search"),
    }, sort_keys=True))


main()
