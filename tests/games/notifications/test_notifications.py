"""Outbox rows, claiming, email content (languages, headers, hidden information), signed links,
digest mode, the development mailbox."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from apihelpers import by_moves, play_default
from django.core import mail
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.notifications import claiming, digest, emails, links, marking, outbox, sending, smtp

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


def send_all() -> dict[str, int]:
    ids = list(Notification.objects.filter(status="pending").values_list("id", flat=True))
    return sending.notifications_send(ids=ids)


def test_game_started_then_turn_notice_for_the_next_player(new_game):
    gid, ps = new_game(players=3)
    assert Notification.objects.filter(kind="game_started").count() == 3
    play_default(gid, ps)
    game = Game.objects.get(pk=gid)
    nxt = Seat.objects.get(game=game, seat=game.to_act[0])
    turn = Notification.objects.get(kind="turn")
    assert turn.recipient_id == nxt.user_id
    assert turn.status == "pending"
    counts = send_all()
    assert counts == {"sent": 4}
    turn_mail = next(m for m in mail.outbox if "Your turn" in m.subject)
    assert turn_mail.to == [nxt.user.email]
    body = turn_mail.body
    assert "Since your last move:" in body
    assert "Deadline:" in body
    assert "/mail/go/" in body
    assert "What you can do:" in body
    html = turn_mail.alternatives[0][0]
    assert "<a href=" in html
    assert "Open the game" in html


def test_one_pending_turn_notice_per_user_and_game(new_game):
    gid, _ps = new_game(players=3)
    game = Game.objects.get(pk=gid)
    seat = Seat.objects.select_related("user__profile").get(game=game, seat=game.to_act[0])
    for _ in range(3):
        w = outbox.OutboxWriter(game=game)
        w.turn(seat, seq=game.seq)
        w.flush()
    assert Notification.objects.filter(kind="turn", recipient=seat.user).count() == 1
    # Once claimed (being sent), the key is free: the player's next turn gets its own row.
    row = Notification.objects.get(kind="turn")
    assert claiming.notification_claim(notification_id=row.pk) is not None
    w = outbox.OutboxWriter(game=game)
    w.turn(seat, seq=game.seq + 5)
    w.flush()
    assert Notification.objects.filter(kind="turn", recipient=seat.user).count() == 2


def test_many_moves_by_others_leave_one_turn_email_per_game(new_game):
    gid, ps = new_game(players=4)
    play_default(gid, ps, times=12)
    pending = Notification.objects.filter(kind="turn", status="pending")
    per_user_game = {}
    for n in pending:
        per_user_game[(n.recipient_id, n.game_id)] = (
            per_user_game.get((n.recipient_id, n.game_id), 0) + 1
        )
    assert per_user_game
    assert set(per_user_game.values()) == {1}


def test_turn_notice_for_a_turn_already_played_is_skipped(new_game):
    gid, ps = new_game(players=3)
    play_default(gid, ps)
    play_default(gid, ps)  # the notified player moved before the email left
    first = Notification.objects.filter(kind="turn").order_by("id").first()
    assert sending.notification_send(notification_id=first.pk) == "skipped"
    first.refresh_from_db()
    assert first.status == "sent"
    assert first.sent_at is None


def test_claims_are_exclusive_and_stale_claims_expire(new_game, settings):
    _gid, _ps = new_game(players=2)
    row = Notification.objects.first()
    assert claiming.notification_claim(notification_id=row.pk) is not None
    assert claiming.notification_claim(notification_id=row.pk) is None
    assert sending.notification_send(notification_id=row.pk) == "taken"
    assert row.pk not in claiming.outbox_due_ids()
    later = timezone.now() + timedelta(seconds=settings.NOTIFY_SENDING_LEASE_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        assert row.pk in claiming.outbox_due_ids()
        assert sending.notification_send(notification_id=row.pk) == "sent"
    row.refresh_from_db()
    assert row.status == "sent"
    assert row.attempts == 2
    assert len(mail.outbox) == 1


def test_send_failure_goes_back_to_pending_then_failed(new_game, monkeypatch):
    _gid, _ps = new_game(players=2)
    row = Notification.objects.first()

    def boom(message):
        raise OSError("smtp down")

    monkeypatch.setattr(smtp, "deliver", boom)
    assert sending.notification_send(notification_id=row.pk) == "retry"
    row.refresh_from_db()
    assert row.status == "pending"
    assert "smtp down" in row.last_error
    Notification.objects.filter(pk=row.pk).update(attempts=claiming.MAX_ATTEMPTS - 1, retry_at=None)
    assert sending.notification_send(notification_id=row.pk) == "failed"
    row.refresh_from_db()
    assert row.retry_at is None  # failed stays for a human (OPERATIONS.md resets it)


def test_retries_back_off_exponentially_up_to_the_cap_on_every_path(
    new_game, monkeypatch, settings
):
    """Each failed attempt doubles the wait before the next (60, 120, 240 s ... at most
    NOTIFY_RETRY_MAX_SECONDS), and no path tries the row sooner: not the outbox sweep, not a task
    for its game (each move queues one), not a task for its id. Before, a fixed minute and each
    move of the game retrying at once used up the 8 attempts within the season's one minute of
    SMTP refusal (31 emails failed)."""
    settings.NOTIFY_RETRY_AFTER_SECONDS = 60
    settings.NOTIFY_RETRY_MAX_SECONDS = 600
    assert [claiming.retry_delay(k).total_seconds() for k in range(1, 9)] == [
        60, 120, 240, 480, 600, 600, 600, 600,
    ]  # fmt: skip
    gid, _ps = new_game(players=2)
    row = Notification.objects.filter(game_id=gid).order_by("id").first()
    Notification.objects.exclude(pk=row.pk).delete()

    def boom(message):
        raise OSError("smtp down")

    monkeypatch.setattr(smtp, "deliver", boom)
    start = timezone.now()
    waits = []
    with time_machine.travel(start, tick=False) as clock:
        for attempt in range(1, 5):
            assert sending.notification_send(notification_id=row.pk) == "retry"
            row.refresh_from_db()
            assert row.attempts == attempt
            wait = row.retry_at - timezone.now()
            waits.append(wait.total_seconds())
            clock.shift(wait - timedelta(seconds=1))  # a second too early: nobody takes it
            assert sending.notifications_send_game(game_id=gid, drain=True) == {}
            assert sending.outbox_sweep() == {}
            assert sending.notification_send(notification_id=row.pk) == "taken"
            clock.shift(timedelta(seconds=1))
    assert waits == [60, 120, 240, 480]
    monkeypatch.undo()
    with time_machine.travel(row.retry_at, tick=False):
        assert sending.outbox_sweep() == {"sent": 1}
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 5)


def test_headers_and_stable_message_id(new_game):
    _gid, _ps = new_game(players=2)
    row = Notification.objects.first()
    m1 = emails.email_build(row)
    m2 = emails.email_build(row)
    assert m1.extra_headers["Message-ID"] == m2.extra_headers["Message-ID"]
    assert m1.extra_headers["List-Unsubscribe"].startswith("<https://pg.example/mail/settings/")
    assert m1.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/mail/settings/" in m1.body


def test_japanese_recipient_gets_japanese_email_with_local_deadline(new_game):
    gid, ps = new_game(players=2, start=False)
    for p in ps:
        p.user.profile.language = "ja"
        p.user.profile.timezone = "Asia/Tokyo"
        p.user.profile.save()
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    play_default(gid, ps)
    row = Notification.objects.get(kind="turn")
    m = emails.email_build(row)
    assert "あなたの番です" in m.subject
    assert "期限" in m.body
    assert "Asia/Tokyo" in m.body
    assert "JST" in m.body
    assert "Since your last move" not in m.body


def test_no_hidden_information_in_emails(new_game):
    gid, ps = new_game(players=3)
    play_default(gid, ps, times=3)
    game = Game.objects.get(pk=gid)
    import powergrid

    state = powergrid.from_json(game.state_json)
    for row in Notification.objects.all():
        m = emails.email_build(row)
        if m is None:
            continue
        text = m.body + m.alternatives[0][0]
        assert str(game.seed) not in text
        # Only the recipient's own money, once in the text part and once in the HTML part.
        assert text.lower().count("money:") <= 2
        # The deck's size is public (the page's market card says it too); nothing else of it.
        shown = f"{len(state.deck)} cards in the deck"
        assert "deck" not in text.lower().replace(shown, "")
        assert "removed" not in text.lower()
    assert state.n == 3


def test_digest_mode_writes_no_turn_rows_and_one_digest_a_day(new_game, django_user_model):
    gid, ps = new_game(players=2, start=False)
    for p in ps:
        p.user.profile.notification_mode = "digest"
        p.user.profile.timezone = "Asia/Tokyo"
        p.user.profile.save()
    # "Your game is full" was written while the mode was the default.
    Notification.objects.all().delete()
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    play_default(gid, ps, times=2)
    assert not Notification.objects.exclude(kind="digest").exists()
    with time_machine.travel("2030-01-10 22:30:00+00:00", tick=False):  # 07:30 in Tokyo
        assert digest.digests_queue() == 0
    with time_machine.travel("2030-01-10 23:30:00+00:00", tick=False):  # 08:30 in Tokyo
        assert digest.digests_queue() == 2
        digest.digests_queue()
        assert Notification.objects.filter(kind="digest").count() == 2
        counts = send_all()
    assert counts.get("sent", 0) >= 1
    waiting = [m for m in mail.outbox if f"#{gid}" in m.body]
    assert waiting
    assert "Daily summary" in waiting[0].subject


def test_mode_none_gets_nothing(new_game):
    gid, ps = new_game(players=2, start=False)
    for p in ps:
        p.user.profile.notification_mode = "none"
        p.user.profile.save()
    # "Your game is full" was written while the mode was the default.
    Notification.objects.all().delete()
    assert ps[0].post(f"/api/v1/games/{gid}/start/").status_code == 200
    play_default(gid, ps, times=3)
    assert not Notification.objects.exists()


# -- signed links ------------------------------------------------------------------------------


def test_game_link_get_never_logs_in_the_button_does_once(new_game, client):
    """A GET (a mail scanner, a preview) logs nobody in; the page's one button (a POST) logs the
    recipient in and opens the game; the same link cannot log in twice."""
    gid, ps = new_game(players=2)
    url = links.game_link(user=ps[1].user, game_id=gid).replace("https://pg.example", "")
    r = client.get(url)
    assert r.status_code == 200
    assert "_auth_user_id" not in client.session
    assert 'method="post"' in r.content.decode()
    r = client.post(url)
    assert r.status_code == 302
    assert str(gid) in r["Location"]
    assert int(client.session["_auth_user_id"]) == ps[1].user.pk
    # Logged in as its recipient, the link just opens the game.
    assert client.get(url).status_code == 302
    # Used: it cannot log in again (in another browser, say).
    from django.test import Client

    other = Client()
    assert other.post(url).status_code == 400
    assert "_auth_user_id" not in other.session
    page = other.get(url)
    assert page.status_code == 200
    assert "can no longer log you in" in page.content.decode()


def test_game_link_never_replaces_another_users_session(new_game, client):
    gid, ps = new_game(players=2)
    client.force_login(ps[0].user)
    url = links.game_link(user=ps[1].user, game_id=gid).replace("https://pg.example", "")
    r = client.get(url)
    assert r.status_code == 200
    assert int(client.session["_auth_user_id"]) == ps[0].user.pk  # unchanged
    assert ps[1].user.get_username() in r.content.decode()


def test_game_link_logs_in_only_while_young(new_game, client, settings):
    gid, ps = new_game(players=2)
    url = links.game_link(user=ps[1].user, game_id=gid).replace("https://pg.example", "")
    later = timezone.now() + timedelta(hours=settings.NOTIFY_LINK_LOGIN_MAX_AGE_HOURS, minutes=1)
    with time_machine.travel(later, tick=False):
        assert client.post(url).status_code == 400
        assert "_auth_user_id" not in client.session


def test_game_link_expired_tampered_or_password_changed(new_game, client, settings):
    gid, ps = new_game(players=2)
    url = links.game_link(user=ps[1].user, game_id=gid).replace("https://pg.example", "")
    later = timezone.now() + timedelta(days=settings.NOTIFY_LINK_MAX_AGE_DAYS, minutes=1)
    with time_machine.travel(later, tick=False):
        r = client.get(url)
    assert r.status_code == 400
    assert b"expired" in r.content
    tampered = url.replace("/mail/go/e", "/mail/go/f")
    assert client.get(tampered).status_code == 400
    other_game = links.login_token(user=ps[1].user, game_id=gid)[:-3] + "abc"
    assert client.get(f"/mail/go/{other_game}/").status_code == 400
    ps[1].user.set_password("a-new-password-123")
    ps[1].user.save()
    assert client.get(url).status_code == 400
    assert "_auth_user_id" not in client.session


def test_settings_link_get_confirms_post_changes(new_game, client):
    _gid, ps = new_game(players=2)
    user = ps[0].user
    url = links.settings_link(user=user).replace("https://pg.example", "")
    r = client.get(url)
    assert r.status_code == 200
    assert b"Email settings" in r.content
    user.profile.refresh_from_db()
    assert user.profile.notification_mode == "every_turn"
    r = client.post(url, {"List-Unsubscribe": "One-Click"})  # RFC 8058 one-click
    assert r.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.notification_mode == "none"
    client.post(url, {"mode": "digest"})
    user.profile.refresh_from_db()
    assert user.profile.notification_mode == "digest"
    assert client.post(url[:-5] + "xxxx/", {}).status_code == 400


def test_the_settings_link_dies_with_a_password_change(new_game, client):
    """The settings link is signed over something a password change rotates (the password's
    fingerprint, as the game link): an email read by someone else stops working once the
    owner changes the password."""
    _gid, ps = new_game(players=2)
    user = ps[0].user
    url = links.settings_link(user=user).replace("https://pg.example", "")
    assert client.get(url).status_code == 200
    user.set_password("a-new-password-123")
    user.save()
    r = client.post(url, {"mode": "none"})
    assert r.status_code == 400
    assert b"not valid" in r.content
    user.profile.refresh_from_db()
    assert user.profile.notification_mode == "every_turn"


def test_the_settings_link_expires(new_game, client, settings, time_machine):
    import datetime as dt

    settings.NOTIFY_SETTINGS_LINK_MAX_AGE_DAYS = 30
    time_machine.move_to(dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC), tick=False)
    _gid, ps = new_game(players=2)
    user = ps[0].user
    url = links.settings_link(user=user).replace("https://pg.example", "")
    time_machine.move_to(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC), tick=False)
    assert client.get(url).status_code == 200
    time_machine.move_to(dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC), tick=False)
    r = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert r.status_code == 400
    assert b"has expired" in r.content
    assert b"/accounts/profile/" in r.content  # where to change it instead
    user.profile.refresh_from_db()
    assert user.profile.notification_mode == "every_turn"


def test_a_bot_account_cannot_take_emails_back(make_player, client):
    """A bot account gets no emails (docs/BOTS.md): neither the API, the profile page nor an
    old email's settings link switches it back to emails."""
    from games.services.bots import bot_account_upgrade

    bot = make_player()
    url = links.settings_link(user=bot.user).replace("https://pg.example", "")  # from before
    bot_account_upgrade(user=bot.user)
    for mode in ("every_turn", "digest"):
        r = bot.client.patch("/api/v1/me/", {"notification_mode": mode}, format="json")
        assert r.status_code == 400
        assert r.json()["error"]["details"]["field"] == "notification_mode"
    client.force_login(bot.user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'value="every_turn"' not in page
    assert 'value="digest"' not in page
    r = client.post(
        "/accounts/profile/",
        {
            "display_name": "",
            "timezone": "UTC",
            "language": "en",
            "notification_mode": "every_turn",
            "reminder_fraction": "0.8",
        },
    )
    assert r.status_code == 200  # the form again, with the error
    assert client.post(url, {"mode": "every_turn"}).status_code == 400
    settings_page = client.get(url).content.decode()
    assert 'value="every_turn"' not in settings_page
    bot.user.profile.refresh_from_db()
    assert bot.user.profile.notification_mode == "none"
    # "none" itself is fine.
    r = bot.client.patch("/api/v1/me/", {"notification_mode": "none"}, format="json")
    assert r.status_code == 200


# -- the development mailbox -------------------------------------------------------------------


def test_mailbox_lists_file_backend_emails_only_with_debug(new_game, client, settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    _gid, _ps = new_game(players=2)
    assert send_all()["sent"] == 2
    settings.DEBUG = False
    assert client.get("/dev/mailbox/").status_code == 404
    settings.DEBUG = True
    r = client.get("/dev/mailbox/")
    assert r.status_code == 200
    assert b"has started" in r.content
    key = r.context["mails"][0].key
    d = client.get(f"/dev/mailbox/{key}/")
    assert d.status_code == 200
    assert b"List-Unsubscribe" in d.content
    h = client.get(f"/dev/mailbox/{key}/?part=html")
    assert h.status_code == 200
    assert b"<html" in h.content
    assert client.get("/dev/mailbox/../../etc:0/").status_code == 404


def test_a_failed_turn_email_takes_its_key_back_so_its_retry_is_the_only_one(new_game, monkeypatch):
    """A turn email fails (SMTP away) and waits for its retry. Meanwhile the player plays and is
    awaited again: no second turn email is written (the failed one holds the turn's key again,
    as a held one does), and the retry, built afresh, is the one email. Before, the player got
    a new turn email and then the old one too (scripts/season, after retries got their
    backoff)."""
    gid, ps = new_game(players=2)
    send_all()
    for _ in range(8):  # until the first player to act is awaited again later
        game = Game.objects.get(pk=gid)
        first = Seat.objects.get(game=game, seat=game.to_act[0])
        Notification.objects.filter(kind="turn").delete()
        play_default(gid, ps)
        game.refresh_from_db()
        nxt = Seat.objects.get(game=game, seat=game.to_act[0])
        if nxt.user_id != first.user_id:
            break
    row = Notification.objects.get(kind="turn", recipient_id=nxt.user_id, status="pending")

    def boom(message):
        raise OSError("smtp down")

    monkeypatch.setattr(smtp, "deliver", boom)
    assert sending.notification_send(notification_id=row.pk) == "retry"
    monkeypatch.undo()
    row.refresh_from_db()
    assert (row.status, row.dedupe_key) == ("pending", outbox.turn_key(gid, nxt.user_id))
    for _ in range(12):  # nxt plays; the game goes on until nxt is awaited again
        play_default(gid, ps)
        game = Game.objects.get(pk=gid)
        if Seat.objects.get(game=game, seat=game.to_act[0]).user_id == nxt.user_id:
            break
    else:
        pytest.skip("the seat was not awaited again within 12 moves")
    turn_rows = Notification.objects.filter(kind="turn", recipient_id=nxt.user_id)
    assert list(turn_rows.values_list("pk", flat=True)) == [row.pk]  # no second email written
    mail.outbox.clear()
    Notification.objects.filter(pk=row.pk).update(retry_at=None)  # its wait is over
    assert sending.notification_send(notification_id=row.pk) == "sent"
    assert [m.to for m in mail.outbox] == [[row.recipient.email]]


def test_a_failed_turn_email_gives_way_to_a_newer_one(new_game, monkeypatch):
    gid, _ps = new_game(players=2)
    game = Game.objects.get(pk=gid)
    seat = Seat.objects.get(game=game, seat=game.to_act[0])
    row = Notification.objects.get(kind__in=["turn", "game_started"], recipient_id=seat.user_id)
    Notification.objects.filter(pk=row.pk).update(kind="turn", dedupe_key=None)
    newer = Notification.objects.create(
        recipient_id=seat.user_id, game_id=gid, kind="turn",
        dedupe_key=outbox.turn_key(gid, seat.user_id),
    )  # fmt: skip

    def boom(message):
        raise OSError("smtp down")

    monkeypatch.setattr(smtp, "deliver", boom)
    assert sending.notification_send(notification_id=row.pk) == "skipped"
    row.refresh_from_db()
    assert (row.status, row.last_error) == ("sent", marking.SKIPPED_NEWER)
    assert Notification.objects.get(pk=newer.pk).status == "pending"
