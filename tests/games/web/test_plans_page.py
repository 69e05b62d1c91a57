"""The Plans page: give, change and withdraw each plan with plain forms, errors keep the inputs,
only the game's players reach it, and the page reads in Japanese."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def _page(client, game):
    return client.get(f"/games/{game.pk}/plans/")


def test_a_proxy_bid_is_given_changed_and_withdrawn_without_javascript(started_game, client_for):
    import powergrid
    from games.models import Game, Plan

    game, users = started_game()
    c = client_for(users[1])
    r = _page(c, game)
    assert r.status_code == 200
    assert b"<script" not in r.content
    plant = powergrid.from_json(Game.objects.get(pk=game.pk).state_json).market[0]
    r = c.post(f"/games/{game.pk}/plans/", {"kind": "proxy_bid", "plant": plant, "max": 30})
    assert r.status_code == 302
    assert Plan.objects.get(game=game).data == {"kind": "proxy_bid", "plant": plant, "max": 30}
    c.post(f"/games/{game.pk}/plans/", {"kind": "proxy_bid", "plant": plant, "max": 25})
    assert Plan.objects.get(game=game).data["max"] == 25  # changed, not doubled
    page = _page(c, game).content.decode()
    assert f"Bid for plant {plant} up to 25 Elektro" in page
    r = c.post(f"/games/{game.pk}/plans/", {"op": "delete", "kind": "proxy_bid", "plant": plant})
    assert r.status_code == 302
    assert not Plan.objects.filter(game=game).exists()
    assert "No plans" in _page(c, game).content.decode()


def test_a_refused_plan_keeps_the_inputs_and_says_why(started_game, client_for):
    from games.models import Plan

    game, users = started_game()
    c = client_for(users[0])
    r = c.post(
        f"/games/{game.pk}/plans/",
        {"kind": "buy", "coal": "2", "oil": "1", "max_price": "0"},
    )
    assert r.status_code == 400
    page = r.content.decode()
    assert 'data-code="invalid_plan"' in page
    assert "max_price" in page  # the engine's sentence names the field
    assert 'name="coal" type="number" min="0" max="24" inputmode="numeric" value="2"' in page
    assert not Plan.objects.filter(game=game).exists()


@pytest.mark.parametrize("kind", ["auto_pass", "pass_when_nothing", "power"])
def test_the_one_button_plans(started_game, client_for, kind):
    from games.models import Game, Plan

    game, users = started_game()
    seat = next(s.seat for s in game.seats.all() if s.user_id == users[2].pk)
    c = client_for(users[2])
    assert c.post(f"/games/{game.pk}/plans/", {"kind": kind}).status_code == 302
    assert Plan.objects.filter(game=game, seat=seat, kind=kind).exists()
    assert Game.objects.get(pk=game.pk).plans_active


def test_a_build_order_lists_the_cities_in_play(started_game, client_for):
    from games.models import Plan

    game, users = started_game(areas=["red", "yellow", "cyan"])
    c = client_for(users[0])
    page = _page(c, game).content.decode()
    assert 'value="essen"' in page
    assert 'value="berlin"' not in page  # brown: not in play
    r = c.post(
        f"/games/{game.pk}/plans/",
        {"kind": "build", "cities": ["essen", "duisburg"], "max_total": "40"},
    )
    assert r.status_code == 302
    assert Plan.objects.get(game=game).data["cities"] == ["essen", "duisburg"]
    r = c.post(
        f"/games/{game.pk}/plans/", {"kind": "build", "cities": ["berlin"], "max_total": "40"}
    )
    assert r.status_code == 400
    assert b'data-code="invalid_plan"' in r.content


def test_only_players_reach_the_page(started_game, client_for, make_user, client):
    game, _users = started_game()
    assert client_for(make_user()).get(f"/games/{game.pk}/plans/").status_code == 404
    r = client.get(f"/games/{game.pk}/plans/")
    assert r.status_code == 302
    assert "/login" in r["Location"]


def test_the_page_in_japanese(started_game, client_for, make_user):
    game, users = started_game()
    users[0].profile.language = "ja"
    users[0].profile.save()
    c = client_for(users[0])
    c.cookies["django_language"] = "ja"
    page = _page(c, game).content.decode()
    assert "最大入札" in page or "上限" in page


def test_the_game_page_links_to_the_plans_page_for_players_only(
    started_game, client_for, make_user
):
    game, users = started_game()
    assert (
        f"/games/{game.pk}/plans/"
        in client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    )
    assert (
        f"/games/{game.pk}/plans/"
        not in client_for(make_user()).get(f"/games/{game.pk}/").content.decode()
    )


def test_a_proxy_bid_may_name_the_plant_to_give_up(started_game, client_for):
    """Once the player holds plants, the maximum bid's form offers them (or "ask me then"); the
    plant named is kept with the plan and said back."""
    import powergrid
    from games.models import Game, Plan
    from games.services.moves import move_submit
    from powergrid.state import AUCTION

    game, users = started_game()
    by_seat = {s.seat: s.user for s in game.seats.all()}
    state = powergrid.from_json(Game.objects.get(pk=game.pk).state_json)
    while state.phase == AUCTION:  # round 1: everyone buys a plant
        seat = powergrid.to_act(state)[0]
        action = powergrid.default_action(state, seat)
        move_submit(game_id=game.pk, user=by_seat[seat], action=action,
                    expected_seq=Game.objects.get(pk=game.pk).seq, source="web")  # fmt: skip
        state = powergrid.from_json(Game.objects.get(pk=game.pk).state_json)
    seat = next(s for s, u in by_seat.items() if u == users[1])
    (mine,) = state.players[seat].plants
    c = client_for(users[1])
    page = _page(c, game).content.decode()
    assert 'name="discard"' in page
    assert f'<option value="{mine}">' in page
    plant = state.market[0]
    r = c.post(
        f"/games/{game.pk}/plans/",
        {"kind": "proxy_bid", "plant": plant, "max": 40, "discard": str(mine)},
    )
    assert r.status_code == 302, r.content.decode()[:500]
    assert Plan.objects.get(game=game).data["discard"] == mine
    assert f"give up plant {mine}" in _page(c, game).content.decode()
    r = c.post(
        f"/games/{game.pk}/plans/", {"kind": "proxy_bid", "plant": plant, "max": 40, "discard": ""}
    )
    assert "discard" not in Plan.objects.get(game=game).data  # "ask me then"


def _options(page: str) -> list[str]:
    import re

    select = re.search(r'<select id="proxy-plant".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_maximum_bid_list_names_each_plant_once_and_each_can_be_chosen(
    started_game, client_for
):
    """During an auction the plant under auction is offered once, as a plant (never "None"), and
    every entry of the list is a plan the server takes."""
    from webhelpers import actor, legal_for, play

    from games.models import Plan

    game, users = started_game(3)
    opener = actor(game, users)
    plants = sorted(p["number"] for p in legal_for(game, opener)["choose_plant"]["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plants[0], "bid": plants[0]})
    waiting = next(u for u in users if u.pk not in {opener.pk, actor(game, users).pk})
    c = client_for(waiting)
    options = _options(_page(c, game).content.decode())
    assert options
    assert len(options) == len(set(options))
    # Plant numbers as ASCII digits (isdigit() alone also accepts other scripts' digits).
    assert all(re.fullmatch(r"[0-9]+", o) for o in options), options
    assert str(plants[0]) in options
    for o in options:
        r = c.post(f"/games/{game.pk}/plans/", {"kind": "proxy_bid", "plant": o, "max": "30"})
        assert r.status_code == 302, (o, r.content[:300])
    assert Plan.objects.filter(game=game, kind="proxy_bid").count() == len(options)


def test_a_plan_that_acts_at_once_says_what_it_did(started_game, client_for):
    """Set during the player's own turn, a maximum bid bids at once: the page says the bid."""
    from webhelpers import actor, legal_for, play

    game, users = started_game(3)
    opener = actor(game, users)
    plants = sorted(p["number"] for p in legal_for(game, opener)["choose_plant"]["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plants[0], "bid": plants[0]})
    me = actor(game, users)
    c = client_for(me)
    r = c.post(
        f"/games/{game.pk}/plans/",
        {"kind": "proxy_bid", "plant": plants[0], "max": "30"},
        follow=True,
    )
    page = r.content.decode()
    assert "Your plan was kept and has moved for you:" in page
    assert f"bid {plants[0] + 1} for plant {plants[0]}." in page
