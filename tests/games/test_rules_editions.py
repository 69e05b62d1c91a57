"""Rules editions on the server (powergrid.editions): a game started now plays the seeds as
written (France's 13 an ordinary card, no cap on cities); a game started before keeps the first
edition, replays to its snapshot and verifies; the sealed-bid auction is named a house rule."""

from __future__ import annotations

import io

import pytest
from apihelpers import play_default
from django.core.management import CommandError, call_command

import powergrid
from games import engine, selectors
from games.models import Game
from powergrid.verify import verify

pytestmark = pytest.mark.django_db


def _started_before_edition_2(new_game, monkeypatch, **create):
    """A game started by the lobby service while the first edition was the latest: what a game
    started before edition 2 is in the database (its snapshot without an ``edition`` key)."""
    from games import services

    gid, ps = new_game(start=False, **create)
    with monkeypatch.context() as m:
        m.setattr(engine, "LATEST_EDITION", 1)
        services.game_start(game_id=gid, user=ps[0].user)
    return gid, ps


def test_a_game_started_now_plays_the_latest_edition(new_game):
    gid, ps = new_game(players=3, map="france")
    game = Game.objects.get(pk=gid)
    assert game.rules_edition == engine.LATEST_EDITION == 2
    state = powergrid.from_json(game.state_json)
    assert state.edition == 2
    assert 13 not in state.removed
    body = ps[0].get(f"/api/v1/games/{gid}/").json()
    assert body["rules_edition"] == 2
    assert body["house_rules"] == []


def test_a_first_edition_france_game_keeps_its_rules_and_passes_the_replay_check(
    new_game, monkeypatch
):
    gid, ps = _started_before_edition_2(new_game, monkeypatch, players=3, map="france")
    play_default(gid, ps, times=25)
    game = Game.objects.get(pk=gid)
    state = powergrid.from_json(game.state_json)
    assert game.rules_edition == state.edition == 1
    assert 13 in state.removed
    assert '"edition"' not in game.state_json  # stored as games before editions were
    out = io.StringIO()
    call_command("check_replays", stdout=out)
    assert "france standard: 1 replayed, 0 differ" in out.getvalue()
    # The check would see a game replayed by the wrong edition: the field is what it replays by.
    Game.objects.filter(pk=gid).update(rules_edition=2)
    engine.state_forget(game_id=gid)
    with pytest.raises(CommandError):
        call_command("check_replays", stdout=io.StringIO())


def test_a_finished_first_edition_game_s_record_verifies_with_its_edition(new_game, monkeypatch):
    from apihelpers import play_to_end

    gid, ps = _started_before_edition_2(new_game, monkeypatch, players=2, map="france")
    play_to_end(gid, ps)
    game = Game.objects.get(pk=gid)
    record = selectors.game_record(game)
    assert record["edition"] == 1
    assert record["house_rules"] == []
    assert verify(record).ok
    assert ps[0].get(f"/api/v1/games/{gid}/record/").json()["edition"] == 1
    # Set up by the other edition, the same seed deals another deck: the record would not hold.
    assert not verify({**record, "edition": 2}).ok


@pytest.mark.parametrize(
    ("lang", "long", "short"),
    [
        (
            "en",
            "House rule: sealed-bid auctions (the published rules never hide a bid).",
            "house rule: sealed bids",
        ),
        (
            "ja",
            "ハウスルール：封印入札（公式ルールでは入札を伏せることはできません）。",
            "ハウスルール：封印入札",
        ),
    ],
)
def test_the_sealed_bid_auction_is_named_a_house_rule_everywhere(
    make_player, client, lang, long, short
):
    from accounts.models import Profile

    creator, other, third = make_player(), make_player(), make_player()
    Profile.objects.filter(user__in=[creator.user, other.user, third.user]).update(language=lang)
    r = creator.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"variant": "sealed_bid"}},
    )
    gid = r.json()["id"]
    assert r.json()["house_rules"] == ["sealed_bid"]
    client.force_login(other.user)
    assert short in client.get("/").content.decode()  # the lobby's list of open games
    assert long in client.get(f"/games/{gid}/").content.decode()  # the lobby of the game
    other.post(f"/api/v1/games/{gid}/join/")
    third.post(f"/api/v1/games/{gid}/join/")
    assert Game.objects.get(pk=gid).status == Game.Status.RUNNING
    assert long in client.get(f"/games/{gid}/").content.decode()  # the running game's page


def test_the_create_form_offers_sealed_bids_as_an_unticked_house_rule(make_player, client):
    client.force_login(make_player().user)
    html = client.get("/games/new/").content.decode()
    assert "House rule: sealed-bid auctions." in html
    assert 'name="sealed_bids"' in html
    assert 'name="sealed_bids" checked' not in html


def test_a_game_without_a_house_rule_says_none(new_game, client):
    gid, ps = new_game(players=2)
    client.force_login(ps[0].user)
    assert "House rule" not in client.get(f"/games/{gid}/").content.decode()
    assert ps[0].get(f"/api/v1/games/{gid}/").json()["house_rules"] == []
