"""The class tournament: students' agents from a folder, each contained in a bubblewrap box of
its own (``jail``; see README, "What is contained"), play a seeded round robin with the built-in agents; a leaderboard with intervals
and Bradley-Terry ratings, and the pairwise table for ``viz.tournament_heatmap``.

- ``loading``: ``load_folder`` finds the agents (``.py`` files, notebooks' ``agent`` cells);
- ``jail``: the bubblewrap command with its ``BoxLimits``, and ``IsolationError`` where none
  can run; ``cgroups``: each box's control group (memory, processes, one CPU, frozen off move);
- ``sandbox``: the program each student's agent runs in (``python -m
  ttt_lib.classroom.sandbox``); ``box``: the student's box that holds it; ``channel``: what a
  box says, decoded with bounds; ``entrant``: ``Entrant``, ``Limits``, ``Forfeit``;
  ``worker``: a game's sandbox and its move clock, ``StudentAgent``;
- ``text``: names and reasons made safe to print and to put in a spreadsheet;
- ``runner``: ``class_tournament`` (seeds from a per-run secret) and ``open_executor``
  (serial, processes, Dask);
- ``swiss``: ``swiss_tournament``, Swiss rounds for a large class, ranked by ratings with
  intervals (``viz.rating_leaderboard`` draws them);
- ``leaderboard``: scores, intervals, ratings; ``command``: ``python -m ttt_lib tournament
  --agents-from FOLDER``.
"""
from pathlib import Path

from .jail import IsolationError
from .leaderboard import Leaderboard, bradley_terry, score_interval
from .loading import Roster, load_folder
from .runner import ClassResult, class_tournament, dask_client, open_executor
from .swiss import Ratings, SwissResult, rate, swiss_games, swiss_tournament
from .worker import ClassroomError, Entrant, Forfeit, Limits, StudentAgent

# A class of example agents that ships with the package (good, weak, broken, slow, one in a
# notebook, one that does not compile): data for load_folder, not modules of the package.
EXAMPLE_AGENTS = Path(__file__).parent / "class_agents"
# and a few for Connect Four (tournament --game connect4): a sound one, a weak one, a careless one
EXAMPLE_CONNECT4_AGENTS = EXAMPLE_AGENTS / "connect4"

__all__ = ["EXAMPLE_AGENTS", "EXAMPLE_CONNECT4_AGENTS", "ClassResult", "ClassroomError", "Entrant", "Forfeit",
           "IsolationError", "Leaderboard", "Limits", "Ratings", "Roster", "StudentAgent",
           "SwissResult", "rate", "swiss_games", "swiss_tournament",
           "bradley_terry", "class_tournament", "dask_client", "load_folder", "open_executor",
           "score_interval"]
