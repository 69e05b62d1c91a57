"""Take-backs and practice games on the pages, with plain forms: the button beside one's own
move in the log (and at the top), the request shown to the others with agree and refuse, moves
taken back struck through in the log, "Practise from here" on a finished game's history."""

from __future__ import annotations

import re

import pytest
from webhelpers import fresh, play

pytestmark = pytest.mark.django_db

ALLOWED = {"takebacks_rated": True}


def _game(started_game, n=3):
    game, users = started_game(n, options=ALLOWED)
    import powergrid

    order = powergrid.from_json(fresh(game).state_json).order
    return game, users, order


def _log(page: str) -> str:
    return page[page.index('id="log"') :]


def test_a_mistap_is_taken_back_from_the_button_beside_the_move(started_game, client_for):
    game, users, order = _game(started_game)
    me = users[order[0]]
    play(game, me, {"type": "choose_plant", "plant": 6, "bid": 6})
    c = client_for(me)
    page = c.get(f"/games/{game.pk}/").content.decode()
    log = _log(page)
    assert log.count('name="how" value="now"') == 1  # beside the move, in the log
    assert "Take back" in log
    assert "1 take-back left" not in page
    assert "3 take-backs left" in page
    # Another player sees no button.
    other = client_for(users[order[1]]).get(f"/games/{game.pk}/").content.decode()
    assert "takeback-form" not in other
    r = c.post(f"/games/{game.pk}/takeback/", {"expected_seq": 1, "how": "now"}, follow=True)
    page = r.content.decode()
    assert "Your move was taken back" in page
    log = _log(page)
    # The log's items carry their seq (static/js/announce.js reads it) before the class.
    assert re.search(r'<li data-seq="1" class="cancelled">.*?put plant 6 up for auction', log, re.S)
    assert "(taken back)" in log
    assert "took back their move." in log
    assert fresh(game).seq == 2


def test_the_others_are_asked_and_agree_on_the_page(started_game, client_for):
    game, users, order = _game(started_game)
    a = users[order[0]]
    play(game, a, {"type": "choose_plant", "plant": 6, "bid": 6})
    b_seat = fresh(game).to_act[0]
    play(game, users[b_seat], {"type": "bid", "amount": 7})
    ca = client_for(a)
    page = ca.get(f"/games/{game.pk}/").content.decode()
    assert 'name="how" value="ask"' in page
    assert "another player has moved since" in page
    r = ca.post(f"/games/{game.pk}/takeback/", {"expected_seq": 2, "how": "ask"}, follow=True)
    assert "The other players are asked" in r.content.decode()
    assert "Withdraw the request" in r.content.decode()
    from games.models import TakebackRequest

    req = TakebackRequest.objects.get(game=game)
    for seat in (x for x in range(3) if x != order[0]):
        cb = client_for(users[seat])
        page = cb.get(f"/games/{game.pk}/").content.decode()
        assert 'value="accept"' in page
        assert 'value="decline"' in page
        assert "asks to take back a move" in page
        r = cb.post(f"/games/{game.pk}/takeback/{req.pk}/", {"answer": "accept"}, follow=True)
        assert r.status_code == 200
    assert "Everyone agreed" in r.content.decode()
    assert fresh(game).seq == 3
    req.refresh_from_db()
    assert req.status == "accepted"


def test_a_refused_takeback_says_why_on_the_page(started_game, client_for):
    game, users, order = _game(started_game)
    c = client_for(users[order[1]])
    r = c.post(f"/games/{game.pk}/takeback/", {"expected_seq": 0, "how": "now"}, follow=True)
    assert "You have no move of your own to take back." in r.content.decode()
    r = c.post(f"/games/{game.pk}/takeback/", {"expected_seq": "x", "how": "now"}, follow=True)
    assert r.status_code == 400  # a position that is not a number (games.numbers)
    assert fresh(game).seq == 0


def test_a_rated_game_shows_no_takeback(started_game, client_for):
    game, users = started_game(2)
    import powergrid

    first = powergrid.from_json(fresh(game).state_json).order[0]
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    page = client_for(users[first]).get(f"/games/{game.pk}/").content.decode()
    assert "takeback-form" not in page


def test_a_finished_games_history_offers_practice_from_that_move(started_game, client_for):
    from apihelpers import bot_action

    from games import services
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    game, users = started_game(2)
    bot = HeuristicBot()
    for _ in range(3000):
        g = fresh(game)
        if g.status == "finished":
            break
        seat = g.to_act[0]
        services.move_submit(
            game_id=g.pk, user=users[seat], action=bot_action(g.pk, seat, bot),
            expected_seq=g.seq, source="api",
        )  # fmt: skip
    c = client_for(users[1])
    page = c.get(f"/games/{game.pk}/history/30/").content.decode()
    assert "Practise from here" in page
    assert 'name="seq" value="30"' in page
    r = c.post(f"/games/{game.pk}/practice/", {"seq": 30, "seat": 0})
    assert r.status_code == 302
    practice = Game.objects.filter(practice=True).get()
    assert r["Location"] == f"/games/{practice.pk}/"
    assert practice.practice_from_id == game.pk
    assert practice.practice_seq == 30
    page = c.get(r["Location"]).content.decode()
    assert "A practice game against the bots" in page
    # The last move's board has no practice (the game ended there).
    assert (
        "Practise from here"
        not in c.get(f"/games/{game.pk}/history/{fresh(game).seq}/").content.decode()
    )


def test_the_offer_costs_one_read_the_waiting_request(started_game, client_for):
    """A player's game page with take-backs allowed: the page's reads (test_page_queries.py)
    and one more, the request waiting for answers; the offer itself is read from the move log
    the page has already."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.web.test_page_queries import PLAYER_PAGE_QUERIES

    game, users, order = _game(started_game)
    play(game, users[order[0]], {"type": "choose_plant", "plant": 6, "bid": 6})
    c = client_for(users[order[0]])
    c.get(f"/games/{game.pk}/")  # fills the per-process caches (the log, the forecast)
    with CaptureQueriesContext(connection) as q:
        page = c.get(f"/games/{game.pk}/").content.decode()
    assert "takeback-form" in page
    reads = [x["sql"] for x in q.captured_queries]
    assert len(reads) <= PLAYER_PAGE_QUERIES + 1, "\n".join(reads)
    assert sum("games_takebackrequest" in sql for sql in reads) == 1


def test_practice_from_ones_running_game_on_the_page(started_game, client_for):
    from games.models import Game

    game, users, order = _game(started_game)
    me = users[order[1]]
    c = client_for(me)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert "the unseen plants are shuffled again" in page
    r = c.post(f"/games/{game.pk}/practice/", {})
    practice = Game.objects.get(practice=True)
    assert r["Location"] == f"/games/{practice.pk}/"
    assert practice.seats.get(user=me).seat == order[1]
    # Someone without a seat is told why, on the game's page.
    stranger = client_for(started_game(2)[1][0])
    r = stranger.post(f"/games/{game.pk}/practice/", {}, follow=True)
    assert "A practice game cannot be made from there." in r.content.decode() or (
        "Only its players may practise" in r.content.decode()
    )


def test_the_forms_ask_a_visitor_to_log_in_first(started_game):
    from django.test import Client

    from games.models import Game

    game, _users, _order = _game(started_game)
    c = Client()
    for path, data in (
        (f"/games/{game.pk}/takeback/", {"expected_seq": 0, "how": "now"}),
        (f"/games/{game.pk}/takeback/1/", {"answer": "accept"}),
        (f"/games/{game.pk}/practice/", {}),
    ):
        r = c.post(path, data)
        assert r.status_code == 302
        assert r["Location"].startswith("/accounts/login/")
    assert not Game.objects.filter(practice=True).exists()
    assert fresh(game).seq == 0
