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
