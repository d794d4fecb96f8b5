"""The one home of argument checks: the kinds an argument can be (``kinds.py``), the checked
entry points declared next to each function (``entries.py``), and the checks of a search's
options that tie arguments together (``options.py``: a search's options, the arena's counts).

Every message names the argument and shows at most a short ``repr`` of what came (``short``),
so a list nested 5,000 deep or an int of a million digits cannot make the message itself fail.
"""
from ..safetext import short
from .entries import (argument_checks, bound_arguments, check_arguments, check_init, declared,
                      entry, plain, public_names, publish, publish_declared)
from .kinds import (BOARD, COUNT, DEPTH, FLAG, FUNCTION, GAME, GAME_METHODS, MAX_COUNT,
                    MAX_DEPTH, MAX_FLOAT, MOVES, NUMBER, ORDERING, PLAYER, RNG, SEED, STATE,
                    TABLE, WINDOWS, also_legal_moves, also_window, choice, count, either,
                    game, instance, is_game, is_int, is_real, maybe, optional,
                    type_name)
from .options import (check_budget, check_choice, check_count, check_deepening, check_depth,
                      check_depth_limit, check_start, check_table, check_whole, check_window)
