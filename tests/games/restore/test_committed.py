"""Moves and chat messages that no delivered email described (the next player has emails off,
phase 5 where everyone is awaited already, a message with no turn email after it) are in the
delivery journal all the same: the process that committed them wrote their line after the
commit. After a restore to a point before them each player is told once of their own, counted
in ``moves_lost``; a sealed bid reads as the public log shows it; a move taken back is not told
as lost; no line without a journal folder; a failure to write fails no move.

These games commit for real (``transaction=True``): a line is written on commit."""

from __future__ import annotations

import json
import logging
from collections import defaultdict

import pytest
from apihelpers import by_moves, leaf_values, open_first_auction, play_default, seat_players
from restoring import roll_back, send_all, snapshot

import powergrid
from games import log as game_log
from games.models import Game, Move, Notification, Seat
from games.restore import committed, journal
from games.restore.services import _to_redo, after_restore
from games.services import moves as move_services
from powergrid.state import BUREAUCRACY

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def new_game(new_game):
    return by_moves(new_game)


def _quiet(*players) -> None:
    for p in players:
        p.user.profile.notification_mode = "none"
        p.user.profile.save()


def _moves_after(gid: int, seq: int) -> dict[int, list[int]]:
    """The moves after ``seq`` by their player (user id): the seqs."""
    by: dict[int, list[int]] = defaultdict(list)
    users = dict(Seat.objects.filter(game_id=gid).values_list("seat", "user_id"))
    for s, seat in Move.objects.filter(game_id=gid, seq__gt=seq).values_list("seq", "seat"):
        by[users[seat]].append(s)
    return by


def _told(label: str) -> dict[int, dict]:
    """The ``restored`` rows of the recovery ``label``: recipient -> the payload's one game."""
    rows = Notification.objects.filter(kind="restored", dedupe_key__startswith=f"restored:{label}:")
    return {n.recipient_id: n.payload["games"][0] for n in rows}


def _deliveries(folder) -> list[dict]:
    return [x for x in journal.read([folder]) if "n" in x and "kind" in x]


def test_moves_the_emails_never_described_are_told_to_their_players(new_game, journal_dir):
    gid, ps = new_game(players=3)
    _quiet(ps[1], ps[2])  # most moves are followed by a turn no email tells
    play_default(gid, ps, times=2)
    send_all()
    snap = snapshot(gid)
    point = snap["game"][0]
    for n in range(1, 30):  # at least 6, until one is that no email described
        play_default(gid, ps)
        send_all()
        described = {m[0] for x in _deliveries(journal_dir) for m in x.get("moves") or []}
        if n >= 6 and set(range(point + 1, point + n + 1)) - described:
            break
    else:
        raise AssertionError("every move was described by an email")
    lost = _moves_after(gid, point)
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="unseen-1")
    assert report.moves_lost == n
    assert report.games_behind == 1
    assert report.journal_committed >= 8  # the start's line, a line per move
    assert report.players_told == 3
    assert report.told_on_page_only == 2
    told = _told("unseen-1")
    for p in ps:
        mine = [m[0] for m in told[p.user.pk]["moves"]]
        assert mine == lost.get(p.user.pk, [])  # each their own, each once
        assert told[p.user.pk]["seq"] == point
    again = after_restore(paths=[journal_dir], label="unseen-1")
    assert again.players_told == 0


def test_a_move_in_phase_5_where_all_are_awaited_is_told(new_game, journal_dir):
    gid, ps = new_game(players=2)
    for _ in range(60):
        game = Game.objects.get(pk=gid)
        if len(game.to_act) == 2 and powergrid.from_json(game.state_json).phase == BUREAUCRACY:
            break
        play_default(gid, ps)
    else:
        raise AssertionError("no phase 5 in 60 moves")
    send_all()
    snap = snapshot(gid)
    mover = seat_players(gid, ps)[game.to_act[0]]
    before = len(_deliveries(journal_dir))
    play_default(gid, ps)  # the other seat was awaited already: no email
    send_all()
    assert len(_deliveries(journal_dir)) == before
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="phase5-1")
    assert report.moves_lost == 1
    assert report.players_told == 2
    told = _told("phase5-1")
    assert [m[0] for m in told[mover.user.pk]["moves"]] == [snap["game"][0] + 1]
    assert told[mover.user.pk]["moves"][0][4] == "power"
    other = next(p for p in ps if p is not mover)
    assert told[other.user.pk]["moves"] == []


def test_a_chat_message_no_email_carried_is_told_to_its_author(new_game, journal_dir):
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=2)
    send_all()
    snap = snapshot(gid)
    r = ps[1].post(f"/api/v1/games/{gid}/chat/", {"text": "nobody mailed this"})
    assert r.status_code == 201, r.content
    send_all()
    assert not [x for x in journal.read([journal_dir]) if "n" in x and x.get("chat")]
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="chat-1")
    assert report.chat_lost == 1
    assert report.moves_lost == 0
    assert report.players_told == 1
    told = _told("chat-1")
    assert [c[1] for c in told[ps[1].user.pk]["chat"]] == ["nobody mailed this"]


def test_a_sealed_bid_is_told_to_its_bidder_as_the_public_log_shows_it(new_game, journal_dir):
    gid, ps = new_game(players=3, options={"variant": "sealed_bid"})
    _quiet(*ps)
    seats = seat_players(gid, ps)
    s, opener, plant = open_first_auction(gid, seats)
    a = next(x for x in s.order if x != opener)
    snap = snapshot(gid)
    secret = plant + 23
    r = seats[a].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "seal_bid", "amount": secret}, "expected_seq": 1},
    )
    assert r.status_code == 201, r.content
    (line,) = [x for x in journal.read([journal_dir]) if x.get("kind") == "moves" and x["seq"] == 2]
    assert line["moves"] == [[2, a, "api", line["moves"][0][3], "seal_bid", {"plant": plant}]]
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="sealed-1")
    assert report.moves_lost == 1
    told = _told("sealed-1")
    (bid,) = told[seats[a].user.pk]["moves"]
    assert (bid[0], bid[4], bid[5]) == (2, "seal_bid", {"plant": plant})
    for seat, p in seats.items():
        if seat != a:
            assert told[p.user.pk]["moves"] == []
    assert secret not in list(leaf_values(told))  # told to nobody, its bidder neither
    assert secret not in list(leaf_values(line))


def test_the_lines_say_each_move_as_the_public_log_does(new_game, journal_dir):
    """Every move's line holds its entries of the game page's log (a sealed bid without its
    amount, then the bids opened), no more: made from the states at hand, not from the log."""
    gid, ps = new_game(players=3, options={"variant": "sealed_bid"})
    play_default(gid, ps, times=12)
    lines = [x for x in journal.read([journal_dir]) if x.get("kind") == "moves"]
    rows = [tuple(m) for x in lines for m in x["moves"]]
    game = Game.objects.get(pk=gid)
    public = [
        (e["seq"], e["seat"], e["source"], journal.iso(e["time"]), e["kind"], e["params"])
        for e in game_log.entries(game)
        if e["seat"] is not None
    ]
    assert rows == [tuple(json.loads(json.dumps(r))) for r in public]
    kinds = {r[4] for r in rows}
    assert "seal_bid" in kinds
    assert kinds & {"sealed_bid_opened", "sealed_pass_opened"}  # the answers opened
    assert [x["seq"] for x in lines] == list(range(0, 13))  # the start's line, then each move


def test_a_move_taken_back_is_not_told_as_lost(new_game, journal_dir):
    gid, ps = new_game(players=3, options={"takebacks_rated": True})
    send_all()
    snap = snapshot(gid)
    seats = seat_players(gid, ps)
    first = powergrid.from_json(Game.objects.get(pk=gid).state_json).order[0]
    move = {"action": {"type": "choose_plant", "plant": 5, "bid": 7}, "expected_seq": 0}
    assert seats[first].post(f"/api/v1/games/{gid}/moves/", move).status_code == 201
    r = seats[first].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 201, r.content
    lines = [x for x in journal.read([journal_dir]) if x.get("kind") == "moves"]
    takeback = next(x for x in lines if x["seq"] == 2)["moves"]
    assert [(m[0], m[4], m[5]["cancels"]) for m in takeback] == [(2, "takeback", [1])]
    roll_back(gid, snap)
    report = after_restore(paths=[journal_dir], label="takeback-1")
    assert report.moves_lost == 2
    assert all(g["moves"] == [] for g in _told("takeback-1").values())


def test_a_lost_take_back_of_a_move_kept_is_told():
    moves = {
        11: (0, "web", None, "choose_plant", {"plant": 5}),
        12: (0, "web", None, "takeback", {"n": 1, "cancels": [11], "agreed": False}),
        13: (1, "web", None, "choose_plant", {"plant": 3}),
    }
    assert _to_redo(moves, [11, 12, 13], restored=10) == [13]
    assert _to_redo(moves, [12, 13], restored=11) == [12, 13]  # move 11 stands again


def test_a_system_move_writes_its_line(new_game, journal_dir):
    gid, ps = new_game(players=2)
    game = Game.objects.get(pk=gid)
    seat = game.to_act[0]
    action = powergrid.default_action(powergrid.from_json(game.state_json), seat)
    move_services.move_apply_system(game=gid, seat=seat, action=action, source="timeout")
    (line,) = [x for x in journal.read([journal_dir]) if x.get("kind") == "moves" and x["seq"] == 1]
    assert [(m[0], m[1], m[2]) for m in line["moves"]] == [(1, seat, "timeout")]
    assert sorted(u for _s, u in line["players"]) == sorted(p.user.pk for p in ps)
    assert line["map"] == "germany"


def test_no_line_without_a_journal_folder(new_game, settings, tmp_path):
    settings.DELIVERY_JOURNAL_DIR = ""
    gid, ps = new_game(players=2)
    play_default(gid, ps, times=2)
    assert ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "hi"}).status_code == 201
    assert journal.journal_path() is None
    assert not list(tmp_path.rglob("*.jsonl"))


def test_a_failure_to_write_fails_no_move(new_game, journal_dir, monkeypatch, caplog):
    gid, ps = new_game(players=2)

    def broken(recs):
        raise OSError("disk full")

    monkeypatch.setattr(journal, "append_many", broken)
    with caplog.at_level(logging.WARNING, logger=committed.__name__):
        play_default(gid, ps)
        r = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "still here"})
    assert r.status_code == 201
    assert Game.objects.get(pk=gid).seq == 1
    assert "moves of games" in caplog.text
    assert "chat message" in caplog.text
