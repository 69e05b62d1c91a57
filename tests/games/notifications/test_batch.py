"""Sending in batches: one claim statement for many rows, never one row to two claimers (on
PostgreSQL, with real concurrent connections), stale claims taken over, a few queries per batch."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.notifications import claiming, emails, marking, outbox, sending, smtp


def _games(n: int, players: int = 2, *, sheets: bool = False) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.services.lobby import game_create, game_join

    User = get_user_model()
    ids = []
    for g in range(n):
        users = [
            User.objects.create_user(
                username=f"b{g}x{i}x{timezone.now().timestamp()}",
                email=f"b{g}x{i}@example.com",
                password="x",
            )
            for i in range(players)
        ]
        # Move by move: a turn email per turn (round sheets' emails: tests/games/sheets/, and
        # their batch below).
        game = game_create(
            creator=users[0], map="germany", max_players=players, options={"sheets": sheets}
        )
        for u in users[1:]:
            game_join(game_id=game.pk, user=u)
        game.refresh_from_db()  # the last join started it (auto_start)
        ids.append(game.pk)
    return ids


def _turn_rows() -> list[int]:
    """Replace every row by one pending turn notice per game (for its awaited player)."""
    Notification.objects.all().delete()
    rows: list[Notification] = []
    for seat in Seat.objects.filter(deadline__isnull=False).select_related("user__profile", "game"):
        w = outbox.OutboxWriter(game=seat.game)
        w.turn(seat, seq=seat.game.seq)
        rows += w.rows
    Notification.objects.bulk_create(rows)
    return sorted(Notification.objects.values_list("id", flat=True))


def _postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED claims are PostgreSQL's")


@pytest.mark.django_db(transaction=True)
def test_concurrent_batch_claims_never_hand_a_row_to_two_claimers():
    _postgres()
    _games(3)
    # 90 pending rows (no dedupe key), claimed by 4 threads in batches of 7 at the same time.
    user_ids = list(Seat.objects.values_list("user_id", flat=True))
    game_id = Game.objects.values_list("id", flat=True).first()
    Notification.objects.all().delete()
    Notification.objects.bulk_create(
        [
            Notification(recipient_id=user_ids[i % len(user_ids)], game_id=game_id, kind="other")
            for i in range(90)
        ]
    )
    all_ids = set(Notification.objects.values_list("id", flat=True))
    got: list[list[int]] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def claimer() -> None:
        mine: list[int] = []
        try:
            barrier.wait()
            while True:
                ids, _ = claiming.notifications_claim(ids=sorted(all_ids), due=True, limit=7)
                if not ids:
                    # Rows skipped as locked by another claimer may still be there: once more.
                    ids, _ = claiming.notifications_claim(ids=sorted(all_ids), limit=7)
                    if not ids:
                        break
                mine += ids
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            got.append(mine)
            connections.close_all()

    threads = [threading.Thread(target=claimer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    flat = [i for mine in got for i in mine]
    assert len(flat) == len(set(flat)), "a row was claimed twice"
    assert set(flat) == all_ids
    assert not Notification.objects.exclude(status="sending").exists()
    assert set(Notification.objects.values_list("attempts", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_batch_claim_skips_rows_another_transaction_holds():
    _postgres()
    _games(2)
    ids = _turn_rows()
    locked, free = ids[0], ids[1]
    holding = threading.Event()
    done = threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                list(Notification.objects.select_for_update().filter(pk=locked))
                holding.set()
                done.wait(20)
        finally:
            connections.close_all()

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert holding.wait(10)
        claimed, _ = claiming.notifications_claim(ids=ids)
        assert claimed == [free]  # no waiting on the locked row, and not claimed
    finally:
        done.set()
        t.join(20)
    claimed, _ = claiming.notifications_claim(ids=ids)
    assert claimed == [locked]


@pytest.mark.django_db
def test_batch_claim_takes_stale_claims_not_live_ones_nor_rows_waiting_for_retry(settings):
    _games(3)
    ids = _turn_rows()
    now = timezone.now()
    stale = now - timedelta(seconds=settings.NOTIFY_SENDING_LEASE_SECONDS + 5)
    live = now - timedelta(seconds=1)
    Notification.objects.filter(pk=ids[0]).update(status="sending", claimed_at=stale, attempts=1)
    Notification.objects.filter(pk=ids[1]).update(status="sending", claimed_at=live, attempts=1)
    # A failed attempt a second ago: pending, but the sweep retries it only after the delay.
    Notification.objects.filter(pk=ids[2]).update(status="pending", claimed_at=live, attempts=1)
    claimed, at = claiming.notifications_claim(due=True)
    assert claimed == [ids[0]]
    row = Notification.objects.get(pk=ids[0])
    assert (row.status, row.attempts, row.claimed_at) == ("sending", 2, at)
    # Asked for by id (the on-commit task), the pending row goes at once; the live claim never.
    claimed, _ = claiming.notifications_claim(ids=[ids[1], ids[2]])
    assert claimed == [ids[2]]


@pytest.mark.django_db
def test_a_batch_is_a_few_queries_whatever_its_size(monkeypatch):
    # Delivered rows are also marked every quarter second (the lease's safety): a count of
    # wall-clock time, not of the batch's size, so a loaded machine would add marks here.
    monkeypatch.setattr(claiming, "MARK_EVERY_SECONDS", 3600.0)
    _games(12)
    ids = _turn_rows()
    with CaptureQueriesContext(connection) as small:
        assert sending.notifications_send(ids=ids[:3]) == {"sent": 3}
    with CaptureQueriesContext(connection) as big:
        assert sending.notifications_send(ids=ids[3:]) == {"sent": 9}
    if connection.vendor == "postgresql":  # elsewhere the claim is one UPDATE per row
        assert len(big.captured_queries) <= len(small.captured_queries) + 1
        # claim, rows, seats (with the recipients' notes and sheet answers), last moves, chat,
        # mutes, pace's two (page views, last turn emails), the mark: a constant, whatever the
        # batch's size
        assert len(big.captured_queries) <= 10
    assert len(mail.outbox) == 12
    assert not Notification.objects.exclude(status="sent").exists()
    assert Notification.objects.filter(sent_at__isnull=True).count() == 0


def _sheet_rows() -> list[int]:
    """Replace every row by the emails of a round sheets game's round beginning: each seat's
    sheet email (a turn email; the awaited seat's carries its turn too)."""
    Notification.objects.all().delete()
    rows: list[Notification] = []
    for seat in Seat.objects.filter(deadline__isnull=False).select_related("user__profile", "game"):
        w = outbox.OutboxWriter(game=seat.game)
        awaited = seat.seat in (seat.game.to_act or [])
        w.sheet(seat, seq=seat.game.seq, sheet_round=1, awaited=awaited)
        rows += w.rows
    Notification.objects.bulk_create(rows)
    return sorted(Notification.objects.values_list("id", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["game_started", "sheet"])
def test_a_batch_in_a_sheet_round_is_a_few_queries_whatever_its_size(monkeypatch, kind):
    """A round sheet's emails (the game-started email carrying round 1's, a new round's sheet
    email to every seat at once) read each seat's answer with the batch's seats: a batch of
    any size costs the same few queries (no answer read per email)."""
    monkeypatch.setattr(claiming, "MARK_EVERY_SECONDS", 3600.0)
    _games(6, players=3, sheets=True)
    if kind == "sheet":
        ids = _sheet_rows()
    else:  # the game-started emails, as the start wrote them
        ids = sorted(Notification.objects.filter(kind="game_started").values_list("id", flat=True))
    assert len(ids) == 18
    with CaptureQueriesContext(connection) as small:
        assert sending.notifications_send(ids=ids[:3]) == {"sent": 3}
    with CaptureQueriesContext(connection) as big:
        assert sending.notifications_send(ids=ids[3:]) == {"sent": 15}
    if connection.vendor == "postgresql":
        assert len(big.captured_queries) <= len(small.captured_queries) + 1, [
            q["sql"][:120] for q in big.captured_queries
        ]
        assert len(big.captured_queries) <= 10
    assert len(mail.outbox) == 18
    bodies = [m.body for m in mail.outbox]
    assert all("Your round sheet for round 1" in b for b in bodies)


@pytest.mark.django_db
def test_batch_email_matches_the_one_built_alone():

    gids = _games(3, players=3)
    import powergrid
    from games.services.moves import move_submit

    # A few moves, so the turn notice lists moves since the recipient's last one.
    for gid in gids:
        for _ in range(3):
            game = Game.objects.get(pk=gid)
            seat = Seat.objects.select_related("user").get(game=game, seat=game.to_act[0])
            action = powergrid.default_action(powergrid.from_json(game.state_json), seat.seat)
            move_submit(game_id=gid, user=seat.user, action=action, expected_seq=game.seq,
                        source="web")  # fmt: skip
    rows = list(
        Notification.objects.filter(status="pending")
        .select_related("recipient__profile", "game")
        .order_by("id")
    )
    alone = [emails.email_build(n) for n in rows]
    rows = list(
        Notification.objects.filter(status="pending")
        .select_related("recipient__profile", "game")
        .order_by("id")
    )
    pf = emails.prefetch(rows)
    batched = [emails.email_build(n, pf) for n in rows]

    def strip(m: Any) -> tuple[str, str] | None:
        if m is None:
            return None
        # Signed links carry a timestamp (the one-tap links of /mail/act/, the round sheet's
        # among them, their expiry): compare without them.
        import re

        drop = re.compile(r"/mail/(go|settings|act)/[^/\s\"]+/")
        return (m.subject, drop.sub("", m.body))

    assert [strip(m) for m in batched] == [strip(m) for m in alone]
    assert any(m is not None and "Your turn" in m.subject for m in batched)


@pytest.mark.django_db
def test_one_failing_recipient_does_not_hold_back_the_batch(monkeypatch):
    _games(4)
    ids = _turn_rows()
    bad = Notification.objects.select_related("recipient").get(pk=ids[1]).recipient.email
    real = smtp.deliver

    def deliver(message: Any) -> None:
        if message.to == [bad]:
            raise OSError("mailbox unavailable")
        real(message)

    monkeypatch.setattr(smtp, "deliver", deliver)
    assert sending.notifications_send(ids=ids) == {"sent": 3, "retry": 1}
    row = Notification.objects.get(pk=ids[1])
    assert row.status == "pending"
    assert "mailbox unavailable" in row.last_error
    assert Notification.objects.filter(status="sent").count() == 3


@pytest.mark.django_db
def test_on_commit_task_drains_other_waiting_rows_with_its_own():
    gids = _games(3)
    ids = _turn_rows()
    # ids[2] failed a second ago: it waits for the retry delay, drain or not.
    Notification.objects.filter(pk=ids[2]).update(claimed_at=timezone.now(), attempts=1)
    first_game = Notification.objects.get(pk=ids[0]).game_id
    assert first_game in gids
    counts = sending.notifications_send_game(game_id=first_game, drain=True)
    assert counts == {"sent": 2}
    assert set(Notification.objects.filter(status="sent").values_list("id", flat=True)) == {
        ids[0],
        ids[1],
    }
    # The tasks queued for the others find nothing left to do.
    other = Notification.objects.get(pk=ids[1]).game_id
    assert sending.notifications_send_game(game_id=other) == {}


@pytest.mark.django_db
def test_outbox_sweep_sends_in_batches(settings):
    settings.NOTIFY_BATCH_SIZE = 4
    _games(10)
    _turn_rows()
    assert sending.outbox_sweep() == {"sent": 10}
    assert len(mail.outbox) == 10


@pytest.mark.django_db
def test_links_built_from_the_cached_url_are_what_reverse_gives():
    from django.urls import reverse

    from games.notifications import links

    _games(1)
    user = Seat.objects.select_related("user").first().user
    url = links.settings_link(user=user)  # signed with the time: read its token back
    token = url.rsplit("/", 2)[-2]
    assert url == links.absolute(reverse("mail_settings", args=[token]))
    assert links.settings_token_check(token) == user
    url = links.game_link(user=user, game_id=7)
    token = url.rsplit("/", 2)[-2]
    assert url == links.absolute(reverse("mail_login_link", args=[token]))
    assert links.login_token_check(token)[1] == 7


@pytest.mark.django_db(transaction=True)
def test_a_connection_cut_after_delivery_still_marks_the_row_sent(monkeypatch, settings):
    """The database connection dies between the SMTP server's 250 and the UPDATE that marks the
    row sent (a restart, a failover). The row is marked on a fresh connection: left `sending`, it
    would be claimed again after its lease and the player would get the email twice."""
    _postgres()
    settings.NOTIFY_SEND_THREAD = False
    _games(1)
    [row_id] = _turn_rows()[:1]
    Notification.objects.exclude(pk=row_id).delete()
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (pid,) = cur.fetchone()
    real = smtp.deliver

    def deliver_then_cut(message: Any) -> None:
        real(message)
        other = connections.create_connection("default")
        try:
            with other.cursor() as cur:
                cur.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()

    monkeypatch.setattr(smtp, "deliver", deliver_then_cut)
    assert sending.notifications_send(ids=[row_id]) == {"sent": 1}
    assert len(mail.outbox) == 1
    row = Notification.objects.get(pk=row_id)
    assert (row.status, row.attempts, row.last_error) == ("sent", 1, "")
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        assert cur.fetchone()[0] != pid, "the mark went over a new connection"


@pytest.mark.django_db
def test_delivered_rows_are_marked_while_a_later_message_is_slow_to_be_accepted(
    monkeypatch, settings
):
    """The SMTP server takes its time over the last message of a batch: the messages it has
    already accepted are marked sent meanwhile (every quarter second), not when the slow one is
    done. A worker killed while it waited left them `sending`, to be sent again after the lease
    (found by scripts/season: six emails delivered twice)."""
    settings.NOTIFY_SEND_THREAD = True
    _games(3)
    ids = _turn_rows()
    slow_to = Notification.objects.select_related("recipient").get(pk=ids[-1]).recipient.email
    real_deliver, real_mark = smtp.deliver, marking.mark_sent
    marked: list[int] = []
    seen_while_slow: list[bool] = []

    def mark(done: list[int], claimed_at: Any) -> None:
        marked.extend(done)
        real_mark(done, claimed_at)

    def deliver(message: Any) -> None:
        if message.to == [slow_to]:  # the server is slow to accept this one
            end = timezone.now() + timedelta(seconds=3)
            while timezone.now() < end and set(ids[:-1]) - set(marked):
                threading.Event().wait(0.05)
            seen_while_slow.append(not set(ids[:-1]) - set(marked))
        real_deliver(message)

    monkeypatch.setattr(smtp, "deliver", deliver)
    monkeypatch.setattr(marking, "mark_sent", mark)
    assert sending.notifications_send(ids=ids) == {"sent": len(ids)}
    assert seen_while_slow == [True]
    assert Notification.objects.filter(status="sent").count() == len(ids)


def _play(gid: int) -> None:
    import powergrid
    from games.services.moves import move_submit

    game = Game.objects.get(pk=gid)
    seat = Seat.objects.select_related("user").get(game=game, seat=game.to_act[0])
    action = powergrid.default_action(powergrid.from_json(game.state_json), seat.seat)
    move_submit(game_id=gid, user=seat.user, action=action, expected_seq=game.seq, source="web")


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.django_db(transaction=True)
def test_a_turn_email_whose_seat_played_while_it_was_built_is_not_sent(
    monkeypatch, settings, threaded
):
    """The batch read its games once; the player of the first row moves (another channel) after
    their email was built and before it goes: it is checked again just before sending and
    dropped (`skipped: played before it was sent`); the others go. Before, about 50 turn emails a
    season reached the player after they had moved (scripts/season, loaded host)."""
    if threaded:
        _postgres()  # the sender thread's own connection must see the committed rows
    settings.NOTIFY_SEND_THREAD = threaded
    gids = _games(3)
    ids = _turn_rows()
    first = Notification.objects.get(pk=ids[0])

    real_build = emails.email_build

    def build_then_play(n: Notification, pf: Any = None) -> Any:
        message = real_build(n, pf)
        if n.pk == first.pk:
            _play(first.game_id)  # the player answers on the page meanwhile
        return message

    monkeypatch.setattr(emails, "email_build", build_then_play)
    counts = sending.notifications_send(ids=ids)
    assert counts == {"sent": 2, "skipped": 1}
    assert len(mail.outbox) == 2
    assert first.recipient.email not in {m.to[0] for m in mail.outbox}
    row = Notification.objects.get(pk=first.pk)
    assert (row.status, row.last_error) == ("sent", marking.SKIPPED_PLAYED)
    assert row.sent_at is None
    assert len(gids) == 3


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.django_db(transaction=True)
def test_a_sheet_email_whose_sheet_was_answered_while_it_was_built_is_not_sent(
    monkeypatch, settings, threaded
):
    """A round begins in a sheets game: every seat's sheet email is in one batch. A player the
    game does not await answers their sheet (another channel) after their email was built and
    before it goes: it is checked again just before sending and dropped (`skipped: its round
    sheet no longer waited when it was sent`); the others go, the awaited seat's included."""
    from games.sheets.services import sheet_get, sheet_put

    if threaded:
        _postgres()
    settings.NOTIFY_SEND_THREAD = threaded
    _games(2, players=3, sheets=True)
    ids = _sheet_rows()
    rows = Notification.objects.select_related("game", "recipient").filter(pk__in=ids)
    quiet = next(
        n for n in rows if Seat.objects.get(game=n.game, user=n.recipient).seat not in n.game.to_act
    )
    real_build = emails.email_build

    def build_then_answer(n: Notification, pf: Any = None) -> Any:
        message = real_build(n, pf)
        if n.pk == quiet.pk:
            game = Game.objects.get(pk=n.game_id)
            doc = sheet_get(game=game, user=n.recipient)
            sheet_put(game_id=game.pk, user=n.recipient, body=doc, source="web")
        return message

    monkeypatch.setattr(emails, "email_build", build_then_answer)
    counts = sending.notifications_send(ids=ids)
    assert counts == {"sent": len(ids) - 1, "skipped": 1}
    assert quiet.recipient.email not in {m.to[0] for m in mail.outbox}
    row = Notification.objects.get(pk=quiet.pk)
    assert (row.status, row.last_error, row.sent_at) == ("sent", marking.SKIPPED_ANSWERED, None)


@pytest.mark.django_db
def test_sheet_done_meanwhile_reads_the_seat():
    """Only a round sheet's email to a seat whose sheet no longer waits is dropped; a check that
    cannot read the seats, or does not find the seat, drops nothing."""
    from unittest import mock

    _games(1, players=3, sheets=True)
    game = Game.objects.get()
    waiting, done = Seat.objects.filter(game=game).order_by("seat")[:2]
    assert waiting.sheet_waits
    assert done.sheet_waits
    Seat.objects.filter(pk=done.pk).update(sheet_waits=False)
    asked = {1: (game.pk, waiting.seat), 2: (game.pk, done.seat)}
    assert marking.sheet_done_meanwhile(asked, [1, 2, 3]) == {2}
    assert marking.sheet_done_meanwhile({4: (game.pk + 1, 0)}, [4]) == set()  # not seen
    assert marking.sheet_done_meanwhile(asked, [1]) == set()
    Seat.objects.filter(pk=waiting.pk).update(bot_controlled=True)
    assert marking.sheet_done_meanwhile(asked, [1]) == {1}  # the bot plays it
    with mock.patch.object(Seat.objects, "filter", side_effect=RuntimeError("away")):
        assert marking.sheet_done_meanwhile(asked, [1, 2]) == set()


@pytest.mark.django_db
def test_played_meanwhile_is_about_the_seat_not_the_game():
    """A game that moved on while the seat is awaited again, with no move of its own since the
    email was built, keeps its email; a move of the seat after the seq it was built at drops it;
    so does the turn having passed to another seat; a game unchanged is not read further."""
    from games.models import Move

    [gid] = _games(1)
    for _ in range(40):  # until a seat that moved is awaited again after another seat's move
        game = Game.objects.get(pk=gid)
        last = Move.objects.filter(game_id=gid).order_by("-seq").first()
        again = [
            s for s in game.to_act
            if last is not None and last.seat != s
            and Move.objects.filter(game_id=gid, seat=s).exists()
        ]  # fmt: skip
        if again:
            break
        _play(gid)
    else:
        pytest.fail("no seat was awaited again within 40 moves")
    a = again[0]
    own = Move.objects.filter(game_id=gid, seat=a).order_by("-seq").first()
    assert own is not None
    assert own.seq < game.seq
    assert not marking.played_meanwhile({1: (gid, a, own.seq)}, [1])  # built after a's move
    assert marking.played_meanwhile({1: (gid, a, own.seq - 1)}, [1]) == {1}  # a moved since
    assert not marking.played_meanwhile({1: (gid, a, game.seq)}, [1])  # unchanged
    assert not marking.played_meanwhile({1: (gid, a, 0)}, [2])  # not a turn email
    assert marking.played_meanwhile({1: (gid, last.seat, last.seq - 1)}, [1]) == (
        set() if last.seat in game.to_act else {1}
    )


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.django_db(transaction=True)
def test_a_row_another_worker_claimed_meanwhile_is_not_sent_twice(monkeypatch, settings, threaded):
    """The batch was slow (a loaded host, a slow SMTP server) and one row's lease ran out: another
    worker claimed it and sends it. Just before sending, this batch sees the claim is no longer
    its own and leaves the row alone (`taken`): sending it too was a duplicate."""
    if threaded:
        _postgres()
    settings.NOTIFY_SEND_THREAD = threaded
    _games(3)
    ids = _turn_rows()

    real_build = emails.email_build
    other_claim = timezone.now() + timedelta(seconds=1)

    def build_then_taken_over(n: Notification, pf: Any = None) -> Any:
        message = real_build(n, pf)
        if n.pk == ids[1]:  # another worker takes the row over after its lease
            Notification.objects.filter(pk=n.pk).update(claimed_at=other_claim, attempts=2)
        return message

    monkeypatch.setattr(emails, "email_build", build_then_taken_over)
    assert sending.notifications_send(ids=ids) == {"sent": 2, "taken": 1}
    assert len(mail.outbox) == 2
    row = Notification.objects.get(pk=ids[1])
    assert (row.status, row.claimed_at, row.sent_at) == ("sending", other_claim, None)


def test_prod_smoke_counts_turn_emails_dropped_as_played_by_their_reason():
    from pathlib import Path

    smoke = (Path(__file__).resolve().parents[3] / "scripts" / "prod_smoke").read_text()
    assert f'SKIPPED_PLAYED = "{marking.SKIPPED_PLAYED}"' in smoke


def _delivered() -> list[str]:
    """The notification ids of the emails delivered so far, one per delivery."""
    return [m.extra_headers.get("X-PowerGrid-Notification", "") for m in mail.outbox]


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.django_db(transaction=True)
def test_a_batch_does_not_send_rows_whose_lease_is_ending(monkeypatch, settings, threaded, caplog):
    """A batch slower than its lease (scripts/season --lease-seconds 5): a row whose claim is
    about to expire must not be sent, because another worker may claim it again at expiry and
    send it while this batch is still sending or marking it. Here the other worker does exactly
    that, during this batch's delivery: before, both delivered the row (and the rows delivered
    but not yet marked). Now the batch leaves the rows whose lease ends within ``lease_margin``
    (``lease_ending``) and the claim after the lease sends each once."""
    if threaded:
        _postgres()
    settings.NOTIFY_SEND_THREAD = threaded
    _games(3)
    ids = _turn_rows()
    lease = claiming.lease_seconds()
    first = timezone.now() - timedelta(seconds=lease - 1)  # one second of lease left
    real_deliver = smtp.deliver
    other: dict[str, Any] = {}

    def deliver_while_reclaimed(message: Any) -> None:
        real_deliver(message)
        if not other:  # another worker's sweep, just after the lease ran out
            claimed, at = claiming.notifications_claim(
                due=True, now=first + timedelta(seconds=lease + 0.1)
            )
            other["counts"] = sending.send_claimed(claimed, at)

    monkeypatch.setattr(smtp, "deliver", deliver_while_reclaimed)
    claimed, at = claiming.notifications_claim(ids=ids, now=first)
    assert claimed == ids
    with caplog.at_level("WARNING", logger="games.notifications.sending"):
        counts = sending.send_claimed(claimed, at)
    delivered = _delivered()
    assert len(delivered) == len(set(delivered)), f"delivered twice: {delivered}"
    assert counts == {"lease_ending": 3}
    assert mail.outbox == []
    assert not other
    assert "outbox lease: lease_ending 3 " in caplog.text
    # the next claim after the lease sends them, once each
    later = first + timedelta(seconds=lease + 1)
    caplog.clear()
    with caplog.at_level("WARNING", logger="games.notifications.sending"):
        claimed, at = claiming.notifications_claim(due=True, now=later)
    assert claimed == ids
    if connection.vendor == "postgresql":
        assert "outbox lease: reclaimed 3 " in caplog.text
    monkeypatch.setattr(smtp, "deliver", real_deliver)
    assert sending.send_claimed(claimed, at) == {"sent": 3}
    assert sorted(_delivered()) == sorted(str(i) for i in ids)
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}


@pytest.mark.django_db(transaction=True)
def test_a_row_delivered_after_its_claim_was_taken_is_marked_sent_and_not_sent_again(
    monkeypatch, settings, caplog
):
    """The batch delivered a row, then found its claim taken (another worker claimed it after
    the lease) when it came to mark it: before, the mark matched nothing, the row stayed
    ``sending`` under the other claim and the other worker sent it again. Now the batch marks
    it sent anyway (``marked_late``), and the other worker, checking just before it sends,
    leaves it alone (``already_sent``)."""
    settings.NOTIFY_SEND_THREAD = False
    _games(3)
    ids = _turn_rows()

    other_claim = timezone.now() + timedelta(seconds=1)
    real_deliver = smtp.deliver

    def deliver_then_taken_over(message: Any) -> None:
        real_deliver(message)
        if message.extra_headers.get("X-PowerGrid-Notification") == str(ids[1]):
            # the other worker claimed it meanwhile (and has read it to send it)
            Notification.objects.filter(pk=ids[1]).update(claimed_at=other_claim, attempts=2)

    monkeypatch.setattr(smtp, "deliver", deliver_then_taken_over)
    with caplog.at_level("WARNING", logger="games.notifications.sending"):
        assert sending.notifications_send(ids=ids) == {"sent": 3}
    assert "outbox lease: marked_late 1 " in caplog.text
    row = Notification.objects.get(pk=ids[1])
    assert (row.status, row.dedupe_key) == ("sent", None)
    assert row.sent_at is not None
    # The other worker had read the row before it was marked: its check finds it sent.
    monkeypatch.setattr(smtp, "deliver", real_deliver)
    pf = emails.prefetch([row])
    message = emails.email_build(
        Notification.objects.select_related("recipient__profile", "game").get(pk=ids[1]), pf
    )
    assert message is not None
    assert marking.not_to_send({}, {}, other_claim, [ids[1]]) == {ids[1]: marking.ALREADY_SENT}
    assert sending.send_claimed([ids[1]], other_claim) == {}
    assert sorted(_delivered()) == sorted(str(i) for i in ids)
