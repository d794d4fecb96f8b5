"""``python -m ttt_lib ...``: the command-line contract of ARCHITECTURE.md ("Command line").

Bad arguments exit with status 2 and one line on stderr saying what is wrong.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from .errors import IllegalMoveError, InvalidBoardError
from .game import player_name
from .safetext import printable


class UsageError(Exception):
    """Bad command-line input: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print the whole usage first
        raise UsageError(message)


# the class tournament's options (tournament --agents-from): option, metavar, type, help
CLASS_OPTIONS = [
    ("--csv", "FILE", str, "with --agents-from: write the leaderboard as CSV"),
    ("--plot", "FILE.png", str, "with --agents-from: draw the pairwise table as a heatmap"),
    ("--workers", "N", int, "processes of the process pool or local Dask cluster (default 2)"),
    ("--scheduler", "ADDRESS", str, "a Dask scheduler to play on (with --executor dask)"),
    ("--move-time", "SECONDS", float, "a student agent's time per move (default 1)"),
    ("--memory", "MB", int, "a student agent's memory limit (default 512)"),
    ("--format", "FORMAT", str, "with --agents-from: round-robin (default) or swiss (rounds "
                                "of pairings by points, ranked by rating: for a large class)"),
    ("--rounds", "N", int, "with --format swiss: how many rounds (default 8)"),
    ("--secret", "HEX", str, "replay a class tournament: the secret its table printed")]


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
    solve.add_argument("--json", metavar="PATH", nargs="?", const="-",
                       help="write the table as JSON to PATH ('-' or none: standard output)")
    solve.add_argument("--mnk", nargs=3, type=int, metavar=("M", "N", "K"),
                       help="solve the empty m,n,k board instead: value, nodes, seconds")
    solve.add_argument("--connect4", nargs="+", type=int, metavar="N",
                       help="C R [K]: solve the empty Connect Four board of C columns and R "
                            "rows, K in a row (default 4) instead: value, nodes, seconds")
    solve.add_argument("--moves", metavar="DIGITS",
                       help="with --connect4: solve the position after these moves instead, "
                            "one digit a move, columns numbered from 1 as in Pascal Pons' "
                            "test sets (4453: X in 4, O in 4, X in 5, O in 3)")

    nodes = commands.add_parser("nodes", help="node counts of every search variant")
    nodes.add_argument("--json", action="store_true", help="one JSON object")
    nodes.add_argument("--first-move", action="store_true",
                       help="the per-child driver of a naive program, as in the classic blog")
    nodes.add_argument("--opener", default="X", choices=["X", "O"], help="who opens")
    nodes.add_argument("--search", metavar="MODULE:FUNCTION",
                       help="count this search function only (any importable module)")
    nodes.add_argument("--view", default="x", choices=["x", "mover"],
                       help="whose value --search returns: X's (default) or the player to move's")

    tour = commands.add_parser("tournament", help="a seeded round-robin of agents")
    tour.add_argument("--agents", help="comma-separated agent names")
    tour.add_argument("--games", type=int, default=100, help="games per ordered pair")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--json", action="store_true", help="one JSON object")
    tour.add_argument("--game", default="tictactoe", metavar="GAME",
                      help="tictactoe (default), connect4, connect4:C,R[,K] or mnk:M,N,K")
    tour.add_argument("--agents-from", metavar="FOLDER",
                      help="a class tournament: the agents of FOLDER's .py files and "
                           "notebooks (cells tagged 'agent'), each in a sandbox, and --agents")
    for option, meta, kind, text in CLASS_OPTIONS:
        tour.add_argument(option, metavar=meta, type=kind, help=text)
    tour.add_argument("--executor", choices=["serial", "processes", "dask"],
                      help="with --agents-from: where the games run (default serial)")
    tour.add_argument("--no-isolation", action="store_true",
                      help="with --agents-from: run students' agents without a bubblewrap "
                           "sandbox (only where none can run; the table says so)")

    train = commands.add_parser("train", help="train a learning agent and judge every move")
    train.add_argument("kind", choices=["qtable", "td", "qnet", "zero"])
    train.add_argument("--seed", type=int, required=True, metavar="S", help="training seed")
    train.add_argument("--games", type=int, metavar="N",
                       help="training games (default: qtable and td 20,000, qnet 5,000, "
                            "zero 1,000)")
    train.add_argument("--policy", metavar="FILE",
                       help="write {position: move} for the 4,520 positions (JSON)")
    train.add_argument("--save", metavar="FILE", help="save the trained model (JSON)")

    chance = commands.add_parser("chance", help="slippery tic-tac-toe solved exactly")
    chance.add_argument("--slip", required=True, metavar="P",
                        help="probability that a mark slips to another empty cell, e.g. 1/4")
    chance.add_argument("--json", action="store_true", help="one JSON object")

    bench = commands.add_parser("bench", help="performance figures against plain baselines")
    bench.add_argument("--json", action="store_true", help="one JSON object")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")

    grade = commands.add_parser("grade", help="run a class's notebooks, one CSV row each")
    grade.add_argument("folder", help="the folder of notebooks (subfolders too)")
    grade.add_argument("--csv", metavar="FILE", help="write the table here (default: stdout)")
    grade.add_argument("--timeout", default="300", metavar="SECONDS",
                       help="time limit for each notebook (default 300)")
    grade.add_argument("--no-isolation", action="store_true",
                       help="run the notebooks without a bubblewrap sandbox (only where none "
                            "can run; the summary says so)")
    grade.add_argument("--jobs", default="1", metavar="N",
                       help="notebooks graded side by side, each in its own box (default 1)")
    grade.add_argument("--roster", metavar="CSV",
                       help="the students: columns student and, if you like, file, name, "
                            "id, sis_login_id, section; or Canvas's gradebook export as it is")
    grade.add_argument("--canvas", metavar="FILE",
                       help="also write a CSV for Canvas's gradebook import")
    grade.add_argument("--assignment", metavar="NAME",
                       help="the Canvas column, e.g. 'ttt-search 02 (1234)' for assignment "
                            "1234 (default: ttt-search and the notebooks' numbers)")
    grade.add_argument("--case-seed", metavar="N",
                       help="judge on the cases of this seed offset (default: a fresh one, "
                            "named in the summary; 0 is the notebook's own cases)")
    grade.add_argument("--course", metavar="DIR",
                       help="the instructor's notebooks: the exercises and their points "
                            "(default: the package's notebooks)")
    keep_going = "run the cells after one that raised, as nbgrader does (default: stop at it)"
    grade.add_argument("--keep-going", action="store_true", help=keep_going)

    export = commands.add_parser("export", help="the course for another grader: nbgrader, "
                                                "Gradescope")
    export.add_argument("kind", choices=["nbgrader", "gradescope"])
    export.add_argument("out", help="nbgrader: a new course folder; gradescope: a .zip file")
    export.add_argument("--notebooks", metavar="FOLDER", default=None,
                        help="the course's notebooks (default: the repository's notebooks/)")
    export.add_argument("--keep-going", action="store_true", help=f"gradescope: {keep_going}")
    export.add_argument("--only", metavar="NN,NN",
                        help="only these notebooks, by number (default: all with exercises)")
    return parser


# The files each command writes, by option: checked before any work starts (a training run or
# a class's grading is not lost to a typo in the last path).
OUTPUTS = {"solve": ("--json",), "train": ("--policy", "--save"), "grade": ("--csv", "--canvas"),
           "tournament": ("--csv", "--plot")}


def check_outputs(args) -> None:
    """Every output path of the command can be written, or a ``UsageError`` naming it."""
    for option in OUTPUTS.get(args.command, ()):
        path = getattr(args, option[2:].replace("-", "_"), None)
        if path not in (None, "-"):
            check_output(option, path)


def check_output(option: str, path: str) -> None:
    """``path`` is a file that can be written: not a folder, nor a FIFO (which would block),
    in a folder that exists; a probe opens it for appending (creating it, then removing it,
    if it is new), so that /proc, /sys and read-only places are refused too."""
    target, shown = Path(path), printable(path)
    if target.is_dir():
        raise UsageError(f"cannot write {option} {shown}: it is a folder")
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {option} {shown}: its folder does not exist")
    if target.exists() and not (target.is_file() or target.is_char_device()):
        raise UsageError(f"cannot write {option} {shown}: it is not a regular file")
    existed = target.exists()
    try:
        with open(target, "a"):
            pass
        if not existed:
            target.unlink()
    except OSError as error:
        raise UsageError(f"cannot write {option} {shown}: {error.strerror}") from None


def cmd_selfplay(args, out) -> None:
    from .arena import turns
    from .boards.bit import BitBoard
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


def solve_json() -> str:
    """Every reachable position (X opens) solved in one depth-first pass, as JSON text:
    ``{"X.O......": {"to_move": "O", "value": 1, "best": [4, 8]}, ...}``.

    A position's value for the player to move is the best of minus its children's values,
    and the moves reaching that best are its best moves, found in the same pass. A position
    is keyed by its text (the JSON key too); cell ``c`` is bit ``c`` of each side's mask.
    """
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
             (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
             (0, 4, 8), (2, 4, 6)]             # diagonals
    wins = [sum(1 << c for c in line) for line in lines]
    has_line = [any(mask & w == w for w in wins) for mask in range(512)]
    free_cells = [[c for c in range(9) if not taken >> c & 1] for taken in range(512)]
    values: dict[str, int] = {}
    rows: list[str] = []

    def value(text: str, mine: int, theirs: int, me: str, other: str, sign: int) -> int:
        best: list[int] = []
        if has_line[theirs] or mine | theirs == 511:
            result = -1 if has_line[theirs] else 0
        else:
            result = -2
            for c in free_cells[mine | theirs]:
                child = text[:c] + me + text[c + 1:]
                found = values.get(child)
                if found is None:
                    found = value(child, theirs, mine | 1 << c, other, me, -sign)
                if -found > result:
                    result, best = -found, [c]
                elif -found == result:
                    best.append(c)
        values[text] = result
        rows.append(f'"{text}": {{"to_move": "{me}", "value": {result * sign}, "best": {best}}}')
        return result

    value(".........", 0, 0, "X", "O", 1)
    return "{" + ", ".join(rows) + "}"


def cmd_solve(args, out) -> None:
    if args.mnk and args.connect4:
        raise UsageError("solve takes --mnk or --connect4, not both")
    if args.mnk:
        return cmd_solve_mnk(args, out)
    if args.connect4:
        return cmd_solve_connect4(args, out)
    if args.moves is not None:
        raise UsageError("--moves needs --connect4 C R [K], the board they are played on")
    if args.json is None:
        raise UsageError("solve needs --json PATH (or --mnk M N K, or --connect4 C R [K])")
    write_text(solve_json(), args.json, out)


def write_text(text: str, path: str, out) -> None:
    """``text`` to ``path`` ('-': to ``out``), saying where it went."""
    if path == "-":
        print(text, file=out)
        return
    try:
        with open(path, "w") as handle:
            handle.write(text + "\n")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path}", file=out)


def cmd_solve_mnk(args, out) -> None:
    """``solve --mnk M N K``: X's value of the empty board; progress on stderr past 2 s."""
    from .studies.mnk_solve import MNKSolver, SolveProgress, format_figures
    progress = SolveProgress(sys.stderr, after=2.0)
    run_solver(MNKSolver(*args.mnk, progress=progress), progress, format_figures, args, out)


def cmd_solve_connect4(args, out) -> None:
    """``solve --connect4 C R [K] [--moves DIGITS]``: X's value of the empty Connect Four
    board (k=4 unless given) or of the position after the moves; progress on stderr past 2 s."""
    if len(args.connect4) not in (2, 3):
        count = len(args.connect4)
        raise UsageError(f"--connect4 takes C R [K] (columns, rows, and k, 4 unless given), "
                         f"not {count} number{'' if count == 1 else 's'}")
    from .studies.connect4_solve import Connect4Solver, SolveProgress, format_figures
    progress = SolveProgress(sys.stderr, after=2.0)
    if args.moves is not None:  # a position: the moves given, on a board of any size
        from .studies.connect4_game import MovesSolve, format_position
        solver = MovesSolve(*args.connect4, moves=args.moves, progress=progress)
        return run_solver(solver, progress, format_position, args, out)
    run_solver(Connect4Solver(*args.connect4, progress=progress), progress, format_figures,
               args, out)


def run_solver(solver, progress, format_figures: Callable[[dict], str], args, out) -> None:
    """Solve, print the figures (JSON with ``--json``); Ctrl-C prints the figures so far."""
    try:
        figures = solver.solve()
    except KeyboardInterrupt:
        figures = solver.figures(None)
    progress.close()
    if figures["value"] is None:
        print(f"stopped (Ctrl-C) after {solver.nodes:,} nodes and {figures['seconds']:.1f} s: "
              f"the value is not known; the figures so far follow", file=sys.stderr)
    write_text(json.dumps(figures) if args.json else format_figures(figures),
               "-" if args.json is None else args.json, out)
    if figures["value"] is None:
        raise SystemExit(130)


def cmd_nodes(args, out) -> None:
    if args.opener != "X" and not args.first_move:
        raise UsageError("--opener only applies with --first-move")
    if args.search is not None and args.first_move:
        raise UsageError("--search counts a search from the empty board, not with --first-move")
    from .studies.nodes import format_minimal_proof, format_nodes_report, nodes_report, row_of
    rows = None if args.search is None else [row_of(args.search, args.view)]
    try:
        report = nodes_report(first_move=args.first_move, opener=args.opener, rows=rows)
    except Exception as error:  # a function named on the command line: its failure, in one line
        if rows is None:
            raise
        raise UsageError(f"--search {args.search}: {type(error).__name__}: {error}") from None
    print(json.dumps(report) if args.json else format_nodes_report(report), file=out)
    if "minimal_proof" in report and not args.json:
        print("\n" + "\n".join(format_minimal_proof(report["minimal_proof"])), file=out)


def cmd_tournament(args, out) -> int | None:
    if args.agents_from is not None:
        from .classroom.command import class_command
        return class_command(args, out)
    given = [option for option, *_ in CLASS_OPTIONS + [("--executor",)]
             if getattr(args, option[2:].replace("-", "_")) is not None]
    given += ["--no-isolation"] if args.no_isolation else []
    if given:
        raise UsageError(f"{given[0]} needs --agents-from FOLDER")
    if args.agents is None:
        raise UsageError("tournament needs --agents or --agents-from")
    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    if not names:
        raise UsageError("--agents needs at least one agent name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"--agents names {twice[0]!r} twice: a round robin already plays "
                         f"every agent against itself")
    from .arena import MAX_GAMES, tournament
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,}, not {args.games}")
    if args.game != "tictactoe":  # the class tournament's loop plays any board
        from .classroom.command import builtin_tournament
        return builtin_tournament(names, args, out)
    result = tournament(names, games=args.games, seed=args.seed)
    print(json.dumps(result.as_dict()) if args.json else result.format(), file=out)


def cmd_bench(args, out) -> None:
    from .bench import format_benchmarks, run_benchmarks
    figures = run_benchmarks(quick=args.quick)
    print(json.dumps(figures) if args.json else format_benchmarks(figures), file=out)


def cmd_chance(args, out) -> None:
    from .game import probability
    from .studies.chance import solve_slippery
    try:
        slip = probability(args.slip, "--slip")
    except ValueError as error:
        raise UsageError(f"{error} (a probability such as 1/4)") from None
    solution = solve_slippery(slip)
    if args.json:
        print(json.dumps(solution.as_dict()), file=out)
        return
    print(f"slippery tic-tac-toe, each mark slips with probability {solution.slip}", file=out)
    print(f"X's value of the empty board: {solution.value} (= {float(solution.value):.6f})",
          file=out)
    print(f"best first cells: {', '.join(map(str, solution.best))}", file=out)
    print(f"positions searched: {solution.nodes:,} (symmetric ones once)", file=out)


def cmd_grade(args, out) -> int:
    from .teach import gradebook
    options = gradebook.options_from(args)  # a bad argument raises ValueError: one line
    confine = None
    if not args.no_isolation:
        from .classroom import jail
        jail.require("a student's notebook")
        confine = jail.box_command
    return gradebook.main(args.folder, options, out, confine)


def cmd_export(args, out) -> int:
    from .teach.export import command
    return command(args.kind, args.out, args.notebooks, args.only, out, args.keep_going)


def cmd_train(args, out) -> int:
    from .learn.train import train_command
    return train_command(args.kind, args.seed, args.games, args.policy, args.save, out,
                         sys.stderr)


COMMANDS = {"selfplay": cmd_selfplay, "count": cmd_count, "solve": cmd_solve, "nodes": cmd_nodes,
            "tournament": cmd_tournament, "bench": cmd_bench, "chance": cmd_chance,
            "train": cmd_train, "grade": cmd_grade, "export": cmd_export}


def main(argv: list[str] | None = None, out=None) -> int:
    out = sys.stdout if out is None else out
    try:
        args = build_parser().parse_args(argv)
        check_outputs(args)
        status = COMMANDS[args.command](args, out)
    except (UsageError, IllegalMoveError, InvalidBoardError, ValueError) as error:
        # one line, whatever the message holds (a path or a name with a newline in it)
        print(f"python -m ttt_lib: error: {printable(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:  # not the arguments: the machine (e.g. a full disk)
        print(f"python -m ttt_lib: error: {error}", file=sys.stderr)
        return 1
    return status or 0
