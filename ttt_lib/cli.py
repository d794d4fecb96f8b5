"""``python -m ttt_lib ...``: the command-line contract of DESIGN.md section 6.

Bad arguments exit with status 2 and one line on stderr saying what is wrong.
"""
from __future__ import annotations

import argparse
import json
import sys

from .boards.bit import BitBoard
from .errors import IllegalMoveError, InvalidBoardError
from .game import player_name


class UsageError(Exception):
    """Bad command-line input: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print the whole usage first
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m ttt_lib",
                     description="Tic-tac-toe game-tree search from the command line.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = commands.add_parser("selfplay", help="the computer plays itself, board by board")
    play.add_argument("--x", default="perfect", metavar="AGENT", help="agent playing X")
    play.add_argument("--o", default="perfect", metavar="AGENT", help="agent playing O")
    play.add_argument("--first", default="X", choices=["X", "O"], help="who opens")
    play.add_argument("--seed", default=0, type=int, metavar="N",
                      help="the game's seed: the same game as arena.play_game(x, o, seed=N)")

    count = commands.add_parser("count", help="how many positions and games there are")
    count.add_argument("--json", action="store_true", help="one JSON object")

    solve = commands.add_parser("solve", help="the value and best moves of every position")
    solve.add_argument("--json", metavar="PATH", required=True,
                       help="write the table as JSON to PATH ('-' for standard output)")

    nodes = commands.add_parser("nodes", help="node counts of every search variant")
    nodes.add_argument("--json", action="store_true", help="one JSON object")
    nodes.add_argument("--first-move", action="store_true",
                       help="the per-child driver of a naive program, as in the classic blog")
    nodes.add_argument("--opener", default="X", choices=["X", "O"], help="who opens")

    tour = commands.add_parser("tournament", help="a seeded round-robin of agents")
    tour.add_argument("--agents", required=True, help="comma-separated agent names")
    tour.add_argument("--games", type=int, default=100, help="games per ordered pair")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--json", action="store_true", help="one JSON object")

    bench = commands.add_parser("bench", help="performance figures against plain baselines")
    bench.add_argument("--json", action="store_true", help="one JSON object")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")
    return parser


def cmd_selfplay(args, out) -> None:
    from .arena import turns
    state = BitBoard(first=args.first)
    game = turns(args.x, args.o, seed=args.seed, start=state)  # play_game's loop and seeds
    print(f"X: {args.x}, O: {args.o}, {args.first} opens, seed {args.seed}\n", file=out)
    for number, turn in enumerate(game, 1):
        print(f"Move {number}: {player_name(turn.mover)} takes cell {turn.move}"
              f"{_searched(turn.agent.stats)}", file=out)
        print(f"{turn.after}\n", file=out)
        state = turn.after
    winner = state.winner()
    print(f"{winner} wins." if winner else "Tied.", file=out)


def _searched(stats) -> str:
    """' after searching 1,234 positions', or nothing for an agent that does not search."""
    if stats is None:
        return ""
    return f" after searching {stats.nodes:,} position{'' if stats.nodes == 1 else 's'}"


def cmd_count(args, out) -> None:
    from .studies.counting import all_counts
    counts = all_counts()
    if args.json:
        print(json.dumps(counts), file=out)
        return
    positions, games = counts["positions"], counts["games"]
    print(f"raw boards (3^9)           {counts['raw_boards']:>9,}", file=out)
    print(f"game-tree nodes            {counts['tree_nodes']:>9,}", file=out)
    print(f"reachable positions        {positions['total']:>9,}", file=out)
    print(f"  up to symmetry           {positions['up_to_symmetry']:>9,}", file=out)
    print(f"  terminal                 {positions['terminal']:>9,}", file=out)
    print(f"  terminal up to symmetry  {positions['terminal_up_to_symmetry']:>9,}", file=out)
    print(f"games                      {games['total']:>9,}", file=out)
    print(f"  up to symmetry           {games['up_to_symmetry']:>9,}", file=out)
    print(f"  X wins / O wins / draws  {games['x_wins']:,} / {games['o_wins']:,} / "
          f"{games['draws']:,}", file=out)


def solve_table() -> dict[str, dict]:
    """Every reachable position (X opens): whose move, value for X, sorted optimal cells."""
    from .game import reachable
    from .search.minimax import best_moves, solve
    table: dict = {}
    rows = {}
    for state in reachable(BitBoard()).values():
        rows[state.to_text().replace("/", "")] = {
            "to_move": player_name(state.to_move),
            "value": int(solve(state, table)),
            "best": best_moves(state, table),
        }
    return rows


def cmd_solve(args, out) -> None:
    text = json.dumps(solve_table())
    if args.json == "-":
        print(text, file=out)
        return
    try:
        with open(args.json, "w") as handle:
            handle.write(text + "\n")
    except OSError as error:
        raise UsageError(f"cannot write {args.json}: {error.strerror}") from None
    print(f"wrote {args.json}", file=out)


def cmd_nodes(args, out) -> None:
    if args.opener != "X" and not args.first_move:
        raise UsageError("--opener only applies with --first-move")
    from .studies.nodes import format_nodes_report, nodes_report
    report = nodes_report(first_move=args.first_move, opener=args.opener)
    print(json.dumps(report) if args.json else format_nodes_report(report), file=out)


def cmd_tournament(args, out) -> None:
    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    if not names:
        raise UsageError("--agents needs at least one agent name")
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    from .arena import tournament
    result = tournament(names, games=args.games, seed=args.seed)
    print(json.dumps(result.as_dict()) if args.json else result.format(), file=out)


def cmd_bench(args, out) -> None:
    from .bench import format_benchmarks, run_benchmarks
    figures = run_benchmarks(quick=args.quick)
    print(json.dumps(figures) if args.json else format_benchmarks(figures), file=out)


COMMANDS = {"selfplay": cmd_selfplay, "count": cmd_count, "solve": cmd_solve,
            "nodes": cmd_nodes, "tournament": cmd_tournament, "bench": cmd_bench}


def main(argv: list[str] | None = None, out=None) -> int:
    out = sys.stdout if out is None else out
    try:
        args = build_parser().parse_args(argv)
        COMMANDS[args.command](args, out)
    except (UsageError, IllegalMoveError, InvalidBoardError, ValueError) as error:
        print(f"python -m ttt_lib: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # not the arguments: the machine (e.g. a full disk)
        print(f"python -m ttt_lib: error: {error}", file=sys.stderr)
        return 1
    return 0
