"""``bulk_update_values`` writes what Django's ``bulk_update`` writes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.fastpath.bulk import bulk_update_values
from games.models import Seat

pytestmark = pytest.mark.django_db

FIELDS = ["deadline", "reminder_at", "timeouts_in_row", "bot_controlled"]


def _changed(seats: list[Seat], base: int) -> list[Seat]:
    now = timezone.now().replace(microsecond=0)
    for i, s in enumerate(seats):
        s.deadline = now + timedelta(hours=base + i)
        s.reminder_at = None if i % 2 else now + timedelta(minutes=base + i)
        s.timeouts_in_row = base + i
        s.bot_controlled = bool((base + i) % 2)
    return seats


def _read(game_id: int) -> list[tuple]:
    return list(Seat.objects.filter(game_id=game_id).order_by("seat").values_list("seat", *FIELDS))


def test_the_same_rows_as_bulk_update(new_game):
    a, _ = new_game(players=3)
    b, _ = new_game(players=3)
    bulk_update_values(_changed(list(Seat.objects.filter(game_id=a).order_by("seat")), 5), FIELDS)
    Seat.objects.bulk_update(
        _changed(list(Seat.objects.filter(game_id=b).order_by("seat")), 5), FIELDS
    )
    assert [r[1:] for r in _read(a)] == [r[1:] for r in _read(b)]
    assert _read(a)[1][3] == 6  # the values were written, not left as they were


def test_nothing_to_write_writes_nothing(new_game, django_assert_num_queries):
    with django_assert_num_queries(0):
        bulk_update_values([], FIELDS)
        bulk_update_values(list(Seat.objects.none()), FIELDS)
