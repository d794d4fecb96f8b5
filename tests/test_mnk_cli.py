"""``solve --mnk M N K``: the figures, the errors, Ctrl-C and the size limits."""
import io
import json
import signal
import subprocess
import sys
import time

from _processes import interruptible
import pytest

from ttt_lib import InvalidBoardError, MNKBoard
from ttt_lib.cli import main
from ttt_lib.studies.mnk_solve import solve_mnk


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_json_figures():
    status, out = run(["solve", "--mnk", "4", "4", "3", "--json"])
    figures = json.loads(out)
    assert status == 0 and set(figures) == {"m", "n", "k", "value", "nodes", "positions",
                                            "seconds"}
    expected = solve_mnk(4, 4, 3)
    assert {k: v for k, v in figures.items() if k != "seconds"} == {
        k: v for k, v in expected.items() if k != "seconds"}


def test_text_figures():
    status, out = run(["solve", "--mnk", "3", "3", "3"])
    assert status == 0
    assert out.startswith("3x3, k=3: a draw; X's value 0")
    assert "nodes" in out and "positions stored" in out


@pytest.mark.parametrize("argv, fragment", [
    (["--mnk", "4", "4"], "expected 3 arguments"),
    (["--mnk", "4", "4", "x"], "invalid int value"),
    (["--mnk", "4", "4", "0"], "k is a positive whole number, not 0"),
    (["--mnk", "3", "3", "4"], "k=4 in a row cannot fit"),
    (["--mnk", "6", "6", "4"], "m*n is at most 30 cells"),
    (["--mnk", "5000", "5000", "4"], "m is at most 19"),
])
def test_bad_sizes_exit_2_with_one_line(argv, fragment, capsys):
    start = time.perf_counter()
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - start < 1


def test_huge_boards_are_refused_before_anything_is_built():
    start = time.perf_counter()
    with pytest.raises(InvalidBoardError, match="m is at most 19"):
        MNKBoard(5000, 5000, 4)
    with pytest.raises(InvalidBoardError, match="n is at most 19"):
        MNKBoard(4, 20, 4)
    assert time.perf_counter() - start < 0.5
    assert MNKBoard(19, 19, 5).moves()[-1] == 360


def test_ctrl_c_stops_cleanly_with_the_figures_so_far():
    process = subprocess.Popen(
        [sys.executable, "-m", "ttt_lib", "solve", "--mnk", "5", "5", "4", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **interruptible())
    shown, deadline = "", time.monotonic() + 120  # 5x5 k=4 takes far longer than this
    while "nodes/s" not in shown and time.monotonic() < deadline:  # the progress line,
        char = process.stderr.read(1)  # shown 2 s into the solve (later on a busy machine)
        if not char:
            break
        shown += char
    time.sleep(0.5)  # not while the line is being written
    process.send_signal(signal.SIGINT)
    err = shown + process.stderr.read()  # the same stream, read on from where we stopped
    out = process.stdout.read()
    process.wait(timeout=60)
    assert process.returncode == 130
    figures = json.loads(out)
    assert figures["value"] is None and figures["nodes"] > 0
    assert "nodes/s" in err  # the progress line
    assert err.rstrip().splitlines()[-1].startswith("stopped (Ctrl-C) after")
    assert "Traceback" not in err
