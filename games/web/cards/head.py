"""The game's head: where the game is (round, step, phase), whom it waits for, who has already
chosen, and the line that forecasts its end (``games.forecast``, public facts only)."""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from django.utils import timezone

from games import describe
from games.forecast import forecast
from games.web.context import Person
from games.web.part_of import PartOf, part_of

from .viewing import Viewing


class Forecast(TypedDict):
    """The line under the title: the expected end and the seat waited on most."""

    finish: datetime
    minutes: int | None
    hours: int | None
    days: int
    bottleneck: str | None
    bottleneck_seat: int | None
    bottleneck_hours: int | None
    bottleneck_person: NotRequired[Person]


class HeadCard(TypedDict):
    """``templates/games/cards/head.html``."""

    phase_label: str
    waiting: list[str]
    waiting_people: list[Person]
    acted: list[Person]
    #: None on a history page (which does not forecast) and when there is nothing to forecast.
    forecast: Forecast | None
    #: "Next game waiting (n)": another game waiting for the reader's move (``games.waiting``).
    next_waiting: NextWaiting | None
    #: What the game is part of (a tournament's table), for the reader (``games.web.part_of``).
    part_of: PartOf | None


class NextWaiting(TypedDict):
    game_id: int
    count: int


def head_card(view: Viewing) -> HeadCard:
    state = view.state
    return {
        "phase_label": describe.phase_label(state["phase"]),
        "waiting": [view.names.get(s, "?") for s in state["to_act"]],
        # The same, each a link to the player's page (``|players``).
        "waiting_people": [view.person(s) for s in state["to_act"]],
        # Phase 5 asks everyone at once: say who has already chosen what to power.
        "acted": [
            view.person(s)
            for s in state["order"]
            if state["phase"] == "bureaucracy" and s not in state["to_act"]
        ],
        "forecast": forecast_line(view) if view.history_seq is None else None,
        "next_waiting": _next_waiting(view),
        "part_of": part_of(view.game, view.user),
    }


def _next_waiting(view: Viewing) -> NextWaiting | None:
    """The reader's other games waiting (``games.web.reader``, ``games.waiting``'s rule)."""
    found = view.own.waiting
    return {"game_id": found[0].game_id, "count": len(found)} if found else None


def forecast_line(view: Viewing) -> Forecast | None:
    """The game page's line: expected finish and the seat waited on most (public facts only)."""
    fc = forecast(view.game, sheet_rounds=view.own.sheet_rounds)
    if fc is None:
        return None
    pace = next((p for p in fc.seats if p.seat == fc.bottleneck), None)
    left = (fc.finish - timezone.now()).total_seconds() / 3600
    line: Forecast = {
        "finish": fc.finish,
        # Under an hour, in minutes ("about 20 minutes": a practice game against bots); under a
        # day, in hours ("about 5 hours"); a day or more, in days.
        "minutes": max(1, round(left * 60)) if left < 1 else None,
        "hours": max(1, round(left)) if left < 23.5 else None,
        "days": max(1, round(left / 24)),
        "bottleneck": view.names.get(fc.bottleneck) if fc.bottleneck is not None else None,
        "bottleneck_seat": fc.bottleneck,
        "bottleneck_hours": round(pace.median_reply_hours)
        if pace is not None and pace.median_reply_hours is not None
        else None,
    }
    if line["bottleneck_seat"] is not None:
        line["bottleneck_person"] = {
            "name": line["bottleneck"] or "",
            "username": view.usernames.get(line["bottleneck_seat"]),
        }
    return line
