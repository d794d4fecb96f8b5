"""The argument checks of ``ttt_lib.arena`` (its error, its counts, its entry points), kept
in a module of their own so that the arena stays the plain code the notebooks list.

``publish_arena(namespace)`` replaces ``play_turn``, ``play_chunk``, ``random_play_odds``,
``random_play_probabilities`` and ``derive_seed`` in the arena's namespace by their checked
entry points: the state is a game, the agent an ``Agent``, a table a dict, a task what the
tournaments make, a seed's parts ints and strings.
"""
from __future__ import annotations

from .agents import Agent
from .checks import STATE, TABLE, instance, optional, publish, short
from .game import Game

MAX_PART_BITS = 4096  # a seed part's digits are hashed: an int far past any seed is a mistake


class ArenaError(ValueError):
    """A bad value for a game or tournament: a count, a seed, an interval's numbers."""


ArenaError.__module__ = "ttt_lib.arena"  # where it is raised and caught


def check_start(start) -> Game:
    """A game's starting position is a board (or any ``Game``)."""
    if not isinstance(start, Game):
        raise TypeError(f"start is a board (a Game), not {type(start).__name__}")
    return start


def check_count(value, name: str, least: int, most: float) -> None:
    """A count is an int in least..most."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    if not least <= value <= most:
        raise ArenaError(f"{name} is a whole number at most {most:,} and >= {least}, "
                         f"not {short(value)}")


def publish_arena(namespace: dict) -> None:
    """Check the arena's public functions (``namespace`` is the arena module's globals)."""

    def also_task(arguments: dict, where: str, error: type) -> None:
        """A task of ``play_chunk``: (pair index, X spec, O spec, seed, opener, games)."""
        task = arguments["task"]
        if not isinstance(task, tuple) or len(task) != 6 or not isinstance(task[5], range):
            raise TypeError(f"{where}: task is a tuple (pair index, X agent, O agent, seed, "
                            f"opener, range of game numbers), not {short(task)}")
        check_count(len(task[5]), "games (in a task)", 0, namespace["MAX_GAMES"])

    publish(namespace, ArenaError, {
        "play_turn": dict(state=STATE, agent=instance(Agent, "an Agent (see make_agent)")),
        "play_chunk": dict(also=also_task),
        "random_play_odds": dict(state=STATE, table=TABLE),
        "random_play_probabilities": dict(state=optional(STATE)),
        "derive_seed": dict(also=also_parts),
    })


def also_parts(arguments: dict, where: str, error: type) -> None:
    """``derive_seed``'s parts are ints (of at most ``MAX_PART_BITS`` bits) and strings."""
    for part in arguments["parts"]:
        if isinstance(part, bool) or not isinstance(part, (int, str)):
            raise TypeError(f"{where}: the parts are ints and strings, not {type(part).__name__}")
        if isinstance(part, int) and part.bit_length() > MAX_PART_BITS:
            raise error(f"{where}: an int part has at most {MAX_PART_BITS:,} bits (its digits "
                        f"are hashed), not {short(part)}")
