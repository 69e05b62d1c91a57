"""After a restore to a named time that loses moves on purpose: the delivery journal (written by
the sending worker, outside the database) against a database rolled back to that point (rows
deleted and put back as they were, as a point-in-time restore leaves them). Each affected player
is told once, in their language; the mover is told which of their moves were lost; an email
already delivered is not sent again; deadlines are re-armed; the replays agree.
scripts/restore_drill does the same with a real pgBackRest restore."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from apihelpers import by_moves, play_default
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from restoring import roll_back, send_all, snapshot

from games.models import ChatMessage, Game, Move, Notification, Seat
from games.notifications import claiming
from games.restore import journal
from games.restore.services import after_restore

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


def play_past(gid: int, ps: list, snap: dict, *, mover, at_least: int = 4) -> None:
    """Default moves after the snapshot, ``at_least`` of them and until ``mover`` has made one
    that another seat's move followed: the turn email to that seat, sent as it was due,
    described it, so the journal knows it (who moves when depends on the game's seed: the
    seating, the first player order)."""
    seat = Seat.objects.get(game_id=gid, user=mover).seat
    for n in range(1, 40):
        play_default(gid, ps)
        send_all()
        seats = list(
            Move.objects.filter(game_id=gid, seq__gt=snap["game"][0])
            .order_by("seq")
            .values_list("seat", flat=True)
        )
        followed = seat in seats and any(s != seat for s in seats[seats.index(seat) :])
        if n >= at_least and followed:
            return
    raise AssertionError(f"seat {seat} made no move that another followed in 40")


def test_a_restore_to_a_named_time_tells_each_player_once(new_game, journal_dir):
    gid, ps = new_game(players=3)
    ja = ps[2].user
    ja.profile.language = "ja"
    ja.profile.save()
    play_default(gid, ps, times=3)  # its emails are pending at the restore point...
    snap = snapshot(gid)
    restored_seq = snap["game"][0]
    send_all()  # ...and delivered after it: the journal has them, the restored database not
    delivered = set(
        Notification.objects.filter(status="sent", last_error="").values_list("pk", flat=True)
    )
    assert len(delivered) >= 3  # the game's start, to each player
    lost_movers = []
    for _ in range(4):
        game = Game.objects.get(pk=gid)
        lost_movers.append(Seat.objects.get(game=game, seat=game.to_act[0]).user_id)
        play_default(gid, ps)
        send_all()
    ChatMessage.objects.create(game_id=gid, author=ps[0].user, text="good luck, all")
    play_default(gid, ps)  # the next turn email carries the message
    send_all()
    lost = Game.objects.get(pk=gid).seq - restored_seq
    assert lost == 5
    lines = [x for x in journal.read([journal_dir]) if "kind" in x and "n" in x]  # deliveries
    assert lines
    assert all(line["v"] == 1 for line in lines)
    assert max(line["seq"] for line in lines if line["game"] == gid) > restored_seq

    roll_back(gid, snap)
    mail.outbox.clear()
    report = after_restore(paths=[journal_dir], label="named-time-1")

    assert report.moves_lost == lost
    assert report.games_behind == 1
    assert report.chat_lost == 1
    assert report.players_told == 3
    assert report.marked_sent == len(delivered)
    # delivered before the restore: never again
    assert not Notification.objects.filter(pk__in=delivered).exclude(status="sent").exists()
    # The deadlines: the awaited seat has a fresh turn from now; the others none.
    game = Game.objects.get(pk=gid)
    for seat in Seat.objects.filter(game=game):
        if seat.seat in game.to_act:
            assert seat.deadline > timezone.now() + timedelta(hours=10)
        else:
            assert seat.deadline is None

    send_all()
    told = [m for m in mail.outbox if "restored" in m.subject or "復元" in m.subject]
    assert sorted(m.to[0] for m in told) == sorted(p.user.email for p in ps)
    assert not [m for m in mail.outbox if m not in told]  # no turn email sent twice
    by_to = {m.to[0]: m for m in told}
    mover = Seat.objects.get(game=game, user_id=lost_movers[0]).user
    body = by_to[mover.email].body
    assert f"Game #{gid} went back to move {restored_seq}." in body or "手目" in body
    assert ("was lost: please play it again." in body) or ("もう一度指してください" in body)
    ja_body = by_to[ja.email].body
    assert "復元されました" in ja_body
    assert "was lost" not in ja_body
    author = by_to[ps[0].user.email].body
    assert "good luck, all" in author
    assert "In the games that went back, your deadline starts again from now." in author
    for other in (p.user for p in ps[1:]):
        assert "good luck, all" not in by_to[other.email].body  # not theirs to be told

    again = after_restore(paths=[journal_dir], label="named-time-1")
    assert again.players_told == 0  # once per recovery
    out = []
    call_command("check_replays", stdout=type("W", (), {"write": lambda s, x: out.append(x)})())
    assert "0 differ" in "".join(out)


def test_nothing_lost_tells_nobody_and_marks_what_was_delivered(new_game, journal_dir):
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=3)
    snap = snapshot(gid)
    send_all()
    delivered = set(
        Notification.objects.filter(status="sent", last_error="").values_list("pk", flat=True)
    )
    roll_back(gid, snap)  # only the sent marks are lost, as at a failover's last second
    assert Notification.objects.filter(status="pending").exists()
    report = after_restore(paths=[journal_dir], label="failover-1")
    assert report.moves_lost == 0
    assert report.players_told == 0
    assert report.marked_sent == len(delivered)
    assert not Notification.objects.filter(pk__in=delivered).exclude(status="sent").exists()
    mail.outbox.clear()
    send_all()
    assert mail.outbox == []


def test_a_journal_line_says_what_the_email_said_and_no_more(new_game, journal_dir):
    gid, ps = new_game(players=3, options={"variant": "sealed_bid"})
    play_default(gid, ps, times=2)
    send_all()
    path = journal.journal_path()
    assert path is not None
    text = path.read_text()
    (journal_dir / "delivered-other.jsonl").write_text(text + '{"v": 1, "n": 9')  # torn
    lines = list(journal.read([journal_dir]))
    assert len(lines) == 2 * len(text.splitlines())
    chat_lines = [json.loads(x) for x in text.splitlines() if "kind" not in json.loads(x)]
    assert chat_lines  # each turn email's line is followed by its game's chat line
    turn = next(json.loads(x) for x in text.splitlines() if json.loads(x).get("kind") == "turn")
    assert turn["game"] == gid
    assert turn["seq"] == 2
    # the turn it asks for, by the email's own number (the game may have moved on since)
    assert turn["turn"] == Notification.objects.get(pk=turn["n"]).payload["seq"]
    assert turn["mid"].startswith("<notification-")
    assert [m[0] for m in turn["moves"]] == [1, 2]
    game = Game.objects.get(pk=gid)
    assert str(game.seed) not in text
    assert "state" not in turn


def test_claims_of_workers_gone_are_released_and_one_turn_gets_one_email(new_game, journal_dir):
    """A turn email claimed (``sending``, its dedupe key released) by a worker lost with the
    database, never delivered: pending again with its key back, so a move made now writes no
    second row for the same turn; if a newer one holds the key, the old one gives way."""
    gid, ps = new_game(players=3)
    play_default(gid, ps)
    send_all()
    play_default(gid, ps)
    row = Notification.objects.get(kind="turn", status="pending")
    assert claiming.notification_claim(notification_id=row.pk) is not None
    row.refresh_from_db()
    assert row.status == "sending"
    assert row.dedupe_key is None
    report = after_restore(paths=[journal_dir], label="failover-2")
    assert report.claims_released == 1
    row.refresh_from_db()
    assert row.status == "pending"
    assert row.dedupe_key == f"turn:{gid}:{row.recipient_id}"
    # claimed again, and a newer turn row written meanwhile: the older gives way
    assert claiming.notification_claim(notification_id=row.pk) is not None
    Notification.objects.create(
        recipient_id=row.recipient_id, game_id=gid, kind="turn", dedupe_key=row.dedupe_key
    )
    after_restore(paths=[journal_dir], label="failover-3")
    row.refresh_from_db()
    assert row.status == "sent"
    assert row.last_error.startswith("skipped")


def test_a_digest_reader_is_told_too(new_game, journal_dir):
    gid, ps = new_game(players=2)
    digest_user = ps[1].user
    digest_user.profile.notification_mode = "digest"
    digest_user.profile.save()
    play_default(gid, ps, times=2)
    snap = snapshot(gid)
    play_default(gid, ps, times=3)
    send_all()
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="named-2")
    assert report.moves_lost > 0
    told = set(Notification.objects.filter(kind="restored").values_list("recipient_id", flat=True))
    assert digest_user.pk in told


def test_a_player_with_emails_off_is_told_on_the_game_page_only(new_game, journal_dir, client):
    """Not emailed (they turned emails off), so the game page is where they learn it: the row
    is written, never sent, and the page shows its words."""
    gid, ps = new_game(players=2)
    quiet = ps[1].user
    quiet.profile.notification_mode = "none"
    quiet.profile.save()
    play_default(gid, ps, times=2)
    snap = snapshot(gid)
    play_past(gid, ps, snap, mover=quiet)
    send_all()
    roll_back(gid, snap)
    mail.outbox.clear()
    report = after_restore(paths=[journal_dir], label="quiet-1")
    assert report.moves_lost > 0
    assert report.players_told == 2
    assert report.told_on_page_only == 1
    send_all()
    told = [m for m in mail.outbox if "restored" in m.subject]
    assert [m.to[0] for m in told] == [ps[0].user.email]
    row = Notification.objects.get(kind="restored", recipient=quiet)
    assert row.status == "sent"
    assert row.sent_at is None
    assert "told on the game page" in row.last_error
    client.force_login(quiet)
    page = client.get(f"/games/{gid}/").content.decode()
    assert "restored to an earlier point" in page
    assert f"Game #{gid} went back to move {snap['game'][0]}." in page
    assert row.payload["games"][0]["moves"]  # they moved after the point: each move named
    assert "was lost: please play it again." in page
    again = after_restore(paths=[journal_dir], label="quiet-1")
    assert again.players_told == 0
    assert Notification.objects.filter(kind="restored", recipient=quiet).count() == 1


def test_a_second_restore_tells_only_its_own_losses(new_game, journal_dir):
    """The operator keeps the whole journal (as long as the oldest backup). A second restore,
    soon after the first, to a database that holds the first one's repairs: what the first
    told (its lost moves, beyond where the game now stands again; a game lost whole) is not
    told again; only the second's own losses are, and a second run of it changes nothing
    more (the same restore point, no deadline moved again)."""
    gid, ps = new_game(players=3)
    play_default(gid, ps, times=3)
    send_all()
    snap1 = snapshot(gid)
    for _ in range(4):  # lost in the first restore
        play_default(gid, ps)
        send_all()
    gone, gone_ps = new_game(players=3)  # made after the first point: lost whole
    play_default(gone, gone_ps, times=2)
    send_all()
    roll_back(gid, snap1)
    Game.objects.filter(pk=gone).delete()
    first = after_restore(paths=[journal_dir], label="restore-1")
    assert (first.games_behind, first.games_lost) == (1, 1)
    assert first.moves_lost >= 4
    send_all()

    play_default(gid, ps)  # the game goes on: one move, not as far as it had gone before
    send_all()
    snap2 = snapshot(gid)
    play_default(gid, ps, times=2)  # lost in the second restore
    send_all()
    roll_back(gid, snap2)
    mail.outbox.clear()
    second = after_restore(paths=[journal_dir], label="restore-2")
    assert (second.games_behind, second.games_lost, second.moves_lost) == (1, 0, 2)
    send_all()
    told = [m for m in mail.outbox if "restored" in m.subject or "復元" in m.subject]
    assert sorted(m.to[0] for m in told) == sorted(p.user.email for p in ps)
    for m in told:
        assert f"Game #{gid} went back to move {snap2['game'][0]}." in m.body
        assert f"#{gone}" not in m.body

    again = after_restore(paths=[journal_dir], label="restore-2")
    assert (again.players_told, again.deadlines_rearmed) == (0, 0)
    assert again.restored_to == second.restored_to


def test_an_earlier_restores_page_notice_stays_after_a_later_one(
    new_game, make_player, journal_dir, client
):
    """A player with emails off learns of a recovery on the game page only, which shows their
    latest ``restored`` row. A later recovery of another of their games writes a newer row:
    it carries the earlier one's game (``earlier``), so both pages still tell, each its own
    recovery; the later email tells only the later loss."""
    gid, ps = new_game(players=2)
    quiet = ps[0].user
    quiet.profile.notification_mode = "none"
    quiet.profile.save()
    other = make_player()
    r = ps[0].post(
        "/api/v1/games/", {"map": "germany", "max_players": 2, "options": {"sheets": False}}
    )
    second_game = r.json()["id"]
    assert other.post(f"/api/v1/games/{second_game}/join/").status_code == 200
    both = [ps[0], other]
    play_default(gid, ps, times=2)
    play_default(second_game, both, times=2)
    send_all()
    snap_a = snapshot(gid)
    play_past(gid, ps, snap_a, mover=quiet)  # lost in the first recovery
    send_all()
    roll_back(gid, snap_a)
    assert after_restore(paths=[journal_dir], label="first").games_behind == 1
    send_all()

    snap_b = snapshot(second_game)
    play_past(second_game, both, snap_b, mover=quiet)  # lost in the second
    send_all()
    roll_back(second_game, snap_b)
    mail.outbox.clear()
    assert after_restore(paths=[journal_dir], label="second").games_behind == 1
    send_all()

    client.force_login(quiet)
    page_a = client.get(f"/games/{gid}/").content.decode()
    page_b = client.get(f"/games/{second_game}/").content.decode()
    assert f"Game #{gid} went back to move {snap_a['game'][0]}." in page_a
    assert f"Game #{second_game} went back to move {snap_b['game'][0]}." in page_b
    told = [m for m in mail.outbox if "restored" in m.subject]
    assert [m.to[0] for m in told] == [other.user.email]
    assert f"Game #{gid}" not in told[0].body
