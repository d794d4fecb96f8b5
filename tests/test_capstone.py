"""The capstone of notebook 12: the agent's source bundled for a box, the stored ladder, the
ladder separating a rule agent from a deadline alpha-beta (played in boxes), the solver reading
back a game's mistakes, and the 4x6 board's second-player win."""
from pathlib import Path

import pytest

from ttt_lib.arena import processes_available
from ttt_lib.boards.connect4 import ConnectFour
from ttt_lib.classroom import kit
from ttt_lib.studies import connect4_ladder
from ttt_lib.studies.connect4_solve import solve_connect4
from ttt_lib.studies.ladder import round_robin
from ttt_lib.teach.nb12 import threat_cells
from ttt_lib.teach.nb12_bundle import NotYours, bundle
from ttt_lib.teach.nb12_ladder import climb, find_mistakes


from teach_cases.nb12 import S  # noqa: E402 (the course's solution module, loaded once there)
needs_boxes = pytest.mark.skipif(not processes_available(), reason="no processes here")


def test_the_bundle_is_a_file_that_defines_the_agent_and_what_it_uses(monkeypatch):
    source = bundle(S.my_agent)
    assert "ttt_lib" not in source  # its board comes from the box's kit
    monkeypatch.syspath_prepend(kit.folder())
    namespace = {}
    exec(compile(source, "capstone.py", "exec"), namespace)
    assert namespace["choose"].__name__ == "my_agent"
    for name in ("best_move", "search", "order", "evaluate", "wins_at", "they_win_at",
                 "OutOfTime", "WIN", "WEIGHTS"):
        assert name in namespace, name
    assert "import time as time" in source and "rule_agent" not in source
    state = ConnectFour.from_text("......./......./......./......./......./XXX.OOO")
    assert namespace["choose"](state) == 3


def test_the_bundle_refuses_the_library_however_it_is_reached():
    from ttt_lib.agents import make_agent  # noqa: F401 (read by the agents below)

    def by_name(state):
        return make_agent("greedy").choose(state)

    def by_import(state):
        from ttt_lib.search import alphabeta
        return alphabeta(state)

    import ttt_lib.search as library  # noqa: F401

    def by_module(state):
        return library.minimax(state)

    for agent, words in ((by_name, "ttt_lib's make_agent"), (by_import, "ttt_lib.search"),
                         (by_module, "ttt_lib's library")):
        with pytest.raises(NotYours, match=words):
            bundle(agent)
    with pytest.raises(TypeError):
        bundle(42)


def test_the_stored_ladder_replays_and_is_ordered():
    stored = {(r.x, r.o): r for r in connect4_ladder.stored()}
    games = connect4_ladder.stored_games()
    # the games of random and greedy replay in a moment (each game is seeded by its pair)
    for result in round_robin(connect4_ladder.RUNGS[:2], ConnectFour(), games=games,
                              seed=connect4_ladder.SEED):
        assert stored[result.x, result.o] == result
    ratings = connect4_ladder.ratings_with([])
    ranks = [ratings.rating(label) for label in connect4_ladder.LABELS]
    assert ranks[0] < ranks[1] < ranks[2] and max(ranks[2:]) > ranks[1]


def test_threat_cells_by_hand():
    state = ConnectFour.from_text("......./......./......./......./....X../.XXOOO.")
    assert threat_cells(state, -1) == {(6, 1)}
    assert threat_cells(state, 1) == set()
    diagonal = ConnectFour.from_text("......./......./...O.../...XO../O..OX../X.OXOXX")
    assert (2, 4) in threat_cells(diagonal, 1)


def test_four_by_six_is_a_second_player_win():
    assert solve_connect4(6, 4)["value"] == -1  # ConnectFour(columns=6, rows=4)


def test_mistakes_are_the_moves_that_threw_a_value_away():
    # X could win in column 3 (three of its pieces stand in it), plays column 0, and O wins
    # in column 2 (three of O's stand there)
    moves = (3, 2, 3, 2, 3, 2, 0, 2)
    found = {(m.ply, m.player, m.column): m for _, _, m in find_mistakes([("greedy", 1, moves)])}
    assert set(found) == {(7, "X", 0)}  # O's moves are not the student's (X's) to answer for
    mistake = found[7, "X", 0]
    assert (mistake.before, mistake.after) == (1, -1) and 3 in mistake.keeping
    assert find_mistakes([("greedy", -1, moves)]) == []  # O's moves were all right


@needs_boxes
def test_the_ladder_separates_a_rule_agent_from_a_deadline_alphabeta():
    rule = climb(bundle(S.rule_agent), games=2, top=3, move_time=0.5, mistakes=False)
    search = climb(bundle(S.strong_agent), games=2, top=3, move_time=0.5, mistakes=False)
    assert not rule.forfeits and not search.forfeits
    mcts = connect4_ladder.LABELS[2]
    assert rule.points <= 2 and rule.score(mcts) < 0.5, rule.format()
    assert search.points >= 3 and search.score(mcts) >= 0.5, search.format()
    assert search.ratings.rating("yours") > rule.ratings.rating("yours")


RUN_TIME_IMPORTS = {  # names the bundle cannot see: built when the agent moves or loads
    "at a move": "def choose(state):\n    lib = __import__('ttt_' + 'lib')\n"
                 "    return lib.search.alphabeta(state)\n",
    "when loaded": "import importlib\nsearch = importlib.import_module('ttt_lib.search')\n"
                   "def choose(state):\n    return state.moves()[0]\n",
    "by its path": f"import sys\nsys.path.insert(0, {str(Path(kit.LIBRARY).parent)!r})\n"
                   "from ttt_lib.boards import named\n"
                   "def choose(state):\n    return state.moves()[0]\n"}


@needs_boxes
def test_the_capstone_box_holds_no_ttt_lib_to_import():
    """The ladder's box carries the board (the kit) and not the package: an agent that
    imports ttt_lib by a name built at run time forfeits every game, whichever way."""
    from ttt_lib.classroom import jail
    if jail.why_not():  # unboxed (--no-isolation), the package is where Python finds it
        pytest.skip(jail.why_not())
    for way, source in RUN_TIME_IMPORTS.items():
        run = climb(source, games=2, top=1)
        assert run.points == 0 and len(run.forfeits) == 2, (way, run.forfeits)
        assert all("ModuleNotFoundError" in forfeit for forfeit in run.forfeits), way
    assert not any(str(module).startswith(("search/", "agents", "learn", "studies"))
                   and str(module) != "search/trace.py" for module in kit.modules())


@needs_boxes
def test_a_package_installed_where_the_box_looks_is_replaced_by_one_that_fails(
        tmp_path, monkeypatch):
    """ttt_lib installed in a folder the capstone's box holds (site-packages): the kit's
    ``absent`` package is bound over it, so importing it fails there too."""
    import subprocess
    import sys

    import ttt_lib
    from ttt_lib.classroom import jail
    if jail.why_not():
        pytest.skip(jail.why_not())
    site = tmp_path / "site"
    (site / "ttt_lib").mkdir(parents=True)
    (site / "ttt_lib" / "__init__.py").write_text("print('the whole library')\n")
    package = str(Path(ttt_lib.__file__).resolve().parent)
    paths = [path for path in jail.read_only_paths() if path != package] + [str(site)]
    monkeypatch.setattr(ttt_lib, "__file__", str(site / "ttt_lib" / "__init__.py"))
    monkeypatch.setattr(jail, "read_only_paths", lambda: paths)
    code = f"import sys; sys.path.insert(0, {str(site)!r}); import ttt_lib"
    command = jail._bwrap([sys.executable, "-I", "-c", code], None, None, kit.folder())
    done = subprocess.run(command, capture_output=True, text=True, timeout=60,
                          env=jail.environment())
    assert done.returncode == 1 and "the whole library" not in done.stdout
    assert "ModuleNotFoundError: No module named 'ttt_lib'" in done.stderr, done.stderr


def test_the_unit_plan_gives_the_capstone_a_week():
    from ttt_lib.teach.plan import PROJECT_MINUTES, read_plan
    path = Path(__file__).parents[1] / "notebooks" / "12_capstone_connect_four.ipynb"
    plan = read_plan(path)
    assert plan.minutes == PROJECT_MINUTES["12"] == 5 * 120
    assert {"check_12_evaluate", "check_12_order", "check_12_search", "check_12_deadline",
            "check_12_agent", "check_12_threats"} <= set(plan.write_its)
