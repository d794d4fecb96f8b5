"""Running a notebook for the grader (``grade.py``): its cells in a fresh kernel, then, in the
same kernel, its answers judged again.

The genuine checkers note the last answer each was given (``core.ANSWERS``) and the lines they
printed (``core.SAID``). After the notebook's cells (or its time limit: the kernel is then
interrupted), one cell of ours (``REJUDGE``) judges those answers again with checkers reloaded
from the package's files, and prints the result after a random token. nbclient is imported
only here, and only when grading.
"""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

__all__ = ["REJUDGE", "printed_lines", "run"]


def printed_lines(cell) -> list[str]:
    """The lines a cell printed on stdout."""
    text = "".join(out.get("text", "") for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream" and out.get("name") == "stdout")
    return text.splitlines()


# Run in the notebook's kernel after its cells: the last answer each genuine checker was
# given, judged again by checkers reloaded from the package's files, on cases drawn from
# seeds moved by the grader's offset (``core.fresh_cases``: cases the notebook never showed);
# the result is one line after a token the notebook cannot know.
REJUDGE = """\
def _ttt_rejudge(token, exercises, offset):
    import contextlib, importlib, io, json, re, sys
    teach, core = sys.modules.get("ttt_lib.teach"), sys.modules.get("ttt_lib.teach.core")
    answers = dict(getattr(core, "ANSWERS", {}))
    said = [line for line in getattr(core, "SAID", []) if isinstance(line, str)]
    space = get_ipython().user_ns
    swapped = [name for name in exercises
               if name in space and space[name] is not getattr(teach, name, None)]
    lines = {}
    if answers:
        home = r"ttt_lib\\.teach\\.nb{}(_\\w+)?"  # nbNN.py, and nbNN_part.py beside it
        notebooks = sorted(name for name in sys.modules
                           if re.fullmatch(home.format(r"\\d\\d"), name))
        # the checkers' modules last, each after the helpers it imports (tables, ...)
        helpers = sorted(name for name in sys.modules
                         if re.fullmatch(r"ttt_lib\\.teach\\.\\w+", name)
                         and name not in notebooks and name.rsplit(".", 1)[1] not in
                         ("core", "judge", "kernel", "grade", "gradebook", "export",
                                                     "export_gradescope"))
        names = ["ttt_lib.teach.core", "ttt_lib.teach.judge", *helpers, *notebooks]
        fresh = {name: importlib.reload(sys.modules[name]) for name in names}
        fresh["ttt_lib.teach.core"].fresh_cases(offset)
        for name, answer in answers.items():
            homes = [module for key, module in fresh.items() if isinstance(name, str)
                     and re.fullmatch(home.format(re.escape(name[6:8])), key)]
            module = next((found for found in homes if hasattr(found, name)), None)
            checker = getattr(module, name, None) if re.fullmatch(r"check_\\d\\d_\\w+", name or "") else None
            if checker is None:
                continue
            with contextlib.redirect_stdout(io.StringIO()):
                try:
                    lines[name] = fresh["ttt_lib.teach.core"].lenient(checker)(answer).line
                except BaseException as error:
                    lines[name] = "Not yet: judging it again failed (" + type(error).__name__ + ")"
    print(token + json.dumps({"lines": lines, "said": said, "swapped": swapped}))


_ttt_rejudge(%r, %r, %r)
del _ttt_rejudge
"""


def _client(nb, folder: Path, timeout: float):
    from nbclient import NotebookClient

    deadline = time.monotonic() + timeout
    return NotebookClient(nb, kernel_name="python3", record_timing=False,
                          shutdown_kernel="immediate",
                          timeout_func=lambda cell: max(1, int(deadline - time.monotonic())),
                          resources={"metadata": {"path": str(folder)}})


def run(nb, folder: Path, timeout: float, exercises: list[str],
        case_seed: int = 0) -> tuple[str, dict]:
    """Execute ``nb`` in place in a fresh kernel, then judge its answers again there, on
    cases drawn with ``case_seed``: ('' if it ran to the end, else the problem; what the
    judging found, {} if it could not run)."""
    client = _client(nb, folder, timeout)
    try:
        with client.setup_kernel(stderr=subprocess.DEVNULL):  # the kernel's own log
            problem = _cells(client, nb, timeout)
            if problem.startswith("could not run"):  # a dead kernel judges nothing
                return problem, {}
            if problem.startswith("stopped after"):
                _interrupt(client)
            judging = time.monotonic() + timeout  # the judging gets the same time again
            client.timeout_func = lambda cell: max(1, int(judging - time.monotonic()))
            return problem, _judged_again(client, nb, exercises, case_seed)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # the kernel would not start or stop
        return f"could not run: {type(error).__name__}: {_first_line(str(error))}", {}


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


def _cells(client, nb, timeout: float) -> str:
    """Run the notebook's cells in order: '' if all ran, else the problem that stopped them."""
    client.reset_execution_trackers()
    try:
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
    except Exception as error:
        # On Ctrl-C nbclient shuts the kernel down itself and notes it in this attribute;
        # the run then fails with whatever that caused: stop grading instead
        if getattr(client, "_async_cleanup_kernel_future", None) is not None:
            raise KeyboardInterrupt from None
        return _problem(error, nb, timeout)
    return ""


def _judged_again(client, nb, exercises: list[str], case_seed: int) -> dict:
    """Run ``REJUDGE`` as a cell of its own after the notebook's, and read its line."""
    token = f"ttt-judged-{os.urandom(16).hex()}:"
    try:
        _extra_cell(client, nb, "print('ready')")  # after an interrupt: once it answers
        cell = _extra_cell(client, nb, REJUDGE % (token, exercises, int(case_seed)))
    except Exception:  # the judging could not finish: its time, or a dead kernel
        return {}
    line = next((line for line in printed_lines(cell) if line.startswith(token)), "")
    try:
        found = json.loads(line[len(token):])
    except (ValueError, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}


def _extra_cell(client, nb, source: str, tries: int = 8):
    """Run a cell of ours after the notebook's; sent again (a moment later) while the kernel
    drops requests, as it does for a while after an interrupted cell."""
    from nbformat.v4 import new_code_cell

    for attempt in range(tries):
        nb.cells.append(new_code_cell(source))
        try:
            client.execute_cell(nb.cells[-1], len(nb.cells) - 1, store_history=False)
        finally:
            cell = nb.cells.pop()
        if cell.outputs:
            return cell
        time.sleep(0.25 * (attempt + 1))
    return cell


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
