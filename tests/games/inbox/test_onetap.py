"""One-tap links in a turn email: a GET only shows the confirmation, the POST makes the move once;
a used, stale, forged or someone else's link is refused and changes nothing."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.django_db


def _links(gid: int, player):
    from games.models import Notification
    from games.notifications.emails import email_build

    n = Notification(recipient=player.user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert mail is not None
    return mail


def _auction_bidder(new_game):
    from apihelpers import seat_players

    import powergrid
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    opener = powergrid.to_act(s)[0]
    plant = s.market[0]
    r = seats[opener].post(f"/api/v1/games/{gid}/moves/",
                           {"action": {"type": "choose_plant", "plant": plant, "bid": plant},
                            "expected_seq": 0})  # fmt: skip
    assert r.status_code == 201
    bidder = Game.objects.get(pk=gid).to_act[0]
    return gid, seats, bidder


def _tap_url(gid, player) -> str:
    mail = _links(gid, player)
    line = next(x for x in mail.body.splitlines() if x.strip().startswith("Pass this auction:"))
    return (
        line.split(": ", 1)[1]
        .strip()
        .removeprefix("https://pg.example")
        .removeprefix("http://127.0.0.1:8000")
    )


def test_get_shows_a_confirmation_and_only_the_post_acts_once(new_game, client):
    from games.models import Game, Move

    gid, seats, bidder = _auction_bidder(new_game)
    url = _tap_url(gid, seats[bidder])
    page = client.get(url)
    assert page.status_code == 200
    assert b"Pass: leave this auction" in page.content
    assert Game.objects.get(pk=gid).seq == 1  # a GET never acts (mail scanners follow links)
    r = client.post(url)
    assert r.status_code == 200
    assert b"Done" in r.content
    move = Move.objects.get(game_id=gid, seq=2)
    assert (move.seat, move.action, move.source) == (bidder, {"type": "pass_bid"}, "email")
    again = client.post(url)
    assert again.status_code == 410
    assert Move.objects.filter(game_id=gid).count() == 2


def test_a_link_of_a_turn_that_moved_on_is_refused(new_game, client):
    from games.models import Game

    gid, seats, bidder = _auction_bidder(new_game)
    url = _tap_url(gid, seats[bidder])
    seats[bidder].post(f"/api/v1/games/{gid}/moves/",
                       {"action": {"type": "pass_bid"}, "expected_seq": 1})  # fmt: skip
    r = client.post(url)
    assert r.status_code == 410
    assert b'data-code="moved_on"' in r.content
    assert Game.objects.get(pk=gid).seq == 2


def test_another_signed_in_user_cannot_use_it_and_a_forged_link_fails(new_game, client):
    from games.models import Game

    gid, seats, bidder = _auction_bidder(new_game)
    url = _tap_url(gid, seats[bidder])
    other = next(p for s, p in seats.items() if s != bidder)
    client.force_login(other.user)
    assert client.post(url).status_code == 403
    client.logout()
    assert client.post(url[:-6] + "abcde/").status_code == 410
    assert Game.objects.get(pk=gid).seq == 1


def test_an_expired_link_is_refused(new_game, client):
    from games.inbox import onetap
    from games.models import Game

    gid, seats, bidder = _auction_bidder(new_game)
    game = Game.objects.get(pk=gid)
    url = onetap.link(game=game, seat=bidder, user_id=seats[bidder].user.pk, choice="pass_bid",
                      hours=-1)  # fmt: skip
    r = client.post(urlsplit(url).path)
    assert r.status_code == 410
    assert b'data-code="expired"' in r.content


def _fuel_line(mail, words: str) -> tuple[str, str]:
    line = next(x for x in mail.body.splitlines() if words in x)
    return line, "/" + line.split("://", 1)[1].split("/", 1)[1].strip()


def test_fuel_for_the_cities_one_builds_this_round_is_one_tap_away(new_game, client):
    """Round 1's phase 3: no city yet, so the fuel offered is for what this round's build may
    connect (all the plants), said so and priced on the button; the POST buys exactly that."""
    from apihelpers import play_default

    import powergrid
    from games.models import Game, Move
    from powergrid.helpers import capacity, refuel_plan
    from powergrid.state import RESOURCES

    gid, ps = new_game(players=3)
    while Game.objects.get(pk=gid).state_json and _phase(gid) != RESOURCES:
        play_default(gid, ps)  # round 1's auction: everyone buys a plant
    game = Game.objects.get(pk=gid)
    seat = game.to_act[0]
    state = powergrid.from_json(game.state_json)
    assert refuel_plan(state, seat) is None  # no city to power yet
    plan = refuel_plan(state, seat, cities=capacity(state, seat))
    assert plan  # a fresh plant holds no fuel, and the money is there
    player = next(p for p in ps if p.user.pk == game.seats.get(seat=seat).user_id)
    mail = _links(gid, player)
    line, url = _fuel_line(mail, "if you build this round")
    assert f"for {plan.cost} Elektro" in line
    page = client.get(url)
    assert page.status_code == 200
    for r, n in plan.amounts.items():
        assert f"{n} {r}" in page.content.decode()
    assert f"for {plan.cost} Elektro" in page.content.decode()
    assert client.post(url).status_code == 200
    move = Move.objects.get(game_id=gid, seq=game.seq + 1)
    assert (move.seat, move.action) == (seat, {"type": "buy_resources", **plan.amounts})


def test_the_fuel_button_names_the_cities_and_the_price_in_both_languages():
    from django.utils import translation

    from games import describe
    from powergrid.helpers import Refuel

    plan = Refuel({"coal": 2}, 5, 2)
    assert describe.fuel_label(plan) == "Buy fuel for your 2 cities: 2 coal for 5 Elektro"
    with translation.override("ja"):
        ja = describe.fuel_label(plan)
        more = describe.fuel_label(plan, more=True)
    assert "5" in ja
    assert "Elektro" not in ja
    assert "エレクトロ" in ja
    assert "建設" in more


def _phase(gid: int) -> str:
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json).phase
