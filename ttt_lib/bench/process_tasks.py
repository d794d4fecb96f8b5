"""Whole processes: ``python -m ttt_lib solve --json`` against the plain script, and the time
to import the package's boards in a fresh interpreter."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from .measure import expect, figure, side_by_side


def solve_process(plain: ModuleType, quick: bool) -> dict:
    """``python -m ttt_lib solve --json PATH`` as a whole process, against the plain memoised
    script writing the same JSON (``python plain.py solve PATH``), runs taken in turn."""
    with tempfile.TemporaryDirectory() as folder:
        ours, theirs = Path(folder, "ours.json"), Path(folder, "plain.json")
        commands = {"plain": [sys.executable, plain.__file__, "solve", str(theirs)],
                    "ours": [sys.executable, "-m", "ttt_lib", "solve", "--json", str(ours)]}
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        runs = side_by_side(3 if quick else 10, {  # this package, wherever bench runs from
            name: lambda command=command: subprocess.run(command, check=True, env=env,
                                                         capture_output=True)
            for name, command in commands.items()})
        same = json.loads(ours.read_text()) == json.loads(theirs.read_text())
    expect(same, "solve --json and the plain script wrote different tables")
    t_plain, t_ours = runs["plain"][0], runs["ours"][0]
    return figure("solve --json as a whole process (every position, values and best moves)",
                  {"plain script": t_plain, "python -m ttt_lib solve": t_ours},
                  t_plain / t_ours, "plain / ours (whole processes)",
                  "solve >= 1.5x faster than the plain script", t_plain / t_ours >= 1.5)


def import_time(plain: ModuleType, quick: bool) -> dict:
    """Importing the boards of ``ttt_lib`` (its tables included) in a fresh interpreter,
    against importing the plain program. ``import ttt_lib`` alone loads nothing: its names
    are loaded when first used."""
    repeat = 3 if quick else 7
    folder = str(Path(plain.__file__).parent)
    probe = ("import sys, time; sys.path.insert(0, {folder!r}); t = time.perf_counter(); "
             "{statement}; print(time.perf_counter() - t)")

    def measure(statement: str) -> float:
        out = subprocess.run([sys.executable, "-c", probe.format(folder=folder,
                                                                   statement=statement)],
                             capture_output=True, text=True, check=True)
        return float(out.stdout)

    ours = min(measure("from ttt_lib import BitBoard, TreeNode") for _ in range(repeat))
    baseline = min(measure("import plain") for _ in range(repeat))
    return figure("import ttt_lib", {"import plain": baseline, "import ttt_lib": ours},
                  ours / baseline, "ttt_lib / plain (the cost of the package's tables)",
                  "import ttt_lib <= 0.15 s", ours <= 0.15)
