"""Checked entry points bind a call's arguments by a quick route (a dict made directly); every
call it takes must bind exactly as ``inspect.Signature.bind`` does, and every call it leaves
must be one ``Signature.bind`` judges (an error named as before)."""
from __future__ import annotations

import inspect
import itertools

import pytest

from ttt_lib.checks.entries import FastBinder, entry
from ttt_lib.errors import SearchOptionError


def plain(state, table=None, stats=None): ...
def windowed(state, alpha=-1, beta=1, *, table=None): ...
def required(state, depth, evaluate): ...
def only(state, /, depth=2): ...
def varying(state, *more, **options): ...
def keywords(state, *, seed, rng=None): ...
def rest(state, *more, depth=1): ...
def parts(*parts): ...


SIGNATURES = [plain, windowed, required, only, varying, keywords, rest, parts]
NAMES = ["state", "table", "stats", "alpha", "beta", "depth", "evaluate", "seed", "rng", "x"]


def calls():
    """Every call of up to four positional values and up to two keywords."""
    for count in range(5):
        for chosen in itertools.chain.from_iterable(
                itertools.combinations(NAMES, k) for k in range(3)):
            yield tuple(range(count)), {name: name for name in chosen}


@pytest.mark.parametrize("fn", SIGNATURES, ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("defaults", [False, True])
def test_the_quick_route_binds_as_signature_bind(fn, defaults):
    signature, binder = inspect.signature(fn), FastBinder(inspect.signature(fn))
    taken = 0
    for args, kwargs in calls():
        quick = binder.bind(args, kwargs, defaults)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            assert quick is None, (fn.__name__, args, kwargs, quick)
            continue
        if defaults:
            bound.apply_defaults()
        if quick is not None:
            taken += 1
            assert quick == dict(bound.arguments), (fn.__name__, args, kwargs)
    assert taken or fn is varying, f"the quick route took no call of {fn.__name__}"


def test_a_wrong_call_is_named_as_signature_bind_names_it():
    checked = entry(required, SearchOptionError)
    with pytest.raises(TypeError, match="required: missing a required argument: 'evaluate'"):
        checked(1, 2)
    with pytest.raises(TypeError, match="required: multiple values for argument 'depth'"):
        checked(1, 2, 3, depth=4)
    with pytest.raises(TypeError, match="required: got an unexpected keyword argument 'x'"):
        checked(1, 2, 3, x=4)
