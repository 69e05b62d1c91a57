"""After a move form is sent: a refusal brings the player back to the game's own address with
the form as they filled it and the error beside it (shown once); a move made shows its message at
the top of the page instead of jumping past it."""

from __future__ import annotations

import re

import pytest
from webhelpers import actor, advance, fresh, legal_for, post_move

pytestmark = pytest.mark.django_db


def _move_card(html: str) -> str:
    start = html.index('id="move"')
    return html[start : html.index("</section>", start)]


def test_a_refused_bid_keeps_the_choice_and_shows_the_error_in_the_move_card(
    started_game, client_for
):
    game, users = started_game(3)
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "choose_plant", "plant": "5", "bid": "2"})
    assert r.status_code == 303
    assert r["Location"] == f"/games/{game.pk}/#move"  # the game, not /move/
    card = _move_card(c.get(r["Location"]).content.decode())
    assert 'data-code="bid_too_low"' in card
    assert card.index('role="alert"') < card.index("<form")  # beside the form, above it
    assert re.search(r'name="plant" value="5" data-min="\d+" checked', card)
    assert len(re.findall(r'name="plant"[^>]* checked', card)) == 1
    assert 'name="bid" value="2"' in card
    # Shown once: the page opened again is the plain form.
    again = _move_card(c.get(f"/games/{game.pk}/").content.decode())
    assert 'role="alert"' not in again
    assert 'name="bid" value="2"' not in again


def test_a_refused_purchase_keeps_the_amounts(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "resources")
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "buy_resources", "coal": "1", "uranium": "9"}, follow=True)
    card = _move_card(r.content.decode())
    assert 'role="alert"' in card
    assert re.search(r'name="coal" value="1"', card)
    assert re.search(r'name="uranium" value="9"', card)
    assert r.redirect_chain[-1][0] == f"/games/{game.pk}/#move"


def test_a_refused_build_keeps_the_cities_ticked(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "build")
    u = actor(game, users)
    c = client_for(u)
    pick = sorted(legal_for(game, u)["build"]["cities"])[:1]
    r = post_move(c, game, {"action": "build", "cities": pick}, seq=fresh(game).seq + 3)
    card = _move_card(c.get(r["Location"]).content.decode())
    assert 'data-code="stale_state"' in card
    assert f'value="{pick[0]}" id="build-{pick[0]}" checked' in card


def test_a_move_made_shows_its_message_at_the_top(started_game, client_for):
    game, users = started_game(3)
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "choose_plant", "plant": "3", "bid": "3"})
    assert r.status_code == 302
    assert "#" not in r["Location"]  # no jump past the message, which is above the game
    html = c.get(r["Location"]).content.decode()
    assert html.index("Your move was recorded.") < html.index('id="top"')


def test_a_japanese_refusal_names_the_least_bid_in_japanese(started_game, client_for):
    """The sentence a player corrects a number by carries the number, in their language."""
    game, users = started_game(3)
    u = actor(game, users)
    u.profile.language = "ja"
    u.profile.save()
    c = client_for(u)
    r = post_move(c, game, {"action": "choose_plant", "plant": "5", "bid": "2"}, follow=True)
    card = _move_card(r.content.decode())
    assert "入札額は5以上にしてください。" in card
    assert "must be at least" not in card


def test_a_japanese_refused_build_names_the_cost_and_the_money(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "build")
    u = actor(game, users)
    u.profile.language = "ja"
    u.profile.save()
    c = client_for(u)
    cities = sorted(legal_for(game, u)["build"]["cities"])
    r = post_move(c, game, {"action": "build", "cities": cities}, follow=True)
    card = _move_card(r.content.decode())
    assert 'data-code="insufficient_funds"' in card
    assert re.search(r"費用は\d+エレクトロですが、所持金は\d+エレクトロです。", card)


def test_the_opening_bid_floor_blocks_no_legal_bid_without_the_script(started_game, client_for):
    """After a refused bid for plant 5, a player without JavaScript may still switch to the
    cheapest plant and bid its number: the field's ``min`` as sent is the lowest any offered plant
    allows; each plant carries its own (``data-min``), which game.js applies to the ticked one."""
    game, users = started_game(3)
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "choose_plant", "plant": "5", "bid": "2"})
    card = _move_card(c.get(r["Location"]).content.decode())
    offered = [int(m) for m in re.findall(r'name="plant" value="\d+" data-min="(\d+)"', card)]
    assert re.search(r'value="5" data-min="5" checked', card)
    assert re.search(rf'name="bid" value="2" min="{min(offered)}" ', card)
    assert min(offered) < 5
