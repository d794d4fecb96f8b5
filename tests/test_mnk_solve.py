"""The m,n,k solver (``studies.mnk_solve``) against a plain, independent solver."""
import time
from functools import lru_cache

import pytest

from ttt_lib.errors import InvalidBoardError
from ttt_lib.studies.mnk_solve import MAX_CELLS, BoardTooLargeError, MNKSolver, solve_mnk


def plain_value(m, n, k):
    """X's value of the empty board by memoised negamax over a string of cells, the winner
    found by walking from the cell just played (shares nothing with the solver). A board and
    its transpose (n rows of m) are the same game, so each pair is solved once."""
    return _plain_value(min(m, n), max(m, n), k)


@lru_cache(maxsize=None)
def _plain_value(m, n, k):
    def won(cells, cell, mark):
        r, c = divmod(cell, n)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < m and 0 <= cc < n and cells[rr * n + cc] == mark:
                    run, rr, cc = run + 1, rr + sign * dr, cc + sign * dc
            if run >= k:
                return True
        return False

    # a position's mirror images (rows reversed, columns reversed, both) have its value
    mirrors = [[(m - 1 - r if rows else r) * n + (n - 1 - c if columns else c)
                for r in range(m) for c in range(n)]
               for rows, columns in ((0, 1), (1, 0), (1, 1))]
    known = {}

    def value(cells, mark, other):  # for the player to move, who plays ``mark``
        if cells in known:
            return known[cells]
        children, best = [], None
        for cell, there in enumerate(cells):
            if there == ".":
                child = cells[:cell] + mark + cells[cell + 1:]
                if won(child, cell, mark):
                    best = 1  # a win at once: no child needs searching
                    break
                children.append(child)
        if best is None:
            best = -1 if children else 0
            for child in children:
                best = max(best, -value(child, other, mark))
                if best == 1:
                    break
        for mirror in mirrors:
            known["".join([cells[i] for i in mirror])] = best
        known[cells] = best
        return best

    return value("." * (m * n), "x", "o")


SMALL_SHAPES = [(m, n, k) for m in range(1, 13) for n in range(1, 13) if m * n <= 12
                for k in range(1, max(m, n) + 1)]


@pytest.fixture(scope="module")
def plain():
    """The oracle, one per module: its answers are kept (a shape and its transpose are solved
    once), and the tests that use it run on one worker (tests/conftest.py groups a module
    fixture's tests), so no worker solves a shape another has solved."""
    return plain_value


@pytest.mark.parametrize("m, n, k", SMALL_SHAPES)
def test_every_small_shape_agrees_with_a_plain_solver(plain, m, n, k):
    assert solve_mnk(m, n, k)["value"] == plain(m, n, k)


def test_small_shapes_include_every_value():
    values = {plain_value(m, n, k) for m, n, k in [(3, 3, 3), (3, 4, 3), (1, 3, 2)]}
    assert values == {0, 1}  # the first player never loses an m,n,k-game (strategy stealing)


@pytest.mark.parametrize("m, n, k, value", [(3, 3, 3, 0), (4, 4, 3, 1), (4, 4, 4, 0),
                                            (5, 4, 4, 0), (4, 5, 4, 0)])
def test_known_results(m, n, k, value):
    figures = solve_mnk(m, n, k)
    assert figures["value"] == value
    assert set(figures) == {"m", "n", "k", "value", "nodes", "positions", "seconds"}
    assert (figures["m"], figures["n"], figures["k"]) == (m, n, k)
    assert figures["nodes"] >= figures["positions"] > 0 and figures["seconds"] >= 0


def test_solves_are_deterministic():
    assert ({key: v for key, v in solve_mnk(4, 4, 4).items() if key != "seconds"}
            == {key: v for key, v in solve_mnk(4, 4, 4).items() if key != "seconds"})


def test_progress_is_reported_and_an_interrupt_keeps_the_figures():
    calls = []

    def progress(solver):
        calls.append(solver.nodes)
        if len(calls) == 2:
            raise KeyboardInterrupt

    solver = MNKSolver(5, 4, 4, progress)
    with pytest.raises(KeyboardInterrupt):
        solver.solve()
    assert calls[1] > calls[0] > 0
    figures = solver.figures(None)
    assert figures["value"] is None and figures["nodes"] == calls[1] and figures["positions"] > 0


def test_boards_past_the_solver_are_refused_up_front():
    start = time.perf_counter()
    with pytest.raises(BoardTooLargeError, match=r"m\*n .*5\*7=35"):
        MNKSolver(5, 7, 4)
    assert issubclass(BoardTooLargeError, ValueError)
    with pytest.raises(InvalidBoardError, match="k=6"):
        MNKSolver(4, 5, 6)
    assert MAX_CELLS >= 25
    assert time.perf_counter() - start < 1
