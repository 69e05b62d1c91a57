"""The stream misses nothing: every change of a game is told once and in order, on the
watchers' streams and on each player's own (the game's end included); a client that drops the
connection mid-game and reconnects with ``Last-Event-ID`` gets exactly what it missed; one away
too long (or with an id the log does not know) gets ``resync`` and the snapshot; every event's
data is the published ``StreamEvent`` component; and the log's ids are given in commit order
(a reader of "after N" can never skip a late commit).

Here under WSGI, each stream reading the log itself (the development server's path);
tests/integration/test_stream_live.py drops and resumes the ASGI streams, with Redis and
without (the hub reading the log every STREAM_FALLBACK_SECONDS)."""

from __future__ import annotations

import json
import threading

import pytest
from apihelpers import play_default, play_to_end, seat_players
from django.db import connection, transaction
from django.test import Client

from games.models import Game
from games.stream import log
from tests.api_schema import shape_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick(settings):
    settings.STREAM_FALLBACK_SECONDS = 0.005
    settings.STREAM_REDIS_URL = ""


@pytest.fixture
def open_stream():
    opened = []

    def open_(path: str = "/api/v1/stream/", **extra):
        response = Client().get(path, **extra)
        assert response.status_code == 200
        opened.append(response)
        response.chunks = iter(response.streaming_content)
        return response

    yield open_
    for response in opened:
        response.close()


def _read(response, n: int) -> list[tuple[str | None, str, dict]]:
    """The next ``n`` events as (id, event type, data)."""
    out: list[tuple[str | None, str, dict]] = []
    while len(out) < n:
        chunk = next(response.chunks).decode()
        if not chunk.startswith(("id:", "event:")):
            continue  # retry / keepalive
        fields = dict(line.split(": ", 1) for line in chunk.strip().splitlines())
        data = json.loads(fields["data"])
        # Every event is the published component (strict: no undeclared key).
        assert shape_errors("StreamEvent", data) == [], data
        assert data["event"] == fields["event"]
        out.append((fields.get("id"), fields["event"], data))
    return out


def _read_until_finished(response) -> list[tuple[str | None, str, dict]]:
    out: list[tuple[str | None, str, dict]] = []
    while not out or out[-1][2]["game"].get("status") != "finished":
        out += _read(response, 1)
    return out


def test_every_change_is_told_once_in_order_to_watchers_and_players_to_the_end(
    new_game, quick, open_stream
):
    gid, ps = new_game(players=2)
    streams = [open_stream(HTTP_AUTHORIZATION=f"Token {p.token}") for p in ps]
    streams.append(open_stream(f"/api/v1/stream/?game={gid}"))
    first_seq = Game.objects.get(pk=gid).seq
    for s in streams:
        ((_id, kind, body),) = _read(s, 1)  # the snapshot
        assert (kind, body["game"]["seq"]) == ("game", first_seq)
    play_to_end(gid, ps)
    last_seq = Game.objects.get(pk=gid).seq
    rounds = json.loads(Game.objects.get(pk=gid).state_json)["round"]
    for k, s in enumerate(streams):
        told = _read_until_finished(s)
        seqs = [body["game"]["seq"] for _id, kind, body in told if kind == "game"]
        assert seqs == list(range(first_seq + 1, last_seq + 1))  # each change once, in order
        ids = [int(i) for i, _k, _b in told]
        assert ids == sorted(set(ids))
        assert told[-1][2]["game"]["status"] == "finished"
        # Round sheets (the game is played by them): each round from the 2nd on asks every
        # seat at once, told on the players' own streams, after the change's game event,
        # with their seat and the sheet's deadline; never to a watcher.
        asked = [(i, body) for i, (_id, kind, body) in enumerate(told) if kind == "sheet_asked"]
        if k == len(streams) - 1:
            assert asked == []
            continue
        assert [body["sheet"]["round"] for _i, body in asked] == list(range(2, rounds + 1))
        for i, body in asked:
            assert told[i - 1][1] == "game"
            assert told[i - 1][2]["game"]["seq"] == body["game"]["seq"]
            assert body["seat"] == told[i - 1][2]["seat"]
            assert body["deadline"]
        assert told[-1][2]["your_turn"] is False  # a player's own stream: no turn once over
        assert told[-1][2]["deadline"] is None


@pytest.mark.parametrize("watch", [False, True])
def test_dropping_the_connection_mid_game_and_resuming_misses_nothing_and_repeats_nothing(
    new_game, quick, open_stream, watch
):
    gid, ps = new_game(players=3)
    path = f"/api/v1/stream/?game={gid}" if watch else "/api/v1/stream/"
    auth = {} if watch else {"HTTP_AUTHORIZATION": f"Token {ps[1].token}"}
    first = open_stream(path, **auth)
    _read(first, 1)
    play_default(gid, ps, times=3)
    before = _read(first, 3)
    # The connection drops mid-game: the client reads no more (closing a test client's
    # response here would close the test's database connection: the fixture closes it last).
    play_default(gid, ps, times=4)  # ... while the client is away
    resumed = open_stream(path, HTTP_LAST_EVENT_ID=before[-1][0], **auth)
    missed = _read(resumed, 4)
    play_default(gid, ps)
    after = _read(resumed, 1)
    seqs = [body["game"]["seq"] for _id, _kind, body in before + missed + after]
    assert seqs == list(range(seqs[0], seqs[0] + 8))
    assert [kind for _i, kind, _b in missed] == ["game"] * 4
    ids = [int(i) for i, _k, _b in before + missed + after]
    assert ids == sorted(set(ids))


def test_resuming_when_nothing_happened_says_nothing_but_what_comes(new_game, quick, open_stream):
    gid, ps = new_game(players=2)
    s = open_stream(f"/api/v1/stream/?game={gid}")
    ((at, _k, _b),) = _read(s, 1)
    resumed = open_stream(f"/api/v1/stream/?game={gid}", HTTP_LAST_EVENT_ID=at)
    play_default(gid, ps)
    ((_i, _k, body),) = _read(resumed, 1)
    assert body["game"]["seq"] == Game.objects.get(pk=gid).seq


@pytest.mark.parametrize(
    ("last_id", "reason"), [("nonsense", "unknown"), ("999999999", "unknown"), ("0", "expired")]
)
def test_an_unknown_position_gets_resync_then_the_snapshot(
    new_game, quick, open_stream, last_id, reason
):
    gid, ps = new_game(players=2)
    play_default(gid, ps)
    s = open_stream(f"/api/v1/stream/?game={gid}", HTTP_LAST_EVENT_ID=last_id)
    (resync, snap) = _read(s, 2)
    assert resync == (None, "resync", {"event": "resync", "reason": reason, "at": log.head()})
    assert snap[2]["game"]["seq"] == Game.objects.get(pk=gid).seq
    assert snap[0] == str(log.head())


def test_a_client_away_longer_than_the_log_keeps_gets_resync(
    new_game, quick, open_stream, settings
):
    gid, ps = new_game(players=2)
    s = open_stream(HTTP_AUTHORIZATION=f"Token {ps[0].token}")
    ((at, _k, _b),) = _read(s, 1)
    play_default(gid, ps, times=2)
    settings.STREAM_REPLAY_SECONDS = -1  # everything but the newest event is too old
    assert log.prune(log.head()) > 0
    resumed = open_stream(HTTP_AUTHORIZATION=f"Token {ps[0].token}", HTTP_LAST_EVENT_ID=at)
    (resync, snap) = _read(resumed, 2)
    assert resync[1:] == ("resync", {"event": "resync", "reason": "expired", "at": log.head()})
    assert snap[2]["game"]["seq"] == Game.objects.get(pk=gid).seq


def test_the_query_parameter_resumes_like_the_header(new_game, quick, open_stream):
    gid, ps = new_game(players=2)
    s = open_stream(f"/api/v1/stream/?game={gid}")
    ((at, _k, _b),) = _read(s, 1)
    play_default(gid, ps)
    resumed = open_stream(f"/api/v1/stream/?game={gid}&last_event_id={at}")
    ((_i, _k, body),) = _read(resumed, 1)
    assert body["game"]["seq"] == Game.objects.get(pk=gid).seq


@pytest.mark.django_db(transaction=True)
def test_ids_are_given_in_commit_order(new_game):
    """A change that logs while another's event is written but not committed waits for that
    commit: so its id is larger AND it commits later (a reader never sees N+1 before N)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    gid, _ps = new_game(players=2)
    game = Game.objects.get(pk=gid)
    written, release, second_done = threading.Event(), threading.Event(), threading.Event()
    ids: dict[str, int] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                log.record(game, [])
                ids["first"] = log.head()
                written.set()
                release.wait(10)
        finally:
            connection.close()

    def second() -> None:
        try:
            written.wait(10)
            with transaction.atomic():
                log.record(game, [])
            ids["second"] = log.head()
            second_done.set()
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert written.wait(10)
    assert not second_done.wait(0.5)  # it waits for the first to commit
    release.set()
    for t in threads:
        t.join(10)
    assert ids["second"] > ids["first"]


def test_a_takeback_is_told_after_its_game_event_on_every_stream(new_game, quick, open_stream):
    from apihelpers import seat_players

    import powergrid

    gid, ps = new_game(players=3, options={"takebacks_rated": True})
    seats = seat_players(gid, ps)
    first = powergrid.from_json(Game.objects.get(pk=gid).state_json).order[0]
    streams = [
        open_stream(f"/api/v1/stream/?game={gid}"),
        open_stream(HTTP_AUTHORIZATION=f"Token {seats[first].token}"),
    ]
    for s in streams:
        _read(s, 1)
    p = seats[first]
    body = {"action": {"type": "choose_plant", "plant": 5, "bid": 7}, "expected_seq": 0}
    assert p.post(f"/api/v1/games/{gid}/moves/", body).status_code == 201
    assert p.post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1}).status_code == 201
    for s in streams:
        moved, back, takeback = _read(s, 3)
        assert [moved[2]["game"]["seq"], back[2]["game"]["seq"]] == [1, 2]
        assert takeback[1:] == (
            "takeback",
            {
                "event": "takeback",
                "game": {"id": gid, "seq": 2},
                "takeback": {"seat": first, "cancels": [1], "agreed": False},
            },
        )
        assert int(moved[0]) < int(back[0]) < int(takeback[0])


def test_a_move_and_the_plan_move_it_brings_are_two_events(new_game, make_player):
    """One commit holding two moves (a move, and a proxy bid acting on the turn it brings) is
    two ``game`` events, each with its own seq and the seats it left awaited, in order; the
    players' streams tell each with their turn and deadline as of the last."""
    import powergrid
    from games.models import Move, StreamEvent

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    opener, plant = powergrid.to_act(s)[0], s.market[0]
    after_open = powergrid.apply(s, opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    second = powergrid.to_act(after_open)[0]
    r = seats[second].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "proxy_bid", "plant": plant, "max": plant + 5}
    )
    assert r.json()["moves_made"] == 0
    head = StreamEvent.objects.filter(game_id=gid).order_by("-id").first()
    body = {"action": {"type": "choose_plant", "plant": plant, "bid": plant}, "expected_seq": 0}
    assert seats[opener].post(f"/api/v1/games/{gid}/moves/", body).status_code == 201
    moves = list(Move.objects.filter(game_id=gid).order_by("seq"))
    assert [(m.seq, m.source) for m in moves] == [(1, "api"), (2, "plan")]
    events = list(
        StreamEvent.objects.filter(game_id=gid, id__gt=head.pk if head else 0).order_by("id")
    )
    assert [(e.kind, e.seq, e.body["game"]["seq"]) for e in events] == [
        ("game", 1, 1),
        ("game", 2, 2),
    ]
    game = Game.objects.get(pk=gid)
    assert events[0].body["game"]["to_act"] == [second]
    assert events[1].body["game"]["to_act"] == sorted(game.to_act)
    assert events[1].body["game"] == log.game_body(game)
    # On the second player's own stream: their turn at seq 1 (no deadline: it had passed by the
    # commit), not theirs at seq 2.
    mine = log.Reader(user_id=seats[second].user.pk, game_id=None)
    told = [mine.frame(e) for e in log.after(mine, head.pk if head else 0)]
    assert b'"seq":1' in told[0]
    assert b'"your_turn":true' in told[0]
    assert b'"deadline":null' in told[0]
    assert b'"seq":2' in told[1]
    assert b'"your_turn":false' in told[1]
