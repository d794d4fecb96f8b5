"""Teaching helpers for the notebooks: the package's real code, and exercise checkers.

``show_source(obj)`` shows the code ``ttt_lib`` runs (see ``core``). Exercise checkers are named
``check_NN_what(answer)``, ``NN`` being the notebook's number, and live in ``nbNN.py``, one
module per notebook, gathered here so that ``from ttt_lib.teach import check_06_code`` works.
Each computes the expected answer with ``ttt_lib`` (never typed in) and prints one line:
``Right: ...``, or ``Not yet: ...`` with a hint that points the way without giving the answer
away. ``answer = None`` (the student cell as handed out) gets the first hint, so every notebook
runs from top to bottom before anyone has solved anything.

To add a notebook's exercises, write ``nbNN.py`` with an ``__all__`` (see ``nb06.py``) and its
right and wrong answers in ``tests/teach_cases/nbNN.py``. Each checker is exported through
``core.lenient``: numbers are judged by value (``8.0`` as ``8``, numpy's too), text without its
surrounding spaces, and the checker returns its ``core.Verdict`` as well as printing it. A
write-it checker (its answer is the student's function) is marked ``@write_it(allows=...)``:
while it runs, every search, agent, learning and solving entry point of the library (found by
walking the packages, ``reach``) except the helpers it allows is unavailable to the student's
code, and a call to one is ``Not yet: your function calls ttt_lib's minimax; write the search
yourself.``
"""
from __future__ import annotations

import importlib
import pkgutil

from .core import lenient, show_source, source_text

__all__ = ["show_source", "source_text"]


def _gather_notebook_modules() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if info.name.startswith("nb"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            for name in module.__all__:
                value = getattr(module, name)
                globals()[name] = lenient(value) if name.startswith("check_") else value
                __all__.append(name)


_gather_notebook_modules()
