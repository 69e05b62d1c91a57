"""The lobby's filters: map, number of players, turn length, a free seat."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_filters_narrow_the_open_games(make_user, client):
    from games import services

    a = make_user()
    g3 = services.game_create(creator=a, map="germany", max_players=3)
    g4 = services.game_create(creator=a, map="usa", max_players=4, options={"turn_hours": 72})

    def ids(url: str) -> set[int]:
        page = client.get(url).content.decode()
        return {int(x) for x in re.findall(r'href="/games/(\d+)/"', page)}

    assert {g3.pk, g4.pk} <= ids("/")
    assert ids("/?map=germany") >= {g3.pk}
    assert g4.pk not in ids("/?map=germany")
    assert g3.pk not in ids("/?players=4")
    assert g4.pk not in ids("/?turn=24")
    assert g3.pk in ids("/?free=1")
    assert {g3.pk, g4.pk} <= ids("/?map=atlantis&players=x")  # nonsense filters are ignored
