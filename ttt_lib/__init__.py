"""ttt_lib: game-tree search taught through tic-tac-toe.

The core (boards, protocol, symmetry, counting, search) needs only the standard library;
drawing and widgets live in ``ttt_lib.viz`` and ``ttt_lib.widgets`` and are imported on demand.
The names below are loaded when first used, so ``python -m ttt_lib solve`` pays only for what
it needs.
"""
import sys
from importlib import import_module

# public name -> the module that defines it
EXPORTS = {"BitBoard": "boards", "ConnectFour": "boards", "ListBoard": "boards",
           "MNKBoard": "boards",
           "IllegalMoveError": "errors", "InvalidBoardError": "errors",
           "MAX": "game", "MIN": "game", "Game": "game", "TreeNode": "game"}

__all__ = sorted(EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    if name not in EXPORTS:
        raise AttributeError(f"module 'ttt_lib' has no attribute {name!r}")
    value = getattr(import_module(f".{EXPORTS[name]}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(EXPORTS))


def _say_why(shell, etype, value, tb, tb_offset=None) -> None:
    """IPython's handler of ``ProcessesUnavailable``: its one-line message, printed."""
    print(value)


def explain_missing_processes() -> None:
    """In a browser's notebook (Pyodide, JupyterLite), work that needs processes prints why it
    cannot run here ("not in a browser: ...") instead of raising: the cell ends without an
    error, so "run all" carries on with the cells after it."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        from .errors import ProcessesUnavailable
        shell.set_custom_exc((ProcessesUnavailable,), _say_why)


if sys.platform == "emscripten":
    explain_missing_processes()
