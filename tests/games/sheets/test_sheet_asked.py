"""Every seat asked for its round sheet at once when a round begins (games/sheets/asking.py): one
email per seat and round (round 1's is the game-started email), under the turn email's key so
the awaited seat's turn and its sheet are one email; none to a player whose settings say none;
none more in the round while the sheet waits; none that goes after the sheet was answered."""

from __future__ import annotations

import json

import pytest
from apihelpers import seat_players
from django.db.models import Max
from django.utils import timezone

from games.models import Game, Notification, Seat, SheetAnswer

pytestmark = pytest.mark.django_db


def _round(gid: int) -> int:
    return int(json.loads(Game.objects.get(pk=gid).state_json)["round"])


def _sheet(p, gid):
    r = p.get(f"/api/v1/games/{gid}/sheet/")
    assert r.status_code == 200, r.content
    return r.json()


def _put(p, gid, doc):
    r = p.client.put(f"/api/v1/games/{gid}/sheet/", doc, format="json")
    assert r.status_code == 200, r.content
    return r.json()


def _sent() -> None:
    """What the sending does to the rows it sends: the turn email's key is free again."""
    Notification.objects.filter(status="pending").update(
        status="sent", sent_at=timezone.now(), dedupe_key=None
    )


def _answer_round_one(gid: int, seats) -> int:
    """Every seat answers its round-1 sheet (accepting it) until round 2 begins; the rows written
    before the last answer are marked sent. Returns the last outbox id before that answer."""
    for _ in range(40):
        if _round(gid) >= 2:
            break
        for p in seats.values():
            doc = _sheet(p, gid)
            if doc["due"] and doc["round"] == 1:
                _sent()
                mark = Notification.objects.aggregate(m=Max("pk"))["m"] or 0
                _put(p, gid, doc)
                break
    assert _round(gid) == 2
    return mark


def test_the_game_started_email_asks_every_seat_for_round_ones_sheet(new_game):
    from games.notifications.emails import email_build

    gid, _ps = new_game(players=4)
    game = Game.objects.get(pk=gid)
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    # Every seat holds the sheet's deadline, the same for all: asked at once.
    assert len({s.deadline for s in seats}) == 1
    assert seats[0].deadline is not None
    rows = Notification.objects.filter(game=game)
    assert sorted(rows.values_list("kind", flat=True)) == ["game_started"] * 4  # no turn email
    waiting = next(s for s in seats if s.seat not in game.to_act)
    mail = email_build(rows.get(recipient_id=waiting.user_id))
    assert mail is not None
    assert "Your round sheet for round 1" in mail.body
    assert "Deadline:" in mail.body
    assert "Reply ok to accept it" in mail.body
    assert "Reply-To" in mail.extra_headers
    assert "We will write when it is your turn" not in mail.body


def test_a_new_round_emails_every_seat_once_and_respects_settings(new_game):
    from games.notifications import pace
    from games.notifications.emails import email_build

    gid, ps = new_game(players=4)
    seats = seat_players(gid, ps)
    quiet = ps[3].user  # no emails at all
    quiet.profile.notification_mode = "none"
    quiet.profile.save(update_fields=["notification_mode"])
    mark = _answer_round_one(gid, seats)
    game = Game.objects.get(pk=gid)
    rows = list(Notification.objects.filter(game=game, kind="turn", pk__gt=mark))
    by_user: dict[int, list[Notification]] = {}
    for n in rows:
        by_user.setdefault(n.recipient_id, []).append(n)
    # One email to each seat (the awaited one's turn and sheet are one), none to the quiet one.
    assert sorted(by_user) == sorted(p.user.pk for p in ps if p.user != quiet)
    assert all(len(v) == 1 for v in by_user.values())
    assert all(v[0].payload["sheet_round"] == 2 for v in by_user.values())
    assert all(v[0].dedupe_key == f"turn:{gid}:{u}" for u, v in by_user.items())
    # Every seat asked holds the same deadline: asked at once, the quiet one too.
    deadlines = {s.seat: s.deadline for s in Seat.objects.filter(game=game)}
    assert len(set(deadlines.values())) == 1
    assert None not in deadlines.values()

    awaited = game.to_act[0]
    others = [s for s in seats if s != awaited and seats[s].user != quiet]
    # A seat not awaited: its sheet's email.
    c = others[0]
    mail = email_build(by_user[seats[c].user.pk][0])
    assert mail is not None
    assert "Your round sheet in game" in mail.subject
    assert "every player answers their round sheet now" in mail.body
    assert "If you do not answer by then, the suggestions on your sheet are played" in mail.body
    assert "Your round sheet for round 2" in mail.body
    assert "What you can do:" not in mail.body
    # The awaited seat: its turn, with the sheet (unless the seating made it the quiet one's,
    # whose absence is asserted above).
    if seats[awaited].user != quiet:
        mail = email_build(by_user[seats[awaited].user.pk][0])
        assert mail is not None
        assert "It is your turn" in mail.body
        assert "Your round sheet for round 2" in mail.body
    # Paced as any turn email: held while its player is on the game's page.
    now = timezone.now()
    Seat.objects.filter(game=game, seat=c).update(page_seen_at=now)
    held = pace.holds_until([by_user[seats[c].user.pk][0]], now)
    assert by_user[seats[c].user.pk][0].pk in held

    # A seat that answers before its email goes gets none; its deadline is gone.
    b = others[1]
    _put(seats[b], gid, _sheet(seats[b], gid))
    assert SheetAnswer.objects.filter(game=game, seat=b, round=2).exists()
    row = by_user[seats[b].user.pk][0]
    if b not in Game.objects.get(pk=gid).to_act:
        assert Seat.objects.get(game=game, seat=b).deadline is None
        assert email_build(row) is None


def test_a_seat_whose_sheet_waits_is_not_emailed_again_when_its_turn_comes(new_game):
    """Round 1, nobody answers: the opener moves by hand; the seats whose turn comes next were
    asked by the game-started email already (no turn email, the sheet's deadline kept); the
    opener, who moves by hand, plays the round move by move (its deadline goes)."""
    from apihelpers import open_first_auction

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    before = {s.seat: s.deadline for s in Seat.objects.filter(game_id=gid)}
    _game, opener, _plant = open_first_auction(gid, seats)
    game = Game.objects.get(pk=gid)
    assert game.to_act
    assert game.to_act[0] != opener
    assert not Notification.objects.filter(game=game, kind="turn").exists()
    after = {s.seat: s.deadline for s in Seat.objects.filter(game=game)}
    for seat, when in after.items():
        if seat == opener:
            assert when is None  # by hand: move by move from now on
        else:
            assert when == before[seat]  # the sheet's deadline, awaited or not


def test_a_game_played_move_by_move_emails_each_turn_as_before(new_game):
    from apihelpers import open_first_auction

    gid, ps = new_game(players=3, options={"sheets": False})
    seats = seat_players(gid, ps)
    game = Game.objects.get(pk=gid)
    assert [s.seat for s in Seat.objects.filter(game=game) if s.deadline] == game.to_act
    open_first_auction(gid, seats)
    game = Game.objects.get(pk=gid)
    told = set(
        Notification.objects.filter(game=game, kind="turn").values_list("recipient", flat=True)
    )
    assert told == {seats[game.to_act[0]].user.pk}


def _plan(p, gid: int, body: dict) -> dict:
    r = p.post(f"/api/v1/games/{gid}/plans/", body)
    assert r.status_code == 200, r.content
    return r.json()


def test_a_plan_moves_a_seat_without_changing_whether_its_sheet_waits(new_game):
    """Whether a seat's sheet waits is the seat's own fact, not read off the moves of one change:
    a plan given on one's turn moves the seat (source ``plan``) the same way whether its player
    still owes the round's sheet (it keeps the sheet's deadline) or has played the round by
    hand since (its turn's deadline goes once it is not awaited: no "your round sheet" reminder,
    no sheet played for it at a deadline it no longer has)."""
    from apihelpers import open_first_auction

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    asked_at = {s.seat: s.deadline for s in Seat.objects.filter(game_id=gid)}
    _s, opener, plant = open_first_auction(gid, seats)  # by hand: move by move from now on
    second = Game.objects.get(pk=gid).to_act[0]
    # The second seat owes its sheet; its plan bids for it at once.
    assert (
        _plan(seats[second], gid, {"kind": "proxy_bid", "plant": plant, "max": plant + 3})[
            "moves_made"
        ]
        == 1
    )
    third = Game.objects.get(pk=gid).to_act[0]
    assert third not in (opener, second)
    r = seats[third].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "pass_bid"}, "expected_seq": Game.objects.get(pk=gid).seq},
    )
    assert r.status_code == 201, r.content
    game = Game.objects.get(pk=gid)
    assert game.to_act == [opener]
    row = Seat.objects.get(game=game, seat=opener)
    assert row.deadline is not None
    assert not row.sheet_waits
    # The opener, move by move, answers its turn with a plan: the two proxies settle the plant.
    assert (
        _plan(seats[opener], gid, {"kind": "proxy_bid", "plant": plant, "max": plant + 5})[
            "moves_made"
        ]
        >= 1
    )
    game = Game.objects.get(pk=gid)
    assert opener not in game.to_act
    by_seat = {s.seat: s for s in Seat.objects.filter(game=game)}
    assert by_seat[opener].deadline is None
    assert not by_seat[opener].sheet_waits
    assert by_seat[second].sheet_waits
    assert by_seat[second].deadline == asked_at[second]  # still the sheet's
    # The sheet email machinery agrees: the opener is asked for nothing until its next turn.
    from games.sheets.inbox import sheet_waits

    assert not sheet_waits(game, by_seat[opener])
    assert sheet_waits(game, by_seat[second]) or second in game.to_act
