"""A tournament's emails, webhook events and stream events at its three moments: round 1's
tables ("your table is ready", in place of the table game's own "started" email), later
rounds ("the next round starts": a table, or a bye) and the end ("final standings"). Nobody
whose settings turned emails off gets one; the others' emails are built and sent through the
outbox; each kind is checked."""

from __future__ import annotations

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings, monkeypatch):
    """Emails to locmem, Celery publishing recorded instead of sent (as tests/games do)."""
    from games import queue

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://pg.example"
    published: list[str] = []
    monkeypatch.setattr(queue, "publish", lambda name, *a, **k: published.append(name))
    return published


def _send() -> list:
    from games.notifications.sending import outbox_sweep

    mail.outbox.clear()
    outbox_sweep()
    return list(mail.outbox)


def _to(mails, user):
    return [m for m in mails if m.to == [user.email]]


def test_three_moments_by_email_webhook_and_stream(make_user, django_capture_on_commit_callbacks):
    from tablehelpers import make_tables, play_silent

    from games.models import Notification, StreamEvent, Webhook, WebhookDelivery
    from games.stream.log import Reader
    from games.webhooks.events import EVENTS
    from tournaments import services
    from tournaments.models import Bye, Table

    director = make_user()
    users = [make_user() for _ in range(4)]
    quiet = users[3]
    quiet.profile.notification_mode = "none"  # emails off
    quiet.profile.save()
    hooked = users[0]
    Webhook.objects.create(
        owner=hooked, url="https://hooks.example/x", secret="s", events=list(EVENTS)
    )
    t = services.tournament_create(
        director=director, name="Cup", maps=["germany"], table_min=3, table_max=3, rounds=2
    )
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    services.tournament_start(tournament_id=t.pk, user=director)
    # Nobody is told before the table's game exists (made by its task after the start's commit)
    assert not Notification.objects.exists()
    assert not StreamEvent.objects.exists()
    assert make_tables() == 1

    # Round 1: three at the table (its "started" emails became "your table is ready"), a bye.
    [table] = Table.objects.filter(round__tournament=t, round__number=1)
    seated = {p.entrant.user for p in table.players.all()}
    [bye] = Bye.objects.filter(round__tournament=t, round__number=1)
    assert not Notification.objects.filter(kind="game_started").exists()
    kinds = dict(Notification.objects.values_list("recipient_id", "kind"))
    for u in users:
        if u == quiet:
            assert u.pk not in kinds
        elif u in seated:
            assert kinds[u.pk] == "table_ready"
        else:
            assert kinds[u.pk] == "round_started"
    sent = _send()
    for u in seated - {quiet}:
        [m] = _to(sent, u)
        assert "Cup: your table is ready" in m.subject
        assert "table 1, round 1 of 2" in m.body
        assert f"/games/{table.game_id}/" in m.body or "/mail/" in m.body
        assert f"https://pg.example/tournaments/{t.pk}/" in m.body
        html = m.alternatives[0][0]
        assert "Your table is ready" in html
    if bye.entrant.user != quiet:
        [m] = _to(sent, bye.entrant.user)
        assert "round 1 starts" in m.subject
        assert "you sit it out" in m.body
    assert not _to(sent, quiet)
    # the webhook of a seated player (or a bye) says the same moment
    event = "table_ready" if hooked in seated else "round_started"
    d = WebhookDelivery.objects.get(webhook__owner=hooked, event=event)
    assert d.payload["tournament"]["id"] == t.pk
    assert d.payload["tournament"]["round"] == 1
    assert d.payload["tournament"]["table"] == (1 if hooked in seated else None)
    # the stream: on the players' own streams, never a watcher's
    ev = StreamEvent.objects.get(kind="table_ready")
    assert set(ev.seats) == {str(u.pk) for u in seated}
    assert ev.body["tournament"]["table"] == 1
    assert Reader(user_id=next(iter(seated)).pk, game_id=None).wants(ev)
    assert not Reader(user_id=None, game_id=table.game_id).wants(ev)
    assert StreamEvent.objects.filter(kind="round_started").count() == 1  # the bye's

    # Round 2 starts when round 1's game ends: "the next round starts", with the place so far.
    with django_capture_on_commit_callbacks(execute=True):
        play_silent(table.game_id)
    assert not Notification.objects.filter(kind="round_started", payload__round=2).exists()
    assert make_tables() == 1
    [table2] = Table.objects.filter(round__tournament=t, round__number=2)
    seated2 = {p.entrant.user for p in table2.players.all()}
    rows = Notification.objects.filter(kind="round_started", payload__round=2)
    assert {n.recipient for n in rows} == set(users) - {quiet}
    sent = _send()
    for u in set(users) - {quiet}:
        [m] = [x for x in _to(sent, u) if "round 2 starts" in x.subject]
        assert "You are in place" in m.body
        if u in seated2:
            assert "Your table: table 1." in m.body
        else:
            assert "you sit it out" in m.body

    # The end: "final standings" to everyone still playing who wants emails.
    with django_capture_on_commit_callbacks(execute=True):
        play_silent(table2.game_id)
    t.refresh_from_db()
    assert t.status == "finished"
    finals = Notification.objects.filter(kind="final_standings")
    assert {n.recipient for n in finals} == set(users) - {quiet}
    sent = _send()
    for u in set(users) - {quiet}:
        [m] = [x for x in _to(sent, u) if "final standings" in x.subject]
        assert "Cup: final standings" in m.subject
        assert "You placed" in m.body
        assert " of 4, with " in m.body
        assert "next season" not in m.body  # no league
    d = WebhookDelivery.objects.get(webhook__owner=hooked, event="final_standings")
    assert d.payload == {
        "event": "final_standings",
        "tournament": {
            "id": t.pk,
            "name": "Cup",
            "round": 2,
            "rounds": 2,
            "table": None,
            "url": f"/tournaments/{t.pk}/",
        },
    }
    final = StreamEvent.objects.get(kind="final_standings")
    assert set(final.seats) == {str(u.pk) for u in users}


def test_webhook_sentences_for_chat_formats():
    from games.webhooks.sending import text

    t = {"id": 3, "name": "Cup @everyone", "round": 2, "rounds": 3, "table": 1, "url": "/t/3/"}
    game = {"id": 9, "url": "https://pg.example/games/9/"}
    said = text({"event": "table_ready", "game": game, "tournament": t}, "en", "discord")
    assert said.startswith("Power Grid: your table in Cup \\@everyone is ready (round 2).")
    said = text({"event": "round_started", "tournament": {**t, "table": None}}, "en", "slack")
    assert "round 2 of Cup" in said
    said = text({"event": "final_standings", "tournament": t}, "en", "generic")
    assert "final standings" in said
