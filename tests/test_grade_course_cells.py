"""Two things a grading box meets in the course's own notebooks: a cell that needs processes
(a class tournament) cannot run there and must not stop the run, and a capstone function asked
through the channel spends its CPU time in its box, so its checker reads the box's clock from
outside it."""
import time

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from ttt_lib.teach import kernel
from ttt_lib.teach.nb12_stages import cpu_timed_call, timed_call


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


class Asked:
    """What a checker holds of a boxed function (``asking.Remote``): asked through drivers,
    its time read from the box's clock outside it (here a counter; None: no clock)."""

    remote = True

    def __init__(self, clock: bool) -> None:
        self.clock, self.used, self.drives = clock, 0.0, []

    def cpu_seconds(self):
        return self.used if self.clock else None

    def drive(self, name, *args):
        self.drives.append((name, args))
        if name == "within":
            self.used += 0.25  # the box's CPU time, as read from outside it
            time.sleep(0.2)
            return 3
        return None


def test_a_remote_function_is_timed_by_the_boxs_clock_read_from_outside():
    asked = Asked(clock=True)
    value, used, error = cpu_timed_call(asked, ("state", 0.1), 5.0)
    assert (value, error) == (3, None) and used == 0.25  # not the 0.2 s of wall clock
    assert asked.drives == [("ready", ()), ("within", (5.0, "state", 0.1))]
    value, used, error = cpu_timed_call(Asked(clock=False), ("state", 0.1), 5.0)
    assert (value, error) == (3, None) and used >= 0.2  # no clock: the wall clock

    def local(seconds):
        time.sleep(seconds)
        return 3
    assert timed_call(local, (0.2,), 5.0)[1] < 0.1  # CPU time of this process
