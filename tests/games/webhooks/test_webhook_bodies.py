"""What a webhook sends into other people's channels: a player's name, which they choose, is
written so that each format shows it as text (no mention, no masked link, no markup), Discord is
told to mention nobody, and a game's webhook stops when its owner no longer holds a seat."""

from __future__ import annotations

import json
import string
import time

import pytest
from receiver import start

pytestmark = pytest.mark.django_db

#: Names a player may take (the display name's rules allow all of them) that would do something
#: in a chat if written as they are.
HOSTILE = [
    "@everyone",
    "@here",
    "<!channel>",
    "<!here|here>",
    "<@U024BE7LH>",
    "<@&123456>",
    "[free money](https://evil.example)",
    "<https://evil.example|Ann>",
    "https://evil.example/x",
    "**Ann** __x__ ~~y~~ ||spoiler||",
    "`code` > quote",
    "# Heading",
    ":warning: & co",
]


def _delivery(fmt: str, name: str):
    from django.contrib.auth import get_user_model

    from games.models import Game, Webhook, WebhookDelivery

    owner = get_user_model().objects.create_user(f"o{time.monotonic_ns()}", "o@example.com", "x")
    game = Game.objects.create(creator=owner, map="germany", max_players=3, status="running")
    hook = Webhook.objects.create(owner=owner, url="https://example.com/", format=fmt, secret="s")
    payload = {
        "event": "your_turn",
        "game": {"id": game.pk, "map": "germany", "url": "https://pg.example/games/1/", "seq": 3},
        "seat": 1,
        "player": name,
        "deadline": "2026-11-26T09:00:00+00:00",
    }
    d = WebhookDelivery.objects.create(
        webhook=hook, event="your_turn", payload=payload, dedupe_key=f"k{time.monotonic_ns()}"
    )
    return hook, d


def _discord_shows(content: str) -> str:
    """What Discord's Markdown shows for ``content`` where it has backslash escapes: an escaped
    punctuation character is shown as itself, and only those are; returns the text with every
    character that still has a markup meaning (unescaped) replaced by "?"."""
    out, i = [], 0
    while i < len(content):
        c = content[i]
        if c == "\\" and i + 1 < len(content) and content[i + 1] in string.punctuation:
            out.append(content[i + 1])
            i += 2
            continue
        out.append("?" if c in "@<>[]()*_~|`#:" else c)
        i += 1
    return "".join(out)


def test_every_format_has_a_way_of_writing_names():
    """Each chat format the webhooks support escapes names its own way; the generic one sends
    JSON data (no text to format)."""
    from games.models import Webhook
    from games.webhooks.sending import ESCAPES

    assert set(ESCAPES) == set(Webhook.Format.values) - {Webhook.Format.GENERIC}


@pytest.mark.parametrize("name", HOSTILE)
def test_discord_shows_a_name_as_text_and_mentions_nobody(name):
    from games.webhooks.sending import body_for

    hook, d = _delivery("discord", name)
    body = json.loads(body_for(hook, d, time.time())[0])
    assert body["allowed_mentions"] == {"parse": []}
    # Read as Discord reads it, the name comes out exactly as typed, none of it markup.
    assert name in _discord_shows(body["content"])


@pytest.mark.parametrize("name", HOSTILE)
def test_slack_shows_a_name_as_text(name):
    from games.webhooks.sending import body_for

    hook, d = _delivery("slack", name)
    text = json.loads(body_for(hook, d, time.time())[0])["text"]
    # Slack's control sequences are <...>: none comes from the name (the link of the game, ours,
    # is written bare).
    assert "<" not in text
    assert ">" not in text
    assert "@everyone" not in text
    assert "@here" not in text
    entities = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "\u2060": ""}
    shown = text
    for k, v in entities.items():
        shown = shown.replace(k, v)
    assert name in shown


@pytest.mark.parametrize("name", HOSTILE)
def test_the_generic_format_sends_the_name_as_data(name):
    from games.webhooks.sending import body_for

    hook, d = _delivery("generic", name)
    assert json.loads(body_for(hook, d, time.time())[0])["player"] == name


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    r = start()
    yield r
    r.server.shutdown()


@pytest.mark.parametrize("how", ["removed", "left"])
def test_a_games_webhook_stops_when_its_owner_no_longer_holds_a_seat(make_player, receiver, how):
    from games import services
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send
    from games.webhooks.services import webhook_create

    creator, owner, third, fourth = (make_player() for _ in range(4))
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    services.game_join(game_id=gid, user=owner.user)
    webhook_create(owner=owner.user, url=receiver.url, format="discord", game_id=gid)
    if how == "removed":
        services.game_seat_remove(game_id=gid, user=creator.user, seat_no=1)
    else:
        services.game_leave(game_id=gid, user=owner.user)
    services.game_join(game_id=gid, user=third.user)
    services.game_join(game_id=gid, user=fourth.user)  # full: it starts
    deliveries_send()
    assert not WebhookDelivery.objects.exists()
    assert receiver.posts == []
