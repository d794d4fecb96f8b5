"""What the class tournament does in a browser's Python (Pyodide, the lite site), faked here by
``sys.platform = "emscripten"``: it cannot start the students' processes, so it says so in one
clear line ("not in a browser") instead of failing deep inside; the built-in agents still play."""
from __future__ import annotations

import sys

import pytest

from ttt_lib import arena
from ttt_lib.classroom import EXAMPLE_AGENTS, Limits, class_tournament, dask_client, load_folder
from ttt_lib.classroom.worker import require_processes
from ttt_lib.errors import NOT_IN_A_BROWSER, ProcessesUnavailable


@pytest.fixture
def browser(monkeypatch):
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert not arena.processes_available()


def test_a_folder_loads_as_an_empty_roster_that_says_why(browser):
    roster = load_folder(EXAMPLE_AGENTS, Limits(move_time=0.5))
    assert roster.entrants == [] and roster.rejected == []
    first, second = roster.format().splitlines()
    assert first.startswith(f"{NOT_IN_A_BROWSER}: a class's agents each run in a process")
    assert second.startswith("0 agents from ")


def test_the_built_in_agents_still_play_serially(browser):
    roster = load_folder(EXAMPLE_AGENTS, Limits(move_time=0.5))
    result = class_tournament(["random", "perfect"], roster, games=2, seed=1)
    assert [row["agent"] for row in result.leaderboard().as_dicts()] == ["perfect", "random"]


def test_too_few_agents_left_raises_the_browser_message(browser):
    roster = load_folder(EXAMPLE_AGENTS, Limits(move_time=0.5))
    with pytest.raises(ProcessesUnavailable, match=f"^{NOT_IN_A_BROWSER}: "):
        class_tournament(["greedy"], roster, games=2, seed=3)


def test_dask_and_the_sandboxes_say_not_in_a_browser(browser):
    with pytest.raises(ProcessesUnavailable, match=f"^{NOT_IN_A_BROWSER}: Dask"):
        with dask_client(workers=2):
            pass
    with pytest.raises(ProcessesUnavailable, match=f"^{NOT_IN_A_BROWSER}: "):
        require_processes()
    assert issubclass(ProcessesUnavailable, RuntimeError)


def test_outside_a_browser_nothing_changes():
    roster = load_folder(EXAMPLE_AGENTS, Limits(move_time=0.5))
    assert roster.unavailable == "" and roster.entrants
    assert NOT_IN_A_BROWSER not in roster.format()


def test_a_notebook_prints_the_message_instead_of_a_traceback(capsys):
    """What the browser's kernel gets (ttt_lib registers the handler on import there): the
    error's one line on stdout, no traceback, and IPython's other errors unchanged."""
    from IPython.core.interactiveshell import InteractiveShell

    import ttt_lib

    shell = InteractiveShell.instance()
    try:
        ttt_lib.explain_missing_processes()
        shell.run_cell("from ttt_lib.classroom import dask_client\n"
                       "import sys; sys.platform = 'emscripten'\n"
                       "try:\n    dask_client().__enter__()\nfinally:\n"
                       f"    sys.platform = {sys.platform!r}")
        out = capsys.readouterr()
        assert out.out.startswith(f"{NOT_IN_A_BROWSER}: Dask's workers are processes")
        assert "Traceback" not in out.out + out.err and "ProcessesUnavailable" not in out.out
        shell.run_cell("1 / 0")
        assert "ZeroDivisionError" in capsys.readouterr().out
    finally:
        shell.set_custom_exc((), None)
        InteractiveShell.clear_instance()
