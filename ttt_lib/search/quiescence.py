"""Quiescence search: past the depth limit, the tactical moves only, and the right to stand pat.

The standard cure for the horizon effect (chess programs search captures this way). At the
depth limit the player to move may *stand pat*, accept the heuristic's score, unless the
opponent threatens to win at once (then only the blocks are searched, as a chess program
searches every reply to a check). Otherwise only the *noisy* moves are searched past the
limit: a win at once, or a move that makes a threat of its own (a line one mark short of a
win). A quiet position is scored at once. Heuristic continuation (``continuation.py``)
differs in two ways: it searches only the moves that cannot wait, and it never stands pat.

- ``threat_moves``: the moves after which the player who made them could win at once;
- ``quiescence``: the value past the limit, for the player to move;
- ``alphabeta_quiescent``: depth-limited alpha-beta (negamax form) ending in ``quiescence``;
- ``quiescent_choice``: X's value and every best move at the root.

The rules travel in a ``Continuation`` (evaluation, forced moves, how far past the limit,
move order, a win's score). The searches hold nothing but the algorithm: count their nodes
from outside.
"""
from __future__ import annotations

from ..checks import BOARD, NUMBER, argument_checks, also_window
from ..game import Game
from .continuation import CONTINUED, Continuation, check_continuation, playable, root_choice
from .ordering import DIGIT_OF, _board
from .pruning import INF, SearchOptionError


def threat_moves(state) -> list:
    """The moves that make a threat: after each, the player who made it could win at once
    along a line through the move (before it, the line held all but two of its cells for
    the player to move, and those two were empty)."""
    if hasattr(state, "landing_cell"):  # pieces fall: play the move to see what it opens
        return [move for move in state.moves() if threatens(state.play(move), state.to_move)]
    cells, lines = _board(state)
    fills, mine, made = playable(state), DIGIT_OF[state.to_move], set()
    for line in lines:
        marks = [cells[cell] for cell in line]
        if marks.count(0) == 2 and marks.count(mine) == len(line) - 2:
            gaps = [cell for cell in line if cells[cell] == 0]
            if all(cell in fills for cell in gaps):
                made.update(fills[cell] for cell in gaps)
    return [move for move in state.moves() if move in made]


def threatens(state, player: int) -> bool:
    """Whether ``player`` has a line one mark short of a win whose gap can be filled now."""
    cells, lines = _board(state)
    fills, mine = playable(state), DIGIT_OF[player]
    for line in lines:
        marks = [cells[cell] for cell in line]
        if (marks.count(0) == 1 and marks.count(mine) == len(line) - 1
                and line[marks.index(0)] in fills):
            return True
    return False


def quiescence(state: Game, depth: int, alpha: float, beta: float,
               rules: Continuation) -> float:
    """The value of ``state`` for the player to move at or past the limit (``depth`` <= 0
    counts the moves past it): stand pat or play a noisy move, at most ``rules.extra`` moves
    past the limit."""
    if state.is_terminal():
        return state.to_move * state.utility() * rules.win
    moves, best = rules.forced(state), -INF  # a win at once, or blocks: no standing pat
    if depth <= -rules.extra:
        return state.to_move * rules.evaluate(state)
    if not moves:
        best = state.to_move * rules.evaluate(state)  # stand pat: take the heuristic's score
        if best >= beta:
            return best
        moves = threat_moves(state)
    for move in moves:
        value = -quiescence(state.play(move), depth - 1, -beta, -max(alpha, best), rules)
        best = max(best, value)
        if best >= beta:
            break
    return best


def alphabeta_quiescent(state: Game, depth: int, alpha: float, beta: float,
                        rules: Continuation) -> float:
    """The value of ``state`` for the player to move, looking ``depth`` moves ahead with
    every move, then ``quiescence`` at the limit."""
    if state.is_terminal():
        return state.to_move * state.utility() * rules.win
    if depth <= 0:
        return quiescence(state, depth, alpha, beta, rules)
    moves = state.moves() if rules.order is None else rules.order(state, state.moves())
    best = -INF
    for move in moves:
        value = -alphabeta_quiescent(state.play(move), depth - 1, -beta, -max(alpha, best),
                                     rules)
        best = max(best, value)
        if best >= beta:
            break
    return best


def quiescent_choice(state: Game, depth: int,
                     rules: Continuation = Continuation()) -> tuple[float, list]:
    """X's value of ``state`` and its best moves (sorted), looking ``depth`` (at least 1)
    moves ahead, then searching quiescence at most ``rules.extra`` moves past the limit."""
    check_continuation(state, depth, rules)

    def search(child, left, alpha, beta):
        return alphabeta_quiescent(child, left, alpha, beta, rules)

    value, moves = root_choice(state, depth, search, state.moves())
    return state.to_move * value, sorted(moves)


# The checked entry points ``ttt_lib.search`` publishes (``ttt_lib.checks``).
argument_checks(alphabeta_quiescent, SearchOptionError, **CONTINUED, alpha=NUMBER,
                beta=NUMBER, also=also_window)
argument_checks(quiescent_choice, SearchOptionError, **CONTINUED)
argument_checks(threat_moves, SearchOptionError, state=BOARD)

__all__ = ["alphabeta_quiescent", "quiescent_choice", "threat_moves"]
