"""What the server derives from the engine's action registry: the request schema, the forms and
the sentences of the move log and the emails (one wording for both)."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.utils import translation

from games.describe import legal_describe, move_describe
from games.web.forms import FormProblem, action_from_post
from powergrid.actions import ACTIONS
from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


def test_the_schema_describes_every_registered_action_with_its_fields():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = schema["components"]["schemas"]
    mapping = schemas["ActionRequest"]["discriminator"]["mapping"]
    assert list(mapping) == list(ACTIONS)
    for kind, spec in ACTIONS.items():
        body = schemas[mapping[kind].rsplit("/", 1)[-1]]
        assert set(body["properties"]) == spec.allowed
        required = {f.name for f in spec.fields if f.required and f.kind != "count"}
        assert required | {"type"} == set(body.get("required", []))


def _post(**fields: object) -> QueryDict:
    q = QueryDict(mutable=True)
    for k, v in fields.items():
        if isinstance(v, list):
            q.setlist(k, [str(x) for x in v])
        else:
            q[k] = str(v)
    return q


@pytest.mark.parametrize(
    ("post", "action"),
    [
        (
            _post(action="choose_plant", plant=13, bid=15),
            {"type": "choose_plant", "plant": 13, "bid": 15},
        ),
        (_post(action="pass_auction"), {"type": "pass_auction"}),
        (_post(action="bid", amount=20), {"type": "bid", "amount": 20}),
        (_post(action="pass_bid"), {"type": "pass_bid"}),
        (_post(action="discard_plant", plant=3), {"type": "discard_plant", "plant": 3}),
        (
            _post(action="discard_plant", plant=3, drop_coal=2),
            {"type": "discard_plant", "plant": 3, "drop": {"coal": 2}},
        ),
        (
            _post(action="buy_resources", coal=2, oil=1),
            {"type": "buy_resources", "coal": 2, "oil": 1, "garbage": 0, "uranium": 0},
        ),
        (_post(action="build", cities=["essen", ""]), {"type": "build", "cities": ["essen"]}),
        (
            _post(action="power", plants=[5, 13], hybrid_5_coal=1),
            {"type": "power", "plants": [5, 13], "hybrid": {"5": {"coal": 1, "oil": 1}}},
        ),
    ],
)
def test_a_move_form_reads_each_action_type(post, action):
    assert action_from_post(post) == action


def test_every_action_type_has_a_form_reading():
    for kind in ACTIONS:
        try:
            action = action_from_post(_post(action=kind, plant=4, bid=4, amount=5))
        except FormProblem:  # pragma: no cover - the form refused its own defaults
            pytest.fail(kind)
        assert action["type"] == kind


@pytest.mark.parametrize(
    "bad", [_post(action="nope"), _post(action="bid", amount="x"), _post(action="choose_plant")]
)
def test_a_bad_form_is_refused_with_a_sentence(bad):
    with pytest.raises(FormProblem) as err:
        action_from_post(bad)
    assert err.value.message


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_log_sentences_are_filled_in_either_language(lang):
    names = {0: "Alice", 1: "Bob"}
    entries = [
        {
            "kind": "buy_resources",
            "seat": 0,
            "params": {"tokens": {"coal": 2, "oil": 1}, "cost": 7},
        },
        {"kind": "build", "seat": 1, "params": {"cities": ["essen", "duisburg"]}},
        {"kind": "power", "seat": 1, "params": {"n": 0, "income": 10, "final": False}},
        {"kind": "sale", "seat": 0, "params": {"plant": 13, "price": 15}},
    ]
    with translation.override(lang):
        lines = [move_describe(e, names, "germany", lang) for e in entries]
    for line in lines:
        assert "%(" not in line
        assert "?" not in line
    assert "Alice" in lines[0]
    assert ("Essen" if lang == "en" else "エッセン") in lines[1]
    if lang == "en":
        assert lines[0] == "Alice bought 2 coal and 1 oil for 7."
        assert lines[2] == "Bob powered 0 cities and earned 10."


def test_what_a_turn_email_asks_follows_legal():
    legal = [
        {
            "type": "choose_plant",
            "plants": [{"number": 3, "min_bid": 3}, {"number": 4, "min_bid": 4}],
            "max_bid": 50,
        },
        {"type": "build", "cities": {"essen": 10}},
    ]
    with translation.override("en"):
        assert legal_describe(legal) == [
            "Choose a power plant to auction (available: 3, 4).",
            "Build in cities (1 city is open to you now).",
        ]
