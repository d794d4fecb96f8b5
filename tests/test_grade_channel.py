"""The grading channel without a kernel: the grader (`teach.asking`) judging the answers of a
fake box (a thread on a socket pair) that says whatever a student's box could say. The
verdict is made on the grader's side: a box that computes right answers is Right, one that
sends an int whose `__eq__` lies, deep JSON, a claimed verdict or garbage is Not yet or has
no row, and never a traceback; the fresh-case seed never crosses the channel."""
from __future__ import annotations

import ast
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from ttt_lib.search import minimax, negamax
from ttt_lib.teach import asking, papers, wire
from ttt_lib.teach.judge import Watched
from ttt_lib.teach.papers import definitions
from ttt_lib.teach.standin import Box

OFFSET = 918273645  # the grader's secret for these tests
CHECKERS = papers.package_checkers()


class FakeBox(threading.Thread):
    """Says ``first`` (the answers message, or any bytes), then answers each question with
    ``answer(exercise, decoded args)`` (a reply dict without the id), noting what it heard."""

    def __init__(self, sock, first, answer=None) -> None:
        super().__init__(daemon=True)
        self.sock, self.first, self.answer, self.heard = sock, first, answer, b""

    def run(self) -> None:
        try:
            self.converse()
        except OSError:  # the grader hung up on it
            pass

    def converse(self) -> None:
        first = self.first if isinstance(self.first, bytes) else json.dumps(self.first).encode()
        self.sock.sendall(first + b"\n")
        box = Box(self.sock, {}, None, None)  # the grader's lent states, used as stand-ins
        for line in iter(box.reader.readline, b""):
            self.heard += line
            request = json.loads(line)
            args = [wire.decode_state(arg["state"]) if "state" in arg
                    else box.take(arg) for arg in request.get("args", [])]
            reply = self.answer(request.get("exercise"), args) if self.answer else {}
            self.sock.sendall(json.dumps({"id": request["id"], **reply}).encode() + b"\n")


def judged(first, answer=None, exercises=("check_02_minimax",), seconds=30.0):
    ours, theirs = socket.socketpair()
    box = FakeBox(theirs, first, answer)
    box.start()
    try:
        conversation = asking.Conversation(ours, time.monotonic() + seconds)
        lines, _ = asking.judge_notebook(conversation, list(exercises), OFFSET, CHECKERS)
    finally:
        ours.close()
        theirs.close()
    return lines, box


FUNCTION = {"answers": {"check_02_minimax": {"function": True},
                        "check_02_negamax": {"function": True}}}


def value_of(fn):
    def answer(exercise, args):
        return {"value": wire.encode(fn(*args))}
    return answer


def test_a_box_that_computes_right_answers_is_right_and_never_sees_the_seed():
    lines, box = judged(FUNCTION, value_of(minimax))
    assert lines["check_02_minimax"].startswith("Right:")
    assert box.heard and str(OFFSET) not in box.heard.decode()
    lines, _ = judged(FUNCTION, value_of(negamax), ["check_02_negamax"])
    assert lines["check_02_negamax"].startswith("Right:")


def test_a_wrong_function_gets_its_hint_from_the_grader():
    lines, _ = judged(FUNCTION, value_of(lambda state: -minimax(state)))
    assert lines["check_02_minimax"].startswith("Not yet:")
    assert "The sign is flipped" in lines["check_02_minimax"]  # the fingerprint, out here


def test_an_int_whose_eq_lies_is_not_yet_on_values_and_write_its():
    lines, _ = judged(FUNCTION, lambda exercise, args: {"value": {"other": "Always"}})
    assert lines["check_02_minimax"].startswith("Not yet:")
    lines, _ = judged({"answers": {"check_02_minimax_value": {"value": {"other": "Always"}}}},
                      exercises=["check_02_minimax_value"])
    assert lines["check_02_minimax_value"].startswith("Not yet: a Always is no plain value")


@pytest.mark.parametrize("first", [
    b"[" * 50_000, b"{" * 50_000, b"x" * (3 << 20), b'"a string"', b"\xff\xfe",
    json.dumps({"lines": {"check_02_minimax": "Right: forged"}}).encode()])
def test_whatever_a_box_sends_first_costs_only_its_own_row(first):
    lines, _ = judged(first, seconds=5.0)
    assert lines == {}


def test_deep_json_as_an_answer_ends_only_that_exercise():
    lines, _ = judged(FUNCTION, lambda exercise, args: {"value": [[[[[[[[1]]]]]]]]})
    assert lines["check_02_minimax"].startswith("Not yet:")
    ours, theirs = socket.socketpair()
    theirs.sendall(json.dumps(FUNCTION).encode() + b"\n" + b"[" * 50_000 + b"\n")
    conversation = asking.Conversation(ours, time.monotonic() + 5)
    lines, _ = asking.judge_notebook(conversation, ["check_02_minimax"], OFFSET, CHECKERS)
    assert lines == {}  # the box stopped making sense: no verdict, no traceback
    ours.close()
    theirs.close()


def test_a_library_call_the_box_reports_is_not_yet():
    lines, _ = judged(FUNCTION, lambda exercise, args: {"library": "minimax"})
    assert lines["check_02_minimax"] == ("Not yet: your function calls ttt_lib's minimax; "
                                         "write the search yourself.")


def test_the_students_exception_is_reported_by_name():
    lines, _ = judged(FUNCTION, lambda exercise, args: {"raised": "ZeroDivisionError",
                                                        "text": "division by zero"})
    assert "it raised ZeroDivisionError: division by zero" in lines["check_02_minimax"]
    lines, _ = judged(FUNCTION, lambda exercise, args: {"raised": "NotImplementedError"})
    assert lines["check_02_minimax"] == ("Not yet: write the function (it still raises "
                                         "NotImplementedError).")


def test_a_watched_state_is_lent_and_its_visits_are_recorded_here():
    """The box gets a stand-in of a watched tree (its key, its mover, whether it is a leaf:
    never a leaf's value, never the subtree in its text); each utility() it reads is a
    question back, recorded by the grader; visits a box reports are never read."""
    from ttt_lib.game import TreeNode
    from ttt_lib.teach.faces import Handles
    record, handles = Watched(TreeNode([[1, 2], [3]])), Handles()
    lent = asking._argument(record, handles)
    assert set(lent) == {"object", "steady"} and "utility" not in lent["steady"]

    def use(op, number, name=None, **rest):
        return handles.serve({"call": 1, "op": op, "object": number, "name": name, **rest})
    shown = use("repr", lent["object"])["value"]
    assert shown == "TreeNode(root)" and "3" not in shown
    first = use("call", lent["object"], "moves", args=[])["ahead"][0]["object"]
    leaf = use("call", first, "moves", args=[])["ahead"][1]["object"]
    assert use("call", leaf, "utility", args=[])["value"] == 2
    assert record.visits.leaves == [(0, 1)] and record.visits.expanded == [(), (0,)]
    assert use("get", lent["object"], "state")["raised"] == "AttributeError"  # no way round
    reply = {"value": 3, "visits": {"leaves": wire.encode([(0, 0), (1, 0)]), "expanded": []}}
    assert asking._answer(reply, handles) == 3 and record.visits.leaves == [(0, 1)]


def test_bounded_loads_refuses_depth_and_size_before_json():
    assert wire.bounded_loads('["[[[[", {"a": [1]}]') == ["[[[[", {"a": [1]}]
    with pytest.raises(ValueError):
        wire.bounded_loads("[" * 50_000)
    with pytest.raises(ValueError):
        wire.bounded_loads(b"1" * (wire.MOST_BYTES + 1))


def test_values_cross_by_exact_type():
    from fractions import Fraction

    class Always(int):
        def __eq__(self, other):
            return True
        __hash__ = int.__hash__
    sent = [1, 2.5, Fraction(1, 3), (1, "a"), {3}, None, True, Always(4)]
    got = wire.plain_value(sent)
    assert got[:7] == [1, 2.5, Fraction(1, 3), (1, "a"), {3}, None, True]
    assert isinstance(got[7], wire.Opaque) and got[7] != 4


# ------------------------------------------------- every write-it of the catalogue, asked

from test_teach import WRITE_IT  # noqa: E402 (the catalogues: right and wrong functions)

from ttt_lib.teach import answering  # noqa: E402

FORMERLY_IN_THE_BOX = {"check_04_transposition", "check_04_ordering", "check_05_deadline",
                       "check_07_backpropagate", "check_07_mcts", "check_08_agent"}
MANY_QUESTIONS = {"check_05_evaluate", "check_06_canonical"}  # thousands: a real box's work
# right answers that take many thousands of questions back (a real box's work: graded in
# test_grade_forgers.py and by the course's notebooks); their wrong answers are asked here
HEAVY_RIGHTS = {"check_04_transposition", "check_04_ordering", "check_07_mcts", "check_08_agent",
                "check_12_deadline"}  # seconds of CPU: its right answer is graded there
QUICK_WRONGS = {  # wrong at their first question: the heavy checkers' wrongs, asked cheaply
    "check_04_ordering": {lambda state: state.moves()[1:]: "it left out"},
    "check_07_mcts": {lambda state, playouts, rng: -1: "not a legal move"},
    "check_08_agent": {lambda state: state.moves()[-1]: "your agent played"},
    "check_12_deadline": {lambda state, seconds: -1: "not a legal column",  # a deep search
                          lambda state, seconds: state.moves()[0]: "keep deepening"}}  # is
#                                                 no quick wrong on a loaded machine's clock
CAPSTONE = {"check_12_agent"}  # a ladder of boxed games: asked in its own test below


class _NoLibrarySession:
    called = None


class _Unguarded(answering.Sessions):
    """The box's sessions without the library's stubs: the fake box shares this process
    with the grader, whose oracles must keep the library (a real box is a process apart)."""

    def of(self, name, fn):
        return _NoLibrarySession()

    def prepare(self, answers):
        pass


THIS_FILE = Path(__file__).read_text(encoding="utf-8")
# the definitions "the notebook's cells" hold here: every function and class of this file
WRITTEN_HERE = frozenset(definitions(THIS_FILE, ast.parse(THIS_FILE)))


def asked(name: str, fn, written: frozenset = WRITTEN_HERE):
    """(verdict line, exercises judged in the box) of ``fn`` for ``name``, through a box
    (``standin.Box``, on a thread) that answers as a grading box does; ``written``: the
    definitions the grader read from the submission's file."""
    ours, theirs = socket.socketpair()
    box = Box(theirs, {name: fn}, _Unguarded(), answering._reply)

    def serve():
        try:
            theirs.sendall(json.dumps({"answers": {name: answering._kind(fn)}}).encode()
                           + b"\n")
            box.serve()
        except (OSError, ValueError):
            pass
    threading.Thread(target=serve, daemon=True).start()
    try:
        # the box is a thread here: its CPU time is this process's (a real box's is read
        # from its cgroup or its processes, classroom.cpuclock)
        conversation = asking.Conversation(ours, time.monotonic() + 120, time.process_time)
        conversation.written = written
        lines, said = asking.judge_notebook(conversation, [name], OFFSET, CHECKERS)
    finally:
        ours.close()
        theirs.close()
    return lines.get(name, ""), said.get("in_box")


@pytest.mark.parametrize("checker, rights, wrongs",
                         [entry for entry in WRITE_IT if entry[0].__name__ not in
                          MANY_QUESTIONS | CAPSTONE],
                         ids=lambda entry: getattr(entry, "__name__", ""))
def test_every_write_it_is_judged_in_the_grader(checker, rights, wrongs):
    name = checker.__name__
    if name not in HEAVY_RIGHTS:
        line, in_box = asked(name, rights[0])
        assert in_box == [] and line.startswith("Right:"), line
    tried = QUICK_WRONGS[name].items() if name in QUICK_WRONGS else list(wrongs.items())[:2]
    for wrong, words in tried:
        line, in_box = asked(name, wrong)
        assert in_box == [] and line.startswith("Not yet:") and words in line, (
            getattr(wrong, "__name__", wrong), line)


def test_the_in_box_flag_fires_for_no_course_checker():
    assert asking.IN_THE_BOX == {}  # the capstone's deadline loop too: timed from outside
    from ttt_lib.teach import nb04_table, nb05, nb07, nb07_mcts, tables
    from ttt_lib.teach.faces import has_face
    import random
    assert all(has_face(obj) for obj in (
        tables.Counted(None, tables.Expanded()), tables.WatchedTable(), tables.ForgetfulTable(),
        nb07.PathNode(1), nb07_mcts.CountedState(None),
        nb05.Guarded(None, nb05.DeadlineLog())))
    assert not has_face(random) and not has_face(object())
    assert nb04_table  # imported for its checker's objects above
    from ttt_lib.teach import nb10_loop  # its probes lend the table; its training is driven
    assert has_face(nb10_loop.QValues()) and nb10_loop.BOX_DRIVERS == ("trained_entries",)


def test_a_lent_object_shows_only_its_face():
    """What a box may do with the grader's objects: the game protocol, a table's
    operations, the fields a class names; never a private name or a wrapped state."""
    from ttt_lib.boards import BitBoard
    from ttt_lib.teach import nb07, tables
    from ttt_lib.teach.faces import Handles
    handles = Handles()
    counted = tables.Counted(BitBoard(), tables.Expanded())
    number = handles.lend(counted)["object"]

    def use(op, name, **rest):
        return handles.serve({"call": 1, "op": op, "object": number, "name": name, **rest})
    assert use("call", "moves", args=[])["value"] == list(range(9))
    assert counted.expanded.count == 1  # counted here, by the grader's own object
    for name in ("state", "expanded", "_state", "__class__", "__dict__"):
        assert use("get", name)["raised"] == "AttributeError"
    assert use("set", "done", value={"value": True})["raised"] == "AttributeError"
    node = nb07.PathNode(1)
    number = handles.lend(node)["object"]
    assert use("set", "visits", value={"value": 3}) == {"back": 1, "value": None}
    assert node.visits == 3 and use("set", "mover", value={"value": -1})["raised"]
    handles.forget()
    assert use("get", "visits")["raised"] == "ReferenceError"  # an earlier question's


def test_a_table_keyed_by_the_boxs_own_boards_is_filled_here():
    """A class naming its operations in ``REMOTE`` (as a Q-table handed to a self-play loop
    would): the box's boards cross as data, so the grader's object holds real boards."""
    from ttt_lib.boards import BitBoard

    class Table:
        REMOTE = {"call": ("__getitem__", "__setitem__")}

        def __init__(self):
            self.values = {}

        def __getitem__(self, key):
            return self.values.get(key, 0.0)

        def __setitem__(self, key, value):
            self.values[key] = value

    def learn(table, start):
        table[start.play(4), 4] = 0.5
        return table[start.play(4), 4]

    ours, theirs = socket.socketpair()
    box = Box(theirs, {"check_10_self_play": learn}, _Unguarded(), answering._reply)
    box.sessions.checker = lambda name: learn  # no checker needed: the question is asked
    threading.Thread(target=lambda: box.serve(), daemon=True).start()
    try:
        conversation = asking.Conversation(ours, time.monotonic() + 30)
        table = Table()
        got = asking.Remote(conversation, "check_10_self_play")(table, BitBoard())
    finally:
        ours.close()
        theirs.close()
    assert got == 0.5 and table.values == {(BitBoard().play(4), 4): 0.5}


def test_the_capstone_agent_is_bundled_in_its_box_and_judged_here():
    """The box only bundles the agent's code (``nb12.BOX_DRIVERS``); the ladder and the
    verdict are the grader's. An agent that reaches into ttt_lib is Not yet from here."""
    import ttt_lib.search

    def cheat(state):
        return ttt_lib.search.minimax(state)
    line, in_box = asked("check_12_agent", cheat)
    assert in_box == [] and line.startswith("Not yet:") and "ttt_lib" in line, line

    def first_column(state):  # a legal agent that loses to greedy: Not yet from the ladder
        return state.moves()[0]
    line, in_box = asked("check_12_agent", first_column)
    assert in_box == [] and line.startswith("Not yet:") and "against" in line, line


def test_a_capstone_agent_the_notebook_does_not_define_is_not_yet():
    """The box sends the agent's code as text: code the submission's cells do not define
    (a box that swapped in another agent, or an agent held in a string) is refused before
    any game, whatever it would score."""
    def first_column(state):
        return state.moves()[0]
    elsewhere = frozenset(WRITTEN_HERE - {text for text in WRITTEN_HERE
                                          if text.startswith("def first_column(")})
    line, in_box = asked("check_12_agent", first_column, elsewhere)
    assert in_box == [] and line == ("Not yet: the box sent code for first_column that is "
                                     "not in your notebook's cells."), line
