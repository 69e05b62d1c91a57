"""After a restore to a named time before a game was made: the game is lost whole (it, its seats,
moves, emails and chat are not in the restored database; the delivery journal knows it, and who
played it). Each of its players is told once, on their channel: by email, or with emails off on
their home page (the game has no page any more) until they dismiss it; a device's push notices
are no channel of it. The recovery run again with the same label tells nobody again."""

from __future__ import annotations

import pytest
from apihelpers import BY_MOVES, play_default, seat_players
from django.core import mail
from django.urls import reverse

from accounts.models import PushSubscription
from games.models import ChatMessage, Game, Notification, PushMessage
from games.notifications import sending
from games.restore import journal
from games.restore.services import after_restore

pytestmark = pytest.mark.django_db

P256DH = "BAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE"
AUTH = "AQEBAQEBAQEBAQEBAQEBAQ"
LOST = "was lost: it started after the point the database was restored to."


def send_all() -> None:
    ids = list(Notification.objects.filter(status="pending").values_list("id", flat=True))
    sending.notifications_send(ids=ids)


def _described(folder) -> tuple[set[int], int]:
    """The seats whose moves the delivered emails described (the journal's lines), and the
    chat messages they carried."""
    lines = list(journal.read([folder]))
    seats = {m[1] for x in lines for m in x.get("moves") or []}
    return seats, sum(len(x.get("chat") or []) for x in lines)


@pytest.fixture
def lost_game(make_player, journal_dir):
    """A game made after the restore point and played (its emails delivered: the journal has
    them), then gone as a restore to that point leaves the database. Players: ``loud`` (emails
    on), ``quiet`` (emails off), ``pushy`` (emails off, in Japanese, a device taking push
    turn notices)."""
    loud, quiet, pushy = make_player(), make_player(), make_player()
    for p in (quiet, pushy):
        p.user.profile.notification_mode = "none"
        p.user.profile.save()
    pushy.user.profile.push_turns = True
    pushy.user.profile.language = "ja"
    pushy.user.profile.save()
    PushSubscription.objects.create(
        user=pushy.user, endpoint="https://push.example.com/send/p", p256dh=P256DH, auth=AUTH
    )
    before = set(Notification.objects.values_list("pk", flat=True))  # the restore point
    r = loud.post("/api/v1/games/", {"map": "germany", "max_players": 3, "options": {**BY_MOVES}})
    assert r.status_code == 201, r.content
    gid = r.json()["id"]
    for p in (quiet, pushy):
        assert p.post(f"/api/v1/games/{gid}/join/").status_code == 200
    if Game.objects.get(pk=gid).status == "open":
        assert loud.post(f"/api/v1/games/{gid}/start/").status_code == 200
    ps = [loud, quiet, pushy]
    seats = seat_players(gid, ps)
    quiet_seats = {s for s, p in seats.items() if p in (quiet, pushy)}
    ChatMessage.objects.create(game_id=gid, author=quiet.user, text="see you at the auction")
    for _ in range(60):  # until a turn email to ``loud`` told of their moves and message
        play_default(gid, ps)
        send_all()
        seen, chat = _described(journal_dir)
        if quiet_seats <= seen and chat:
            break
    else:
        raise AssertionError("the players with emails off made no move an email described")
    assert PushMessage.objects.filter(recipient=pushy.user).exists()  # their turns were pushed
    told_loud = Notification.objects.filter(recipient=loud.user, status="sent", last_error="")
    assert told_loud.exists()
    assert not Notification.objects.filter(recipient__in=[quiet.user, pushy.user], status="sent")
    lines = [x for x in journal.read([journal_dir]) if x.get("kind") and "n" in x]  # deliveries
    assert lines
    assert all(x["user"] == loud.user.pk for x in lines)  # no line is addressed to them
    # The restore: nothing made after the point is in the database.
    Game.objects.filter(pk=gid).delete()  # its seats, moves, emails, chat, push rows with it
    Notification.objects.exclude(pk__in=before).delete()
    assert not PushMessage.objects.exists()
    mail.outbox.clear()
    return gid, loud, quiet, pushy


def test_a_game_lost_whole_tells_each_player_once_on_their_channel(lost_game, journal_dir, client):
    gid, loud, quiet, pushy = lost_game
    report = after_restore(paths=[journal_dir], label="named-time-lost")
    assert report.games_lost == 1
    assert report.players_told == 3
    assert report.told_on_page_only == 2
    send_all()
    # emails on: one email, naming the game by number and map; nothing else sent again
    assert [m.to[0] for m in mail.outbox] == [loud.user.email]
    assert "restored to an earlier point" in mail.outbox[0].subject
    assert f"Game #{gid} (Germany) {LOST}" in mail.outbox[0].body
    assert "see you at the auction" not in mail.outbox[0].body  # not theirs
    # after_restore pushes nothing (push notices are turn notices; the game is gone)
    assert not PushMessage.objects.exists()

    # emails off: their home page, with their own lost moves and message, nobody else's
    client.force_login(quiet.user)
    home = client.get("/").content.decode()
    assert home.count(f"Game #{gid} (Germany) {LOST}") == 1
    assert "restored to an earlier point" in home
    row = Notification.objects.get(kind="restored", recipient=quiet.user)
    assert row.status == "sent"
    assert row.sent_at is None
    own = row.payload["games"][0]["moves"]
    assert own  # they moved after the point: each of their moves named
    quiet_seat = {m[1] for m in own}
    assert len(quiet_seat) == 1
    assert home.count("was lost with the game.") == len(own)
    assert "see you at the auction" in home
    assert f"/games/{gid}/" not in home  # no link to a page that is gone
    # the player with a push device: told the same way, in their language
    client.force_login(pushy.user)
    ja_home = client.get("/").content.decode()
    assert f"#{gid}（ドイツ）" in ja_home
    assert "see you at the auction" not in ja_home
    # told once: emails on are not told on the page too
    client.force_login(loud.user)
    assert f"Game #{gid} (Germany)" not in client.get("/").content.decode()

    again = after_restore(paths=[journal_dir], label="named-time-lost")
    assert again.games_lost == 1
    assert again.players_told == 0
    assert Notification.objects.filter(kind="restored").count() == 3
    mail.outbox.clear()
    send_all()
    assert mail.outbox == []
    client.force_login(quiet.user)
    assert client.get("/").content.decode().count(f"Game #{gid} (Germany)") == 1


def test_the_home_notice_stays_until_its_reader_dismisses_it(lost_game, journal_dir, client):
    gid, loud, quiet, _pushy = lost_game
    after_restore(paths=[journal_dir], label="named-time-lost")
    theirs = Notification.objects.get(kind="restored", recipient=quiet.user)
    other = Notification.objects.get(kind="restored", recipient=loud.user)
    client.force_login(quiet.user)
    assert f"Game #{gid} (Germany)" in client.get("/").content.decode()
    assert f"Game #{gid} (Germany)" in client.get("/").content.decode()  # until dismissed
    assert client.get(reverse("restored_dismiss", args=[theirs.pk])).status_code == 405
    r = client.post(reverse("restored_dismiss", args=[other.pk]))  # not theirs: nothing
    assert r.status_code == 302
    other.refresh_from_db()
    assert "dismissed_at" not in other.payload
    r = client.post(reverse("restored_dismiss", args=[theirs.pk]))
    assert r.status_code == 302
    assert r["Location"] == reverse("home")
    assert f"Game #{gid} (Germany)" not in client.get("/").content.decode()
    theirs.refresh_from_db()
    assert theirs.payload["games"][0]["lost_game"]  # the payload kept: only marked
    assert "dismissed_at" in theirs.payload
    after_restore(paths=[journal_dir], label="named-time-lost")  # run again: not shown again
    assert f"Game #{gid} (Germany)" not in client.get("/").content.decode()
    client.logout()
    r = client.post(reverse("restored_dismiss", args=[theirs.pk]))
    assert r.status_code == 302
    assert "login" in r["Location"]


def test_a_journal_line_names_the_game_s_map_and_players(lost_game, journal_dir):
    gid, loud, quiet, pushy = lost_game
    lines = [x for x in journal.read([journal_dir]) if x.get("kind") and x.get("game") == gid]
    assert lines
    assert all(x["map"] == "germany" for x in lines)
    users = {u for x in lines for _s, u in x["players"]}
    assert users == {loud.user.pk, quiet.user.pk, pushy.user.pk}
