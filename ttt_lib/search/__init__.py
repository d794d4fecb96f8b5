"""Search algorithms, each written once over the game protocol of ``ttt_lib.game``.

Every search returns a value from X's point of view (``negamax``, ``negamax_memo`` and the
recursive cores ``AlphaBeta.search`` and ``pvs_search``, which score for the player to move,
say so). A search is the algorithm alone: ``trace_calls`` and ``count_nodes`` (``observe.py``)
watch any search function from outside, the library's or a student's, and give a ``Trace`` or
``Stats``; the public entry points also take ``stats=`` and ``trace=``.

A new search is one new file here: its module declares how each public function's arguments
are checked (``argument_checks(fn, error, state=GAME, ...)`` from ``ttt_lib.checks``), and
this package walks its modules and publishes each declared function as a checked entry point
(``ttt_lib.search.minimax("X........")`` is refused with a TypeError before the search
starts, once, while the recursion inside calls the plain ``search.exact.minimax``, which
checks nothing; ``show_source``, ``count_nodes`` and ``trace_calls`` see the plain
algorithm). The module's ``REPORT_ROWS`` (``report.py``) put it in the node-count report.

This layer knows only the game protocol: the boards, pictures, agents and the course's
experiments (``ttt_lib.studies``) sit above it.
"""
from ..checks import FUNCTION, GAME, NUMBER, STATE, instance, publish, publish_declared
from ..checks import check_init as _check_init
from ..errors import SearchOptionError
from .observe import count_nodes, trace_calls
from .trace import Stats, Trace, TraceEvent, compare_traces, node_name

__all__ = publish_declared(globals())

# observe.py and trace.py watch the searches from outside and declare no checks of their own
# yet: their entry points are checked here.
_check_init(Trace, SearchOptionError, infinity=NUMBER)
_TRACE = instance(Trace, "a Trace")
publish(globals(), SearchOptionError, {
    "count_nodes": dict(fn=FUNCTION, state=GAME), "trace_calls": dict(fn=FUNCTION, state=GAME),
    "node_name": dict(state=STATE), "compare_traces": dict(mine=_TRACE, reference=_TRACE),
})
__all__ = sorted({*__all__, "SearchOptionError", "Stats", "Trace", "TraceEvent", "compare_traces",
                  "count_nodes", "node_name", "trace_calls"})
