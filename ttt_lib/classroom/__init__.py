"""The class tournament: students' agents from a folder, each contained in a sandbox process
of its own, play a seeded round robin with the built-in agents; a leaderboard with intervals
and Bradley-Terry ratings, and the pairwise table for ``viz.tournament_heatmap``.

- ``loading``: ``load_folder`` finds the agents (``.py`` files, notebooks' ``agent`` cells);
- ``sandbox``: the program each student's agent runs in (``python -m
  ttt_lib.classroom.sandbox``); ``worker``: its client, ``StudentAgent``, and ``Forfeit``;
- ``runner``: ``class_tournament`` and ``open_executor`` (serial, processes, Dask);
- ``leaderboard``: scores, intervals, ratings; ``command``: ``python -m ttt_lib tournament
  --agents-from FOLDER``.
"""
from .leaderboard import Leaderboard, bradley_terry, score_interval
from .loading import Roster, load_folder
from .runner import ClassResult, class_tournament, dask_client, open_executor
from .worker import ClassroomError, Entrant, Forfeit, Limits, StudentAgent

__all__ = ["ClassResult", "ClassroomError", "Entrant", "Forfeit", "Leaderboard", "Limits",
           "Roster", "StudentAgent", "bradley_terry", "class_tournament", "dask_client",
           "load_folder", "open_executor", "score_interval"]
