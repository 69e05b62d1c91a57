"""Deadlines in a calendar: a secret per-user feed (``/calendar/<token>.ics``, the token from the
profile page, revocable) with every deadline the user must meet, and a per-game ``.ics`` for its
players. Public facts only: the game, whose move, the deadline; never money or plans.

Each awaited turn is one event at its deadline (an "all-day" event would lose the hour), with a
UID bound to the game, seat and position, so a calendar app replaces it when the turn moves.
Times are written in the user's time zone (``accounts.zones``) with its VTIMEZONE.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

import icalendar
from django.conf import settings
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.models import Profile
from accounts.zones import user_zone
from games import selectors
from games.models import Game, Seat
from games.notifications.emails import map_name

#: How long an event lasts: a deadline is a moment; half an hour shows it in a day view.
LENGTH = timedelta(minutes=30)


def _calendar(name: str, zone: tzinfo) -> icalendar.Calendar:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Power Grid turn server//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", str(zone))
    cal.add("refresh-interval", timedelta(minutes=30), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT30M")
    return cal


def _event(seat: Seat, zone: tzinfo, now: datetime) -> icalendar.Event:
    game = seat.game
    assert seat.deadline is not None
    start = seat.deadline.astimezone(zone)
    ev = icalendar.Event()
    ev.add("uid", f"pg-{game.pk}-{seat.seat}-{game.seq}@{settings.SITE_URL.split('//')[-1]}")
    ev.add("dtstamp", now)
    ev.add("dtstart", start)
    ev.add("dtend", start + LENGTH)
    ev.add(
        "summary",
        _("Power Grid #%(id)s (%(map)s): your move is due")
        % {"id": game.pk, "map": map_name(game.map)},
    )
    url = settings.SITE_URL + reverse("game", args=[game.pk])
    ev.add("url", url)
    ev.add("description", _("Make your move before the deadline: %(url)s") % {"url": url})
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", _("Your Power Grid move is due in an hour"))
    alarm.add("trigger", timedelta(hours=-1))
    ev.add_component(alarm)
    return ev


def _response(cal: icalendar.Calendar, filename: str) -> HttpResponse:
    cal.add_missing_timezones()
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def _awaited(user: User, game: Game | None = None) -> list[Seat]:
    qs = Seat.objects.filter(
        user=user, deadline__isnull=False, game__status=Game.Status.RUNNING
    ).select_related("game")
    if game is not None:
        qs = qs.filter(game=game)
    return [s for s in qs if s.seat in (s.game.to_act or [])]


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The user's feed: no login (calendar apps cannot), the secret address is the key."""
    if len(token) < 20:
        raise Http404
    profile = Profile.objects.filter(calendar_token=token).select_related("user").first()
    if profile is None:
        raise Http404
    user = profile.user
    zone = user_zone(user)
    with translation.override(profile.language or "en"):
        cal = _calendar(_("Power Grid deadlines"), zone)
        now = timezone.now()
        for seat in _awaited(user):
            cal.add_component(_event(seat, zone, now))
        return _response(cal, "powergrid.ics")


@require_GET
def game_calendar(request: HttpRequest, game_id: int) -> HttpResponse:
    """One game's deadline for the signed-in player (a download)."""
    game = selectors.game_for(game_id=game_id, user=request.user)
    if game is None or not request.user.is_authenticated:
        raise Http404
    if selectors.seat_of(game, request.user) is None:
        raise Http404
    zone = user_zone(request.user)
    cal = _calendar(_("Power Grid game #%(id)s") % {"id": game.pk}, zone)
    now = timezone.now()
    for seat in _awaited(request.user, game):
        cal.add_component(_event(seat, zone, now))
    response = _response(cal, f"powergrid-{game.pk}.ics")
    response["Content-Disposition"] = f'attachment; filename="powergrid-{game.pk}.ics"'
    return response
