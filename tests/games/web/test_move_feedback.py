"""After a move form is sent: a refusal brings the player back to the game's own address with
the form as they filled it and the error beside it (shown once). (A move made lands on its
confirmation: tests/games/web/test_move_focus.py.)"""

from __future__ import annotations

import re

import pytest
from webhelpers import actor, advance, fresh, legal_for, play, post_move

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


def _raise_box(html: str) -> str:
    return re.search(r'<input id="bid-raise"[^>]*>', _move_card(html)).group(0)


def test_a_bid_refused_because_the_auction_moved_on_is_not_kept_for_the_next_plant(
    started_game, client_for
):
    """The player's page showed the auction for one plant; before their bid of 42 arrived, that
    auction ended and another began. The refusal says why, and the bid box starts from the new
    auction's least bid: the 42 meant the other plant (one more tap would overbid)."""
    game, users = started_game(3)
    opener = actor(game, users)
    plants = sorted(p["number"] for p in legal_for(game, opener)["choose_plant"]["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plants[0], "bid": plants[0]})
    me = actor(game, users)  # the first to answer: their page shows the first auction
    seen = fresh(game).seq
    play(game, me, {"type": "bid", "amount": plants[0] + 1})  # elsewhere (the API, an email)
    while _bidding(game):
        play(game, actor(game, users), {"type": "pass_bid"})  # the others let me have it
    nxt = actor(game, users)
    play(game, nxt, {"type": "choose_plant", "plant": plants[1], "bid": plants[1]})
    g = fresh(game)
    assert _bidding(g)
    assert users[g.to_act[0]].pk != me.pk
    other = users[g.to_act[0]]  # asked in the second auction; their page was the first's
    c = client_for(other)
    r = post_move(c, game, {"action": "bid", "amount": "42"}, seq=seen, follow=True)
    html = r.content.decode()
    assert 'data-code="stale_state"' in _move_card(html)
    box = _raise_box(html)
    assert 'value="42"' not in box
    assert f'value="{plants[1] + 1}"' in box


def test_a_bid_refused_in_the_same_auction_keeps_the_amount(started_game, client_for):
    """Refused for its own sake (above the player's money), in the auction it was meant for: the
    amount stays, to be corrected."""
    game, users = started_game(3)
    opener = actor(game, users)
    plants = sorted(p["number"] for p in legal_for(game, opener)["choose_plant"]["plants"])
    play(game, opener, {"type": "choose_plant", "plant": plants[0], "bid": plants[0]})
    c = client_for(actor(game, users))
    r = post_move(c, game, {"action": "bid", "amount": "999"}, follow=True)
    assert 'value="999"' in _raise_box(r.content.decode())


def _bidding(game) -> bool:
    from games import selectors

    return selectors.game_engine_state(fresh(game)).auction is not None
