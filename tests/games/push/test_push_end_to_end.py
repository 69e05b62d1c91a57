"""Web Push end to end against a local push service that decrypts what it receives: devices
subscribed through the API, turn notices written with the move, claimed and sent once, signed
with the site's VAPID key, encrypted to the browser's keys, carrying only "your turn in game N";
paced as turn emails are (held while the player watches the game), skipped when the turn was
played meanwhile, retried after a failure, the device removed when the service says it is gone,
the per-device choice obeyed, in English and Japanese."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from pushservice import Browser, vapid_verified

import powergrid

pytestmark = pytest.mark.django_db

NOTICE_KEYS = {"title", "body", "url", "tag", "game"}


def _subscribe(player, svc, browser=None, **more):
    browser = browser or Browser()
    endpoint = svc.endpoint()
    r = player.post("/api/v1/me/push/", {"endpoint": endpoint, "keys": browser.keys(), **more})
    assert r.status_code == 201, r.content
    return endpoint, browser, r.json()


def _game_with_devices(new_game, svc, languages=("en", "en", "en"), *, sheets=False):
    """A full 3-player game, not started, each player with a device: move by move unless
    ``sheets`` (turn notices one turn at a time; round sheets ask every seat at once)."""
    gid, ps = new_game(players=3, start=False, options={"sheets": sheets})
    devices = {}
    for p, lang in zip(ps, languages, strict=True):
        p.user.profile.language = lang
        p.user.profile.save()
        devices[p.user.pk] = _subscribe(p, svc)
    return gid, ps, devices


def _start(gid, ps):
    r = ps[0].post(f"/api/v1/games/{gid}/start/")
    assert r.status_code == 200, r.content


def _awaited_users(gid):
    from games.models import Game, Seat

    g = Game.objects.get(pk=gid)
    return set(Seat.objects.filter(game=g, seat__in=g.to_act).values_list("user_id", flat=True))


def _send():
    from games.push.sending import push_sweep

    return push_sweep()


def test_the_awaited_player_gets_one_decryptable_notice_of_their_turn(
    new_game, push_service, vapid
):
    from games.models import PushMessage

    gid, ps, devices = _game_with_devices(new_game, push_service, ("en", "ja", "en"))
    _start(gid, ps)
    awaited = _awaited_users(gid)
    assert awaited
    counts = _send()
    assert counts == {"sent": len(awaited)}
    for p in ps:
        endpoint, browser, _device = devices[p.user.pk]
        got = push_service.to(endpoint)
        if p.user.pk not in awaited:
            assert got == []
            continue
        assert len(got) == 1
        post = got[0]
        assert post.headers["Content-Encoding"] == "aes128gcm"
        assert int(post.headers["Ttl"]) > 0
        claims = vapid_verified(post.headers, vapid)
        assert claims["sub"] == "mailto:ops@pg.example"
        assert claims["aud"] == endpoint.split("/push/")[0]
        notice = browser.decrypt(post.body)
        assert set(notice) == NOTICE_KEYS
        assert notice["game"] == gid
        assert notice["url"] == f"/games/{gid}/"
        assert notice["tag"] == f"turn-{gid}"
        if p.user.profile.language == "ja":
            assert notice["title"] == "あなたの手番"
            assert notice["body"] == f"電力会社 ゲーム #{gid} であなたの番です。"
        else:
            assert notice == {**notice, "title": "Your turn",
                              "body": f"It is your turn in Power Grid game #{gid}."}  # fmt: skip
    assert not PushMessage.objects.exclude(status="sent").exists()
    # nothing left to send: a second sweep sends nothing again (at most once)
    assert _send() == {}
    assert sum(len(push_service.to(devices[u][0])) for u in awaited) == len(awaited)


def test_the_notice_carries_nothing_hidden(new_game, push_service):
    """The whole decrypted notice, compared with what the game hides: no money, no plant, no
    seed, no other player's name: its words are the fixed sentence and the game's number."""
    from games.models import Game

    gid, ps, devices = _game_with_devices(new_game, push_service)
    _start(gid, ps)
    _send()
    game = Game.objects.get(pk=gid)
    state = powergrid.from_json(game.state_json)
    for p in ps:
        endpoint, browser, _d = devices[p.user.pk]
        for post in push_service.to(endpoint):
            text = str(browser.decrypt(post.body))
            for other in ps:
                assert other.user.username not in text
            assert str(game.seed) not in text
            for player in state.players:
                assert f"'{player.money}'" not in text
            assert browser.decrypt(post.body)["body"] == (
                f"It is your turn in Power Grid game #{gid}."
            )


def test_a_notice_is_held_while_the_player_watches_the_game(new_game, push_service, settings):
    from games.models import PushMessage, Seat

    settings.TURN_EMAIL_HOLD_SECONDS = 300
    gid, ps, devices = _game_with_devices(new_game, push_service)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        _start(gid, ps)
        awaited = _awaited_users(gid)
        Seat.objects.filter(game_id=gid).update(page_seen_at=timezone.now())  # on the page
        assert _send() == {"held": len(awaited)}
        assert all(push_service.to(devices[u][0]) == [] for u in awaited)
        held = PushMessage.objects.get(recipient_id=next(iter(awaited)))
        assert held.status == "pending"
        assert held.retry_at == start + timedelta(seconds=300)
        assert held.attempts == 0
        clock.shift(timedelta(seconds=200))
        assert _send() == {}  # not due yet
        clock.shift(timedelta(seconds=101))  # the page was left 5 minutes ago
        assert _send() == {"sent": len(awaited)}
    assert all(len(push_service.to(devices[u][0])) == 1 for u in awaited)


def test_a_turn_played_before_its_notice_went_is_not_told(new_game, push_service):
    from apihelpers import play_default

    from games.models import Game, PushMessage

    gid, ps, devices = _game_with_devices(new_game, push_service)
    _start(gid, ps)
    first = _awaited_users(gid)
    play_default(gid, ps, times=1)  # the awaited player moves before the notice goes
    game = Game.objects.get(pk=gid)
    counts = _send()
    assert counts.get("skipped", 0) >= 1
    for u in first - _awaited_users(gid):
        assert push_service.to(devices[u][0]) == []
    assert PushMessage.objects.filter(last_error__startswith="skipped").exists()
    assert game.seq >= 1


def test_a_sheets_game_start_tells_every_device_its_turn_or_its_round_sheet(new_game, push_service):
    """Round 1's sheet is asked of every seat when the game starts (in the game-started
    email): the awaited seat's device is told its turn, every other device its round sheet,
    each linking where it is answered."""
    from games.models import Game, Seat

    gid, ps, devices = _game_with_devices(new_game, push_service, ("en", "ja", "en"), sheets=True)
    _start(gid, ps)
    assert _send() == {"sent": 3}
    game = Game.objects.get(pk=gid)
    for s in Seat.objects.filter(game=game).select_related("user__profile"):
        endpoint, browser, _d = devices[s.user.pk]
        (post,) = push_service.to(endpoint)
        notice = browser.decrypt(post.body)
        ja = s.user.profile.language == "ja"
        if s.seat in game.to_act:
            assert notice["url"] == f"/games/{gid}/"
            assert notice["title"] == ("あなたの手番" if ja else "Your turn")
        else:
            assert notice["url"] == f"/games/{gid}/sheet/"
            assert notice["title"] == ("あなたのラウンドシート" if ja else "Your round sheet")


def test_a_round_sheets_notice_goes_while_the_sheet_waits_however_the_game_moves(
    new_game, push_service
):
    """A round begins in a sheets game: every seat is asked for its sheet at once, awaited or
    not, and each device gets a notice of its own sheet (linking to the sheet's page). Checked
    just before it goes against the sheet, not the turn: the game moving on does not drop it;
    a sheet that no longer waits (its player played by hand meanwhile) does."""
    from apihelpers import play_default

    from games.models import Game, PushMessage, Seat
    from games.notifications import marking

    gid, ps, devices = _game_with_devices(new_game, push_service, ("ja", "en", "en"), sheets=True)
    _start(gid, ps)  # round 1's notices: the opener's turn, the others' sheets
    opener = Game.objects.get(pk=gid).to_act[0]
    play_default(gid, ps, times=1)  # the opener moves by hand: it plays the round move by move
    game = Game.objects.get(pk=gid)
    by_seat = {s.seat: s.user for s in Seat.objects.filter(game=game)}
    (quiet,) = set(by_seat) - {opener, *game.to_act}
    counts = _send()
    assert counts == {"sent": 2, "skipped": 1}
    mover = PushMessage.objects.get(
        game=game, recipient=by_seat[opener], seq=0, claimed_at__isnull=False, sent_at__isnull=True
    )
    assert mover.last_error == marking.SKIPPED_ANSWERED
    endpoint, browser, _d = devices[by_seat[quiet].pk]
    (post,) = push_service.to(endpoint)
    notice = browser.decrypt(post.body)
    assert notice["url"] == f"/games/{gid}/sheet/"
    if by_seat[quiet].profile.language == "ja":
        assert notice["title"] == "あなたのラウンドシート"
    else:
        assert notice["title"] == "Your round sheet"
        assert (
            notice["body"] == f"A round began in Power Grid game #{gid}: fill in your round sheet."
        )


def test_moves_by_others_before_it_goes_make_one_notice_per_device(new_game, push_service):
    from games.models import PushMessage

    gid, ps, _devices = _game_with_devices(new_game, push_service)
    _start(gid, ps)
    for m in PushMessage.objects.all():
        # written again (a second move awaiting the same player) -> the same pending row
        from games.push.outbox import push_key

        assert m.dedupe_key == push_key(gid, m.subscription_id)
    before = PushMessage.objects.count()
    from games.models import Game, Seat
    from games.push import outbox

    game = Game.objects.get(pk=gid)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    outbox.write(game, seats)
    awaited = _awaited_users(gid)
    assert PushMessage.objects.count() == before + len({s.user_id for s in seats} - awaited)


def test_a_failure_is_retried_and_a_gone_device_removed(new_game, push_service):
    from accounts.models import Profile, PushSubscription
    from games.models import PushMessage

    gid, ps, devices = _game_with_devices(new_game, push_service)
    awaited_before = None
    for p in ps:
        endpoint = devices[p.user.pk][0]
        push_service.status[endpoint.split(str(push_service.server.server_address[1]))[1]] = 503
    _start(gid, ps)
    awaited_before = _awaited_users(gid)
    assert _send() == {"retry": len(awaited_before)}
    row = PushMessage.objects.filter(recipient_id__in=awaited_before).first()
    assert row.status == "pending"
    assert row.retry_at > timezone.now()
    assert row.last_error.endswith("503")
    # the service comes back for one device and says "gone" for the others
    lucky = next(iter(awaited_before))
    for p in ps:
        path = devices[p.user.pk][0].split(str(push_service.server.server_address[1]))[1]
        push_service.status[path] = 201 if p.user.pk == lucky else 410
    PushMessage.objects.update(retry_at=timezone.now() - timedelta(seconds=1))
    counts = _send()
    assert counts.get("sent") == 1
    assert counts.get("gone", 0) == len(awaited_before) - 1
    assert len(push_service.to(devices[lucky][0])) == 2  # the failed try, then the delivery
    for u in awaited_before - {lucky}:
        assert not PushSubscription.objects.filter(user_id=u).exists()
        assert Profile.objects.get(user_id=u).push_turns is False
        assert ps[0].get("/api/v1/me/push/").status_code == 200
    assert Profile.objects.get(user_id=lucky).push_turns is True


def test_a_device_switched_off_gets_nothing_and_costs_no_row(new_game, push_service):
    from accounts.models import Profile
    from games.models import PushMessage

    gid, ps, devices = _game_with_devices(new_game, push_service)
    for p in ps:
        device = devices[p.user.pk][2]
        r = p.client.patch(f"/api/v1/me/push/{device['id']}/", {"turns": False}, format="json")
        assert r.status_code == 200
        assert r.json()["turns"] is False
        assert Profile.objects.get(user=p.user).push_turns is False
    _start(gid, ps)
    assert not PushMessage.objects.exists()
    assert _send() == {}
    assert push_service.received == []


def test_two_claims_never_hand_out_the_same_notice(new_game, push_service):
    from games.push.sending import claim

    gid, ps, _devices = _game_with_devices(new_game, push_service)
    _start(gid, ps)
    first, _at = claim()
    second, _at2 = claim()
    assert first
    assert second == []


def test_a_player_whose_language_is_japanese_gets_the_notice_in_japanese(
    new_game, push_service, vapid
):
    """Every player's profile says Japanese, so whoever the game awaits first gets the notice:
    decrypted at the local endpoint, its title and sentence are the Japanese ones, sent as
    UTF-8 (not escaped), the link and tag the same as in English."""
    gid, ps, devices = _game_with_devices(new_game, push_service, ("ja", "ja", "ja"))
    _start(gid, ps)
    awaited = _awaited_users(gid)
    assert awaited
    assert _send() == {"sent": len(awaited)}
    for u in awaited:
        endpoint, browser, _device = devices[u]
        [post] = push_service.to(endpoint)
        plain = browser.plain(post.body)
        assert "あなたの手番".encode() in plain
        assert b"\\u" not in plain
        assert browser.decrypt(post.body) == {
            "title": "あなたの手番",
            "body": f"電力会社 ゲーム #{gid} であなたの番です。",
            "url": f"/games/{gid}/",
            "tag": f"turn-{gid}",
            "game": gid,
        }
