"""tournament_heatmap: the grid's order, colours and labels read back from the figure."""
from types import SimpleNamespace

import numpy as np
import pytest

from ttt_lib.arena import PairResult, TournamentResult, tournament
from ttt_lib.viz import Picture, tournament_heatmap

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def grid_of(picture: Picture) -> np.ndarray:
    """The colour values the heatmap drew, as a masked array (row = X agent)."""
    return picture.figure.axes[0].images[0].get_array()


def labels(picture: Picture, axis: str) -> list[str]:
    ax = picture.figure.axes[0]
    ticks = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [tick.get_text() for tick in ticks]


def texts(picture: Picture) -> list[str]:
    return [text.get_text() for text in picture.figure.axes[0].texts]


@pytest.fixture(scope="module")
def played() -> TournamentResult:
    return tournament(["random", "perfect", "heuristic"], games=12, seed=5)


def test_rows_are_x_columns_are_o_in_the_order_played(played):
    picture = tournament_heatmap(played, title="Round robin")
    assert labels(picture, "y") == ["random", "perfect", "heuristic"]
    assert labels(picture, "x") == ["random", "perfect", "heuristic"]
    assert picture.figure.axes[0].get_title() == "Round robin"


def test_each_colour_is_the_x_agents_score(played):
    grid = grid_of(tournament_heatmap(played))
    names = ["random", "perfect", "heuristic"]
    for pair in played.results:
        games = pair.x_wins + pair.o_wins + pair.draws
        expected = (2 * pair.x_wins + pair.draws) / (2 * games)  # halves, counted separately
        assert grid[names.index(pair.x), names.index(pair.o)] == pytest.approx(expected)
    # the perfect player never loses, as X or as O
    assert grid[1].min() >= 0.5 and grid[:, 1].max() <= 0.5


def test_each_cell_writes_its_counts(played):
    written = texts(tournament_heatmap(played))
    for pair in played.results:
        assert f"W {pair.x_wins} D {pair.draws} L {pair.o_wins}" in written


def test_the_picture_is_the_same_every_time(played):
    first, second = tournament_heatmap(played).png(), tournament_heatmap(played).png()
    assert first.startswith(PNG_MAGIC) and first == second
    assert repr(tournament_heatmap(played)).startswith("<Picture ")


def test_plain_objects_and_dicts_are_accepted():
    pairs = [SimpleNamespace(x="a", o="b", x_wins=3, o_wins=1, draws=0),
             SimpleNamespace(x="b", o="a", x_wins=0, o_wins=0, draws=4)]
    picture = tournament_heatmap(SimpleNamespace(results=pairs))
    assert grid_of(picture).tolist() == [[None, 0.75], [0.5, None]]  # masked: never met
    assert texts(picture).count("not played") == 2
    as_dict = {"results": [{"x": "a", "o": "b", "x_wins": 0, "o_wins": 2, "draws": 0}]}
    assert grid_of(tournament_heatmap(as_dict)).tolist() == [[0.0]]


def test_agents_keep_one_order_on_both_axes():
    result = TournamentResult(games=1, seed=0, results=(
        PairResult("mcts", "random", 1, 0, 0), PairResult("random", "mcts", 0, 1, 0),
        PairResult("perfect", "mcts", 0, 0, 1)))
    picture = tournament_heatmap(result)
    assert labels(picture, "y") == ["mcts", "random", "perfect"]
    assert labels(picture, "x") == ["mcts", "random"]


def test_long_column_labels_break_before_their_options():
    result = SimpleNamespace(results=[{"x": "mcts(playouts=100)", "o": "alphabeta(symmetry=True)",
                                       "x_wins": 0, "o_wins": 0, "draws": 1}])
    picture = tournament_heatmap(result)
    assert labels(picture, "x") == ["alphabeta\n(symmetry=True)"]
    assert labels(picture, "y") == ["mcts(playouts=100)"]


@pytest.mark.parametrize("result, error, message", [
    ([1, 2], TypeError, "TournamentResult"),
    (SimpleNamespace(results=[]), ValueError, "at least one result"),
    (SimpleNamespace(results=[{"x": "a", "o": "b", "x_wins": 1, "draws": 0}]), ValueError,
     "lacks o_wins"),
    (SimpleNamespace(results=[{"x": "a", "o": "b", "x_wins": -1, "o_wins": 0, "draws": 0}]),
     ValueError, "whole numbers"),
    (SimpleNamespace(results=[{"x": "a", "o": "b", "x_wins": 1, "o_wins": 0, "draws": 0}] * 2),
     ValueError, "appears twice"),
])
def test_bad_results_are_refused_clearly(result, error, message):
    with pytest.raises(error, match=message):
        tournament_heatmap(result)
