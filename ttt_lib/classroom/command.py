"""``python -m ttt_lib tournament --agents-from FOLDER ...``: the class tournament from the
command line. Bad arguments raise ``ClassroomError`` (a ValueError: exit status 2, one line);
progress goes to stderr; Ctrl-C stops the games and the sandboxes, exit status 130. Where no
bubblewrap sandbox can run, the command refuses (status 2) unless given ``--no-isolation``."""
from __future__ import annotations

import json
import sys
from concurrent.futures import BrokenExecutor
from pathlib import Path

from ..agents import AGENTS
from ..arena import MAX_GAMES
from ..boards.named import start_position
from ..progress import ProgressLine
from .loading import ClassroomError, load_folder
from .runner import MAX_WORKERS, class_tournament, open_executor
from .swiss import MAX_ROUNDS, swiss_tournament
from .worker import Limits

MOVE_TIME = (0.01, 60.0)  # seconds per move: the bounds of --move-time
MEMORY_MB = (32, 65536)  # the bounds of --memory
WORKERS = 2  # the default size of a process pool or local Dask cluster
SWISS_ROUNDS = 8  # --format swiss without --rounds


class Progress(ProgressLine):
    """'games 120/400, 3 s' on one line of ``stream``, from ``after`` seconds on."""

    done = total = 0

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        seconds = self.elapsed()
        if self.due(seconds, final=done == total):
            self.write(f"games {done:,}/{total:,}, {seconds:.0f} s")


def check_arguments(args) -> tuple[list[str], Limits]:
    """The built-in names and the limits, or a ``ClassroomError`` naming the bad argument."""
    if not Path(args.agents_from).is_dir():
        raise ClassroomError(f"--agents-from: no folder {args.agents_from!r}")
    names = [n.strip() for n in (args.agents or "").split(",") if n.strip()]
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise ClassroomError(f"--agents: unknown agent {unknown[0]!r}; choose from "
                             f"{', '.join(sorted(AGENTS))}")
    _bounded("--games", args.games, 1, MAX_GAMES)
    _bounded("--workers", _given(args.workers, WORKERS), 1, MAX_WORKERS)
    _bounded("--move-time", _given(args.move_time, Limits().move_time), *MOVE_TIME)
    _bounded("--memory", _given(args.memory, Limits().memory_mb), *MEMORY_MB)
    if args.scheduler is not None and args.executor != "dask":
        raise ClassroomError("--scheduler needs --executor dask")
    if args.workers is not None and args.executor not in ("processes", "dask"):
        raise ClassroomError("--workers needs --executor processes or dask")
    if args.scheduler is not None and args.workers is not None:
        raise ClassroomError("--workers sizes a local Dask cluster; with --scheduler the "
                             "cluster has its own workers")
    check_game(args.game)
    if args.format not in (None, "round-robin", "swiss"):
        raise ClassroomError(f"--format is round-robin or swiss, not {args.format!r}")
    if args.rounds is not None and args.format != "swiss":
        raise ClassroomError("--rounds needs --format swiss")
    _bounded("--rounds", _given(args.rounds, SWISS_ROUNDS), 1, MAX_ROUNDS)
    if args.plot is not None and Path(args.plot).suffix.lower() not in (".png", ".svg"):
        raise ClassroomError(f"--plot writes a .png or .svg file, not {args.plot!r}")
    return names, Limits(_given(args.move_time, Limits().move_time),
                         _given(args.memory, Limits().memory_mb),
                         isolated=not args.no_isolation)


def check_game(game: str) -> None:
    """--game names a board ``boards.named`` knows, or a ``ClassroomError``."""
    try:
        start_position(game)
    except ValueError as error:
        raise ClassroomError(f"--game: {error}") from None


def builtin_tournament(names: list[str], args, out) -> int:
    """``tournament --agents ... --game GAME``: built-in agents only, on any board."""
    check_game(args.game)
    result = class_tournament(names, None, args.games, args.seed, game=args.game)
    print(json.dumps(result.as_dict()) if args.json else result.format(), file=out)
    return 0


def _given(value, default):
    return default if value is None else value


def _bounded(option: str, value, least, most) -> None:
    if not least <= value <= most:
        raise ClassroomError(f"{option} must be between {least:g} and {most:,g}, not {value:g}")


def class_command(args, out) -> int:
    """Load the folder, play, print the leaderboard (or JSON), write the CSV and plot."""
    names, limits = check_arguments(args)
    progress = Progress(sys.stderr)
    try:
        roster = load_folder(args.agents_from, limits)
        with open_executor(args.executor or "serial", _given(args.workers, WORKERS),
                           args.scheduler) as executor:
            if args.format == "swiss":
                result = swiss_tournament(names, roster, _given(args.rounds, SWISS_ROUNDS),
                                          args.games, args.seed, limits, executor, progress,
                                          game=args.game, secret=args.secret)
            else:
                result = class_tournament(names, roster, args.games, args.seed, limits,
                                          executor, progress, game=args.game,
                                          secret=args.secret)
    except BrokenExecutor:  # a worker process was killed (from outside: a box cannot)
        progress.close()
        raise ClassroomError("a worker process of the pool died: no table") from None
    except KeyboardInterrupt:
        progress.close()
        done = (f"after {progress.done:,} of {progress.total:,} games" if progress.total
                else "before the games began")
        print(f"stopped (Ctrl-C) {done}: no table", file=sys.stderr)
        return 130
    progress.close()
    print(json.dumps(result.as_dict()) if args.json else result.format(), file=out)
    if args.csv:
        _write(args.csv, result.leaderboard().csv(), out)  # names escaped (safetext)
    if args.plot and args.format == "swiss":
        from ..viz import rating_leaderboard
        game = "" if args.game == "tictactoe" else f"{args.game}: "
        _write(args.plot, rating_leaderboard(result.leaderboard(), title=(
            f"{game}{args.rounds or SWISS_ROUNDS} Swiss rounds, {args.games} game(s) a side "
            f"per pairing, seed {args.seed}")), out)
    elif args.plot:
        from ..viz import tournament_heatmap
        game = "" if args.game == "tictactoe" else f"{args.game}: "
        picture = tournament_heatmap(result, title=f"{game}{args.games} games per ordered "
                                                   f"pair, seed {args.seed}")
        _write(args.plot, picture, out)
    return 0


def _write(path: str, content, out) -> None:
    try:
        if isinstance(content, str):
            Path(path).write_text(content)
        else:
            content.save(path)
    except OSError as error:
        raise ClassroomError(f"cannot write {path}: {error.strerror}") from None
    print(f"wrote {path}", file=sys.stderr)  # stderr: --json output stays one object
