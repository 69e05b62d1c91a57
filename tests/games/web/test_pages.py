"""The web pages: home, create, lobby, the game page's forms for every phase and the error paths."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from webhelpers import actor, advance, fresh, legal_for, play, post_move

from games import selectors
from games.models import Game, Move

pytestmark = pytest.mark.django_db


def forms_on(html: str) -> list[str]:
    return re.findall(r'<form[^>]*data-action="([a-z_]+)"', html)


# -- home, create, lobby --------------------------------------------------------------------------


def test_home_anonymous_and_signed_in(client, make_user, client_for, started_game):
    r = client.get("/")
    assert r.status_code == 200
    assert b'<html lang="en">' in r.content
    game, users = started_game(3)
    r = client_for(users[0]).get("/")
    html = r.content.decode()
    assert f"/games/{game.pk}/" in html
    assert "Your games" in html
    # Each of your games says where it stands: a new game opens with round 1's auction.
    assert "Round 1 · Auction" in html


def test_create_game_random_and_chosen_areas(make_user, client_for):
    user = make_user()
    c = client_for(user)
    r = c.get("/games/new/")
    assert r.status_code == 200
    assert 'name="areas_germany"' in r.content.decode()
    r = c.post(
        "/games/new/",
        {"map": "germany", "max_players": "3", "area_mode": "random", "turn_hours": "12"},
    )
    assert r.status_code == 302
    game = Game.objects.latest("id")
    assert game.areas is None
    assert game.turn_hours == 12
    r = c.post(
        "/games/new/",
        {
            "map": "germany",
            "max_players": "3",
            "area_mode": "chosen",
            "areas_germany": ["green", "brown", "red"],
            "turn_hours": "24",
            "first_game": "on",
        },
    )
    assert r.status_code == 302
    game = Game.objects.latest("id")
    assert sorted(game.areas) == ["brown", "green", "red"]
    assert game.variant == "first_game"


def test_create_rejects_bad_hours(make_user, client_for):
    c = client_for(make_user())
    r = c.post(
        "/games/new/",
        {"map": "germany", "max_players": "3", "area_mode": "random", "turn_hours": "0"},
    )
    assert r.status_code == 400


def test_lobby_join_leave_start(make_user, client_for):
    a, b = make_user(), make_user()
    ca, cb = client_for(a), client_for(b)
    ca.post(
        "/games/new/",
        {"map": "germany", "max_players": "2", "area_mode": "random", "turn_hours": "24"},
    )
    game = Game.objects.latest("id")
    page = cb.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/join/" in page
    assert cb.post(f"/games/{game.pk}/join/").status_code == 302
    assert cb.post(f"/games/{game.pk}/leave/").status_code == 302
    assert game.seats.count() == 1
    cb.post(f"/games/{game.pk}/join/")
    r = cb.post(f"/games/{game.pk}/start/", follow=True)  # not the creator: a message, no 500
    assert r.status_code == 200
    assert "creator" in r.content.decode()
    ca.post(f"/games/{game.pk}/start/")
    assert fresh(game).status == "running"


# -- the game page ------------------------------------------------------------------


def test_board_and_markets(started_game, client_for):
    game, users = started_game(3)
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-city="essen"' in html
    assert 'data-city="muenchen"' in html
    for n in (3, 4, 5, 6, 7, 8, 9, 10):
        assert f'data-plant="{n}"' in html
    assert "cards in the deck" in html
    assert 'data-resource="uranium"' in html


def test_auction_forms_contested_bid_and_log(started_game, client_for):
    game, users = started_game(3)
    opener = actor(game, users)
    c = client_for(opener)
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert forms_on(html) == ["choose_plant"]  # round 1: no pass
    assert 'name="bid" value="3" min="3"' in html
    r = post_move(c, game, {"action": "choose_plant", "plant": "4", "bid": "4"})
    assert r.status_code == 302
    bidder = actor(game, users)
    assert bidder != opener
    cb = client_for(bidder)
    html = cb.get(f"/games/{game.pk}/").content.decode()
    assert forms_on(html) == ["bid", "pass_bid"]
    assert 'name="amount" value="5" min="5"' in html
    assert post_move(cb, game, {"action": "bid", "amount": "6"}).status_code == 302
    # everyone else drops out: the high bidder buys plant 4 for 6
    for _ in range(3):
        g = fresh(game)
        u = actor(g, users)
        if u == bidder or "pass_bid" not in legal_for(g, u):
            break
        assert post_move(client_for(u), g, {"action": "pass_bid"}).status_code == 302
    html = c.get(f"/games/{game.pk}/").content.decode()
    name = bidder.profile.display_name
    # The name in <bdi> (a left-to-right name needs no isolates) and a link to the player's page.
    link = (
        f'<a class="player-link" href="/players/{bidder.username}/" translate="no">'
        f"<bdi>{name}</bdi></a>"
    )
    assert f"{link} bought plant 4 for 6." in html
    assert f"{link} bid 6 for plant 4." in html
    assert "\u2068" not in html


def test_stale_form_shows_message_and_current_state(started_game, client_for):
    game, users = started_game(3)
    opener = actor(game, users)
    c = client_for(opener)
    r = post_move(c, game, {"action": "choose_plant", "plant": "3", "bid": "3"}, seq=5)
    assert r.status_code == 303
    assert r["Location"] == f"/games/{game.pk}/#move"
    html = c.get(r["Location"]).content.decode()
    assert 'role="alert"' in html
    assert "Someone moved before you" in html
    assert 'data-city="essen"' in html
    assert 'data-action="choose_plant"' in html
    assert fresh(game).seq == 0


def test_illegal_move_shows_engine_message(started_game, client_for):
    game, users = started_game(3)
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "choose_plant", "plant": "5", "bid": "2"}, follow=True)
    html = r.content.decode()
    assert 'data-code="bid_too_low"' in html
    assert fresh(game).seq == 0
    # garbage in a number field: a message, not a 500
    r = post_move(c, game, {"action": "choose_plant", "plant": "5", "bid": "lots"}, follow=True)
    assert 'data-code="invalid_field"' in r.content.decode()
    # not your turn
    other = next(u for u in users if u != actor(game, users))
    r = post_move(
        client_for(other), game, {"action": "choose_plant", "plant": "5", "bid": "5"}, follow=True
    )
    assert 'data-code="not_your_turn"' in r.content.decode()


def test_double_submit_applies_once(started_game, client_for):
    game, users = started_game(3)
    c = client_for(actor(game, users))
    body = {"action": "choose_plant", "plant": "3", "bid": "3", "form_id": "abc123"}
    r1 = post_move(c, game, body, seq=0)
    r2 = post_move(c, game, body, seq=0)
    assert r1.status_code == 302
    assert r2.status_code == 302
    assert Move.objects.filter(game=game).count() == 1
    page = c.get(r2["Location"]).content.decode()
    assert "already recorded" in page


def test_spectator_sees_no_form_and_no_money(started_game, make_user, client_for, client):
    game, users = started_game(3)
    for viewer in (client_for(make_user()), client):
        html = viewer.get(f"/games/{game.pk}/").content.decode()
        assert forms_on(html) == []
        assert "Elektro</span>" not in html
        assert 'class="money"' not in html
        assert "You are watching" in html
    # a player sees their own money only
    html = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    assert html.count('class="money"') == 1


def _buy_every_round_until_a_discard(game, users):
    """Both players buy the cheapest plant in every auction and keep their money otherwise.

    Two players may own four plants, so each player's fifth purchase (round 5 at the latest)
    must end in a discard.
    """
    for _ in range(300):
        g = fresh(game)
        user = actor(g, users)
        legal = legal_for(g, user)
        if "discard_plant" in legal:
            return g, user, legal["discard_plant"]
        if "choose_plant" in legal:
            cheapest = min(legal["choose_plant"]["plants"], key=lambda p: p["min_bid"])
            action = {"type": "choose_plant", "plant": cheapest["number"]}
        elif "pass_bid" in legal:
            action = {"type": "pass_bid"}
        elif "buy_resources" in legal:
            action = {"type": "buy_resources"}
        elif "build" in legal:
            action = {"type": "build", "cities": []}
        elif "power" in legal:
            action = {"type": "power"}
        else:
            action = {"type": "pass_auction"}
        play(g, user, action)
    raise AssertionError("nobody had to discard")


def test_discard_form(started_game, client_for):
    game, users = started_game(2)
    game, user, offered = _buy_every_round_until_a_discard(game, users)
    page = client_for(user).get(f"/games/{game.pk}/").content.decode()
    assert forms_on(page) == ["discard_plant"]
    for plant in offered["plants"]:
        assert f'value="{plant}"' in page
    other = next(u for u in users if u != user)
    assert forms_on(client_for(other).get(f"/games/{game.pk}/").content.decode()) == []

    seat = fresh(game).to_act[0]
    before = selectors.game_engine_state(fresh(game)).players[seat].plants
    assert len(before) == 5
    dropped = offered["plants"][0]
    r = post_move(client_for(user), game, {"action": "discard_plant", "plant": str(dropped)})
    assert r.status_code == 302
    after = selectors.game_engine_state(fresh(game)).players[seat].plants
    assert len(after) == 4
    assert dropped not in after


def test_resources_form(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "resources")
    u = actor(game, users)
    c = client_for(u)
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert forms_on(html) == ["buy_resources"]
    assert "data-prices=" in html
    assert "data-total" in html
    legal = legal_for(game, u)["buy_resources"]
    want = {r: min(1, legal["max"][r]) for r in ("coal", "oil", "garbage", "uranium")}
    r = post_move(c, game, {"action": "buy_resources", **{k: str(v) for k, v in want.items()}})
    assert r.status_code == 302
    # buying more than fits: the engine's message
    u2 = actor(game, users)
    r = post_move(client_for(u2), game, {"action": "buy_resources", "uranium": "9"}, follow=True)
    assert 'role="alert"' in r.content.decode()


def test_the_running_totals_prices_are_machine_readable_in_every_language(started_game, client_for):
    """static/js/game.js sums ``data-prices`` split on commas; the visible hint takes the
    reader's separator ("、" in Japanese), which the script read as NaN (an outsider's finding
    with a screen reader: the total read "NaN" in Japanese)."""
    game, users = started_game(3)
    game = advance(game, users, "resources")
    u = actor(game, users)
    u.profile.language = "ja"
    u.profile.save()
    html = client_for(u).get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    found = re.findall(r'data-prices="([^"]*)"', html)
    assert found
    for prices in found:
        assert re.fullmatch(r"(\d+(,\d+)*)?", prices), prices


def test_build_form_quote_and_preview(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "build")
    u = actor(game, users)
    c = client_for(u)
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert forms_on(html) == ["build"]
    assert 'class="city buildable' in html
    assert 'name="cities" value="' in html
    cities = sorted(legal_for(game, u)["build"]["cities"])
    pick = cities[:1]
    q = c.get(f"/games/{game.pk}/quote/", {"cities": pick}).json()
    assert q["cost"] == 10
    assert q["money_left"] >= 0
    # no-JS preview keeps the selection and shows the cost
    r = c.post(
        f"/games/{game.pk}/move/",
        {"action": "build", "preview": "1", "cities": pick, "expected_seq": fresh(game).seq},
    )
    assert r.status_code == 302
    html = c.get(r["Location"]).content.decode()
    assert f'value="{pick[0]}" id="build-{pick[0]}" checked' in html
    assert "<span data-cost>10</span>" in html
    r = post_move(c, game, {"action": "build", "cities": pick})
    assert r.status_code == 302
    assert Move.objects.filter(game=game).last().action == {"type": "build", "cities": pick}
    # an unreachable city set: quote error, not a 500
    q = c.get(f"/games/{game.pk}/quote/", {"cities": ["nowhere"]})
    assert q.status_code == 400
    assert "error" in q.json()


def test_power_form_best_preselected(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "bureaucracy")
    u = actor(game, users)
    c = client_for(u)
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert forms_on(html) == ["power"]
    assert re.search(r'name="plants" value="\d+" checked', html) or "You have no plants" in html
    r = c.post(
        f"/games/{game.pk}/move/",
        {
            "action": "power",
            "expected_seq": fresh(game).seq,
            "plants": re.findall(r'name="plants" value="(\d+)" checked', html),
        },
    )
    assert r.status_code == 302
    # Phase 5 asks everyone at once: the page says who has chosen and who is awaited.
    from games.selectors import seat_name

    page = c.get(f"/games/{game.pk}/").content.decode()
    game = fresh(game)
    if game.status == "running" and selectors.game_engine_state(game).phase == "bureaucracy":
        chosen = next(s for s in game.seats.all() if s.user_id == u.pk)
        assert (
            f'Already chosen: <a class="player-link" href="/players/{chosen.user.username}/" '
            f'translate="no"><bdi>{seat_name(chosen)}</bdi></a>'
        ) in page
        assert "Waiting for" in page


def test_history_hides_money_and_has_no_forms(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "build")
    u = actor(game, users)
    c = client_for(u)
    r = c.get(f"/games/{game.pk}/history/1/")
    assert r.status_code == 200
    html = r.content.decode()
    assert forms_on(html) == []
    assert "the board after move 1" in html
    assert html.count('class="money"') == 1  # the viewer's own money then, nobody else's
    # after move 0 no plant is owned
    html0 = c.get(f"/games/{game.pk}/history/0/").content.decode()
    assert 'class="plants small-cards"' not in html0
    assert c.get(f"/games/{game.pk}/history/999/").status_code == 404
    jump = c.get(f"/games/{game.pk}/history/", {"seq": "2"})
    assert jump.status_code == 302
    assert jump["Location"].endswith("/history/2/")


def test_calculator_without_js(started_game, client_for):
    game, users = started_game(3)
    c = client_for(users[0])
    html = c.get(
        f"/games/{game.pk}/", {"calc": "1", "calc_coal": "4", "calc_cities": "22", "calc_bid": "10"}
    ).content.decode()
    # coal 1+1+1+2 = 5; total 5 + 22 + 10 = 37; money 50 - 37 = 13
    assert "<span data-res>5</span>" in html
    assert "<span data-total>37</span>" in html
    assert "<span data-left>13</span>" in html
    # Every field is labelled; the cities field, an amount of Elektro, comes with an example.
    assert '<label for="calc-cities">' in html
    assert 'aria-describedby="calc-cities-hint"' in html
    assert 'id="calc-cities-hint">Example: ' in html


def test_reference_tables(started_game, client_for):
    game, users = started_game(3)
    html = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert "Resupply for 3 players" in html
    assert "<div><dt>20+</dt><dd>150</dd></div>" in html  # income for 20+


def test_language_switch_and_japanese(started_game, client_for):
    game, users = started_game(3)
    c = client_for(users[0])
    r = c.post("/language/", {"language": "ja", "next": f"/games/{game.pk}/"})
    assert r.status_code == 302
    users[0].profile.refresh_from_db()
    assert users[0].profile.language == "ja"
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert '<html lang="ja">' in html
    assert "エッセン" in html  # city names in Japanese


def test_accept_language_for_anonymous(started_game, client):
    game, _users = started_game(3)
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<html lang="ja">' in html


class _Labels(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.label_for: set[str] = set()
        self.inputs: list[tuple[str | None, bool, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "label":
            self.depth += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") != "hidden":
            self.inputs.append((a.get("id"), self.depth > 0, a.get("name") or ""))

    def handle_endtag(self, tag):
        if tag == "label":
            self.depth -= 1


def unlabelled(html: str) -> list[str]:
    p = _Labels()
    p.feed(html)
    return [name for id_, wrapped, name in p.inputs if not wrapped and id_ not in p.label_for]


def test_every_input_has_a_label(started_game, client_for):
    game, users = started_game(3)
    pages = [f"/games/{game.pk}/", "/games/new/", "/"]
    c = client_for(actor(game, users))
    for url in pages:
        assert unlabelled(c.get(url).content.decode()) == [], url
    for phase in ("resources", "build", "bureaucracy"):
        game = advance(game, users, phase)
        html = client_for(actor(game, users)).get(f"/games/{game.pk}/").content.decode()
        assert unlabelled(html) == [], phase


def test_a_missing_page_is_a_page_and_a_missing_api_url_is_json(client, make_user, client_for):
    r = client.get("/no/such/page/")
    assert r.status_code == 404
    assert r["Content-Type"].startswith("text/html")
    assert "Page not found" in r.content.decode()
    r = client_for(make_user()).get("/games/999999/")
    assert r.status_code == 404
    assert "Page not found" in r.content.decode()
    r = client.get("/api/v1/no-such-endpoint/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
