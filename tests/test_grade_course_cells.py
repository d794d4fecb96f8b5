"""Two things a grading box meets in the course's own notebooks: a cell that needs processes
(a class tournament) cannot run there and must not stop the run, and a capstone function asked
through the channel spends its CPU time in its box, so its checker reads the wall clock."""
import time

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from ttt_lib.teach import kernel
from ttt_lib.teach.nb12_stages import timed_call


class FailingClient:
    code_cells_executed = 0

    def execute_cell(self, cell, index, execution_count):
        raise CellExecutionError("IsolationError", "IsolationError", "no sandbox in a box")


def cell(tags):
    made = nbformat.v4.new_code_cell("class_tournament(...)")
    made.metadata["tags"] = tags
    return made


def test_a_needs_processes_cell_does_not_stop_the_run():
    kernel._run_cell(FailingClient(), cell(["needs-processes"]), 0)  # no error


def test_any_other_cell_still_stops_it():
    with pytest.raises(CellExecutionError):
        kernel._run_cell(FailingClient(), cell([]), 0)


def test_a_remote_function_is_timed_by_the_wall_clock():
    def asked(seconds):  # sleeps: no CPU time here, as a box's function spends none here
        time.sleep(seconds)
        return 3
    asked.remote = True
    value, used, error = timed_call(asked, (0.2,), 5.0)
    assert (value, error) == (3, None) and used >= 0.2

    def local(seconds):
        time.sleep(seconds)
        return 3
    assert timed_call(local, (0.2,), 5.0)[1] < 0.1  # CPU time of this process
