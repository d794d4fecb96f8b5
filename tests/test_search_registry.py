"""A new search is one file: a module in ttt_lib/search/ that declares its argument checks and
lists REPORT_ROWS is published by ``ttt_lib.search``, appears in the node-count report and is
walked by the fuzz test, with no other file changed."""
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import ttt_lib
from ttt_lib.checks import GAME, argument_checks, public_names, publish_declared
from ttt_lib.cli import main
from ttt_lib.errors import SearchOptionError
from ttt_lib.search.report import ReportOrderError, ReportRow, report_order
from ttt_lib.search.observe import NoSearchSeen
from ttt_lib.studies.nodes import ReportRowError, report_rows, row_of, search_row
from ttt_lib.boards import BitBoard

MTDF = '''"""MTD(f): the value closed in on by zero-window alpha-beta searches alone."""
import math

from ..checks import GAME, NUMBER, argument_checks
from ..errors import SearchOptionError
from ..game import Game
from .report import ReportRow


def zero_window(state: Game, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """Fail-soft alpha-beta in negamax form: the value for the player to move."""
    if state.is_terminal():
        return state.to_move * state.utility()
    best = -math.inf
    for move in state.moves():
        best = max(best, -zero_window(state.play(move), -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def mtdf(state: Game, guess: float = 0) -> float:
    """X's value of ``state`` (whole numbers) by MTD(f), starting from ``guess``."""
    low, high, value = -math.inf, math.inf, guess
    while low < high:
        beta = max(value, low + 1)
        value = zero_window(state, beta - 1, beta)
        low, high = (value, high) if value >= beta else (low, value)
    return state.to_move * value


argument_checks(mtdf, SearchOptionError, state=GAME, guess=NUMBER)
argument_checks(zero_window, SearchOptionError, state=GAME, alpha=NUMBER, beta=NUMBER)
REPORT_ROWS = [ReportRow("zero-window core, (-1, 1)", zero_window, {"alpha": -1, "beta": 1},
                         after="sym. table + heuristic, (-1, 1)", view="mover")]
'''

PROBE = '''
import json, sys
sys.path.insert(0, sys.argv[1])
import ttt_lib, ttt_lib.search as search
from ttt_lib.boards import BitBoard
from ttt_lib.studies.nodes import report_rows, row_named, search_row
from ttt_lib.search.exact import minimax
import test_fuzz_entry
assert ttt_lib.__file__.startswith(sys.argv[2]), ttt_lib.__file__
names = [row.name for row in report_rows()]
state = BitBoard.from_text("XO./.X./..O")
try:
    search.mtdf("X........")
    refused = None
except TypeError as error:
    refused = str(error)
print(json.dumps({
    "exported": "mtdf" in search.__all__, "checked": hasattr(search.mtdf, "check"),
    "refused": refused, "value": search.mtdf(state), "minimax": minimax(state),
    "after": names[names.index("zero-window core, (-1, 1)") - 1],
    "last": names[-1] == "zero-window core, (-1, 1)", "row": search_row(row_named("zero-window core, (-1, 1)"), state),
    "fuzzed": {"search.mtdf", "search.zero_window"} <= set(test_fuzz_entry.NAMES)}))
'''


def test_a_throwaway_search_module_is_found_everywhere(tmp_path):
    copy = tmp_path / "ttt_lib"
    shutil.copytree(Path(ttt_lib.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__", "class_agents"))
    (copy / "search" / "mtd.py").write_text(MTDF)
    tests = Path(__file__).parent
    result = subprocess.run([sys.executable, "-c", PROBE, str(tests), str(copy)],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["exported"] and found["checked"] and found["fuzzed"]
    assert found["refused"].startswith("mtdf searches a game state")
    assert found["value"] == found["minimax"] == found["row"]["value"]
    assert found["after"] == "sym. table + heuristic, (-1, 1)" and found["last"]
    assert found["row"]["nodes"] > 1 and found["row"]["leaves"] >= 1


def test_the_rows_follow_the_rows_they_name():
    rows = report_rows()
    names = [row.name for row in rows]
    assert len(names) == len(set(names)) and [r.after for r in rows].count(None) == 1
    assert rows[0].after is None
    for row in rows[1:]:
        assert names.index(row.after) < names.index(row.name), row.name


def test_the_rows_make_one_line_whatever_order_they_come_in():
    rows = [ReportRow("a", None, {}, None), ReportRow("b", None, {}, "a"),
            ReportRow("c", None, {}, "b"), ReportRow("new", None, {}, "c")]
    for given in (rows, rows[::-1], rows[2:] + rows[:2]):
        assert [r.name for r in report_order(given)] == ["a", "b", "c", "new"]


@pytest.mark.parametrize("rows, words", [
    ([ReportRow("a", None, {}, None), ReportRow("b", None, {}, "nobody")], "no row's name"),
    ([ReportRow("a", None, {}, None), ReportRow("a", None, {}, "a")], "two report rows"),
    ([ReportRow("a", None, {}, None), ReportRow("b", None, {}, None)], "both come first"),
    ([ReportRow("a", None, {}, None), ReportRow("b", None, {}, "a"),
      ReportRow("c", None, {}, "a")], "both come after 'a'"),
    ([ReportRow("a", None, {}, None), ReportRow("b", None, {}, "c"),
      ReportRow("c", None, {}, "b")], "circle"),
])
def test_rows_that_make_no_order_are_refused(rows, words):
    with pytest.raises(ReportOrderError, match=words):
        report_order(rows)


def driver(state):
    """A driver: the recursion is a helper the observer does not watch."""
    return helper(state)


def helper(state):
    if state.is_terminal():
        return state.utility()
    values = [helper(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


TABLE: dict = {}


def remembering(state):
    """Minimax remembering every position's value (a table the report cannot see)."""
    if state.key() not in TABLE:
        TABLE[state.key()] = helper(state) if state.is_terminal() else (
            max if state.to_move == 1 else min)(remembering(state.play(m)) for m in state.moves())
    return TABLE[state.key()]


def constant(state):
    """Not a search: it answers without looking at a single move."""
    return 0


def positions_below(state) -> int:
    """The calls ``helper`` makes from ``state``: itself and every position under it."""
    return 1 + (0 if state.is_terminal() else
                sum(positions_below(state.play(move)) for move in state.moves()))


def test_no_row_silently_shows_one_node():
    state = BitBoard.from_text("XO./.X./..O")
    found = search_row(ReportRow("driver", driver, {}, None), state)  # the helper is counted
    assert found["nodes"] == positions_below(state) and found["value"] == helper(state)
    with pytest.raises((ReportRowError, NoSearchSeen)):
        search_row(ReportRow("constant", constant, {}, None), state)
    for row in report_rows():
        if row.name.startswith(("minimax", "negamax", "alpha-beta (negamax)", "PVS")):
            found = search_row(row, state)
            assert found["nodes"] > 1 and 1 <= found["leaves"] < found["nodes"], row.name


def test_the_nodes_command_takes_any_function(capsys, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "TABLE", {})
    assert main(["nodes", "--search", f"{__name__}:remembering", "--json"]) == 0
    (found,) = json.loads(capsys.readouterr().out)["variants"]
    assert found["name"] == f"{__name__}:remembering" and found["value"] == 0
    assert found["nodes"] > 5478  # 5,478 positions, each met by many move orders
    for spec in ("nope", "no_such_module:f", f"{__name__}:missing", ":f", "os:getcwd",
                 f"{__name__}:constant"):
        assert main(["nodes", "--search", spec]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert row_of("ttt_lib.search.exact:negamax", "mover").view == "mover"


def test_a_public_search_without_declared_checks_stops_the_import():
    module = types.ModuleType("ttt_lib.search.careless")
    module.careless = lambda state: 0
    module.__all__ = ["careless"]
    with pytest.raises(TypeError, match="careless is public .* declares no argument checks"):
        public_names(module)
    argument_checks(module.careless, SearchOptionError, state=GAME)
    assert public_names(module) == ["careless"]


def test_a_name_offered_twice_or_hiding_a_module_stops_the_import(tmp_path):
    package = tmp_path / "twice"
    package.mkdir()
    offer = ("from ttt_lib.checks import GAME, argument_checks\nfrom ttt_lib.errors import "
             "SearchOptionError\n\ndef {name}(state):\n    return 0\n\n\n"
             "argument_checks({name}, SearchOptionError, state=GAME)\n")
    (package / "one.py").write_text(offer.format(name="same"))
    (package / "two.py").write_text(offer.format(name="same"))
    (package / "three.py").write_text(offer.format(name="one"))
    for left_out, words in (("three.py", "same is offered by both twice.one and twice.two"),
                            ("two.py", "twice.three.one would hide the module one")):
        source = (package / left_out).read_text()
        (package / left_out).unlink()
        namespace = {"__name__": "twice", "__path__": [str(package)]}
        sys.path.insert(0, str(tmp_path))
        try:
            with pytest.raises(ImportError, match=words):
                publish_declared(namespace)
        finally:
            sys.path.remove(str(tmp_path))
            for name in [name for name in sys.modules if name.split(".")[0] == "twice"]:
                del sys.modules[name]
        (package / left_out).write_text(source)
