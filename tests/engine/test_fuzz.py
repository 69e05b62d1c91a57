"""``apply`` refuses any input at all with ``IllegalAction``, never another exception, and a
refusal never changes the state. Hypothesis generates arbitrary JSON-like values (huge and
negative ints, bools, floats with nan and inf, unicode, nested lists and dicts) as whole actions
and as the fields of every action type, in positions from every phase."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid
from powergrid.state import State
from tests.engine.helpers import random_move


class Big:
    """Stands for ``sign * 10**digits`` until the test runs: Hypothesis could not print a
    falsifying example holding an int over Python's 4300-digit ``str`` limit."""

    def __init__(self, digits: int, sign: int) -> None:
        self.value = sign * 10**digits
        self.text = f"{'-' if sign < 0 else ''}10**{digits}"

    def __repr__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Big) and other.text == self.text


def real(x: Any) -> Any:
    """``x`` with every :class:`Big` replaced by its int."""
    if isinstance(x, Big):
        return x.value
    if isinstance(x, dict):
        return {real(k): real(v) for k, v in x.items()}
    if isinstance(x, list):
        return [real(v) for v in x]
    if isinstance(x, tuple):
        return tuple(real(v) for v in x)
    return x


HUGE = st.builds(Big, st.sampled_from([10, 19, 40, 4300, 5000, 20000]), st.sampled_from([1, -1]))
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | HUGE
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["²", "١٢", "13", "0013", "essen", "coal", "hybrid", "", "1e3", "-3"])
)
KEYS = (
    st.text(max_size=8)
    | st.sampled_from(["type", "plant", "bid", "amount", "drop", "coal", "oil", "garbage"])
    | st.sampled_from(["uranium", "cities", "plants", "hybrid", "²", "12", "5"])
    | st.integers()
    | HUGE
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(KEYS, inner, max_size=4)
        | st.tuples(inner, inner)
    ),
    max_leaves=12,
)
TYPES = st.sampled_from(
    [
        "choose_plant",
        "pass_auction",
        "bid",
        "pass_bid",
        "discard_plant",
        "buy_resources",
        "build",
        "power",
    ]
)
FIELDS = st.sampled_from(
    ["plant", "bid", "amount", "drop", "coal", "oil", "garbage", "uranium", "cities", "plants"]
) | st.just("hybrid")
ACTIONS = (
    JSONISH
    | st.dictionaries(st.just("type"), JSONISH | TYPES, min_size=1)
    | st.builds(
        lambda t, fields: {"type": t, **fields},
        TYPES,
        st.dictionaries(FIELDS | KEYS, JSONISH, max_size=3),
    )
)
SEATS = st.one_of(st.integers(-2, 6), HUGE, st.booleans(), st.none(), st.text(max_size=3))


@cache
def positions() -> tuple[State, ...]:
    """Positions from every phase (including a pending discard and the end)."""
    out: dict[str, State] = {}
    for seed in range(40):
        rng = random.Random(seed)
        s = powergrid.new_game(players=2 + seed % 5, seed=seed)
        while s.phase != "finished":
            key = s.phase + (":discard" if s.discard else "") + (":bid" if s.auction else "")
            out.setdefault(key, s)
            seat, action = random_move(s, rng)
            s = powergrid.apply(s, seat, action)
        out.setdefault("finished", s)
    return tuple(out[k] for k in sorted(out))


def refusal(s: State, seat: Any, action: Any) -> powergrid.IllegalAction | None:
    """The refusal of ``action`` (None if accepted); any other exception fails the test."""
    try:
        powergrid.apply(s, seat, action)
    except powergrid.IllegalAction as e:
        return e
    return None


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 100), seat=SEATS, action=ACTIONS, own_seat=st.booleans())
def test_apply_refuses_anything_with_illegal_action(
    which: int, seat: Any, action: Any, own_seat: bool
) -> None:
    states = positions()
    s = states[which % len(states)]
    if own_seat and powergrid.to_act(s):
        seat = powergrid.to_act(s)[0]
    seat, action = real(seat), real(action)
    before = powergrid.to_json(s)
    e = refusal(s, seat, action)
    if e is not None:
        assert e.code in powergrid.CODES
        assert isinstance(e.message, str)
        assert len(json.dumps(e.to_dict())) < 500  # JSON-ready, nothing huge echoed back
    assert powergrid.to_json(s) == before


def test_positions_cover_every_phase() -> None:
    phases = {s.phase for s in positions()}
    assert phases == {"auction", "resources", "build", "bureaucracy", "finished"}
    assert any(s.discard for s in positions())
    assert any(s.auction for s in positions())


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": 10**5000}, "unknown_action"),
        ({"type": "choose_plant", "plant": 10**5000}, "unknown_plant"),
        ({"type": "choose_plant", "plant": -(10**5000)}, "unknown_plant"),
        ({"type": "bid", 10**5000: 1}, "invalid_field"),
        ({"type": "choose_plant", "plant": 3, "bid": 10**5000}, "invalid_field"),
        ({"type": "x" * 100_000}, "unknown_action"),
    ],
    ids=["type", "plant", "negative-plant", "key", "bid", "long-type"],
)
def test_huge_values_are_refused_without_echoing_them(action: Any, code: str) -> None:
    """Python cannot print an int over 4300 digits: such a value used to escape as ValueError."""
    s = powergrid.new_game(players=4, seed=1)
    seat = powergrid.to_act(s)[0]
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, seat, action)
    assert err.value.code == code
    assert len(json.dumps(err.value.to_dict())) < 500


def test_a_huge_seat_is_refused() -> None:
    s = powergrid.new_game(players=4, seed=1)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 10**5000, {"type": "pass_bid"})
    assert err.value.code == "invalid_field"


@pytest.mark.parametrize("key", ["²", "١٢", "１２"])
def test_a_hybrid_key_in_non_ascii_digits_is_refused(key: str) -> None:
    """'²'.isdigit() is true but int('²') raises ValueError; '١٢' is not the plant 12 either."""
    s = next(p for p in positions() if p.phase == "bureaucracy")
    seat = powergrid.to_act(s)[0]
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, seat, {"type": "power", "plants": [], "hybrid": {key: {"coal": 1}}})
    assert err.value.code == "invalid_field"
