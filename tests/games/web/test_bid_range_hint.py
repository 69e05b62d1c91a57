"""Each bid box says its range to a screen reader (issue 38): the opening bid, the raise and the
sealed bid each carry ``min`` and ``max`` (the engine's least bid and the bidder's money) and an
``aria-describedby`` naming a hint that says both in words, in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation
from webhelpers import actor, fresh, legal_for, play

from games import selectors

pytestmark = pytest.mark.django_db

#: The hint's words, with the numbers it must say: (least, most) or (None, most).
HINTS = {
    "en": {
        "open": r"at least the plant's number, at most (\d+) \(all your money\)",
        "bid": r"at least (\d+), at most (\d+) \(all your money\)",
    },
    "ja": {
        "open": r"発電所の番号以上、(\d+)以下（所持金すべて）",
        "bid": r"(\d+)以上、(\d+)以下（所持金すべて）",
    },
}


@pytest.fixture(autouse=True)
def _language_back():
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _box(html: str, box_id: str) -> tuple[dict[str, str], str]:
    """The box's attributes and the text of the element its ``aria-describedby`` names."""
    tag = re.search(rf'<input id="{box_id}"[^>]*>', html)
    assert tag is not None, box_id
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(0)))
    described = attrs.get("aria-describedby", "")
    assert described, tag.group(0)
    hint = re.search(rf'<[a-z]+ [^>]*id="{described}"[^>]*>(.*?)</', html, re.S)
    assert hint is not None, described
    return attrs, " ".join(hint.group(1).split())


def _money(game, user) -> int:
    """The player's money, from their own view of the game."""
    state = selectors.game_state_for(fresh(game), user)
    return state["players"][state["seat"]]["money"]


def _page(client_for, game, user, lang: str) -> str:
    user.profile.language = lang
    user.profile.save(update_fields=["language"])
    return client_for(user).get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_opening_bid_and_the_raise_say_their_range(started_game, client_for, lang):
    game, users = started_game(3)
    opener = actor(game, users)
    entry = legal_for(game, opener)["choose_plant"]
    attrs, hint = _box(_page(client_for, game, opener, lang), "bid-open")
    assert attrs["max"] == str(entry["max_bid"]) == str(_money(game, opener))
    assert attrs["min"] == str(min(p["min_bid"] for p in entry["plants"]))
    m = re.fullmatch(HINTS[lang]["open"], hint)
    assert m is not None, hint
    assert m.group(1) == attrs["max"]

    plant = min(p["number"] for p in entry["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    bidder = actor(game, users)
    raise_ = legal_for(game, bidder)["bid"]
    attrs, hint = _box(_page(client_for, game, bidder, lang), "bid-raise")
    assert (attrs["min"], attrs["max"]) == (str(raise_["min"]), str(raise_["max"]))
    assert raise_["min"] == plant + 1
    assert raise_["max"] == _money(game, bidder)
    m = re.fullmatch(HINTS[lang]["bid"], hint)
    assert m is not None, hint
    assert (m.group(1), m.group(2)) == (attrs["min"], attrs["max"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_sealed_bid_says_its_range(started_game, client_for, lang):
    game, users = started_game(3, options={"variant": "sealed_bid"})
    opener = actor(game, users)
    plant = min(p["number"] for p in legal_for(game, opener)["choose_plant"]["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    bidder = actor(game, users)
    sealed = legal_for(game, bidder)["seal_bid"]
    attrs, hint = _box(_page(client_for, game, bidder, lang), "bid-seal")
    assert (attrs["min"], attrs["max"]) == (str(sealed["min"]), str(sealed["max"]))
    m = re.fullmatch(HINTS[lang]["bid"], hint)
    assert m is not None, hint
    assert (m.group(1), m.group(2)) == (str(plant + 1), str(_money(game, bidder)))
