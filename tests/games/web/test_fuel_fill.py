"""The buy form offers the one-tap email's fuel purchase ("Buy fuel for your 2 cities: 2 coal
for 3 Elektro", ``powergrid.helpers.refuel_plan`` through ``games.inbox.onetap.fuel_offers``)
as a link that fills the form in (``?fill=buy_fuel``): forms first, it works without a script,
and nothing is bought until the form is sent."""

from __future__ import annotations

import re

import pytest
from webhelpers import advance, fresh

pytestmark = pytest.mark.django_db


def _buyer(started_game):
    """A game in phase 3 whose awaited seat has plants that need fuel, and that seat's user."""
    import powergrid
    from games import selectors
    from games.inbox import onetap

    for _ in range(4):
        game, users = started_game(3)
        game = advance(game, users, "resources")
        for _ in range(3):
            g = fresh(game)
            seat = g.to_act[0]
            if onetap.fuel_offers(selectors.game_engine_state(g), seat):
                return g, users[seat], seat
            state = selectors.game_engine_state(g)
            from games import services

            services.move_submit(
                game_id=g.pk,
                user=users[seat],
                action=powergrid.default_action(state, seat),
                expected_seq=g.seq,
                source="api",
            )
    pytest.skip("no seat needing fuel was found")


def _value(page: str, resource: str) -> str:
    return re.search(rf'id="buy-{resource}"[^>]*value="(\d+)"', page).group(1)


def test_the_buy_form_offers_the_fuel_for_ones_cities_and_fills_it_in(started_game, client_for):
    from games import describe, selectors
    from games.inbox import onetap

    game, user, seat = _buyer(started_game)
    offers = onetap.fuel_offers(selectors.game_engine_state(game), seat)
    choice, plan = next(iter(offers.items()))  # round 1: no city yet, so only "if you build"
    c = client_for(user)
    page = c.get(f"/games/{game.pk}/").content.decode()
    form = page[page.index('data-action="buy_resources"') :]
    form = form[: form.index("</form>")]
    label = describe.fuel_label(plan, more=choice == "buy_fuel_more")
    assert label.startswith("Buy fuel for ")
    assert f"for {plan.cost} Elektro" in label
    assert f'href="/games/{game.pk}/?fill={choice}#move"' in form
    assert label in form
    for r in ("coal", "oil", "garbage", "uranium"):
        assert _value(page, r) == "0"  # nothing filled in until asked
    filled = c.get(f"/games/{game.pk}/?fill={choice}").content.decode()
    for r in ("coal", "oil", "garbage", "uranium"):
        assert _value(filled, r) == str(plan.amounts.get(r, 0))
    assert 'aria-current="true"' in filled
    # Sent as filled in, the form buys exactly that.
    money_before = selectors.game_state_for(fresh(game), user)["players"]
    before = next(p for p in money_before if p["seat"] == seat)["money"]
    data = {"action": "buy_resources", "expected_seq": fresh(game).seq}
    data.update({r: str(plan.amounts.get(r, 0)) for r in ("coal", "oil", "garbage", "uranium")})
    r = c.post(f"/games/{game.pk}/move/", data)
    assert r.status_code == 302
    after = selectors.game_state_for(fresh(game), user)["players"]
    assert next(p for p in after if p["seat"] == seat)["money"] == before - plan.cost


def test_only_the_awaited_buyer_sees_the_suggestion(started_game, client_for):
    game, _user, seat = _buyer(started_game)
    from games.models import Seat

    other = Seat.objects.filter(game=game).exclude(seat=seat).first().user
    page = client_for(other).get(f"/games/{game.pk}/").content.decode()
    assert "?fill=buy_fuel" not in page  # neither choice
