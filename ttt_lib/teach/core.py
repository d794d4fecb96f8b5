"""The machinery every notebook's exercises share: showing real code, and reporting answers.

``show_source(obj)`` shows the code of a function or class exactly as ``ttt_lib`` runs it, so a
notebook never carries a second copy that could drift from the package. Checkers report through
``verdict`` and ``unanswered``; IPython is imported inside ``show_source`` and only when a
notebook kernel is running.

Answers are judged leniently: numbers by value (``8.0`` counts as ``8``, but ``True`` and
``"8"`` are no numbers) and words without regard to case or surrounding spaces. ``plain``
normalizes an answer that way, and ``ttt_lib.teach`` applies it to every checker it exports
(``lenient``); ``same_words`` and ``word_in`` compare words. A checker whose answer is a
function the student writes is marked ``@write_it``.
"""
from __future__ import annotations

import functools
import inspect
import math
import numbers
import sys
import sysconfig
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["show_source", "source_text", "verdict", "unanswered", "is_int", "as_cells",
           "plain", "lenient", "same_words", "word_in", "write_it", "Verdict", "case_seed",
           "cases_cache", "fresh_cases"]


# ------------------------------------------------------------------------- showing the code

def source_text(obj) -> str:
    """The source of ``obj``, dedented, under a comment naming its file (relative to the
    package's parent directory, so the text is the same on every machine)."""
    source = textwrap.dedent(inspect.getsource(obj))
    return f"# {_where(obj)}\n{source}"


def _where(obj) -> str:
    # a checked entry point (ttt_lib.checks) is shown as the algorithm it wraps
    path = Path(inspect.getsourcefile(inspect.unwrap(obj))).resolve()
    package_parent = Path(__file__).resolve().parents[2]
    try:
        return path.relative_to(package_parent).as_posix()
    except ValueError:  # code from outside ttt_lib: name its module instead of a local path
        return inspect.getmodule(obj).__name__


def _markdown_block(text: str) -> str:
    fence = "```"
    while fence in text:  # a fence longer than any run of backticks in the code
        fence += "`"
    return f"{fence}python\n{text.rstrip()}\n{fence}"


def _in_notebook() -> bool:
    if "IPython" not in sys.modules:  # a plain interpreter never imported IPython
        return False
    from IPython import get_ipython
    return get_ipython() is not None


def show_source(obj) -> None:
    """Show the real code of ``obj`` (a function, class or method of ``ttt_lib``).

    In a notebook the code appears as a syntax-highlighted block (with plain text beside it
    for consoles and diffs); elsewhere it is printed.
    """
    text = source_text(obj)
    if _in_notebook():
        from IPython.display import display
        display({"text/markdown": _markdown_block(text), "text/plain": text}, raw=True)
    else:
        print(text, end="")


# ------------------------------------------------------------------------ reporting results

def verdict(correct: bool, right: str, hint: str) -> None:
    """Print ``Right: <right>`` or ``Not yet: <hint>``: the one line every checker ends with."""
    print(f"Right: {right}" if correct else f"Not yet: {hint}")


def unanswered(answer, hint: str) -> bool:
    """Report a missing answer (``None``, as handed out) with the exercise's first hint."""
    if answer is None:
        print(f"Not yet: replace None with your answer. Hint: {hint}")
        return True
    return False


def is_int(value) -> bool:
    """Whether ``value`` is an int (not a bool). Checkers exported by ``ttt_lib.teach`` see
    answers through ``plain``, so a student's ``8.0`` arrives here as ``8``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value) -> int | None:
    """``value`` as an int when it is a whole number by value (numpy's too), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if math.isfinite(number) and number.is_integer() else None


def as_cells(answer):
    """Cell numbers from a list, tuple, set or range of ints; None if it is something else."""
    if isinstance(answer, (list, tuple, set, frozenset, range)) and all(map(is_int, answer)):
        return list(answer)
    return None


# ----------------------------------------------------------------- lenient answers, write-its

def plain(answer):
    """``answer`` with its numbers by value: a whole float (``8.0``, numpy's ``int64(8)``)
    becomes the int ``8``, inside lists, tuples and sets too; text loses surrounding spaces.
    Anything else (bools, other floats, functions) comes back as it was."""
    whole = _whole(answer)
    if whole is not None and not isinstance(answer, int):
        return whole
    if isinstance(answer, str):
        return answer.strip()
    if type(answer) in (list, tuple, set, frozenset):
        return type(answer)(plain(item) for item in answer)
    return answer


def lenient(checker: Callable) -> Callable:
    """``checker`` judging ``plain(answer)`` (``check(8.0)`` is judged as ``check(8)``) through
    ``checked``: its forbidden functions unavailable, its ``Verdict`` printed and returned.
    With ``strict=True`` a wrong answer raises ``AssertionError`` carrying its line."""
    @functools.wraps(checker)
    def judged_plainly(answer, *, strict: bool = False) -> Verdict:
        said = checked(checker, plain(answer))
        return said.assert_right() if strict else said
    return judged_plainly


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def same_words(answer, expected: str) -> bool:
    """Whether ``answer`` is the text ``expected``, ignoring case and extra spaces."""
    return isinstance(answer, str) and _words(answer) == _words(expected)


def word_in(answer, choices: Iterable[str]) -> str | None:
    """The choice ``answer`` names (ignoring case and extra spaces), or None."""
    return next((choice for choice in choices if same_words(answer, choice)), None)


# ------------------------------------------------------------------- the cases a checker draws

# Added to every seed a checker draws random cases from: 0 in a notebook (the cases the
# course shows); the grader sets another in its kernel (``fresh_cases``), so a function
# fitted to the cases a student saw is caught.
CASE_SEED_OFFSET = 0


def case_seed(seed: int) -> int:
    """The seed a checker's random cases use: ``seed`` moved by ``CASE_SEED_OFFSET``."""
    return seed + CASE_SEED_OFFSET


def fresh_cases(offset: int) -> None:
    """Draw every checker's random cases from seeds moved by ``offset`` (0: the notebook's)."""
    global CASE_SEED_OFFSET
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"offset must be an int, not {type(offset).__name__}")
    CASE_SEED_OFFSET = offset


def cases_cache(function: Callable) -> Callable:
    """``function`` (a maker of a checker's cases) remembered per offset and arguments."""
    @functools.lru_cache(maxsize=None)
    def made(offset: int, *args):
        return function(*args)

    @functools.wraps(function)
    def cases(*args):
        return made(CASE_SEED_OFFSET, *args)
    return cases


def write_it(checker: Callable | None = None, *, forbids: Iterable = (),
             task: str = "the search") -> Callable:
    """Mark ``checker`` as judging a function the student writes (a write-it exercise):
    ``tests/test_teach.py`` then requires its ``WRITE_IT`` catalogue entry. ``forbids`` lists
    the library's functions (or ``(class, "method")`` pairs) that solve the exercise: while
    the checker runs they are unavailable to the student's code (see ``forbidden``), and a
    call ends the check: ``Not yet: your function calls ttt_lib's minimax; write the search
    yourself`` (``task`` names what to write)."""
    def mark(function: Callable) -> Callable:
        function.write_it, function.forbids, function.task = True, tuple(forbids), task
        return function
    return mark if checker is None else mark(checker)


# ------------------------------------------------------- the verdict, and who may give it

@dataclass(frozen=True)
class Verdict:
    """What a checker decided: ``right`` and the line it printed (``Right: ...`` or
    ``Not yet: ...``). Every checker exported by ``ttt_lib.teach`` returns one."""

    right: bool
    line: str

    @property
    def status(self) -> str:
        return "Right" if self.right else "Not yet"

    def assert_right(self) -> "Verdict":
        """Raise ``AssertionError`` with the line (its hint) unless the answer was right, so
        a grader's test cell (nbgrader, otter, pytest) can use a checker; else return self."""
        if not self.right:
            raise AssertionError(self.line)
        return self

    def _ipython_display_(self) -> None:
        """Nothing more to show in a notebook: the checker has printed its line."""


NO_VERDICT = Verdict(False, "Not yet: the checker gave no verdict.")
_PACKAGE = Path(__file__).resolve().parents[1]  # ttt_lib/
_STDLIB = tuple(Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "platstdlib"))


@functools.lru_cache(maxsize=4096)
def _ours(filename: str) -> bool:
    """Whether code in ``filename`` is the package's or Python's own (not a student's)."""
    path = Path(filename).resolve()
    return path == _PACKAGE or _PACKAGE in path.parents or any(
        root in path.parents for root in _STDLIB)


def _from_student(frame) -> bool:
    """Whether a student's code is among ``frame`` and its callers, below the checker."""
    while frame is not None and frame.f_code is not _CHECKING:
        if not _ours(frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


class _LibraryCall(BaseException):
    """Raised at a student's call of a forbidden library function: it ends the check (a
    BaseException, so that ``except Exception`` in the student's code does not hide it)."""


class _Session:
    """One checker's run: the forbidden functions swapped for stubs (in every ``ttt_lib``
    module, the student's globals and closures, and classes), the checker's own verdict line
    kept apart from what the student's code prints."""

    def __init__(self, answer, forbids: tuple) -> None:
        self.called: str | None = None
        self.lines: list[str] = []
        self.swaps = [(place, key, original, self._stub(original, key))
                      for place, key, original in _places(answer, forbids)]

    def _stub(self, original, key: str):
        session, name = self, _library_name(original, key)

        def forbidden(*args, **kwargs):
            if _from_student(sys._getframe(1)):
                session.called = session.called or name
                raise _LibraryCall(name)
            return original(*args, **kwargs)
        return forbidden

    def __enter__(self) -> "_Session":
        self.stdout = sys.stdout
        sys.stdout = _Tee(self.stdout, self.lines)
        for place, key, _, stub in self.swaps:
            _set(place, key, stub)
        return self

    def __exit__(self, *exc) -> bool:
        for place, key, original, _ in reversed(self.swaps):
            _set(place, key, original)
        sys.stdout = self.stdout
        return exc[0] is not None and issubclass(exc[0], _LibraryCall)

    def verdict(self, task: str) -> Verdict:
        if self.called:
            return Verdict(False, f"Not yet: your function calls ttt_lib's {self.called}; "
                                  f"write {task} yourself.")
        said = [line for line in self.lines if line.startswith(("Right: ", "Not yet: "))]
        return Verdict(said[-1].startswith("Right: "), said[-1]) if said else NO_VERDICT


def _library_name(function, key: str) -> str:
    """How a forbidden function is named to the student: ``minimax``, ``MCTSTree.run``."""
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", key)
    return name if "<locals>" not in name else getattr(function, "__name__", key)


def _set(place, key: str, value) -> None:
    if isinstance(place, dict):
        place[key] = value
    elif isinstance(place, type):
        setattr(place, key, value)
    else:  # a closure's cell
        place.cell_contents = value


class _Tee:
    """A stand-in for ``sys.stdout``: the student's code prints through; the checker's
    lines (printed from no student code) are kept for its verdict instead."""

    def __init__(self, stream, lines: list[str]) -> None:
        self.stream, self.lines, self.pending = stream, lines, ""

    def write(self, text: str) -> int:
        if _from_student(sys._getframe(1)):
            return self.stream.write(text)
        self.pending += text
        *done, self.pending = self.pending.split("\n")
        self.lines += done
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _targets(forbids: tuple) -> tuple[list, list]:
    """The forbidden functions, and the (class, method name) pairs."""
    functions = [item for item in forbids if not isinstance(item, tuple)]
    methods = [item for item in forbids if isinstance(item, tuple)]
    return functions, methods


def _places(answer, forbids: tuple) -> list[tuple]:
    """Where each forbidden function is reachable: (namespace, key, the function)."""
    functions, methods = _targets(forbids)
    places = [(cls, name, cls.__dict__[name]) for cls, name in methods]
    wanted = {id(kin) for f in [*functions, *(f for _, _, f in places)] for kin in _kin(f)}
    namespaces = [vars(module) for name, module in list(sys.modules.items())
                  if (name == "ttt_lib" or name.startswith("ttt_lib.")) and module is not None]
    namespaces += _student_globals(answer)
    seen = set()
    for space in namespaces:
        if id(space) in seen:
            continue
        seen.add(id(space))
        places += [(space, key, value) for key, value in list(space.items())
                   if _is_kin(value, wanted)]
    places += [(cell, "", cell.cell_contents) for cell in _cells(answer)
               if _filled(cell) and _is_kin(cell.cell_contents, wanted)]
    return places


def _kin(function) -> list:
    """``function`` and what it wraps (``__wrapped__``, as a checked entry point wraps the
    plain algorithm): forbidding one forbids every face of it."""
    chain = [function]
    while hasattr(chain[-1], "__wrapped__") and len(chain) < 8:
        chain.append(chain[-1].__wrapped__)
    return chain


def _is_kin(value, wanted: set) -> bool:
    try:
        return any(id(face) in wanted for face in _kin(value))
    except Exception:  # an object whose attributes cannot be read is no library function
        return False


def _functions_of(answer) -> list:
    """The Python functions an answer is made of: itself, or a class's methods."""
    if inspect.isclass(answer):
        return [value for value in vars(answer).values() if inspect.isfunction(value)]
    answer = getattr(answer, "__func__", answer)
    if inspect.isfunction(answer):
        return [answer]
    choose = getattr(type(answer), "choose", None)  # an agent object
    return [choose] if inspect.isfunction(choose) else []


def _student_globals(answer) -> list[dict]:
    return [function.__globals__ for function in _functions_of(answer)]


def _cells(answer) -> list:
    return [cell for function in _functions_of(answer) for cell in function.__closure__ or ()]


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # an empty cell
        return False
    return True


def _is_forbidden(answer, forbids: tuple) -> str | None:
    """The name of the forbidden function ``answer`` is itself, if it is one."""
    functions, methods = _targets(forbids)
    originals = functions + [cls.__dict__[name] for cls, name in methods]
    faces = [answer, getattr(answer, "func", None), getattr(answer, "choose", None)]
    faces = [kin for face in faces if face is not None
             for kin in _kin(getattr(face, "__func__", face))]
    found = next((f for f in originals if any(face is kin for face in faces
                                                  for kin in _kin(f))), None)
    return getattr(found, "__qualname__", None) if found is not None else None


def checked(checker: Callable, answer) -> Verdict:
    """Run ``checker`` on ``answer`` with its forbidden functions unavailable to the
    student's code; print its verdict line and return it. Everything is put back, whatever
    happened (Ctrl-C included)."""
    forbids, task = getattr(checker, "forbids", ()), getattr(checker, "task", "the search")
    named = _is_forbidden(answer, forbids)
    if named:
        said = Verdict(False, f"Not yet: your function is ttt_lib's {named}; write {task} "
                              "yourself.")
    else:
        session = _Session(answer, forbids)
        with session:
            _run_checker(checker, answer)
        said = session.verdict(task)
    ANSWERS[checker.__name__] = answer  # the grader judges the last answer again
    SAID.append(said.line)
    print(said.line)
    return said


# What the genuine checkers were given and said in this process: ``python -m ttt_lib grade``
# judges each exercise's last answer again with checkers it reloads from disk (a notebook
# that redefines a checker never gets here), and flags verdict lines no checker printed.
ANSWERS: dict[str, object] = {}
SAID: list[str] = []


def _run_checker(checker: Callable, answer) -> None:
    checker(answer)


_CHECKING = _run_checker.__code__  # the frame below which a student's code may run
