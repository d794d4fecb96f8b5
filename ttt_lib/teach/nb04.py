"""Exercises of notebook 04 read off the searches' work: which position's line score, which
speed-up saves the most nodes (the write-its beside it: ``nb04_ordering.py``, ``nb04_table.py``)."""
from __future__ import annotations

from functools import lru_cache

from ..boards.bit import BitBoard
from ..search.pruning import alphabeta
from ..search.ordering import line_score
from ..search.principal_variation import pvs
from ..search.trace import Stats
from .core import is_int, unanswered, verdict, word_in

__all__ = ["BOARD_04_LINE_SCORE", "BOARD_04_SPEEDUP", "SPEEDUPS_04", "speedup_nodes",
           "check_04_line_score", "check_04_speedup"]

BOARD_04_LINE_SCORE = "X../.X./O.O"
BOARD_04_SPEEDUP = "XO./.O./..X"

# Each speed-up on its own: the options of ``alphabeta``, or PVS (no options).
SPEEDUPS_04 = {
    "table": {"table": True},
    "symmetric table": {"symmetry": True},
    "heuristic order": {"ordering": "heuristic"},
    "threat order": {"ordering": "threats"},
    "killers": {"killers": True},
    "PVS": None,
}


def speedup_nodes(text: str, name: str) -> int:
    """The nodes exact search from ``text`` visits with one speed-up (a key of SPEEDUPS_04)."""
    return _speedup_nodes(text)[name]


@lru_cache(maxsize=None)
def _speedup_nodes(text: str) -> dict[str, int]:
    board, counts = BitBoard.from_text(text), {}
    for name, options in SPEEDUPS_04.items():
        stats = Stats()
        if options is None:
            pvs(board, stats=stats)
        else:
            alphabeta(board, stats=stats, **options)
        counts[name] = stats.nodes
    return counts


def _line_scores(text: str) -> dict[str, int]:
    """The right line score and the ones that common slips give."""
    board = BitBoard.from_text(text)
    cells, lines = board.cells(), board.lines()
    slips = {"right": line_score(board), "ten_to_count": 0, "mixed_lines": 0}
    for line in lines:
        marks = [cells[cell] for cell in line]
        xs, os = marks.count(1), marks.count(2)
        slips["ten_to_count"] += (10 ** xs if xs and not os else 0) - \
            (10 ** os if os and not xs else 0)
        slips["mixed_lines"] += (10 ** (xs - 1) if xs else 0) - (10 ** (os - 1) if os else 0)
    return slips


def check_04_line_score(answer) -> None:
    """``line_score`` of ``X../.X./O.O``, worked out by hand."""
    scores = _line_scores(BOARD_04_LINE_SCORE)
    expected = scores["right"]
    first_hint = ("go through the 8 lines: a line with only X's marks scores 1, 10 or 100 for "
                  "1, 2 or 3 marks, one with only O's the same negated, any other 0.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the score is one int.")
    if answer == -expected and expected:
        hint = "the sign is the wrong way round: the score is from X's point of view."
    elif answer == scores["ten_to_count"]:
        hint = "a line with k marks of one side is worth 10 ** (k - 1): a single mark counts 1."
    elif answer == scores["mixed_lines"]:
        hint = "a line holding both X and O can never be completed by either: it scores 0."
    else:
        hint = "list the 3 rows, 3 columns and 2 diagonals, and score each one separately."
    verdict(answer == expected,
            f"line_score is {expected}: the lines held by one side alone, weighted by how "
            "full they are.", hint)


def check_04_speedup(answer) -> None:
    """Which single speed-up (a key of ``SPEEDUPS_04``) lets exact search from
    ``XO./.O./..X`` visit the fewest nodes."""
    counts = _speedup_nodes(BOARD_04_SPEEDUP)
    expected = min(counts, key=counts.get)
    first_hint = ("look at the position first: what must X do? Then count each speed-up's "
                  "nodes with a Stats().")
    if unanswered(answer, first_hint):
        return
    named = word_in(answer, SPEEDUPS_04)
    if named is None:
        return verdict(False, "", "answer with one of the names in SPEEDUPS_04 "
                                  "(print(list(SPEEDUPS_04)) shows them).")
    answer = named
    hint = (f"with {answer} the search visits {counts[answer]} nodes; another speed-up "
            "does better. O threatens a line: which speed-up notices that?")
    why = {"threat order": "X must block at once, and the threat order tries the block first",
           "heuristic order": "the line score puts the strongest moves first"}
    verdict(answer == expected,
            f"{expected} wins here with {counts[expected]} nodes"
            + (f": {why[expected]}." if expected in why else "."), hint)
