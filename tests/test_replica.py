"""Reads from a replica (config/replica.py): only where a page asked for them, never for accounts
or inside a transaction, never without a replica configured; and the pages that ask are the
public listings and records. The end-to-end proof, a gunicorn serving those pages from a second
connection, is in scripts/prod_smoke (tests/integration/test_prod_smoke.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from config import replica
from config.replica import REPLICA, ReplicaRouter, reads_from_replica, replica_reads
from games.models import Game, Move


@pytest.fixture
def with_replica(monkeypatch):
    """A replica configured (the router's view of it; no second database is opened here)."""
    monkeypatch.setattr(replica, "replica_configured", lambda: True)
    monkeypatch.setattr(replica, "replica_lag", lambda: 0.0)


def test_without_a_replica_every_read_goes_to_the_primary():
    with replica_reads():
        assert ReplicaRouter().db_for_read(Game) is None


def test_reads_go_to_the_replica_only_inside_replica_reads(with_replica):
    router = ReplicaRouter()
    assert router.db_for_read(Game) is None
    with replica_reads():
        assert router.db_for_read(Game) == REPLICA
        assert router.db_for_read(Move) == REPLICA
    assert router.db_for_read(Game) is None


def test_accounts_sessions_and_tokens_are_always_read_from_the_primary(with_replica):
    from django.contrib.sessions.models import Session
    from knox.models import AuthToken

    from accounts.models import Profile

    with replica_reads():
        for model in (get_user_model(), Session, AuthToken, Profile):
            assert ReplicaRouter().db_for_read(model) is None, model


@pytest.mark.django_db
def test_a_read_inside_a_transaction_is_made_where_the_write_will_be(with_replica):
    with replica_reads(), transaction.atomic():
        assert ReplicaRouter().db_for_read(Game) is None


def test_writes_and_migrations_are_the_primarys(with_replica):
    router = ReplicaRouter()
    with replica_reads():
        assert router.db_for_write(Game) is None
    assert router.allow_migrate("default", "games") is True
    assert router.allow_migrate(REPLICA, "games") is False


def test_the_wish_ends_with_the_block_even_when_it_raises(with_replica):
    with pytest.raises(RuntimeError), replica_reads():
        raise RuntimeError
    assert ReplicaRouter().db_for_read(Game) is None


def _user(model: Any) -> Any:
    return model.objects.create_user(username="ann", email="ann@example.com", password="pw-ann-123")


def _games_reads_while(monkeypatch, path: str) -> list[bool]:
    """For each read of a games model while GET ``path`` runs: was the replica asked for?"""
    seen: list[bool] = []
    original = ReplicaRouter.db_for_read

    def spy(self: ReplicaRouter, model: Any, **hints: Any) -> str | None:
        if model._meta.app_label == "games":
            seen.append(replica._replica_wanted.get())
        return original(self, model, **hints)

    monkeypatch.setattr(ReplicaRouter, "db_for_read", spy)
    assert Client().get(path).status_code == 200
    return seen


@pytest.mark.django_db
def test_the_lobbys_public_lists_ask_for_the_replica(monkeypatch, django_user_model):
    from games.services.lobby import game_create

    game_create(creator=_user(django_user_model), map="germany", max_players=3)
    seen = _games_reads_while(monkeypatch, "/")
    assert seen
    assert any(seen)


@pytest.mark.django_db
def test_a_player_profile_is_read_from_the_replica(monkeypatch, django_user_model):
    user = _user(django_user_model)
    seen = _games_reads_while(monkeypatch, f"/players/{user.username}/")
    assert seen
    assert all(seen)


@pytest.mark.django_db
def test_a_game_page_never_asks_for_the_replica(monkeypatch, django_user_model):
    """The game page shows the move just made: it reads the primary."""
    from games.services.lobby import game_create

    game = game_create(creator=_user(django_user_model), map="germany", max_players=3)
    seen = _games_reads_while(monkeypatch, f"/games/{game.pk}/")
    assert seen
    assert not any(seen)


def test_a_decorated_template_response_is_rendered_inside_the_block(with_replica):
    from django.template.response import SimpleTemplateResponse

    wanted_when_rendered: list[bool] = []

    class Probe(SimpleTemplateResponse):
        def render(self):  # type: ignore[override]
            wanted_when_rendered.append(replica._replica_wanted.get())
            return super().render()

    @reads_from_replica
    def view(request: object) -> Probe:
        from django.template import engines

        return Probe(engines["django"].from_string("ok"))

    assert view(object()).content == b"ok"
    assert wanted_when_rendered == [True]


def test_a_replica_lagging_past_the_bound_is_not_read(with_replica, monkeypatch, settings):
    """The public lists never lag the primary by more than REPLICA_MAX_LAG_SECONDS."""
    settings.REPLICA_MAX_LAG_SECONDS = 10.0
    router = ReplicaRouter()
    for lag, where in ((0.0, REPLICA), (9.9, REPLICA), (10.1, None), (float("inf"), None)):
        monkeypatch.setattr(replica, "replica_lag", lambda lag=lag: lag)
        with replica_reads():
            assert router.db_for_read(Game) == where, lag


def test_the_lag_is_asked_once_a_second_and_a_silent_replica_counts_as_lagging(monkeypatch):
    from django.db import OperationalError

    asked: list[int] = []

    class Broken:
        vendor = "postgresql"

        def cursor(self):
            asked.append(1)
            raise OperationalError("the replica is down")

        def close(self):
            pass

    monkeypatch.setattr(replica, "connections", {REPLICA: Broken()})
    monkeypatch.setattr(replica, "_lag_seen", [-1e9, 0.0])
    assert replica.replica_lag() == float("inf")
    assert replica.replica_lag() == float("inf")
    assert len(asked) == 1  # the second answer came from the last second's


@pytest.mark.django_db
def test_a_user_who_wrote_reads_the_primary_for_the_bound(with_replica, django_user_model):
    """Read-your-writes: a successful write by a signed-in user pins their reads to the primary
    (on every web host: the mark is in the shared cache); others still read the replica."""
    from django.core.cache import cache

    cache.clear()
    ann = _user(django_user_model)
    bob = django_user_model.objects.create_user(username="bob", password="pw-bob-123")
    seen: dict[str, list[bool]] = {}

    def lobby_reads(user: Any) -> list[bool]:
        c = Client()
        c.force_login(user)
        wanted: list[bool] = []
        original = ReplicaRouter.db_for_read

        def spy(self: ReplicaRouter, model: Any, **hints: Any) -> str | None:
            if model._meta.app_label == "games":  # (the test's transaction keeps all on default)
                wanted.append(replica._replica_wanted.get() and not replica._primary_pinned.get())
            return original(self, model, **hints)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ReplicaRouter, "db_for_read", spy)
            assert c.get("/").status_code == 200
        return wanted

    from games.services.lobby import game_create

    game_create(creator=bob, map="germany", max_players=3)
    seen["before"] = lobby_reads(ann)
    c = Client()
    c.force_login(ann)
    assert c.post("/language/", {"language": "en"}).status_code < 400  # a write
    assert replica.user_pinned(ann.pk)
    seen["after"] = lobby_reads(ann)
    seen["other"] = lobby_reads(bob)
    assert any(seen["before"])
    assert seen["after"]
    assert not any(seen["after"])
    assert any(seen["other"])


def test_the_middleware_marks_a_successful_write_of_a_signed_in_user(with_replica):
    from types import SimpleNamespace

    from django.http import HttpResponse

    marked: list[int] = []
    user = SimpleNamespace(is_authenticated=True, pk=7)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(replica, "user_wrote", marked.append)
        mp.setattr(replica, "user_pinned", lambda pk: False)
        for method, status in (("POST", 201), ("POST", 409), ("GET", 200), ("DELETE", 204)):
            mw = replica.ReplicaStickinessMiddleware(lambda r, s=status: HttpResponse(status=s))
            mw(SimpleNamespace(method=method, user=user))
    assert marked == [7, 7]  # the POST that succeeded and the DELETE


def test_the_middleware_lets_a_database_outage_reach_the_view(with_replica):
    """Reading the session's user is the first database query of a request: while the
    database is down, the view still runs (and answers 503), the middleware raises nothing."""
    from types import SimpleNamespace

    from django.db import OperationalError
    from django.http import HttpResponse

    class Down:
        @property
        def is_authenticated(self) -> bool:
            raise OperationalError("the database system is shutting down")

    seen: list[bool] = []

    def view(request: object) -> HttpResponse:
        seen.append(replica._primary_pinned.get())
        return HttpResponse(status=503)

    response = replica.ReplicaStickinessMiddleware(view)(
        SimpleNamespace(method="POST", user=Down())
    )
    assert response.status_code == 503
    assert seen == [True]  # read the primary, which says what is wrong
