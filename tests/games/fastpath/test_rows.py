"""games.fastpath.rows: the hot path's SQL built once gives the same instances the ORM gives."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.fastpath import rows
from games.models import Game, Move, Seat

pytestmark = pytest.mark.django_db


def _values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_seats_with_users_equal_the_orm_select_related(new_game, django_assert_num_queries):
    gid, _ps = new_game(players=3)
    orm = list(
        Seat.objects.filter(game_id=gid).select_related("game", "user__profile").order_by("seat")
    )
    with django_assert_num_queries(1):
        game, seats = rows.seats_with_users(gid, with_game=True)
        # Everything select_related would have cached is cached: no further query.
        for s in seats:
            assert s.game is game
            _ = s.user.profile.timezone
    assert _values(game) == _values(Game.objects.get(pk=gid))
    assert [s.seat for s in seats] == sorted(s.seat for s in seats)
    for mine, theirs in zip(seats, orm, strict=True):
        assert _values(mine) == _values(theirs)
        assert _values(mine.user) == _values(theirs.user)
        assert _values(mine.user.profile) == _values(theirs.user.profile)
        assert mine.user.profile.user is mine.user
        assert not mine._state.adding
        assert mine._state.db == "default"


def test_a_user_without_a_profile_reads_as_after_select_related(new_game):
    gid, ps = new_game(players=2)
    ps[1].user.profile.delete()
    _, seats = rows.seats_with_users(gid)
    seat = next(s for s in seats if s.user_id == ps[1].user.pk)
    assert getattr(seat.user, "profile", None) is None
    assert not hasattr(seat.user, "profile")


def test_no_seats_no_game():
    assert rows.seats_with_users(10**9, with_game=True) == (None, [])
    assert rows.game_for_update(10**9) is None


def test_token_candidates_carry_their_user(make_player):
    from knox.models import AuthToken

    p = make_player()
    token = AuthToken.objects.get(user=p.user)
    (found,) = rows.token_candidates(token.token_key)
    assert _values(found) == _values(token)
    assert _values(found.user) == _values(get_user_model().objects.get(pk=p.user.pk))
    assert rows.token_candidates("no-such-key") == []


def test_insert_and_update_write_what_save_writes(new_game):
    gid, _ps = new_game(players=2)
    with transaction.atomic():
        game = rows.game_for_update(gid)
        move = Move(
            game=game, seq=game.seq + 1, seat=0, action={"type": "x", "n": [1]}, source="api"
        )
        rows.insert(move)
        assert move.pk is not None
        assert move.created_at is not None
        game.seq += 1
        game.to_act = [1, 0]
        rows.update(game, ["seq", "to_act"])
    stored = Move.objects.get(pk=move.pk)
    assert _values(stored) == _values(move)
    fresh = Game.objects.get(pk=gid)
    assert (fresh.seq, fresh.to_act) == (game.seq, [1, 0])


def test_seats_for_games_equal_the_orm_per_game(new_game, django_assert_num_queries):
    gids = [new_game(players=n)[0] for n in (2, 3, 4)]
    with django_assert_num_queries(1):
        by_game = rows.seats_for_games([*gids, 10**9])
        for seats in by_game.values():
            for s in seats:
                _ = s.user.profile.language  # cached: no further query
    assert by_game[10**9] == []
    for gid in gids:
        orm = list(
            Seat.objects.filter(game_id=gid).select_related("user__profile").order_by("seat")
        )
        assert [_values(s) for s in by_game[gid]] == [_values(s) for s in orm]
        assert [_values(s.user.profile) for s in by_game[gid]] == [
            _values(s.user.profile) for s in orm
        ]


def test_insert_many_writes_what_bulk_create_writes(new_game):
    from games.models import Notification

    gid, ps = new_game(players=2)
    game = Game.objects.get(pk=gid)
    moves = [
        Move(game=game, seq=game.seq + i, seat=i % 2, action={"type": "x", "i": i}, source="bot")
        for i in (1, 2, 3)
    ]
    rows.insert_many(moves)
    assert all(m.pk is not None for m in moves)
    for m in moves:
        assert _values(Move.objects.get(pk=m.pk)) == _values(m)

    def notice(key: str) -> Notification:
        return Notification(recipient=ps[0].user, game=game, kind="turn", dedupe_key=key)

    rows.insert_many([notice("a"), notice("b")], ignore_conflicts=True)
    rows.insert_many([notice("a"), notice("c")], ignore_conflicts=True)  # "a" exists: skipped
    assert sorted(
        Notification.objects.filter(game=game, kind="turn").values_list("dedupe_key", flat=True)
    ) == [
        "a",
        "b",
        "c",
    ]
