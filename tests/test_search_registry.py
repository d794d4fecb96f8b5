"""A new search is one file: a module in ttt_lib/search/ that lists REPORT_ROWS appears in the
node-count report, with no other file changed."""
import sys

from ttt_lib import BitBoard
from ttt_lib import search
from ttt_lib.search import count_nodes, minimax
from ttt_lib.studies.nodes import format_nodes_report, report_rows, row_named, search_row

TOY = '''"""A toy search: minimax written once more, in a module of its own."""
from ..game import MAX
from .trace import ReportRow


def toy_minimax(state):
    """X's value of ``state``."""
    if state.is_terminal():
        return state.utility()
    values = [toy_minimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == MAX else min(values)


REPORT_ROWS = [ReportRow("toy minimax", toy_minimax, {}, place=1000)]
'''


def test_a_new_search_module_appears_in_the_report(tmp_path, monkeypatch):
    (tmp_path / "toy_search.py").write_text(TOY)
    monkeypatch.setattr(search, "__path__", [*search.__path__, str(tmp_path)])
    try:
        rows = report_rows()
        assert rows[-1].name == "toy minimax" and row_named("toy minimax") == rows[-1]
        state = BitBoard.from_text("XO./.X./..O")
        row = search_row(rows[-1], state)
        _, expected = count_nodes(minimax, state)
        assert row["nodes"] == expected.nodes and row["value"] == minimax(state)
        text = format_nodes_report({"opener": "X", "first_move": False, "variants": [row]})
        assert "toy minimax" in text.splitlines()[-1]
    finally:
        sys.modules.pop("ttt_lib.search.toy_search", None)
        monkeypatch.undo()
    assert "toy minimax" not in [r.name for r in report_rows()]


def test_the_rows_keep_the_reports_order():
    names = [r.name for r in report_rows()]
    assert names[:4] == ["minimax", "negamax", "negamax + memo", "alpha-beta (max/min)"]
    assert names.index("PVS") == names.index("alpha-beta + killers") + 1
    assert names[-1] == "sym. table + heuristic, (-1, 1)" and len(names) == len(set(names))
