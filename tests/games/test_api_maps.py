"""``GET /api/v1/maps/``: each map carries its own set-up rules; a game on areas whose cities are
not one network is refused with ``areas_not_connected``."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


def test_each_map_lists_its_rules():
    maps = {m["slug"]: m for m in APIClient().get("/api/v1/maps/").json()}
    assert maps["france"]["rules"]["cheapest_price"]["uranium"] == 5
    assert maps["france"]["rules"]["starting_market"]["uranium"] == 8
    assert maps["france"]["rules"]["top_plant"] == 11
    assert maps["france"]["rules"]["removed_plants"] == []  # 13 is an ordinary card (seed 002 *1)
    assert maps["france"]["rules"]["required_areas"] == ["blue"]
    assert maps["italy"]["rules"]["cheapest_price"] == {
        "coal": 3,
        "oil": 4,
        "garbage": 5,
        "uranium": 14,
    }
    assert maps["germany"]["rules"]["top_plant"] == 13
    assert maps["germany"]["rules"]["notes"] == []
    one = APIClient().get("/api/v1/maps/italy/").json()
    assert one["rules"] == maps["italy"]["rules"]


def test_areas_not_one_network_are_refused_and_nothing_is_created(make_player):
    p = make_player()
    r = p.post(
        "/api/v1/games/", {"map": "italy", "max_players": 2, "areas": ["blue", "green", "red"]}
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "areas_not_connected"
    assert not Game.objects.exists()
