"""One game between two agents: the game loop (``turns``), its record, how an agent is named
by a specification, and the seeds derived for every game and player.

There is one game loop, ``turns``: ``play_game``, the tournaments (``arena.py``),
``python -m ttt_lib selfplay`` and the play widget (through ``play_turn``) all move with it,
so a seed plays the same game everywhere.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, Union

from .agents import Agent, AgentError, agent_options, make_agent
from .boards.bit import BitBoard
from .checks import (STATE, check_start as _check_start, check_whole, instance, plain, publish,
                     short)
from .errors import ArenaError, IllegalMoveError
from .game import MAX, Game, player_name

AgentSpec = Union[str, tuple[str, dict]]
MAX_PART_BITS = 4096  # a seed part's digits are hashed: an int far past any seed is a mistake


def _check_count(value, name: str, least: float, most: float) -> None:
    """A count (or a seed) is an int in least..most, else ``ArenaError``."""
    check_whole(value, name, least, most, ArenaError)


# ------------------------------------------------------------------------------- one game

class Turn(NamedTuple):
    """One move of a game: the position before it, who moved, the agent, its move, and the
    position after it. ``agent.stats`` is the work of this move's search."""

    before: Game
    mover: int
    agent: Agent
    move: object
    after: Game


@dataclass
class GameRecord:
    """One finished game: who played, the moves in order, and the result for X."""

    x: str
    o: str
    moves: list
    result: int
    final: Game = field(repr=False)

    @property
    def winner(self) -> str | None:
        """'X', 'O', or None for a draw."""
        return player_name(self.result) if self.result else None


def play_turn(state: Game, agent: Agent) -> tuple[object, Game]:
    """``agent``'s move in ``state`` and the position it leads to; an illegal choice raises
    ``IllegalMoveError`` naming the agent."""
    move = agent.choose(state)
    try:
        return move, state.play(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"{short(agent)} chose an illegal move: {error}") from None


def seat(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec,
         seed: int | None = None) -> tuple[Agent, Agent]:
    """The two players of a game seeded by ``seed`` (0 if None).

    ``Agent`` objects play as they are; names and ``(name, options)`` pairs are built with
    the seeds ``derive_seed(seed, "X")`` and ``derive_seed(seed, "O")``.
    """
    seed = 0 if seed is None else seed
    _check_count(seed, "seed", -math.inf, math.inf)
    return _as_agent(x_agent, seed, "X"), _as_agent(o_agent, seed, "O")


def turns(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec, seed: int | None = None,
          first: str = "X", start: Game | None = None) -> Iterator[Turn]:
    """The turns of one game from ``start`` (by default the empty board, ``first`` to open),
    one at a time, as they are played: the game loop of ``play_game``, the tournaments and
    ``python -m ttt_lib selfplay``. The agents are built (a bad name refused) at the call,
    before the first move."""
    x_player, o_player = seat(x_agent, o_agent, seed)
    state = BitBoard(first=first) if start is None else _check_start(start)
    return _turns({MAX: x_player, -MAX: o_player}, state)


def _turns(players: dict[int, Agent], state: Game) -> Iterator[Turn]:
    """The game loop: the player to move chooses and plays, until the game is over."""
    while not state.is_terminal():
        agent = players[state.to_move]
        move, after = _play_turn(state, agent)
        yield Turn(state, state.to_move, agent, move, after)
        state = after


def play_game(x_agent: Agent | AgentSpec, o_agent: Agent | AgentSpec, seed: int | None = None,
              first: str = "X", start: Game | None = None) -> GameRecord:
    """Play one game from ``start`` (by default the empty board, ``first`` to open).

    Agents are ``Agent`` objects, used as they are, or names / ``(name, options)`` pairs,
    built here with seeds derived from ``seed`` (0 if None).
    """
    state = BitBoard(first=first) if start is None else _check_start(start)
    moves = []
    for turn in turns(x_agent, o_agent, seed, start=state):
        moves.append(turn.move)
        state = turn.after
    return GameRecord(_label(x_agent), _label(o_agent), moves, _sign(state.utility()), state)


def _as_agent(agent: Agent | AgentSpec, game_seed: int, side: str) -> Agent:
    """An ``Agent`` as it is; a spec built with the seed derived for its side ("X" or "O")."""
    if isinstance(agent, Agent):
        return agent
    name, options = normalize_spec(agent)
    return make_agent(name, seed=derive_seed(game_seed, side), **options)


def _label(agent: Agent | AgentSpec) -> str:
    return agent.name if isinstance(agent, Agent) else spec_label(agent)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


# ----------------------------------------------------------------------- agent specifications

def normalize_spec(spec: AgentSpec) -> tuple[str, dict]:
    """``"mcts"`` or ``("mcts", {"playouts": 200})`` -> (name, options), checked.

    The arena seeds every game's agents itself, so ``seed`` and ``rng`` are not options here.
    """
    if isinstance(spec, str):
        name, options = spec, {}
    elif (isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str)
          and isinstance(spec[1], dict)):
        name, options = spec[0], dict(spec[1])
        if not all(isinstance(key, str) for key in options):
            raise AgentError(f"an agent's options are named by strings, not {short(spec[1])}")
    else:
        raise AgentError(f"an agent is a name or a (name, options) pair, not {short(spec)}")
    for fixed in ("seed", "rng"):
        if fixed in options:
            raise AgentError(f"agent {short(name)}: the arena seeds each game's agents itself, "
                             f"so {short(fixed)} cannot be one of its options")
    agent_options(name)  # an unknown name raises here, listing the valid ones
    return name, options


def spec_label(spec: AgentSpec) -> str:
    """How a spec is named in tables: ``mcts`` or ``mcts(playouts=200)``."""
    name, options = normalize_spec(spec)
    if not options:
        return name
    return f"{name}({', '.join(f'{k}={short(v)}' for k, v in sorted(options.items()))})"


def derive_seed(*parts) -> int:
    """A 64-bit seed determined by ``parts`` alone (not by the process or hash seed)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def also_parts(arguments: dict, where: str, error: type) -> None:
    """``derive_seed``'s parts are ints (of at most ``MAX_PART_BITS`` bits) and strings."""
    for part in arguments["parts"]:
        if isinstance(part, bool) or not isinstance(part, (int, str)):
            raise TypeError(f"{where}: the parts are ints and strings, not {type(part).__name__}")
        if isinstance(part, int) and part.bit_length() > MAX_PART_BITS:
            raise error(f"{where}: an int part has at most {MAX_PART_BITS:,} bits (its digits "
                        f"are hashed), not {short(part)}")


# The checked entry points: these functions behind checks of their arguments (``ttt_lib.checks``).
publish(globals(), ArenaError, {
    "play_turn": dict(state=STATE, agent=instance(Agent, "an Agent (see make_agent)")),
    "derive_seed": dict(also=also_parts),
})

# Inside a game whose agents and start were checked when it began, the check of play_turn is
# skipped: it ran once already.
_play_turn = plain(play_turn)
