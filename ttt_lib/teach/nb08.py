"""Exercises of notebook 08: agents, tournaments and playing the computer."""
from __future__ import annotations

import inspect
from fractions import Fraction
from functools import lru_cache

from .. import agents as _agents
from ..player import Agent
from ..search.ordering import completes_line, heuristic_order, threat_order
from .core import case_seed, is_int, unanswered, verdict, write_it
from .judge import SEARCHES

__all__ = ["RATE_08_X", "RATE_08_O", "RATE_08_GAMES", "RATE_08_SEED", "AGENT_08_GAMES",
           "LOSS_08_BOUND", "check_08_win_rate", "check_08_agent", "check_08_games_needed"]

# The pair whose cell exercise 2 reads, in the notebook's tournament (games per pair, seed).
RATE_08_X = "heuristic"
RATE_08_O = ("mcts", {"playouts": 100})
RATE_08_GAMES = 4
RATE_08_SEED = 0

AGENT_08_GAMES = 20  # games the agent of exercise 1 plays against random, on each side
LOSS_08_BOUND = 0.01  # exercise 3: the upper end of the loss rate's interval must fall below


# ------------------------------------------------------------------ 1. a rate off the table

def _hashable(spec):
    """A spec as a cache key: ``"mcts"`` stays, ``("mcts", {...})`` gets its options as a tuple."""
    return spec if isinstance(spec, str) else (spec[0], tuple(sorted(spec[1].items())))


def _spec(key):
    return key if isinstance(key, str) else (key[0], dict(key[1]))


@lru_cache(maxsize=None)
def _pair(x, o) -> tuple[int, int, int]:
    """(X wins, O wins, draws) of the seeded games of ``x`` (X) against ``o`` (O), exactly as
    the notebook's tournament plays them (a game's seed depends on the pair, not the table)."""
    from ..arena import SerialExecutor, play_pairs
    with SerialExecutor() as here:  # in this process, one game after another
        result, = play_pairs([(_spec(x), _spec(o))], RATE_08_GAMES, RATE_08_SEED,
                             executor=here).results
    return result.x_wins, result.o_wins, result.draws


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)


def check_08_win_rate(answer) -> None:
    """The share of the games (a number between 0 and 1) that heuristic, playing X, won
    against mcts(playouts=100), playing O, in the notebook's tournament heatmap."""
    from ..arena import spec_label, wilson_interval
    x_label, o_label = spec_label(RATE_08_X), spec_label(RATE_08_O)
    first_hint = (f"in the heatmap, find the cell in row {x_label} (X) and column "
                  f"{o_label} (O), and divide its W count by the games per pair.")
    if unanswered(answer, first_hint):
        return
    if not _is_number(answer):
        return verdict(False, "", "the answer is one number between 0 and 1.")
    x_wins, o_wins, draws = _pair(_hashable(RATE_08_X), _hashable(RATE_08_O))
    expected = Fraction(x_wins, RATE_08_GAMES)

    def same(rate) -> bool:
        return abs(answer - rate) < 0.005

    if same(expected):
        low, high = wilson_interval(x_wins, RATE_08_GAMES)
        return verdict(True, f"{x_label} won {x_wins} of its {RATE_08_GAMES} games as X "
                       f"against {o_label}, a share of {float(expected):.2f}; with so few "
                       f"games its 95% interval runs from {low:.0%} to {high:.0%}.", "")
    if is_int(answer) and answer == x_wins:
        hint = "that is a count of games; divide it by the games per pair to get a share."
    elif same(expected * 100):
        hint = "that is a percentage: give the share as a fraction of 1."
    elif not 0 <= answer <= 1:
        hint = "a share of the games lies between 0 and 1."
    elif same(Fraction(2 * x_wins + draws, 2 * RATE_08_GAMES)):
        hint = ("that is the cell's score, in which a draw counts half; the question asks for "
                "the share of games won: W alone, divided by the games per pair.")
    elif same(Fraction(o_wins, RATE_08_GAMES)) or same(Fraction(draws, RATE_08_GAMES)):
        hint = "that is another count of the cell: W (X's wins) is the first of the three."
    elif same(Fraction(_pair(_hashable(RATE_08_O), _hashable(RATE_08_X))[0], RATE_08_GAMES)):
        hint = (f"that cell has {o_label} as X; look in row {x_label} (X's agent) and "
                f"column {o_label} (O's agent).")
    else:
        hint = (f"the share is the W count of the cell in row {x_label} and column "
                f"{o_label}, divided by the {RATE_08_GAMES} games per pair.")
    verdict(False, "", hint)


# ------------------------------------------------------------- 2. a small agent of your own

class _Written(Agent):
    """A function ``choose(state)`` dressed as an agent, so a plain function can be judged."""

    def __init__(self, choose) -> None:
        super().__init__(seed=0)
        self.choose, self.name = choose, getattr(choose, "__name__", "your function")


def _build(answer):
    """(the agent, None) or (None, a hint saying what is wrong with it)."""
    if inspect.isclass(answer):
        if not callable(getattr(answer, "choose", None)):
            return None, "your class needs a method choose(self, state) that returns a move."
        try:
            agent = answer()
        except Exception as error:  # any failure of the student's constructor
            return None, (f"{answer.__name__}() failed ({type(error).__name__}: {error}); "
                          "give every argument a default, e.g. seed=0.")
        return agent, None
    if callable(getattr(answer, "choose", None)):
        return answer, None
    if callable(answer):  # a function (or the grader's stand-in for one)
        return _Written(answer), None
    return None, ("give your agent class itself (or one agent made from it): something "
                  "with a choose(state) method.")


def _by_value(agent) -> Agent:
    """``agent`` playing the legal move equal to the one it chose (numpy's ``np.int64(4)``
    is the move 4), so that the board takes it."""
    def choose(state):
        move = agent.choose(state)
        return next((legal for legal in state.moves() if legal == move), move)
    played = _Written(choose)
    played.name = getattr(agent, "name", "your agent")
    return played


def _winning_cells(state, player_to_move: bool) -> list[int]:
    """Cells where the player to move (or, with False, the other player) would complete a
    line at once."""
    from ..search.ordering import DIGIT_OF, completes_line
    side = state.to_move if player_to_move else -state.to_move
    cells, lines = state.cells(), state.lines()
    return [m for m in state.moves() if completes_line(cells, lines, m, DIGIT_OF[side])]


@lru_cache(maxsize=None)
def _positions_to_check() -> tuple:
    """Every reachable position where the mover can win at once or must block: the fewest
    marks first (so the first failure shown is the simplest), then by key."""
    from ..studies.counting import positions
    found = [state for state in positions().values()
             if not state.is_terminal()
             and (_winning_cells(state, True) or _winning_cells(state, False))]
    return tuple(sorted(found, key=lambda state: (9 - len(state.moves()), state.key())))


def _misplay(agent, state) -> str | None:
    """What the agent does wrong in ``state`` (expected against got, and a hint), or None.
    A NotImplementedError (the handout's stub) is passed on to the caller."""
    from .judge import call_limited, failure_of
    where = f"{state.to_text()} ({'X' if state.to_move == 1 else 'O'} to move)"
    try:
        move = call_limited(agent.choose, (state,))
    except NotImplementedError:
        raise
    except Exception as error:  # the student's code may raise anything
        return f"on {where} {failure_of(error)}"
    if move not in state.moves():
        return (f"on {where} your agent chose {move!r}, not a legal move; legal moves are "
                f"{state.moves()}.")
    wins, threats = _winning_cells(state, True), _winning_cells(state, False)
    if wins and move not in wins:
        blocked = " It blocked instead: look for your own win first." if move in threats \
            else " Look for a line of your own with two marks and a gap."
        return (f"on {where} the winning moves are {wins}, your agent played {move}."
                f"{blocked}")
    if not wins and threats and move not in threats:
        return (f"on {where} the opponent threatens to complete a line at {threats}, your "
                f"agent played {move}. With no win of your own, block: check the "
                f"opponent's lines too (its marks are the other digit in cells()).")
    return None


def _first_misplay(agent) -> tuple[int, str | None]:
    """How many positions were checked, and the first (simplest) misplay, or None."""
    checked = _positions_to_check()
    for state in checked:
        problem = _misplay(agent, state)
        if problem:
            return len(checked), problem
    return len(checked), None


def _record_against_random(agent) -> dict[str, list[int]]:
    """Wins, draws and losses of ``agent`` against random, as X and as O."""
    from ..arena import play_game
    record = {"X": [0, 0, 0], "O": [0, 0, 0]}
    agent = _by_value(agent)
    for seed in range(AGENT_08_GAMES):
        for side in ("X", "O"):
            game = (play_game(agent, "random", seed=case_seed(seed)) if side == "X"
                    else play_game("random", agent, seed=case_seed(seed)))
            outcome = 1 if game.winner is None else 0 if game.winner == side else 2
            record[side][outcome] += 1
    return record


# the library's own agents and move tests: the agent is the student's
AGENT_08_FORBIDS = (*SEARCHES, threat_order, heuristic_order, completes_line,
                    *((cls, "choose") for cls in (_agents.PerfectAgent, _agents.SearchAgent,
                                                  _agents.AlphaBetaAgent,
                                                  _agents.FlatMonteCarloAgent,
                                                  _agents.MCTSAgent, _agents.DeepeningAgent)))


@write_it(allows=(Agent,), forbids=AGENT_08_FORBIDS, task="the agent")
def check_08_agent(answer) -> None:
    """Judge a write-it agent: a class (or a function ``choose(state)``) that wins at once
    when it can, else blocks the opponent's immediate win, else plays any legal move. It is
    tried on every reachable position where a win or a block is at stake (the fewest marks
    first), against ttt_lib's own test of which cells complete a line, then plays random."""
    first_hint = ("write a class with a method choose(self, state) that returns a move "
                  "(subclass Agent to get self.rng and self.legal_moves), and give the "
                  "class as the answer.")
    if unanswered(answer, first_hint):
        return
    agent, problem = _build(answer)
    if problem:
        return verdict(False, "", problem)
    try:
        checked, problem = _first_misplay(agent)
    except NotImplementedError:
        return verdict(False, "", "write the function (it still raises NotImplementedError).")
    if problem:
        return verdict(False, "", problem)
    try:
        record = _record_against_random(agent)
    except Exception as error:  # an illegal move or a crash in a real game
        return verdict(False, "", f"in a game against random: {error}")
    (xw, xd, xl), (ow, od, ol) = record["X"], record["O"]
    verdict(True,
            f"it takes every win and blocks every threat in the {checked:,} positions "
            f"where one is on the board. Against random it won {xw}, drew {xd} and lost {xl} "
            f"of {AGENT_08_GAMES} games as X, and won {ow}, drew {od} and lost {ol} as O.",
            "")


# ------------------------------------------------------------ 3. how many games are enough

def _games_needed() -> int:
    """The fewest games without a loss after which the Wilson interval's upper end is
    below LOSS_08_BOUND."""
    from ..arena import wilson_interval
    games = 1
    while wilson_interval(0, games)[1] >= LOSS_08_BOUND:
        games += 1
    return games


def check_08_games_needed(answer) -> None:
    """The fewest games, all without a loss, after which the upper end of the 95% Wilson
    interval for the loss rate falls below 1%."""
    from ..arena import wilson_interval
    expected = _games_needed()
    first_hint = ("call arena.wilson_interval(0, games) for growing numbers of games and watch "
                  "its upper end.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer) or answer < 1:
        return verdict(False, "", "the answer is a number of games: a whole number >= 1.")
    rule_of_three = round(3 / LOSS_08_BOUND)
    if answer in (rule_of_three, rule_of_three + 1) and answer != expected:
        hint = ("that is the rule of three (3 / n), a good rough guide; the Wilson interval "
                "is a little wider when no losses are seen. Check with wilson_interval.")
    elif answer < expected:
        hint = "too few: after that many games the upper end is still 1% or more."
    elif answer > expected:
        hint = "that many games are enough, but fewer would do: look for the first n."
    else:
        hint = ""
    high = wilson_interval(0, expected)[1]
    verdict(answer == expected,
            f"after {expected} games without a loss the interval is [0%, {high:.3%}]; "
            f"one game fewer and its upper end is {wilson_interval(0, expected - 1)[1]:.3%}.",
            hint)
