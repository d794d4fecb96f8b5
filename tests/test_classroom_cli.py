"""``python -m ttt_lib tournament --agents-from FOLDER``: JSON, CSV, the heatmap file, progress
and Ctrl-C, and one-line errors with exit status 2."""
from __future__ import annotations

import csv
import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from _processes import interruptible
import pytest

from ttt_lib.classroom import EXAMPLE_AGENTS

from ttt_lib.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = EXAMPLE_AGENTS


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Two sound agents from the examples, and a file that does not compile."""
    where = tmp_path_factory.mktemp("cli") / "class"
    where.mkdir()
    for name in ("good.py", "weak.py", "typo.py", "corners.ipynb"):
        (where / name).write_bytes((EXAMPLES / name).read_bytes())
    return where


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def outputs(folder, tmp_path_factory):
    """One run with --json, --csv and --plot (the same games: same seed and secret)."""
    where = tmp_path_factory.mktemp("out")
    argv = ["tournament", "--agents-from", str(folder), "--agents", "random,perfect",
            "--games", "3", "--seed", "5", "--secret", "s", "--move-time", "2", "--json",
            "--csv", str(where / "board.csv"), "--plot", str(where / "table.png")]
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stderr
    sys.stderr = err
    try:
        status = main(argv, out=out)
    finally:
        sys.stderr = saved
    return status, json.loads(out.getvalue()), where, err.getvalue()


def test_json_output(outputs):
    status, data, _, err = outputs
    assert status == 0
    assert data["agents"] == ["random", "perfect", "corners", "good", "weak"]
    assert data["rejected"] == [{"file": "typo.py",
                                 "reason": "does not compile: expected ':' (line 4)"}]
    assert data["forfeits"] == []
    assert len(data["results"]) == 5 * 4
    assert all(r["x_wins"] + r["o_wins"] + r["draws"] == 3 for r in data["results"])
    for row in data["leaderboard"]:  # recomputed from the pair table
        mine = [r for r in data["results"] if row["agent"] in (r["x"], r["o"])]
        wins = sum(r["x_wins"] if r["x"] == row["agent"] else r["o_wins"] for r in mine)
        draws = sum(r["draws"] for r in mine)
        assert (row["games"], row["points"]) == (3 * 8, wins + draws / 2)
    perfect = [r for r in data["results"] if "perfect" in (r["x"], r["o"])]
    assert all(r["o_wins"] == 0 if r["x"] == "perfect" else r["x_wins"] == 0 for r in perfect)
    assert "wrote" in err


def test_csv_file_matches_the_json(outputs):
    _, data, where, _ = outputs
    rows = list(csv.DictReader((where / "board.csv").open()))
    assert [r["agent"] for r in rows] == [r["agent"] for r in data["leaderboard"]]
    for row, entry in zip(rows, data["leaderboard"]):
        assert float(row["points"]) == entry["points"]
        assert int(row["x_wins"]) == entry["as_x"]["wins"]
        assert int(row["o_losses"]) == entry["as_o"]["losses"]


def test_plot_file_is_written(outputs):
    _, _, where, _ = outputs
    assert (where / "table.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_output_has_the_leaderboard_and_the_left_out_file(folder, capsys):
    status, out, _ = run(capsys, "tournament", "--agents-from", str(folder), "--games", "1",
                         "--move-time", "2")
    assert status == 0
    assert out.startswith("Leaderboard")
    assert "typo.py: does not compile" in out


@pytest.mark.parametrize("argv, message", [
    (["--agents-from", "/no/such/folder"], "no folder '/no/such/folder'"),
    (["--agents-from", "{folder}", "--agents", "random,nobody"], "unknown agent 'nobody'"),
    (["--agents-from", "{folder}", "--games", "0"], "--games must be between 1 and"),
    (["--agents-from", "{folder}", "--executor", "processes", "--workers", "0"],
     "--workers must be between 1 and 256"),
    (["--agents-from", "{folder}", "--executor", "dask", "--workers", "1000"],
     "--workers must be between 1 and 256"),
    (["--agents-from", "{folder}", "--scheduler", "tcp://127.0.0.1:8786"],
     "--scheduler needs --executor dask"),
    (["--agents-from", "{folder}", "--workers", "2"], "--workers needs --executor"),
    (["--agents-from", "{folder}", "--move-time", "0"], "--move-time must be between"),
    (["--agents-from", "{folder}", "--memory", "1"], "--memory must be between 32"),
    (["--agents-from", "{folder}", "--plot", "table.txt"], "--plot writes a .png or .svg"),
    (["--agents-from", "{folder}", "--executor", "threads"], "invalid choice: 'threads'"),
    (["--agents", "random", "--csv", "x.csv"], "--csv needs --agents-from FOLDER"),
    (["--games", "3"], "tournament needs --agents or --agents-from"),
])
def test_bad_arguments_exit_2_with_one_line(folder, capsys, argv, message):
    argv = [arg.format(folder=folder) for arg in argv]
    status, out, err = run(capsys, "tournament", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_ctrl_c_stops_cleanly(tmp_path):
    """A long run shows progress, and SIGINT ends it with status 130, no traceback, and no
    sandbox left running."""
    folder, scratch = tmp_path / "class", tmp_path / "tmp"
    write_agents(folder, {"slow.py": "import time\ndef choose(state):\n"
                                     "    time.sleep(0.05)\n    return state.moves()[0]\n",
                          "weak.py": (EXAMPLES / "weak.py").read_text()})
    scratch.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "ttt_lib", "tournament", "--agents-from", str(folder),
         "--games", "100", "--move-time", "1"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(scratch)},
        **interruptible())  # where its sandboxes work
    shown = wait_for(process.stderr.fileno(), b"games ", seconds=60)  # the progress line
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    err = (shown + err).decode()
    assert process.returncode == 130, err
    assert "Traceback" not in err and out == b""
    assert "games " in err and "stopped (Ctrl-C) after" in err
    time.sleep(1)
    assert not working_in(scratch)
    assert not orphaned_sandboxes()  # a box dies with the command that started it


def wait_for(fd: int, text: bytes, seconds: float) -> bytes:
    """What ``fd`` says until it says ``text`` (or ``seconds`` pass)."""
    seen, deadline = b"", time.monotonic() + seconds
    while text not in seen and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def write_agents(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)


def working_in(folder: Path) -> list[str]:
    """The processes whose working directory is inside ``folder``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(os.readlink(f"/proc/{pid}/cwd")).is_relative_to(folder):
                found.append(pid)
        except OSError:
            continue
    return found


def orphaned_sandboxes() -> list[int]:
    """Sandboxes of this Python (zygotes and their forks) that are not below this test run."""
    parents, commands = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                parents[int(pid)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            commands[int(pid)] = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
    # below this run: under pytest-xdist the controller, whose other workers' tests may
    # have boxes running right now (an orphan has lost its parent and hangs below init)
    run = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
    ours, frontier = set(), {run}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - ours
        ours |= frontier
    return [pid for pid, command in commands.items() if pid not in ours
            and sys.executable.encode() in command and b"ttt_lib.classroom.sandbox" in command]


def test_a_dask_scheduler_address_plays_the_same_table(outputs, folder, capsys):
    from dask.distributed import LocalCluster
    _, data, _, _ = outputs
    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        status, out, _ = run(capsys, "tournament", "--agents-from", str(folder), "--agents",
                             "random,perfect", "--games", "3", "--seed", "5", "--secret", "s",
                             "--move-time", "2", "--json", "--executor", "dask", "--scheduler",
                             cluster.scheduler_address)
    assert status == 0
    assert json.loads(out) == data
