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
