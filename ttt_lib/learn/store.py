"""Saving a learner to a JSON file and loading it back, refusing a file that is not one.

The file holds the kind, the options that rebuild the learner, how many games it trained,
and its model: the Q-table or value table (keys are ``key_of(mine, theirs)``), or a
network's weights. Plain JSON, never pickle: loading a file cannot run code, and a damaged
one is refused with a ``ModelFileError`` saying what is wrong. A loaded learner plays and
is judged exactly as the saved one; a network's replay buffer and Adam moments are not saved,
so training it further is not the same as never having stopped.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from .policy import LearnError

FORMAT = "ttt_lib learned player"
VERSION = 1
KINDS = ("qtable", "td", "qnet", "zero")


class ModelFileError(LearnError):
    """A saved model that cannot be read: not JSON, another format, or damaged values."""


def learner_class(kind: str):
    """The class that learns ``kind`` (imported on demand: the networks need numpy)."""
    if not isinstance(kind, str):
        raise TypeError(f"a learner's kind is a string, not {type(kind).__name__}")
    if kind == "qtable":
        from .qtable import QTable
        return QTable
    if kind == "td":
        from .td import TDValues
        return TDValues
    if kind == "qnet":
        from .qnet import QNet
        return QNet
    if kind == "zero":
        from .zero import Zero
        return Zero
    raise LearnError(f"unknown learner {kind!r}; choose one of: {', '.join(KINDS)}")


def model_of(learner) -> object:
    """The learned part of a learner as plain JSON data."""
    if learner.kind == "qtable":
        return {str(k): [None if v == -math.inf else v for v in row]
                for k, row in learner.q.items()}
    if learner.kind == "td":
        return {str(k): v for k, v in learner.v.items()}
    network = learner.net if learner.kind == "qnet" else learner.net.net
    return network.as_dict()


def save(learner, path: str | Path) -> None:
    """Write ``learner`` (kind, options, games trained, model) to ``path`` as JSON."""
    data = {"format": FORMAT, "version": VERSION, "kind": learner.kind,
            "options": learner.options(), "games": learner.games, "model": model_of(learner)}
    Path(path).write_text(json.dumps(data))


def load(path: str | Path):
    """The learner saved in ``path``; a ``ModelFileError`` if the file is not a saved model."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError) as error:
        raise ModelFileError(f"cannot read the model file {str(path)!r}: {error}") from None
    except ValueError as error:
        raise ModelFileError(f"{str(path)!r} is not a saved model (not JSON: {error})") from None
    try:
        return _rebuild(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        reason = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise ModelFileError(f"{str(path)!r} is not a valid saved model: {reason}") from None


def _rebuild(data: dict):
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"its format is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r}, expected {VERSION}")
    learner = learner_class(data["kind"])(**data["options"])
    games = data["games"]
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games trained is {games!r}")
    learner.games = games
    _set_model(learner, data["model"])
    return learner


def _number(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"a value is {value!r}, not a finite number")
    return float(value)


def _table_key(text: str) -> int:
    key = int(text)
    if not 0 <= key < 1 << 18 or (key >> 9) & key & 0x1FF:
        raise ValueError(f"{text!r} is not a position's key")
    return key


def _set_model(learner, model) -> None:
    if learner.kind == "qtable":
        learner.q = {_table_key(k): _q_row(row) for k, row in model.items()}
    elif learner.kind == "td":
        learner.v = {_table_key(k): _number(v) for k, v in model.items()}
    else:
        from .net import Network
        holder = learner if learner.kind == "qnet" else learner.net
        if model["sizes"] != holder.net.sizes:  # checked before any array is built
            raise ValueError(f"the weights' layer sizes {model['sizes']!r} do not match "
                             f"the options' {holder.net.sizes}")
        holder.net = Network.from_dict(model)
        holder.net.rate = learner.rate
        if learner.kind == "qnet":
            learner.target = learner.net.copy()


def _q_row(row) -> list[float]:
    if not isinstance(row, list) or len(row) != 9:
        raise ValueError(f"a Q-table row is {row!r}, not 9 values")
    return [-math.inf if v is None else _number(v) for v in row]
