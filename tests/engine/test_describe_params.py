"""The move log's parameters are what ``powergrid.describe.Params`` declares (issue 24: no
``Any`` on the way from the engine to a reader). mypy checks the code that fills and reads them;
these tests check what games played at random produce against the declaration at run time, and
that every action field has its parameter, so a new field cannot be dropped from the log quietly.
"""

from __future__ import annotations

import random
import types
import typing

import pytest

import powergrid
from powergrid import bots, takeback
from powergrid.actions import ACTIONS, EVENTS
from powergrid.describe import COPIED, Entry, Params, move_entries
from tests.engine.helpers import random_move
from tests.engine.test_takeback import GAMES

DECLARED = typing.get_type_hints(Params)


def conforms(value: object, tp: object) -> bool:
    """Whether a JSON-like value is of the declared type (the few forms ``Params`` uses)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is bool:
        return type(value) is bool
    if tp is int:
        return type(value) is int
    if tp is str:
        return type(value) is str
    if origin is typing.Literal:
        return value in args
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, a) for a in args)
    if origin is list:
        return type(value) is list and all(conforms(x, args[0]) for x in value)
    if origin is dict:
        return type(value) is dict and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items()
        )
    raise AssertionError(f"conforms() does not know {tp!r}")


def check(entry: Entry) -> None:
    assert set(entry) == {"kind", "seat", "params"}, entry
    assert entry["kind"] in {*ACTIONS, *EVENTS, takeback.TAKEBACK, "other"}, entry
    assert entry["seat"] is None or type(entry["seat"]) is int, entry
    for key, value in entry["params"].items():
        assert key in DECLARED, f"{entry['kind']}: parameter {key!r} is not declared in Params"
        assert conforms(value, DECLARED[key]), (entry["kind"], key, value, DECLARED[key])


def test_the_checker_refuses_what_is_not_declared():
    assert conforms({"coal": 2}, DECLARED["tokens"])
    assert not conforms({"wood": 2}, DECLARED["tokens"])
    assert not conforms(True, DECLARED["price"])
    assert not conforms([1, "2"], DECLARED["cancels"])
    with pytest.raises(AssertionError):
        check({"kind": "sale", "seat": 0, "params": {"price": 3, "colour": "red"}})


def test_every_action_field_has_its_declared_parameter():
    """Tokens fields become ``tokens``, cities ``cities`` (with ``cost``), counts ``tokens``
    and ``cost``; every other field is copied under its own name, which Params declares."""
    for spec in ACTIONS.values():
        for f in spec.fields:
            if f.kind in ("count", "tokens", "cities"):
                continue
            assert f.name in COPIED, f"{spec.name}.{f.name} is not copied into the log"
            assert f.name in DECLARED, f"{spec.name}.{f.name} is not declared in Params"
    assert set(DECLARED) >= COPIED


@pytest.mark.parametrize("game", GAMES[:4], ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_every_entry_of_a_game_played_at_random_is_as_declared(game):
    map_, n, variant, deck, seed = game
    s = powergrid.new_game(map=map_, players=n, seed=seed, variant=variant, plant_deck=deck)
    rng = random.Random(seed + 70)
    kinds: set[str] = set()
    while s.phase != "finished":
        seat, action = random_move(s, rng)
        after = powergrid.apply(s, seat, action)
        for entry in move_entries(action, seat, powergrid.view(s), powergrid.view(after)):
            check(entry)
            kinds.add(entry["kind"])
        s = after
    assert {"sale", "buy_resources", "build", "power", "step", "round", "finished"} <= kinds


def test_the_random_bots_fields_are_copied_as_declared():
    """The random bots send every optional field (plants fired, a hybrid mix, tokens dropped):
    each is in the entry, as declared; a hybrid mix is keyed by plant numbers as strings."""
    copied: set[str] = set()
    for variant in ("standard", "sealed_bid"):
        state = powergrid.new_game(map="germany", players=4, seed=5, variant=variant)
        players = bots.make_bots("random", 4, 5)
        while state.phase != "finished":
            seat = powergrid.to_act(state)[0]
            action = players[seat].choose(state, seat)
            after = powergrid.apply(state, seat, action)
            entry = move_entries(action, seat, powergrid.view(state), powergrid.view(after))[0]
            check(entry)
            for name in COPIED & set(action):
                if ACTIONS[entry["kind"]].secret:
                    assert name not in entry["params"]  # a sealed bid never shows its amount
                    continue
                copied.add(name)
                value = entry["params"][name]
                if name == "hybrid":
                    assert value == {str(k): v for k, v in action[name].items()}
                else:
                    assert value == action[name]
            state = after
    assert {"plant", "bid", "amount", "plants"} <= copied


def test_a_takeback_and_an_unknown_move_are_as_declared():
    s = powergrid.new_game(map="germany", players=3, seed=1)
    view = powergrid.view(s)
    (back,) = move_entries(takeback.entry([4, 5], [1]), 0, view, view)
    check(back)
    assert back["params"] == {"n": 2, "cancels": [4, 5], "agreed": True}
    (other,) = move_entries({"type": "teleport"}, 0, view, view)
    check(other)
    assert other == {"kind": "other", "seat": 0, "params": {"type": "teleport"}}


@pytest.mark.parametrize("deck", ["new", "mixed"])
def test_a_new_deck_card_is_named_by_its_number_not_its_id(deck):
    """A card is sent by its id (100 + number in the New Power Plants deck); the log's sentence
    names the number printed on it ("put plant 101 up" was the id)."""
    s = powergrid.new_game(map="germany", players=3, seed=1, plant_deck=deck)
    seat = s.order[0]
    plants = powergrid.legal(s, seat)[0]["plants"]
    card = next(p for p in plants if p.get("id", p["number"]) != p["number"])
    action = {"type": "choose_plant", "plant": card["id"], "bid": card["min_bid"]}
    t = powergrid.apply(s, seat, action)
    (entry,) = move_entries(action, seat, powergrid.view(s), powergrid.view(t))
    assert entry["params"] == {"plant": card["number"], "bid": card["min_bid"]}
