"""Checkers as assertions (``strict=True``, ``Verdict.assert_right``), and fresh cases: every
checker that draws random cases draws them from seeds moved by ``core.CASE_SEED_OFFSET``, the
same cases for the same offset and others for another; the catalogue's right and wrong
functions keep their verdicts under a fresh offset."""
import functools
import inspect
import random
import re

import pytest

from ttt_lib import teach
from ttt_lib.teach import core

CHECKERS = sorted(name for name in dir(teach) if name.startswith("check_"))
FRESH = 7_919  # an offset no notebook uses


# The catalogues as tests/test_teach.py loads them (loaded once per process: the cases some of
# them compute, such as notebook 09's best aims, cost seconds), and its rule for a function
# judged by the clock: a tenth of each time limit.
from test_teach import CASES, WRITE_IT, limits_for  # noqa: E402

WRITE_IT_IDS = [entry[0].__name__ for entry in WRITE_IT]

# Write-it checkers whose cases are no random draw, with why: the offset changes nothing there.
FIXED = {
    "check_05_evaluate": "every unfinished position of the game",
    "check_05_deadline": "named positions under a clock",
    "check_06_canonical": "every position of the game",
    "check_11_windows": "a fixed list of board shapes",
}
CLOCKED = {"check_05_deadline"}  # judged against the clock
# The capstone's agent plays in a box of its own, from its bundled source: a recorder written
# here cannot go with it (its seeds are tested in tests/test_capstone.py)
BOXED = {"check_12_agent"}
RECORDED = [entry for entry in WRITE_IT if entry[0].__name__ not in BOXED]


@pytest.fixture
def offset():
    """Set the case-seed offset for one test, and put 0 back after it."""
    yield core.fresh_cases
    core.fresh_cases(0)


# ------------------------------------------------------------------ checkers as assertions

@pytest.mark.parametrize("name", CHECKERS)
def test_every_checker_takes_strict(name):
    signature = inspect.signature(getattr(teach, name), follow_wrapped=False)
    parameter = signature.parameters.get("strict")
    assert parameter is not None and parameter.kind is parameter.KEYWORD_ONLY
    assert parameter.default is False


def entry(name: str, table: list) -> tuple:
    return next(item for item in table if item[0].__name__ == name)


@pytest.mark.parametrize("name", ["check_02_minimax", "check_03_alphabeta", "check_07_ucb",
                                  "check_10_q_update"])
def test_a_wrong_function_raises_its_hint_and_a_right_one_does_not(capsys, name):
    checker, rights, wrongs = entry(name, WRITE_IT)
    said = checker(rights[0], strict=True)
    assert said.right and said.assert_right() is said
    for wrong, words in list(wrongs.items())[:2]:
        with pytest.raises(AssertionError) as raised:
            checker(wrong, strict=True)
        assert str(raised.value).startswith("Not yet: ") and words in str(raised.value)
        assert capsys.readouterr().out.strip().endswith(str(raised.value))  # printed too


@pytest.mark.parametrize("name", ["check_02_minimax_value", "check_06_code", "check_08_win_rate"])
def test_a_wrong_answer_raises_and_a_right_one_does_not(capsys, name):
    checker, right, wrongs = entry(name, CASES)
    assert checker(right, strict=True).right
    with pytest.raises(AssertionError, match="^Not yet: "):
        checker(wrongs[0], strict=True)
    with pytest.raises(AssertionError, match="^Not yet: replace None with your answer"):
        checker(None, strict=True)


def test_assert_right_on_a_verdict():
    assert core.Verdict(True, "Right: yes").assert_right().right
    with pytest.raises(AssertionError, match="^Not yet: look again$"):
        core.Verdict(False, "Not yet: look again").assert_right()


# ---------------------------------------------------------------------------- fresh cases

def describe(value, depth: int = 0):
    """A picture of an argument a checker passed, the same for equal cases in any run
    (random generators by their state, objects by their fields, never by address)."""
    if isinstance(value, random.Random):
        return ("rng", hash(value.getstate()))
    if isinstance(value, (list, tuple)):
        return tuple(describe(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), describe(v, depth + 1)) for k, v in value.items()))
    text = repr(value)
    if " at 0x" in text and hasattr(value, "__dict__") and depth < 4:
        return (type(value).__name__, describe(vars(value), depth + 1))
    return re.sub(r" at 0x[0-9a-f]+", "", text)


def recorder(right, seen: list):
    """``right`` watched: what each call from the checker was given, then its own answer."""
    if inspect.isclass(right):
        class Watched(right):
            def choose(self, state):
                seen.append(describe(state))
                return super().choose(state)
        return Watched

    @functools.wraps(right)
    def watched(*args):
        seen.append(describe(args))
        return right(*args)
    return watched


def cases_seen(checker, right, offset_value: int) -> list:
    """What ``checker`` gave a right function under ``offset_value``; a checker that judges
    against the clock may stop early on a loaded machine, so only its first call counts."""
    core.fresh_cases(offset_value)
    seen = []
    said = checker(recorder(right, seen))
    if checker.__name__ in CLOCKED:
        return seen[:1]
    assert said.right, said.line
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("checker, rights, wrongs", RECORDED,
                         ids=[entry[0].__name__ for entry in RECORDED])
def test_random_cases_follow_the_offset(offset, checker, rights, wrongs):
    first = cases_seen(checker, rights[0], 0)
    assert first and cases_seen(checker, rights[0], 0) == first  # same offset, same cases
    moved = cases_seen(checker, rights[0], FRESH)
    if checker.__name__ in FIXED:
        assert moved == first, f"{checker.__name__} is listed as drawing no random cases"
    else:
        assert moved != first, f"{checker.__name__}'s cases ignore the case-seed offset"


def test_every_fixed_checker_is_a_write_it():
    assert set(FIXED) <= set(WRITE_IT_IDS)


# The checkers whose cases the offset changes: a FIXED one judges the very cases of
# tests/test_teach.py whatever the offset (test_random_cases_follow_the_offset shows it), so its
# catalogue would only be judged a second time on the same cases.
DRAWN = [entry for entry in WRITE_IT if entry[0].__name__ not in FIXED]


@pytest.mark.slow
@pytest.mark.parametrize("checker, rights, wrongs", DRAWN,
                         ids=[entry[0].__name__ for entry in DRAWN])
def test_the_catalogue_keeps_its_verdicts_on_fresh_cases(capsys, offset, checker, rights,
                                                          wrongs):
    offset(FRESH)
    for right in rights:
        said = checker(right)
        assert said.right, (right.__name__, said.line)
    for wrong in wrongs:  # its hint may differ: another case may be the first to fail
        with limits_for(wrong):
            said = checker(wrong)
        assert not said.right, (wrong.__name__, said.line)


def test_the_offset_is_an_int():
    with pytest.raises(TypeError):
        core.fresh_cases("1")
    with pytest.raises(TypeError):
        core.fresh_cases(True)
