"""Inside a grading box: a notebook's cells run in a fresh kernel, then that kernel answers
the grader.

``python -m ttt_lib.teach.kernel --channel FD --timeout SECONDS FILE`` is what ``grade.py``
starts in a notebook's box, with one end of a socket pair as FD (its only channel: the
standard streams go to /dev/null, and the kernel inherits those). It runs the copy FILE with
nbclient (its stored outputs cleared first), within the time limit (a timed-out cell is
interrupted), says on the channel how the run went (``{"ran": {"problem": ...,
"printed": [...]}}``: the problem that stopped it, and the verdict lines its cells printed),
then hands the channel itself to the kernel (a file descriptor passed over a Unix socket in
the box's home), where ``answering.serve`` answers the grader's questions with the
student's functions. No verdict is made here, and no seed is known here: what the box says
is data to the grader, whoever in the box wrote it. nbclient is imported only here.
"""
from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["printed_lines", "serve_notebook"]

VERDICT_LINE = ("Right:", "Not yet:")


def printed_lines(cell) -> list[str]:
    """The lines a cell printed on stdout."""
    text = "".join(out.get("text", "") for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream" and out.get("name") == "stdout")
    return text.splitlines()


def _client(nb, folder: Path, timeout: float):
    from nbclient import NotebookClient

    deadline = time.monotonic() + timeout
    return NotebookClient(nb, kernel_name="python3", record_timing=False,
                          shutdown_kernel="immediate",
                          timeout_func=lambda cell: max(1, int(deadline - time.monotonic())),
                          resources={"metadata": {"path": str(folder)}})


def serve_notebook(path: Path, timeout: float, channel: socket.socket,
                   keep_going: bool = False) -> None:
    """Run the notebook at ``path`` (its outputs cleared), say on ``channel`` how it went,
    then hand ``channel`` to its kernel, which answers there until the grader ends the box.
    ``keep_going``: the cells after one that raised run too (``_cells_past_errors``)."""
    import nbformat
    try:
        nb = nbformat.read(str(path), as_version=4)
    except Exception as error:  # bad JSON, not a notebook's structure, unreadable
        return _say(channel, f"not a notebook: {type(error).__name__}", [])
    for cell in nb.cells:
        if cell.cell_type == "code":  # nothing from the student's own run may count
            cell.outputs, cell.execution_count = [], None
    client = _client(nb, path.parent, timeout)
    try:
        with client.setup_kernel(stderr=subprocess.DEVNULL):  # the kernel's own log
            problem = (_cells_past_errors if keep_going else _cells)(client, nb, timeout)
            printed = [line for cell in nb.cells if cell.cell_type == "code"
                       for line in printed_lines(cell) if line.startswith(VERDICT_LINE)]
            _say(channel, problem, printed)
            if problem.startswith("could not run"):  # a dead kernel answers nothing
                return
            if problem.startswith("stopped after"):
                _interrupt(client)
            _hand_over(client, channel, path.parent)
            while True:  # the grader reads the kernel's answers, then ends this box
                time.sleep(60)
    except Exception as error:  # the kernel would not start or stop
        _say(channel, f"could not run: {type(error).__name__}: {_first_line(str(error))}", [])


def _say(channel: socket.socket, problem: str, printed: list[str]) -> None:
    import json
    try:
        printed = [line[:300] for line in printed[:1000]]  # what a flag needs, no more
        channel.sendall(json.dumps({"ran": {"problem": problem, "printed": printed}})
                        .encode() + b"\n")
    except OSError:
        pass


def _hand_over(client, channel: socket.socket, home: Path, tries: int = 10) -> None:
    """Start ``answering.serve`` in the kernel and pass it the channel over a Unix socket;
    the request is sent again (a moment later) while the kernel drops requests, as it does
    for a while after an interrupted cell. A kernel that never takes it has no answers."""
    path = home / f".ttt-answers-{os.urandom(8).hex()}"
    with socket.socket(socket.AF_UNIX) as handoff:
        handoff.bind(str(path))
        handoff.listen(1)
        for attempt in range(tries):
            client.kc.execute(f"import ttt_lib.teach.answering as _ttt_answering\n"
                              f"_ttt_answering.serve({str(path)!r})", store_history=False)
            handoff.settimeout(1.0 * (attempt + 1))  # 55 s in all, on a loaded machine
            try:
                connection, _ = handoff.accept()
            except socket.timeout:
                continue
            with connection:
                socket.send_fds(connection, [b"c"], [channel.fileno()])
            break
        else:
            channel.sendall(b'{"answers": {}, "said": [], "swapped": []}\n')
    channel.close()


def _interrupt(client) -> None:
    """Interrupt the kernel (Ctrl-C in its cell) and talk to it on new channels, so the
    judging can run after a timeout."""
    from nbclient.util import ensure_async, run_sync

    async def interrupt() -> None:
        await ensure_async(client.km.interrupt_kernel())
    run_sync(interrupt)()
    # the timed-out cell's reader of outputs may still be running: new channels, so that it
    # cannot take the outputs of the cells that follow
    client.kc.stop_channels()
    client.kc = None
    client.start_new_kernel_client()


# The tag of a course cell that runs a class tournament or Dask: a grading box cannot start
# the sandboxes and processes it needs, so its error does not stop the run (no exercise is in it)
NEEDS_PROCESSES = "needs-processes"


def _run_cell(client, cell, index: int) -> None:
    """One cell; an error of a ``NEEDS_PROCESSES`` cell is left in its output, not raised."""
    from nbclient.exceptions import CellExecutionError
    try:
        client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
    except CellExecutionError:
        if NEEDS_PROCESSES not in cell.get("metadata", {}).get("tags", []):
            raise


def _cells(client, nb, timeout: float) -> str:
    """Run the notebook's cells in order: '' if all ran, else the problem that stopped them."""
    client.reset_execution_trackers()
    try:
        for index, cell in enumerate(nb.cells):
            _run_cell(client, cell, index)
    except Exception as error:
        # On Ctrl-C nbclient shuts the kernel down itself and notes it in this attribute;
        # the run then fails with whatever that caused: stop grading instead
        if getattr(client, "_async_cleanup_kernel_future", None) is not None:
            raise KeyboardInterrupt from None
        return _problem(error, nb, timeout)
    return ""


def _cells_past_errors(client, nb, timeout: float) -> str:
    """Run every cell, as nbgrader does, past the cells that raise (each exercise judged
    apart from a stray error before it): '' if none raised, else the first error, saying the
    later cells ran; a time limit or a dead kernel still stops the run."""
    from nbclient.exceptions import CellExecutionError
    client.reset_execution_trackers()
    first = ""
    for index, cell in enumerate(nb.cells):
        try:
            _run_cell(client, cell, index)
        except CellExecutionError as error:
            first = first or _problem(error, nb, timeout) + "; the cells after it ran too"
        except Exception as error:
            if getattr(client, "_async_cleanup_kernel_future", None) is not None:
                raise KeyboardInterrupt from None
            return _problem(error, nb, timeout)
    return first


def _problem(error: Exception, nb, timeout: float) -> str:
    from nbclient.exceptions import CellExecutionError, CellTimeoutError
    if isinstance(error, CellTimeoutError):
        return f"stopped after the time limit ({timeout:g} s)"
    if isinstance(error, CellExecutionError):
        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        number = next((i for i, cell in enumerate(code, 1) if _raised(cell)), "?")
        return f"code cell {number} raised {error.ename}: {_first_line(error.evalue)}"
    return f"could not run: {type(error).__name__}: {_first_line(str(error))}"  # a dead kernel


def _first_line(text: str, most: int = 200) -> str:
    line = (text or "").strip().split("\n", 1)[0]
    return line if len(line) <= most else line[:most - 3] + "..."


def _raised(cell) -> bool:
    return any(out.get("output_type") == "error" for out in cell.get("outputs", []))


def main(argv: list[str] | None = None) -> None:
    """The box's command: ``--channel FD --timeout SECONDS [--keep-going] FILE``."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m ttt_lib.teach.kernel")
    parser.add_argument("file")
    parser.add_argument("--channel", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--keep-going", action="store_true")
    arguments = parser.parse_args(argv)
    channel = socket.socket(fileno=arguments.channel)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.environ["HOME"] = os.environ["TMPDIR"] = os.getcwd()
    serve_notebook(Path(arguments.file).resolve(), arguments.timeout, channel,
                   arguments.keep_going)


if __name__ == "__main__":
    main()
