"""`python -m ttt_lib grade` against notebooks that attack: each runs on a copy in a bubblewrap
box of its own, so killing its grader, stopping its kernel, deleting notebooks, patching the
package, leaving a process behind or printing 50 MB costs at most its own row; every
other row is graded and kept, no submission changes, the CSV is complete, and a run that is
killed keeps every row it had written."""
from __future__ import annotations

import csv
import hashlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

import ttt_lib
from ttt_lib.teach import grade
from test_grade import classic, right_on_q_update  # what both grade tests compare

IMPORTS = "from ttt_lib.teach import check_10_q_update"
RIGHT = ("def my_update(q, reward, next_best, alpha, gamma):\n"
         "    target = reward if next_best is None else -gamma * next_best\n"
         "    return q + alpha * (target - q)\n\n"
         "check_10_q_update(my_update)")
TIMEOUT = 30  # seconds per notebook: the stopped kernel uses it all; a busy machine (4 workers
#              on 2 cores) needs more than 10 s to start a boxed kernel and run a few cells
PACKAGE = Path(ttt_lib.__file__).resolve().parent
MARKER = f"left-behind-{uuid.uuid4().hex}"


def notebook(path: Path, *sources: str) -> None:
    cells = [new_markdown_cell("# A student's copy")] + [new_code_cell(s) for s in sources]
    nbformat.write(new_notebook(cells=cells), str(path))


def checksum(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*"))
            # the byte code other test processes (pytest-xdist's workers) compile meanwhile
            if path.is_file() and "__pycache__" not in path.parts}


def running(*needles: str) -> list[int]:
    """Processes whose command line holds every one of ``needles``."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as line:
                text = line.read().decode(errors="replace")
        except OSError:
            continue
        if all(needle in text for needle in needles) and int(name) != os.getpid():
            found.append(int(name))
    return found


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    root = tmp_path_factory.mktemp("grading")
    folder = root / "class"
    folder.mkdir()
    notebook(folder / "=1+2*3.ipynb", IMPORTS, RIGHT)  # sound work under a formula's name
    notebook(folder / "killer.ipynb", IMPORTS, RIGHT, "import os\nos.kill(os.getppid(), 9)")
    notebook(folder / "stopper.ipynb", IMPORTS, "import os, signal\n"
                                                "os.kill(os.getpid(), signal.SIGSTOP)", RIGHT)
    notebook(folder / "vandal.ipynb", IMPORTS,
             "import glob, os\n"
             f"for name in glob.glob('*.ipynb') + glob.glob({str(folder)!r} + '/*.ipynb'):\n"
             "    os.remove(name)",
             "import subprocess, sys\n"
             "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', "
             f"{MARKER!r}], start_new_session=True)",
             "print('x' * (50 << 20))",  # 50 MB of output
             RIGHT,
             "import ttt_lib.teach.core as core\n"
             "open(core.__file__, 'a').write('\\n# every verdict is Not yet\\n')")
    before = checksum(folder), checksum(PACKAGE)
    table = root / "grades.csv"
    done = subprocess.run([sys.executable, "-m", "ttt_lib", "grade", str(folder), "--csv",
                           str(table), "--timeout", str(TIMEOUT)],
                          capture_output=True, text=True, timeout=600, env=boxes_in(root))
    after = checksum(folder), checksum(PACKAGE)
    with open(table, newline="", encoding="utf-8") as stream:
        rows = classic(list(csv.reader(stream)))
    return done, rows, before, after, root


def boxes_in(root: Path) -> dict[str, str]:
    """The environment of a grading run whose boxes' homes are made under ``root``, so that
    ``running(str(root))`` finds this run's boxes only (tests run side by side)."""
    return {**os.environ, "TMPDIR": str(root)}


def test_every_notebook_gets_its_row(attacked):
    done, rows, *_ = attacked
    assert done.returncode == 0, done.stderr
    assert rows[0] == ["file", "check_10_q_update", "right", "problem", "flags"]
    by_file = {row[0]: row[1:] for row in rows[1:]}
    assert list(by_file) == ["'=1+2*3.ipynb", "killer.ipynb", "stopper.ipynb", "vandal.ipynb"]
    assert by_file["'=1+2*3.ipynb"] == ["Right", "1", "", ""]
    assert by_file["killer.ipynb"] == [
        "missing", "0", "no result: its box ended early (its kernel or grader was stopped)", ""]
    assert by_file["stopper.ipynb"] == ["missing", "0",
                                        f"stopped after the time limit ({TIMEOUT} s)", ""]
    right, count, problem, flags = by_file["vandal.ipynb"]
    assert (right, count, flags) == ("Right", "1", "")
    assert problem.startswith("code cell 6 raised OSError: [Errno 30] Read-only file system")
    assert done.stdout.startswith("graded 4 notebooks: 1 ran to the end, 3 stopped early; "
                                  "2 Right, 0 Not yet, 2 missing")


def test_no_submission_and_no_package_file_changed(attacked):
    _, _, before, after, _ = attacked
    assert after == before


def test_nothing_is_left_running(attacked):
    assert running(MARKER) == []
    assert running(str(attacked[-1]), "ttt_lib.teach.kernel", "--channel") == []


def test_a_killed_run_keeps_every_row_it_wrote(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    notebook(folder / "a.ipynb", IMPORTS, RIGHT)
    notebook(folder / "b.ipynb", IMPORTS, "while True:\n    pass")
    table = tmp_path / "grades.csv"
    process = subprocess.Popen([sys.executable, "-m", "ttt_lib", "grade", str(folder),
                                "--csv", str(table), "--timeout", "120"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=boxes_in(tmp_path))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
            not table.exists() or table.read_text().count("\n") < 2):
        time.sleep(0.2)
    time.sleep(1)  # b.ipynb's box is running now
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert table.read_text() == ("student,file,check_10_q_update,right,check_10_q_update points,"
                                 "points,max_points,delegated,feedback,problem,flags\n"
                                 + right_on_q_update("a"))
    time.sleep(1)
    assert running(str(tmp_path), "ttt_lib.teach.kernel", "--channel") == []


@pytest.mark.parametrize("text, problem", [
    ("{this is not json", "not a notebook: not a JSON object"),
    ("[1, 2]", "not a notebook: not a JSON object"),
    ('{"cells": 3}', "not a notebook: no list of cells"),
    ('{"cells": [1]}', "not a notebook: cell 1 is malformed"),
    ('{"cells": [{"cell_type": "code", "source": null}]}', "not a notebook: cell 1 is malformed"),
    ("[" * 100_000 + "]" * 100_000, "not a notebook: nested too deeply")])
def test_a_malformed_notebook_of_any_shape_gets_its_problem(tmp_path, text, problem):
    (tmp_path / "x.ipynb").write_text(text)
    paper = grade.read_paper(tmp_path / "x.ipynb", tmp_path)
    assert paper.problem == problem


def test_a_fifo_or_a_folder_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.ipynb")
    (tmp_path / "dir.ipynb").mkdir()
    assert grade.read_paper(tmp_path / "pipe.ipynb", tmp_path).problem == \
        "not graded: it is not a regular file but a FIFO"
    assert grade.read_paper(tmp_path / "dir.ipynb", tmp_path).problem == \
        "not graded: it is not a regular file but a folder"
