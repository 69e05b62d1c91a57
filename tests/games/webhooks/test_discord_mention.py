"""The Discord user ID of the webhook settings: a Discord post of a turn mentions the player
whose turn it is (``<@id>``) and allows that one mention only; nobody else is ever pinged, no
other format learns the ID, and a value that is not 17 to 20 digits is refused (API and page,
English and Japanese) and changes nothing."""

from __future__ import annotations

import pytest
from apihelpers import bot_action, by_moves, seat_players
from receiver import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a post per turn (a round sheet asks every seat at once,
    and the webhooks hear the awaited turns)."""
    return by_moves(new_game)


ID_A = "80351110224678912"
ID_B = "12345678901234567890"


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    r = start()
    yield r
    r.server.shutdown()


def _put(player, body):
    return player.client.put("/api/v1/me/discord/", body, format="json")


def _play(gid, ps, moves: int) -> None:
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    for _ in range(moves):
        g = Game.objects.get(pk=gid)
        seat = g.to_act[0]
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/",
            {"action": bot_action(gid, seat, bot), "expected_seq": g.seq},
        )
        assert r.status_code in (200, 201), r.content


def test_a_discord_post_mentions_only_the_player_whose_turn_it_is(new_game, receiver):
    from games.models import Seat
    from games.webhooks.sending import deliveries_send
    from games.webhooks.services import webhook_create

    gid, ps = new_game(players=3, start=False)
    ids = {ps[0].user.pk: ID_A, ps[1].user.pk: ID_B}  # the third gave none
    for p in ps[:2]:
        r = _put(p, {"discord_user_id": ids[p.user.pk]})
        assert r.status_code == 200, r.content
        assert r.json() == {"discord_user_id": ids[p.user.pk]}
    webhook_create(owner=ps[2].user, url=receiver.url, format="discord", game_id=gid)
    generic = start()
    try:
        webhook_create(owner=ps[0].user, url=generic.url, format="generic")
        assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
        _play(gid, ps, 8)
        deliveries_send()
        by_seat = {s.seat: s.user_id for s in Seat.objects.filter(game_id=gid)}
        turns = [p.json() for p in receiver.posts if "turn" in p.json()["content"]]
        assert len(turns) >= 8
        mentioned = set()
        for doc in turns:
            content, allowed = doc["content"], doc["allowed_mentions"]
            if content.startswith("<@"):
                who = content[2 : content.index(">")]
                assert who in (ID_A, ID_B)
                assert allowed == {"parse": [], "users": [who]}
                assert content.count("<@") == 1
                mentioned.add(who)
            else:
                assert allowed == {"parse": []}
        assert mentioned == {ID_A, ID_B}
        # the post names the seat whose turn it is: its mention is that seat's player's ID
        from games.models import WebhookDelivery

        for d in WebhookDelivery.objects.filter(webhook__format="discord", event="your_turn"):
            want = ids.get(by_seat[d.payload["seat"]], "")
            assert d.payload.get("discord_mention", "") == want
        started = [p.json() for p in receiver.posts if "started" in p.json()["content"]]
        assert started
        assert all(d["allowed_mentions"] == {"parse": []} for d in started)
        # a generic webhook (a program's) never learns anyone's Discord ID
        assert generic.posts
        for post in generic.posts:
            assert ID_A not in post.body.decode()
            assert ID_B not in post.body.decode()
    finally:
        generic.server.shutdown()


BAD = [
    "abc",
    "1234567890123456",  # 16 digits
    "123456789012345678901",  # 21
    "<@80351110224678912>",
    "@everyone",
    "8035111022467891\u0662",  # an Arabic-Indic digit
    "８０３５１１１０２２４６７８９１２",  # full-width digits
    "99999999999999999999",  # above 2**64
    " 80351110224678912x",
]


@pytest.mark.parametrize("value", BAD)
def test_a_bad_discord_user_id_is_refused_and_changes_nothing(make_player, value):
    p = make_player()
    assert _put(p, {"discord_user_id": ID_A}).status_code == 200
    r = _put(p, {"discord_user_id": value})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_discord_user_id"
    assert r.json()["error"]["details"] == {"field": "discord_user_id"}
    assert p.get("/api/v1/me/discord/").json() == {"discord_user_id": ID_A}


@pytest.mark.parametrize("body", [{}, {"discord_user_id": 80351110224678912}, {"x": "1"}])
def test_a_malformed_body_is_a_400(make_player, body):
    p = make_player()
    r = _put(p, body)
    assert r.status_code == 400
    assert r.json()["error"]["code"] in ("invalid_discord_user_id", "invalid_field")
    assert p.get("/api/v1/me/discord/").json() == {"discord_user_id": ""}


def test_an_empty_value_clears_it(make_player):
    p = make_player()
    _put(p, {"discord_user_id": ID_A})
    r = _put(p, {"discord_user_id": ""})
    assert r.json() == {"discord_user_id": ""}
    p.user.profile.refresh_from_db()
    assert p.user.profile.discord_user_id == ""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_webhooks_page_sets_it_and_explains_a_refusal(client, make_player, lang):
    p = make_player()
    p.user.profile.language = lang
    p.user.profile.save()
    client.force_login(p.user)
    page = client.get("/webhooks/")
    assert page.status_code == 200
    assert 'name="discord_user_id"' in page.text
    r = client.post("/webhooks/", {"op": "discord", "discord_user_id": ID_A})
    assert r.status_code == 302
    p.user.profile.refresh_from_db()
    assert p.user.profile.discord_user_id == ID_A
    assert f'value="{ID_A}"' in client.get("/webhooks/").text
    r = client.post("/webhooks/", {"op": "discord", "discord_user_id": "@everyone"})
    assert r.status_code == 400
    assert 'data-code="invalid_discord_user_id"' in r.text
    p.user.profile.refresh_from_db()
    assert p.user.profile.discord_user_id == ID_A
    if lang == "ja":
        assert "DiscordのユーザーID" in r.text
        assert "Discord user ID" not in r.text


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Power Grid #{gid}: it is Ann's turn (deadline 2026-12-01 09:00 UTC). {url}"),
        ("ja", "電力会社 #{gid}：Ann の番です（期限 2026-12-01 09:00 UTC）。{url}"),
    ],
)
def test_the_mention_leads_the_post_in_the_owners_language(make_player, lang, sentence):
    """The post of a turn whose player gave their Discord ID starts with the mention, then the
    sentence in the webhook owner's language; only that user may be pinged."""
    import json

    from games.models import Webhook, WebhookDelivery
    from games.webhooks.sending import body_for

    owner = make_player()
    owner.user.profile.language = lang
    owner.user.profile.save()
    hook = Webhook(
        owner=owner.user, url="https://discord.example/api/webhooks/1/x", format="discord"
    )
    payload = {
        "event": "your_turn",
        "game": {"id": 7, "url": "https://pg.example/games/7/"},
        "player": "Ann",
        "seat": 0,
        "deadline": "2026-12-01T09:00:00+00:00",
        "discord_mention": ID_A,
    }
    body, _headers = body_for(hook, WebhookDelivery(pk=1, event="your_turn", payload=payload), 0)
    doc = json.loads(body)
    url = "https://pg.example/games/7/"
    assert doc["content"] == f"<@{ID_A}> " + sentence.format(gid=7, url=url)
    assert doc["allowed_mentions"] == {"parse": [], "users": [ID_A]}
