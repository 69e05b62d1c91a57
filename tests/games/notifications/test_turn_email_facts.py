"""The turn email carries everything needed to decide without opening a page (issue 36): the plant
market (current and future), the resource market, one's plants with the tokens on each, money and
cities, the cheapest next cities with their costs, and the others' public facts; in English and
Japanese, text and HTML.

A test per phase plays a real game (the heuristic bot's moves, through the API) to a position of
that phase, builds the turn email as the outbox does, and checks every fact against the ENGINE's
own figures (the stored state, ``powergrid.quote_build``, the market's price table), not against
the view the email was made from. The leak test changes what the recipient may not see (the deck's
order and the plants removed face down, the seed, the others' money, their sealed bids) and finds
the email unchanged; the same walk catches an email made from the deck."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import accumulate
from typing import Any

import pytest
import time_machine
from apihelpers import bot_action, seat_players
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.text import capfirst

from games.describe import plant_name

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ja")


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _state(gid: int) -> Any:
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _play_until(gid: int, ps: list[Any], done: Any, limit: int = 600) -> None:
    """The awaited seats play the heuristic bot's moves until ``done(state)``."""
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    for _ in range(limit):
        if done(_state(gid)):
            return
        g = Game.objects.get(pk=gid)
        seat = g.to_act[0]
        body = {"action": bot_action(gid, seat, bot), "expected_seq": g.seq}
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", body)
        assert r.status_code == 201, r.content
    raise AssertionError("the position was not reached")


def _turn(gid: int, user: Any, lang: str) -> tuple[Any, Any]:
    """(the turn email's context, the email) for ``user`` in ``lang``, as the outbox builds them."""
    from games.models import Notification
    from games.notifications import builders, emails

    user.profile.language = lang
    user.profile.save()
    n = Notification(recipient=user, game_id=gid, kind="turn", payload={})
    with translation.override(lang):
        ctx = builders.turn_context(n, reminder=False)
    mail = emails.email_build(n)
    assert ctx is not None
    assert mail is not None
    return ctx, mail


def _html(mail: Any) -> str:
    return mail.alternatives[0][0]


def _line_with(text: str, *needles: str) -> str:
    """The one line of ``text`` holding every needle (the first such)."""
    for line in text.splitlines():
        # Japanese writes the full-width colon where English writes ":".
        if all(n in line.replace("：", ":") for n in needles):
            return line
    raise AssertionError(f"no line holds {needles!r}")


# -- the engine's figures -------------------------------------------------------------------------


def _plant(pid: int) -> dict[str, Any] | None:
    from powergrid.plants import PLANTS, STEP3

    if pid == STEP3:
        return None
    card = PLANTS[pid]
    return {"number": card.number, "fuel": card.fuel, "burns": card.burns, "powers": card.powers}


def _check_plant(line: dict[str, Any], pid: int) -> None:
    from games.web.present import fuel_label

    want = _plant(pid)
    if want is None:
        assert line["number"] is None
        return
    assert line["number"] == want["number"]
    assert (line["burns"], line["powers"]) == (want["burns"], want["powers"])
    assert line["fuel"] == fuel_label(want["fuel"])
    assert str(want["number"]) in line["text"]
    assert str(want["powers"]) in line["text"]
    if want["burns"]:
        assert str(want["burns"]) in line["text"]
        assert line["fuel"] in line["text"]


def _cheapest_cities(s: Any, seat: int) -> list[tuple[int, str]]:
    """Every city ``seat`` may add alone now, priced by the engine, cheapest first."""
    import powergrid
    from powergrid.errors import IllegalAction

    out = []
    for slug in s.board.cities:
        try:
            out.append((powergrid.quote_build(s, seat, [slug]), slug))
        except IllegalAction:
            continue
    return sorted(out)


def _check_summary(summary: dict[str, Any], s: Any, seat: int, names: dict[int, str]) -> None:
    """Every fact of the summary equals the engine's."""
    import powergrid
    from games.describe import resource_label
    from games.notifications.facts import NEXT_CITIES, NEXT_CITIES_BRIEF
    from powergrid.maps import load_map, name_in
    from powergrid.tables import CURRENT_SIZE, RESOURCES, market_prices

    lang = translation.get_language()
    gmap = load_map(s.map)
    # The plant market: current and future, each card as the engine has it.
    current = s.market if s.step == 3 else s.market[:CURRENT_SIZE]
    future = () if s.step == 3 else s.market[CURRENT_SIZE:]
    assert len(summary["market_current"]) == len(current)
    assert current
    assert len(summary["market_future"]) == len(future)
    for line, pid in zip(
        summary["market_current"] + summary["market_future"], current + future, strict=True
    ):
        _check_plant(line, pid)
    assert summary["deck_size"] == len(s.deck)
    # The resource market: the tokens at each price, and what buying k costs the buyer.
    legal = {e["type"]: e for e in powergrid.legal(s, seat)}
    for i, (r, line) in enumerate(zip(RESOURCES, summary["resources"], strict=True)):
        prices = market_prices(i, s.resources[i])
        assert line["resource"] == r
        assert line["label"] == resource_label(r)
        assert line["count"] == s.resources[i] == len(prices)
        assert line["next_price"] == (prices[0] if prices else None)
        for price, n in Counter(prices).items():
            assert translation.gettext("price %(p)s: %(n)s") % {"p": price, "n": n} in line["text"]
        most = legal["buy_resources"]["max"][r] if "buy_resources" in legal else 0
        assert line["costs"] == list(accumulate(prices[:most]))
        if most:
            assert line["costs"][-1] == sum(prices[:most])
    assert summary["buying"] == (
        "buy_resources" in legal and any(r["costs"] for r in summary["resources"])
    )
    # The players: the recipient's money, and everyone's cities, plants and tokens.
    view = powergrid.view(s, seat)  # where the rules place each player's tokens
    me = summary["me"]
    others = [p for p in s.order if p != seat]
    assert [o["name"] for o in summary["others"]] == [names[p] for p in others]
    for facts, p in [(me, seat), *list(zip(summary["others"], others, strict=True))]:
        player = s.players[p]
        assert facts["you"] == (p == seat)
        assert facts["money"] == (player.money if p == seat else None)
        assert facts["cities"] == len(player.cities)
        for slug in player.cities:
            assert name_in(gmap.cities[slug], lang) in facts["city_names"]
        assert [x["number"] for x in facts["plants"]] == [
            _plant(x)["number"] for x in player.plants
        ]
        for line, pid, placed in zip(
            facts["plants"], player.plants, view["players"][p]["plants"], strict=True
        ):
            _check_plant(line, pid)
            assert line["tokens"] == placed["stored"]
        held = Counter()
        for line in facts["plants"]:
            held.update(line["tokens"])
        assert tuple(held[r] for r in RESOURCES) == player.res
    # The cheapest next cities: the engine's quotes, cheapest first.
    limit = NEXT_CITIES if s.phase == "build" else NEXT_CITIES_BRIEF
    quotes = _cheapest_cities(s, seat)
    listed = summary["next_cities"]
    assert [c["total"] for c in listed] == [q for q, _slug in quotes[:limit]]
    for c in listed:
        assert (
            c["total"]
            == powergrid.quote_build(s, seat, [c["slug"]])
            == c["space"] + c["connection"]
        )
        assert c["name"] == name_in(gmap.cities[c["slug"]], lang)
        if "build" in legal:
            assert legal["build"]["cities"].get(c["slug"], c["total"]) == c["total"]
    # The auction under way.
    if s.auction is not None:
        assert str(_plant(s.auction.plant)["number"]) in summary["auction"]
        assert str(s.auction.bid) in summary["auction"]
        assert names[s.auction.high] in summary["auction"]
    else:
        assert summary["auction"] == ""


def _check_rendered(summary: dict[str, Any], mail: Any) -> None:
    """Every fact of the summary is in the text part and in the HTML (its tables)."""
    from games.templatetags.names import isolate

    text, html = mail.body, _html(mail)
    for part, shown in ((text, lambda x: x), (html, escape)):
        for line in summary["market_current"] + summary["market_future"]:
            if part is text or line["number"] is None:
                assert shown(line["text"]) in part
        if summary["auction"]:
            assert shown(summary["auction"]) in part
        for r in summary["resources"]:
            assert shown(r["prices"] or r["label"]) in part
            if r["costs"]:
                assert shown(r["costs_text"]) in part
        me = summary["me"]
        assert (
            translation.gettext("Your money: %(money)s Elektro.") % {"money": me["money"]} in part
        )
        for facts in [me, *summary["others"]]:
            if facts["city_names"]:
                assert shown(facts["city_names"]) in part
            for line in facts["plants"]:
                assert shown(line["text"]) in part
        for c in summary["next_cities"]:
            assert shown(c["name"]) in part
    # The text: one labelled line per plant, resource, city; the HTML: tables with headers.
    for line in summary["market_current"] + summary["market_future"]:
        assert f"  - {line['text']}\n" in text
    for r in summary["resources"]:
        assert f"  - {r['text']}\n" in text
    for o in summary["others"]:
        assert f"  {isolate(o['name'])}:\n" in text
        assert f"<bdi>{escape(o['name'])}</bdi>" in html
    for c in summary["next_cities"]:
        line = _line_with(text, c["name"] + ":")
        assert all(str(c[k]) in line for k in ("total", "space", "connection"))
    for line in summary["market_current"] + summary["market_future"]:
        if line["number"] is not None:
            # Each row headed by the plant's name ("Plant 13"), not a bare number.
            name = capfirst(plant_name(line["number"]))
            row = f'<th scope="row" style="text-align:left;padding:.2rem .6rem">{name}</th>'
            assert row in html
    assert html.count('<th scope="col"') >= 4 + 4 + 3 + (4 if summary["next_cities"] else 0)
    assert "<table" in html
    assert "+--" not in text
    assert "|" not in text


def _check_accessible(mail: Any, lang: str) -> None:
    """With real facts, the email reads as every email must (the accessible-email walk's checks,
    test_emails_accessible.py, whose own cases carry no real facts: a heading of the facts that
    the text part worded differently passed there)."""
    from test_emails_accessible import _heading_order, _html_problems, _text_problems

    html = _html(mail)
    problems = _html_problems(html, mail.subject, lang)
    problems += _text_problems(mail.body)
    problems += _heading_order(html, mail.body, mail.subject)
    assert problems == [], problems


def _check_position(gid: int, ps: list[Any], seat: int) -> dict[str, Any]:
    """The turn email of ``seat`` now, in both languages: every fact is there and is the engine's.
    Returns the English context's summary."""
    from games.models import Game
    from games.notifications.parts import seat_names

    user = seat_players(gid, ps)[seat].user
    s = _state(gid)
    got = {}
    for lang in LANGUAGES:
        ctx, mail = _turn(gid, user, lang)
        with translation.override(lang):
            names = seat_names(Game.objects.get(pk=gid))
            _check_summary(ctx["summary"], s, seat, names)
            _check_rendered(ctx["summary"], mail)
        _check_accessible(mail, lang)
        got[lang] = (ctx, mail)
    # The Japanese email names the cities and resources in Japanese.
    ja = got["ja"][1].body
    assert "石炭" in ja
    from powergrid.maps import load_map, name_in

    gmap = load_map(s.map)
    for slug in s.players[seat].cities:
        assert name_in(gmap.cities[slug], "ja") in ja
    return got["en"][0]["summary"]


# -- a test per phase ----------------------------------------------------------------------------


def _round2(phase: str):
    return lambda s: s.round == 2 and s.phase == phase


def test_the_round_sheets_email_has_every_fact_beside_the_sheet(new_game):
    """Round sheets are on by default: a round begins with every seat's sheet (auction phase, no
    plant put up yet)."""
    from games.models import DEFAULT_OPTIONS, Game

    assert DEFAULT_OPTIONS["sheets"] is True
    gid, ps = new_game(players=3)
    _play_until(gid, ps, lambda s: s.round == 2 and s.phase == "auction" and s.auction is None)
    seat = Game.objects.get(pk=gid).to_act[0]
    summary = _check_position(gid, ps, seat)
    _ctx, mail = _turn(gid, seat_players(gid, ps)[seat].user, "en")
    assert "Your round sheet for round 2" in mail.body
    assert summary["me"]["plants"]
    assert summary["me"]["cities"]
    # Outside the building phase, the first few next cities.
    assert 0 < len(summary["next_cities"]) <= 3


def test_the_auction_email_has_every_fact_and_the_bid_under_way(new_game):
    from games.models import Game

    gid, ps = new_game(players=3)
    _play_until(gid, ps, lambda s: s.round == 2 and s.auction is not None)
    seat = Game.objects.get(pk=gid).to_act[0]
    summary = _check_position(gid, ps, seat)
    assert summary["auction"].startswith("Auction for plant")
    assert "Still bidding:" in summary["auction"]


def test_the_resources_email_has_every_fact_and_what_buying_costs(new_game):
    from games.models import Game

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("resources"))
    seat = Game.objects.get(pk=gid).to_act[0]
    summary = _check_position(gid, ps, seat)
    assert summary["buying"]
    _ctx, mail = _turn(gid, seat_players(gid, ps)[seat].user, "en")
    assert "What buying 1, 2, 3... tokens costs you now" in mail.body


def test_the_building_email_has_every_fact_and_the_cheapest_cities(new_game):
    from games.models import Game

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("build"))
    seat = Game.objects.get(pk=gid).to_act[0]
    summary = _check_position(gid, ps, seat)
    assert summary["building"]
    assert len(summary["next_cities"]) == 6
    _ctx, mail = _turn(gid, seat_players(gid, ps)[seat].user, "en")
    assert "Your cheapest next cities (the cheapest first, each added alone):" in mail.body


def test_the_bureaucracy_email_has_every_fact(new_game):
    from games.models import Game

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("bureaucracy"))
    game = Game.objects.get(pk=gid)
    assert len(game.to_act) > 1  # every seat powers at once
    for seat in game.to_act:
        _check_position(gid, ps, seat)


# -- what the email must not depend on ------------------------------------------------------------


def _texts(gid: int, user: Any) -> dict[str, tuple[str, str]]:
    """The turn email's text and HTML in each language, links left out (signed, they differ)."""
    links = re.compile(r"https://pg\.example/\S+?/(?=[\s\"<])")
    out = {}
    for lang in LANGUAGES:
        _ctx, mail = _turn(gid, user, lang)
        out[lang] = (links.sub("LINK", mail.body), links.sub("LINK", _html(mail)))
    return out


def _sealed_position(new_game) -> tuple[int, list[Any], int]:
    """A sealed-bid game in round 2: a plant put up, another bidder's sealed bid in, the
    recipient's awaited (test_practice_leaks's position)."""
    from test_practice_leaks import _mid_game

    gid, seats, me = _mid_game(new_game, opened=False)
    return gid, list(seats.values()), me


def _resources_position(new_game) -> tuple[int, list[Any], int]:
    from games.models import Game

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("resources"))
    return gid, ps, Game.objects.get(pk=gid).to_act[0]


@pytest.mark.parametrize("position", [_sealed_position, _resources_position])
def test_the_hidden_state_changes_nothing_in_the_email(new_game, position):
    """The deck's order, the plants removed face down, the seed, the others' money and their
    sealed bids changed: the same email, word for word, in both languages."""
    from test_practice_leaks import _tamper

    with time_machine.travel(timezone.now(), tick=False):
        gid, ps, me = position(new_game)
        user = seat_players(gid, ps)[me].user
        before = _texts(gid, user)
        original, tampered = _tamper(gid, me, random.Random(36))
        assert tampered.deck != original.deck
        assert tampered.seed != original.seed
        assert [p.money for i, p in enumerate(tampered.players) if i != me] != [
            p.money for i, p in enumerate(original.players) if i != me
        ]
        assert _texts(gid, user) == before
        for lang in LANGUAGES:
            for part in before[lang]:
                assert str(original.seed) not in part


def leak_the_deck(monkeypatch: Any) -> None:
    """Emails built from a view whose future market was read off the deck (what the leak tests
    must catch)."""
    from games.notifications import parts
    from powergrid.view import card_dict

    real = parts.view_for

    def leaky(game: Any, user: Any, seat_no: int, pf: Any) -> Any:
        view = dict(real(game, user, seat_no, pf))
        future = [card_dict(x) for x in _state(game.pk).deck[:4]]
        view["plant_market"] = {**view["plant_market"], "future": future}
        return view

    monkeypatch.setattr(parts, "view_for", leaky)


def test_the_leak_test_catches_an_email_made_from_the_deck(new_game, monkeypatch):
    """The same walk on an email whose future market was read off the deck: it differs."""
    from test_practice_leaks import _tamper

    leak_the_deck(monkeypatch)
    with time_machine.travel(timezone.now(), tick=False):
        gid, ps, me = _resources_position(new_game)
        user = seat_players(gid, ps)[me].user
        before = _texts(gid, user)
        _tamper(gid, me, random.Random(36))
        assert _texts(gid, user) != before


def test_the_facts_cost_no_query(new_game):
    """The facts are made from the view the batch already built: not one query more."""
    from games.models import Game
    from games.notifications import parts

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("build"))
    game = Game.objects.get(pk=gid)
    seat = game.to_act[0]
    user = seat_players(gid, ps)[seat].user
    pf = parts.Prefetch()
    view = parts.view_for(game, user, seat, pf)
    names = parts.seat_names(game, pf)
    with CaptureQueriesContext(connection) as q:
        summary = parts.state_summary(view, names, seat)
    assert summary["next_cities"]
    assert summary["me"] is not None
    assert len(q.captured_queries) == 0, [x["sql"] for x in q.captured_queries]


def test_step_3_lists_one_market_of_six_and_the_step_3_card(new_game):
    """In step 3 every plant of the market can be bought: one list, no future market; the Step 3
    card, while it waits in the market, is named as such."""
    import powergrid
    from games.notifications import facts
    from powergrid.plants import STEP3

    gid, ps = new_game(players=3)
    _play_until(gid, ps, _round2("auction"))
    s = _state(gid)
    names = {i: f"P{i}" for i in range(3)}
    three = s.replace(step=3, market=(*s.market[:5], STEP3))
    got = facts.facts(powergrid.view(three, 0), names, 0)
    assert len(got["market_current"]) == 6
    assert got["market_future"] == []
    assert got["market_current"][-1]["number"] is None
    assert "Step 3" in got["market_current"][-1]["text"]


def test_the_game_started_email_that_asks_the_first_move_has_the_facts(new_game):
    """The first move is asked in the game-started email, not a turn email: the same facts."""
    from games.models import Game, Notification
    from games.notifications import builders, emails
    from games.notifications.parts import seat_names

    gid, ps = new_game(players=3)
    seat = Game.objects.get(pk=gid).to_act[0]
    user = seat_players(gid, ps)[seat].user
    row = Notification.objects.get(game_id=gid, recipient=user, kind="game_started")
    ctx = builders.started_context(row)
    mail = emails.email_build(row)
    assert ctx is not None
    assert mail is not None
    s = _state(gid)
    names = seat_names(Game.objects.get(pk=gid))
    with translation.override("en"):
        _check_summary(ctx["summary"], s, seat, names)
        _check_rendered(ctx["summary"], mail)
    assert "Your money: 50 Elektro." in mail.body
    waiting = next(p for p in seat_players(gid, ps) if p != seat)
    other = Notification.objects.get(
        game_id=gid, recipient=seat_players(gid, ps)[waiting].user, kind="game_started"
    )
    assert "Power plant market" not in emails.email_build(other).body  # not asked: no facts
