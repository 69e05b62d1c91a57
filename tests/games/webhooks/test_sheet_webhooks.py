"""Webhooks in a game played by round sheets: when a round begins every seat asked for its sheet
is posted ``sheet_asked`` (its round, the sheet's API address, its deadline), and a seat whose
sheet waits hears ``your_turn`` (with ``sheet_round``) when the engine comes to it. So a program
told only by its webhook finishes a game either way: answering its sheets (GET, PUT back), or
moving by hand on each ``your_turn``. Chat formats word the new event and mention the seat's
player on Discord."""

from __future__ import annotations

from typing import Any

import pytest
from apihelpers import bot_action, seat_players
from receiver import start

from games.models import Game, Move, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the receiver listens on 127.0.0.1
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    r = start()
    yield r
    r.server.shutdown()


def _hooked(new_game, receiver, players: int = 3) -> tuple[int, dict[int, Any]]:
    """A sheets game whose every player has a webhook of their own (generic), then started."""
    from games.webhooks.services import webhook_create

    gid, ps = new_game(players=players, start=False)
    for p in ps:
        webhook_create(owner=p.user, url=receiver.url, format="generic", game_id=None)
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    return gid, seat_players(gid, ps)


def _posted(receiver, seen: int) -> list[dict[str, Any]]:
    """The bodies posted since the ``seen`` first ones (every delivery due sent now)."""
    from games.webhooks.sending import deliveries_send

    deliveries_send()
    with receiver.lock:
        return [p.json() for p in receiver.posts[seen:]]


def test_bots_told_only_by_their_webhooks_answer_their_sheets_to_the_end(new_game, receiver):
    gid, seats = _hooked(new_game, receiver)
    seen = 0
    puts = 0
    asked: dict[int, set[int]] = {s: set() for s in seats}
    for _ in range(400):
        if Game.objects.get(pk=gid).status == Game.Status.FINISHED:
            break
        bodies = _posted(receiver, seen)
        seen += len(bodies)
        # Told nothing more while the game waits: a seat was never asked.
        assert bodies, "the game waits, but no webhook said for whom"
        for body in bodies:
            if body["event"] == "sheet_asked":
                assert body["sheet"]["url"].endswith(f"/api/v1/games/{gid}/sheet/")
                assert body["deadline"]
                asked[body["seat"]].add(body["sheet"]["round"])
            if body["event"] not in ("sheet_asked", "your_turn"):
                continue
            p = seats[body["seat"]]
            doc = p.get(f"/api/v1/games/{gid}/sheet/").json()
            if doc.get("due"):  # (a second event for an answered sheet: nothing to do)
                r = p.client.put(f"/api/v1/games/{gid}/sheet/", doc, format="json")
                assert r.status_code in (200, 409), r.content  # 409: the round moved on
                puts += r.status_code == 200
    game = Game.objects.get(pk=gid)
    assert game.status == Game.Status.FINISHED
    assert set(Move.objects.filter(game=game).values_list("source", flat=True)) == {"sheet"}
    rounds = {r for rs in asked.values() for r in rs}
    assert len(rounds) >= 5
    assert all(rs == rounds for rs in asked.values())  # every seat, every round
    assert puts >= 3 * len(rounds)


def test_a_bot_that_moves_by_hand_on_your_turn_is_told_every_turn(new_game, receiver):
    """A program that knows nothing of sheets: it moves on ``your_turn`` (its round sheet,
    asked at the round's start, waits meanwhile and the turn email stays away, but its
    webhook hears the turn, with ``sheet_round``; a seat awaited again right after its own
    move hears it too)."""
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    gid, seats = _hooked(new_game, receiver)
    seen = 0
    with_round = 0
    told: set[int] = set()  # seats told it is their turn, not moved since
    for _ in range(3000):
        game = Game.objects.get(pk=gid)
        if game.status == Game.Status.FINISHED:
            break
        bodies = _posted(receiver, seen)
        seen += len(bodies)
        for body in bodies:
            if body["event"] == "your_turn":
                with_round += "sheet_round" in body
                told.add(body["seat"])
        awaited = set(game.to_act or [])
        assert awaited <= told, f"seats {awaited - told} awaited, never told"
        seat = min(awaited)
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/",
            {"action": bot_action(gid, seat, bot), "expected_seq": game.seq},
        )
        assert r.status_code == 201, r.content
        told.discard(seat)
    assert Game.objects.get(pk=gid).status == Game.Status.FINISHED
    assert with_round > 0  # turns that came while the seat's round sheet waited


def test_sheet_asked_in_chat_formats_names_the_round_and_mentions_the_player(new_game, receiver):
    from accounts.models import Profile
    from games.webhooks.services import webhook_create

    gid, ps = new_game(players=3, start=False)
    hook = webhook_create(owner=ps[0].user, url=receiver.url, format="discord", game_id=gid)
    assert hook.pk
    Profile.objects.filter(user=ps[1].user).update(discord_user_id="80351110224678912")
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    posts = _posted(receiver, 0)
    asked = [p["content"] for p in posts if "round sheet" in p["content"]]
    assert len(asked) == 3  # every seat's, on the game's webhook
    mentioned = [p for p in posts if "<@80351110224678912>" in p["content"]]
    seat = Seat.objects.get(game_id=gid, user=ps[1].user).seat
    awaited = seat in Game.objects.get(pk=gid).to_act
    assert len(mentioned) == 1 + awaited  # their sheet, and their turn if theirs is first
    assert all(p["allowed_mentions"]["users"] == ["80351110224678912"] for p in mentioned)
    assert all("round 1 begins" in text for text in asked)
