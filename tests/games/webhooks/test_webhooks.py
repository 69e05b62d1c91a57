"""Webhooks: events written with the move, posted after commit to a real local receiver, signed,
retried after failures (500s, timeouts, a receiver that is down) and counted once when it comes
back, turned off after repeated failures with an email; SSRF refusals; nothing secret sent."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from apihelpers import by_moves
from receiver import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a post per turn (a round sheet asks every seat at once,
    and the webhooks hear the awaited turns)."""
    return by_moves(new_game)


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the receiver listens on 127.0.0.1
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    r = start()
    yield r
    r.server.shutdown()


def _send_all() -> dict[str, int]:
    from games.webhooks.sending import deliveries_send

    return deliveries_send()


def _due_now() -> None:
    from django.utils import timezone

    from games.models import WebhookDelivery

    WebhookDelivery.objects.filter(status="pending").update(
        next_attempt_at=timezone.now() - timedelta(seconds=1)
    )


def _hooked_game(new_game, receiver, fmt="generic", per_game=False):
    from games.webhooks.services import webhook_create

    gid, ps = new_game(players=3, start=False)
    owner = ps[1]
    hook = webhook_create(
        owner=owner.user, url=receiver.url, format=fmt, game_id=gid if per_game else None
    )
    r = ps[0].post(f"/api/v1/games/{gid}/start/")
    assert r.status_code == 200
    return gid, ps, owner, hook


def test_the_owners_turn_and_the_start_are_posted_signed(new_game, receiver):
    import powergrid
    from games.models import Game, Seat

    gid, _ps, owner, hook = _hooked_game(new_game, receiver)
    _send_all()
    events = [p.json()["event"] for p in receiver.posts]
    assert "game_started" in events
    seat = Seat.objects.get(game_id=gid, user=owner.user).seat
    game = Game.objects.get(pk=gid)
    awaited = powergrid.to_act(powergrid.from_json(game.state_json))[0]
    assert ("your_turn" in events) == (awaited == seat)
    post = receiver.posts[0]
    stamp = post.headers["X-Powergrid-Timestamp"]
    want = hmac.new(hook.secret.encode(), stamp.encode() + b"." + post.body, hashlib.sha256)
    assert post.headers["X-Powergrid-Signature"] == "sha256=" + want.hexdigest()
    assert post.headers["X-Powergrid-Delivery"].isdigit()


def test_a_games_webhook_posts_every_turn_in_discord_format(new_game, receiver):
    from apihelpers import bot_action, seat_players

    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    gid, ps, _owner, _hook = _hooked_game(new_game, receiver, fmt="discord", per_game=True)
    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    for _ in range(6):
        g = Game.objects.get(pk=gid)
        seat = g.to_act[0]
        seats[seat].post(f"/api/v1/games/{gid}/moves/",
                         {"action": bot_action(gid, seat, bot), "expected_seq": g.seq})  # fmt: skip
    _send_all()
    texts = [p.json()["content"] for p in receiver.posts]
    assert sum("turn" in t for t in texts) >= 6
    # Discord is told to mention nobody, whatever the text holds.
    assert all(set(p.json()) == {"content", "allowed_mentions"} for p in receiver.posts)
    assert all(p.json()["allowed_mentions"] == {"parse": []} for p in receiver.posts)


def test_failures_are_retried_and_each_event_counted_once_on_recovery(new_game, receiver):
    from games.models import WebhookDelivery

    _gid, _ps, _owner, hook = _hooked_game(new_game, receiver)
    receiver.status = 500
    _send_all()
    failed_posts = len(receiver.posts)
    assert failed_posts >= 1
    assert not WebhookDelivery.objects.filter(status="sent").exists()
    receiver.status = 200
    receiver.delay = 1.0  # timeouts now (0.5 s)
    _due_now()
    _send_all()
    receiver.delay = 0
    receiver.server.shutdown()  # down: connection refused
    receiver.server.server_close()
    _due_now()
    _send_all()
    back = start()  # back up on another port: point the webhook there
    hook.refresh_from_db()
    hook.url = back.url
    hook.save()
    _due_now()
    _send_all()
    assert not WebhookDelivery.objects.exclude(status="sent").exists()
    ids = back.deliveries()
    assert len(ids) == len(set(ids)) == WebhookDelivery.objects.count()
    hook.refresh_from_db()
    assert hook.failures_in_row == 0
    assert WebhookDelivery.objects.filter(attempts__gte=3).exists()
    back.server.shutdown()


def test_repeated_failures_turn_the_webhook_off_and_tell_its_owner(new_game, receiver, settings):
    from games.models import Notification, WebhookDelivery
    from games.notifications.emails import email_build

    settings.WEBHOOK_DISABLE_AFTER = 3
    _gid, _ps, owner, hook = _hooked_game(new_game, receiver)
    receiver.status = 404
    for _ in range(4):
        _due_now()
        _send_all()
    hook.refresh_from_db()
    assert not hook.active
    assert "404" in hook.disabled_reason
    assert not WebhookDelivery.objects.filter(status="pending").exists()
    n = Notification.objects.get(kind="webhook_disabled", recipient=owner.user)
    assert "turned off" in email_build(n).body


def test_a_crashed_claim_is_taken_over_after_the_lease(new_game, receiver, settings):
    from django.utils import timezone

    from games.models import WebhookDelivery

    settings.WEBHOOK_LEASE_SECONDS = 60
    _hooked_game(new_game, receiver)
    WebhookDelivery.objects.update(status="sending", claimed_at=timezone.now())  # a worker died
    assert _send_all()["sent"] == 0  # still leased
    WebhookDelivery.objects.update(claimed_at=timezone.now() - timedelta(seconds=61))
    assert _send_all()["sent"] == WebhookDelivery.objects.count()


def test_the_end_of_a_game_is_posted_once_and_says_no_result(new_game, receiver):
    from apihelpers import play_to_end

    from games.webhooks.services import webhook_create

    gid, ps = new_game(players=2)
    webhook_create(owner=ps[0].user, url=receiver.url, events=["game_over"], game_id=gid)
    webhook_create(owner=ps[1].user, url=receiver.url, format="slack", events=["game_over"])
    play_to_end(gid, ps)
    _send_all()
    assert len(receiver.posts) == 2
    generic = next(p.json() for p in receiver.posts if "event" in p.json())
    assert generic["event"] == "game_over"
    assert generic["game"]["id"] == gid
    slack = next(p.json() for p in receiver.posts if "text" in p.json())
    assert f"#{gid} is over" in slack["text"]
    for p in receiver.posts:
        assert "money" not in p.body.decode()
        assert "result" not in p.body.decode()


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/hook",
        "https://127.0.0.1/hook",
        "https://10.0.0.5/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://user:pw@example.com/hook",
        "ftp://example.com/x",
    ],
)
def test_private_and_plain_addresses_are_refused_in_production(make_player, url, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    p = make_player()
    r = p.post("/api/v1/webhooks/", {"url": url, "format": "generic"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_webhook"
    assert r.json()["error"]["details"]["field"] == "url"


def test_an_address_that_became_private_is_not_called(new_game, receiver, settings):
    from games.models import WebhookDelivery

    _hooked_game(new_game, receiver)
    settings.WEBHOOK_ALLOW_PRIVATE = False  # 127.0.0.1 is refused at send time too
    _send_all()
    assert receiver.posts == []
    assert WebhookDelivery.objects.first().last_error == "address_refused"


def test_the_api_lists_tests_and_deletes_only_ones_own(make_player, receiver):
    a, b = make_player(), make_player()
    r = a.post("/api/v1/webhooks/", {"url": receiver.url, "format": "slack"})
    assert r.status_code == 201
    hid = r.json()["id"]
    assert [h["id"] for h in a.get("/api/v1/webhooks/").json()] == [hid]
    assert b.get("/api/v1/webhooks/").json() == []
    assert b.post(f"/api/v1/webhooks/{hid}/test/").status_code == 404
    assert b.client.delete(f"/api/v1/webhooks/{hid}/").status_code == 404
    assert a.post(f"/api/v1/webhooks/{hid}/test/").status_code == 202
    _send_all()
    assert receiver.posts[-1].json() == {"text": receiver.posts[-1].json()["text"]}
    assert a.client.delete(f"/api/v1/webhooks/{hid}/").status_code == 204


def test_no_payload_carries_money_or_secrets(new_game, receiver):
    from games.models import Game

    gid, _ps, _owner, _hook = _hooked_game(new_game, receiver, per_game=True)
    _send_all()
    seed = str(Game.objects.get(pk=gid).seed)
    for p in receiver.posts:
        text = p.body.decode()
        assert "money" not in text
        assert seed not in text
        assert "plan" not in json.dumps(p.json())


def test_the_page_adds_and_deletes_without_javascript(make_player, receiver, client):
    from apihelpers import PASSWORD

    from games.models import Webhook

    p = make_player()
    client.force_login(p.user)
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})  # adding asks for it
    assert b"<script" not in client.get("/webhooks/").content
    r = client.post("/webhooks/", {"url": receiver.url, "format": "discord", "your_turn": "on"})
    assert r.status_code == 302
    hook = Webhook.objects.get(owner=p.user)
    assert hook.events == ["your_turn"]
    r = client.post("/webhooks/", {"url": "not a url"})
    assert r.status_code == 400
    assert b'data-code="invalid_webhook"' in r.content
    client.post("/webhooks/", {"op": "delete", "id": hook.pk})
    assert not Webhook.objects.exists()
