"""A checker's run: the library out of the student's reach, and the verdict kept apart.

``write_it`` marks a checker whose answer is a function the student writes, with the helpers
its exercise hands over (``allows``). ``checked`` runs a checker so that, while it runs,
every entry point of the library (``reach``: found by walking the packages), less those, is a
stub for the student's code (in every ``ttt_lib`` module, the student's globals and closures,
and classes: a call ends the check with ``Not yet: your function calls ttt_lib's minimax``,
and ``Verdict.delegated`` names it), and the checker's own verdict line is told apart from
whatever the student's code prints. A reference the student stashed elsewhere before the
check (a list, a default argument, ``functools.partial``) is not swapped. Each checker's last answer is noted in ``ANSWERS``: in a
grading box, that is what the grader asks about (see ``teach.answering``).
"""
from __future__ import annotations

import functools
import inspect
import sys
import sysconfig
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ANSWERS", "NO_VERDICT", "SAID", "Verdict", "checked", "is_forbidden", "library_session",
           "write_it"]

def write_it(checker: Callable | None = None, *, allows: Iterable = (), forbids: Iterable = (),
             task: str = "the search") -> Callable:
    """Mark ``checker`` as judging a function the student writes (a write-it exercise):
    ``tests/test_teach.py`` then requires its ``WRITE_IT`` catalogue entry. While the
    checker runs, every entry point of the library (``reach.entry_points``: its searches,
    agents, learners and solvers, found by walking the packages) is unavailable to the
    student's code except what ``allows`` names (functions, classes, ``(class, "method")``
    pairs the exercise hands over); ``forbids`` adds anything else. A call ends the check:
    ``Not yet: your function calls ttt_lib's minimax; write the search yourself`` (``task``
    names what to write)."""
    def mark(function: Callable) -> Callable:
        function.write_it, function.allows, function.task = True, tuple(allows), task
        function.forbids = tuple(forbids)
        return function
    return mark if checker is None else mark(checker)


# ------------------------------------------------------- the verdict, and who may give it

@dataclass(frozen=True)
class Verdict:
    """What a checker decided: ``right`` and the line it printed (``Right: ...`` or
    ``Not yet: ...``). Every checker exported by ``ttt_lib.teach`` returns one."""

    right: bool
    line: str
    delegated: str = ""  # the library function the student's code called, if it did

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


def _from_student(frame, settled: frozenset | set = frozenset()) -> bool:
    """Whether a student's code is among ``frame`` and its callers, below the checker (or
    below a call of a forbidden function, in ``settled``, that was let through: nothing
    under it is the student's)."""
    while frame is not None and frame.f_code is not _CHECKING:
        if frame.f_code in settled:
            return False
        if not _ours(frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


class _LibraryCall(BaseException):
    """Raised at a student's call of a forbidden library function: it ends the check (a
    BaseException, so that ``except Exception`` in the student's code does not hide it)."""


_RUNNING: list = []  # the sessions a checker runs in now, innermost last


def library_taken(name: str) -> None:
    """A checker that sees the student's code take a library entry point without calling it
    (the capstone reads the agent's code to copy it into a box) ends the check as a call
    would: Not yet, naming ``name``. Outside a session it does nothing."""
    if _RUNNING:
        _RUNNING[-1].called = _RUNNING[-1].called or name
        raise _LibraryCall(name)


class _Session:
    """One checker's run: the forbidden functions swapped for stubs (in every ``ttt_lib``
    module, the student's globals and closures, and classes), the checker's own verdict line
    kept apart from what the student's code prints."""

    def __init__(self, answer, forbids: tuple, allows: tuple = ()) -> None:
        self.called: str | None = None
        self.lines: list[str] = []
        stubs = [(place, key, original, *_stub(original, key))
                 for place, key, original in _places(answer, forbids)]
        # below a forbidden call let through, or an allowed helper the student called,
        # nothing calls as the student: what the helper uses inside is its own affair
        self.settled = {code for *_, codes in stubs for code in codes}
        self.settled |= {code for item in allows for code in _allowed_codes(item)}
        self.swaps = [(place, key, original, stub, holder)
                      for place, key, original, stub, holder, _ in stubs]
        self.before: list = []  # the session each holder named before this one

    def __enter__(self) -> "_Session":
        _RUNNING.append(self)
        self.stdout = sys.stdout
        sys.stdout = _Tee(self.stdout, self.lines)
        for place, key, _, stub, holder in self.swaps:
            self.before.append(holder[0])
            holder[0] = self
            _set(place, key, stub)
        return self

    def __exit__(self, *exc) -> bool:
        _RUNNING.remove(self)
        for place, key, original, _, holder in reversed(self.swaps):
            _set(place, key, original)
            holder[0] = self.before.pop()
        sys.stdout = self.stdout
        return exc[0] is not None and issubclass(exc[0], _LibraryCall)

    def verdict(self, task: str) -> Verdict:
        if self.called:
            return Verdict(False, f"Not yet: your function calls ttt_lib's {self.called}; "
                                  f"write {task} yourself.", delegated=self.called)
        said = [line for line in self.lines if line.startswith(("Right: ", "Not yet: "))]
        return Verdict(said[-1].startswith("Right: "), said[-1]) if said else NO_VERDICT


# (id of a forbidden function, its key) -> (the function, its stub, the stub's holder, the
# code objects it runs): a stub is made once per process (``functools.wraps`` per stub, and
# a session swaps in hundreds) and answers to the session its holder names while one runs.
_STUBS: dict[tuple[int, str], tuple] = {}


def _stub(original, key: str) -> tuple:
    """(the stub that stands for ``original`` while a session runs, its holder: a one-item
    list naming that session, the code objects ``original`` runs)."""
    found = _STUBS.get((id(original), key))
    if found is not None and found[0] is original:
        return found[1:]
    if isinstance(original, (staticmethod, classmethod)):  # the same kind of method
        inner, holder, _ = _stub(original.__func__, key)
        stub = type(original)(inner)
    else:
        holder, name = [None], _library_name(original, key)

        def forbidden(*args, **kwargs):
            session, caller = holder[0], sys._getframe(1)
            if (session is not None and caller.f_code not in session.settled
                    and _from_student(caller, session.settled)):
                session.called = session.called or name
                raise _LibraryCall(name)
            return original(*args, **kwargs)
        try:  # the original's name and signature (the agents' registry reads constructors)
            stub = functools.wraps(original)(forbidden)
        except (AttributeError, TypeError):
            stub = forbidden
    codes = tuple(_codes(original))
    _STUBS[(id(original), key)] = (original, stub, holder, codes)
    return stub, holder, codes


def _allowed_codes(item) -> list:
    """The code objects of an allowed helper: a function, a class's methods, a pair."""
    if isinstance(item, tuple):
        return _codes(vars(item[0]).get(item[1]))
    if inspect.isclass(item):
        return [code for base in item.__mro__ if base is not object
                for member in vars(base).values() for code in _codes(member)]
    return _codes(item)


def _codes(function) -> list:
    """The code objects a forbidden function runs (it and what it wraps)."""
    raw = function.__func__ if isinstance(function, (staticmethod, classmethod)) else function
    return [face.__code__ for face in _kin(raw) if isinstance(
        getattr(face, "__code__", None), type(_codes.__code__))]


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
                   if id(value) in wanted or _wraps(value) and _is_kin(value, wanted)]
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


def _wraps(value) -> bool:
    """Whether ``value`` wraps something (``__wrapped__``): only then can it be kin to a
    forbidden function without being one (most of a module's names are not)."""
    try:
        return hasattr(value, "__wrapped__")
    except Exception:  # an object whose attributes cannot be read is no library function
        return False


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


def is_forbidden(answer, checker) -> str | None:
    """The name of the forbidden function (or library class, or agent of one) ``answer``
    is itself, if it is one."""
    from .reach import is_entry_point
    if not _allowed_class(answer, checker):
        named = is_entry_point(answer)
        if named:
            return named
    names = _forbidden_faces(checker)
    faces = [answer, getattr(answer, "func", None), getattr(answer, "choose", None)]
    return next((names[id(kin)] for face in faces if face is not None
                 for kin in _kin(getattr(face, "__func__", face)) if id(kin) in names), None)


def _forbidden_faces(checker) -> dict[int, str]:
    """{id of every face of a forbidden function: its name}, worked out once per checker."""
    found = _FACES.get(checker)
    if found is None:
        functions, methods = _targets(forbidden_of(checker))
        found = {}
        for original in functions + [cls.__dict__[name] for cls, name in methods]:
            name = getattr(original, "__qualname__", None) or getattr(
                getattr(original, "__func__", None), "__qualname__", "a library function")
            found.update((id(kin), name) for kin in _kin(original))
        _FACES[checker] = found
    return found


_FACES: dict = {}


def _allowed_class(answer, checker) -> bool:
    kind = answer if inspect.isclass(answer) else type(answer)
    return any(kind is item for item in getattr(checker, "allows", ()))


def forbidden_of(checker) -> tuple:
    """What ``checker``'s student code may not call (``reach.forbidden_for``), worked out
    once per checker."""
    if not callable(checker):
        return ()
    from .reach import forbidden_for
    found = _FORBIDDEN.get(checker)
    if found is None:
        found = _FORBIDDEN[checker] = forbidden_for(checker)
    return found


_FORBIDDEN: dict = {}


def checked(checker: Callable, answer, refused: str | None = None) -> Verdict:
    """Run ``checker`` on ``answer`` with its forbidden functions unavailable to the
    student's code; print its verdict line and return it (``refused``, a ``Not yet`` line,
    instead of running it). Everything is put back, whatever happened (Ctrl-C included)."""
    task = getattr(checker, "task", "the search")
    forbids = forbidden_of(checker) if getattr(checker, "write_it", False) else getattr(
        checker, "forbids", ())
    named = None if refused else is_forbidden(answer, checker)
    if refused:
        said = Verdict(False, refused)
    elif named:
        said = Verdict(False, f"Not yet: your function is ttt_lib's {named}; write {task} "
                              "yourself.", delegated=named)
    else:
        session = _Session(answer, forbids, getattr(checker, "allows", ()))
        with session:
            _run_checker(checker, answer)
        said = session.verdict(task)
    ANSWERS[checker.__name__] = answer  # the grader asks this answer again
    SAID.append(said.line)
    print(said.line)
    return said


def library_session(checker: Callable, answer) -> "_Session":
    """A context in which ``checker``'s forbidden functions are stubs for ``answer``'s
    code; afterwards its ``called`` names the first one the student's code called (None if
    none). The grading box asks a student's function each question inside one."""
    return _Session(answer, forbidden_of(checker) if getattr(checker, "write_it", False)
                    else getattr(checker, "forbids", ()), getattr(checker, "allows", ()))


# What the genuine checkers were given and said in this process: ``python -m ttt_lib grade``
# asks each exercise's last answer again, from outside the box, on fresh cases, and flags
# verdict lines no checker printed.
ANSWERS: dict[str, object] = {}
SAID: list[str] = []


def _run_checker(checker: Callable, answer):
    return checker(answer)


_CHECKING = _run_checker.__code__  # the frame below which a student's code may run
