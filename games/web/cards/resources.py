"""The resource market's card: each resource's track, its spaces, prices and tokens."""

from __future__ import annotations

from typing import TypedDict

from games.web.present import TrackRow, resource_track

from .viewing import Viewing


class ResourcesCard(TypedDict):
    """``templates/games/cards/resources.html``."""

    track: list[TrackRow]


def resources_card(view: Viewing) -> ResourcesCard:
    return {"track": resource_track(view.state["resource_market"])}
