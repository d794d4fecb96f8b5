"""Learning to play, judged against the exact solution position by position.

- ``qtable``: tabular Q-learning by self-play (``QTable``);
- ``td``: TD(0) values of positions, the classic value table (``TDValues``);
- ``qnet``: Q-learning with a small numpy network and a replay buffer (``QNet``);
- ``zero``: PUCT search guided by a policy/value network trained from its own search (``Zero``).

``policy`` judges any player on the 4,520 non-terminal positions (``optimal_share``,
``learning_curve``, ``value_pairs``); ``odds`` gives a player's exact odds against random
and perfect play; ``store`` saves and loads (JSON); ``train`` trains by name (``trained``)
and runs ``python -m ttt_lib train``; ``agents`` has the four players. numpy is needed by
``qnet``, ``zero`` and ``net`` only, and imported only when they are: importing this package
loads no numpy.
"""
from .odds import exact_odds, odds_table
from .policy import (LearnError, learning_curve, mistakes, optimal_share, policy_table,
                     positions, value_pairs)
from .qtable import QTable
from .store import ModelFileError, learner_class, load, save
from .td import TDValues
from .train import DEFAULT_GAMES, train_command, trained

__all__ = ["DEFAULT_GAMES", "LearnError", "ModelFileError", "QTable", "TDValues",
           "exact_odds", "learner_class", "learning_curve", "load", "mistakes", "odds_table",
           "optimal_share", "policy_table", "positions", "save", "train_command", "trained",
           "value_pairs"]
