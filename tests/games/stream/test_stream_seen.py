"""An open game page that follows the game over the event stream (static/js/live.js) keeps the
player's "seen" mark fresh (``Seat.page_seen_at``), so the turn emails' pace holds their turn
emails while they watch, as after a page load (games/notifications/pace.py): marked when the
stream opens, then again at most every ``pace.STREAM_SEEN_EVERY`` per seat while it goes on.
A token's stream (a program) or a watcher without a seat marks nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Seat
from games.notifications import pace
from games.stream import views

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick(settings):
    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_REDIS_URL = ""


@pytest.fixture
def streams():
    opened = []

    def open_(client, path, **extra):
        r = client.get(path, **extra)
        opened.append(r)
        return r

    yield open_
    for r in opened:
        r.close()


def _seen(gid, user):
    return Seat.objects.get(game_id=gid, user=user).page_seen_at


def _page_client(user):
    c = Client()
    c.force_login(user)
    return c


def test_the_pages_stream_marks_the_seat_seen_when_it_opens(new_game, quick, streams):
    gid, ps = new_game(players=3)
    user = ps[0].user
    assert _seen(gid, user) is None
    r = streams(_page_client(user), f"/api/v1/stream/?game={gid}")
    chunks = iter(r.streaming_content)
    next(chunks)
    seen = _seen(gid, user)
    assert seen is not None
    assert timezone.now() - seen < timedelta(seconds=5)
    # The other players' seats are not marked.
    assert _seen(gid, ps[1].user) is None


def test_an_open_stream_marks_again_once_a_minute_and_not_more(
    new_game, quick, streams, monkeypatch
):
    gid, ps = new_game(players=3)
    user = ps[0].user
    clock = [1000.0]
    monkeypatch.setattr(views.Seen, "clock", staticmethod(lambda: clock[0]))
    writes = []
    real = pace.stream_seen

    def counted(**kw):
        writes.append(kw["now"])
        return real(**kw)

    monkeypatch.setattr(pace, "stream_seen", counted)
    r = streams(_page_client(user), f"/api/v1/stream/?game={gid}")
    chunks = iter(r.streaming_content)
    next(chunks)  # opened: marked
    assert len(writes) == 1
    # Events and keepalives within the minute write nothing more.
    from apihelpers import play_default

    play_default(gid, ps)
    next(chunks)
    assert len(writes) == 1
    # A minute later the stream, still open, marks the seat again (the database's own
    # throttle lets it: the mark is a minute old).
    clock[0] += 61
    Seat.objects.filter(game_id=gid, user=user).update(
        page_seen_at=timezone.now() - timedelta(seconds=61)
    )
    play_default(gid, ps)
    next(chunks)
    assert len(writes) == 2
    assert timezone.now() - _seen(gid, user) < timedelta(seconds=5)


def test_the_mark_is_written_once_a_minute_per_seat_whatever_the_streams():
    """Two tabs, two processes: the conditional UPDATE writes once a minute between them."""
    from django.contrib.auth import get_user_model

    from games import services

    users = [get_user_model().objects.create_user(f"s{i}") for i in range(3)]
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    now = timezone.now()
    assert pace.stream_seen(game_id=game.pk, user_id=users[0].pk, now=now)
    assert not pace.stream_seen(game_id=game.pk, user_id=users[0].pk, now=now)
    assert not pace.stream_seen(
        game_id=game.pk, user_id=users[0].pk, now=now + timedelta(seconds=59)
    )
    assert pace.stream_seen(game_id=game.pk, user_id=users[0].pk, now=now + timedelta(seconds=60))


def test_an_open_page_holds_the_turn_email_past_its_last_load(new_game, quick, streams):
    """What it is for: the page loaded 10 minutes ago but open since, following the game: the
    turn email is held (before, the hold ran out 5 minutes after the load)."""
    from games.models import Notification

    gid, ps = new_game(players=3)
    user = ps[0].user
    now = timezone.now()
    Seat.objects.filter(game_id=gid, user=user).update(page_seen_at=now - timedelta(minutes=10))
    n = Notification(kind=Notification.Kind.TURN, game_id=gid, recipient=user, pk=-1)
    assert pace.hold_until(n, timezone.now()) is None
    r = streams(_page_client(user), f"/api/v1/stream/?game={gid}")
    next(iter(r.streaming_content))
    assert pace.hold_until(n, timezone.now()) is not None


@pytest.mark.parametrize("how", ["token", "watcher"])
def test_a_tokens_stream_or_a_watcher_marks_nothing(new_game, quick, streams, make_player, how):
    gid, ps = new_game(players=3)
    if how == "token":
        r = streams(
            Client(), f"/api/v1/stream/?game={gid}", HTTP_AUTHORIZATION=f"Token {ps[0].token}"
        )
    else:
        r = streams(_page_client(make_player().user), f"/api/v1/stream/?game={gid}")
    next(iter(r.streaming_content))
    assert all(_seen(gid, p.user) is None for p in ps)


def test_the_asgi_stream_marks_when_it_opens_and_each_minute(monkeypatch, settings):
    """Production's path (uvicorn, the process's hub): the same marks, on the shared pool's
    threads (``db``); here with a stand-in hub and the database calls recorded."""
    import asyncio

    from games.stream import log as stream_log

    settings.STREAM_KEEPALIVE_SECONDS = 0.01

    class Hub:
        cursor = 0

        async def start(self) -> None:
            pass

        def listen(self, reader):
            return asyncio.Queue(), 0

        def forget(self, queue, reader) -> None:
            pass

    def direct(fn):
        async def run(*args):
            return fn(*args)

        return run

    monkeypatch.setattr(views, "hub_for", lambda url: Hub())
    monkeypatch.setattr(views, "db", direct)
    monkeypatch.setattr(stream_log, "opening", lambda reader, last_id, at: [])
    clock = [1000.0]
    monkeypatch.setattr(views.Seen, "clock", staticmethod(lambda: clock[0]))
    marks: list[dict] = []
    monkeypatch.setattr(pace, "stream_seen", lambda **kw: marks.append(kw) or True)

    class User:
        pk = 7

    seen = views.Seen(views.Who(User(), 42, False, "127.0.0.1", page=True))
    reader = stream_log.Reader(user_id=7, game_id=42)

    async def read() -> list[int]:
        counts = []
        stream = views._live(reader, None, False, seen)
        assert await anext(stream) == views.RETRY
        counts.append(len(marks))
        assert await anext(stream) == views.KEEPALIVE  # within the minute: no second mark
        counts.append(len(marks))
        clock[0] += 61
        await anext(stream)
        counts.append(len(marks))
        await stream.aclose()
        return counts

    # In a thread of its own: a Playwright test earlier in the same xdist worker may leave a
    # loop running in this one, and asyncio.run refuses to start beside it.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, read()).result(30) == [1, 1, 2]
    assert {(m["game_id"], m["user_id"]) for m in marks} == {(42, 7)}
