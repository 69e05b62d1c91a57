"""The leagues' pages (English and Japanese): the list (linked from the lobby beside the
tournaments; a page at a time), a league's page with a season's divisions and standings, a page
of divisions at a time (who moves up and down; each division's rounds and tables on its
tournament's page), the members waiting for the next season, the create page, and the join /
leave / start forms (plain POST forms: no JavaScript needed)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import numbers
from games.selectors import player_name
from games.services.errors import ServiceError
from games.web.common import lang
from games.web.errors import error_text
from tournaments import league_present, leagues, shapes
from tournaments.forms import LeagueCreateForm
from tournaments.models import Season

#: Leagues the list shows at a time (``?page=``), as the API's list pages by default.
LEAGUES_PER_PAGE = 50


def league_list(request: HttpRequest) -> HttpResponse:
    """Every league, newest first, a page at a time (``Paginator.get_page``, as the
    tournaments' list)."""
    pages = Paginator(league_present.leagues_listed(), LEAGUES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = [league_present.summary(x) for x in pages.object_list]
    return render(request, "tournaments/leagues.html", {"leagues": rows, "pages": pages})


@login_required
def league_new(request: HttpRequest) -> HttpResponse:
    """The create form (a GET shows it with its defaults; a POST creates the league, makes its
    director a member when asked, and opens its page; or shows the form again, what was typed
    kept, with each refusal beside its field: 400)."""
    form = LeagueCreateForm(request.POST if request.method == "POST" else None, lang=lang())
    if request.method == "POST" and form.is_valid():
        try:
            league = leagues.league_create(
                director=request.user, join=form.cleaned_data["play"], **form.service_fields()
            )
        except ServiceError as exc:
            field = str(exc.details.get("field", ""))
            form.add_error(
                field if field in form.fields else None,
                error_text(exc.code, exc.message, exc.details),
            )
        else:
            messages.success(request, _("League created. Players join it from its page."))
            return HttpResponseRedirect(reverse("league", args=[league.pk]))
    status = 400 if form.errors else 200
    return render(request, "tournaments/league_new.html", {"form": form}, status=status)


def _season_asked(request: HttpRequest) -> int | None:
    raw = request.GET.get("season", "")
    if not raw:
        return None
    number = numbers.text_or_none(raw, high=leagues.SEASON_MAX)
    if number is None:
        raise Http404
    return number


def _yours(detail: shapes.League, chosen: Season | None, me: str) -> dict[str, Any] | None:
    """Where the viewer's division of the season shown is (its number and page: the "Your
    division" link, and their row marked), or None when they did not play in it. Read from the
    league's answer (``league_present.detail``: one query for all the viewer's divisions), so
    no division is read to find it."""
    if chosen is None:
        return None
    number = next(
        (s["your_division"] for s in detail["seasons"] if s["number"] == chosen.number), None
    )
    if number is None:
        return None
    return {"number": number, "page": league_present.division_page(number), "me": me}


def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league, and a season (``?season=``; the last by default) a page of divisions at a
    time (``?page=``: ``league_present.season_page``; the pages' links keep the season). A
    viewer who plays in the season has a link to the page and heading of their division."""
    league = league_present.listed(league_id)
    if league is None:
        raise Http404
    detail = league_present.detail(league, request.user)
    asked = _season_asked(request)
    seasons = Season.objects.filter(league=league)
    chosen = (
        seasons.filter(number=asked).first()
        if asked is not None
        else seasons.order_by("-number").first()
    )
    if asked is not None and chosen is None:
        raise Http404
    season, pages = (
        league_present.season_page(league, chosen, request.GET.get("page"))
        if chosen is not None
        else (None, None)
    )
    user = request.user
    return render(
        request,
        "tournaments/league.html",
        {
            "league": detail,
            "season": season,
            "pages": pages,
            "keep": urlencode({"season": chosen.number}) if chosen is not None else "",
            "waiting": [{"name": player_name(m.user)} for m in league_present.waiting(league)],
            "member": detail["member"],
            "is_director": user.is_authenticated and user.pk == league.director_id,
            "yours": _yours(detail, chosen, user.get_username()),
        },
    )


def _act(request: HttpRequest, league_id: int, do: Any) -> HttpResponse:
    try:
        do()
    except ServiceError as exc:
        messages.error(request, error_text(exc.code, exc.message, exc.details))
    return HttpResponseRedirect(reverse("league", args=[league_id]))


@login_required
@require_POST
def league_join(request: HttpRequest, league_id: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda: leagues.league_join(league_id=league_id, user=request.user),
    )


@login_required
@require_POST
def league_leave(request: HttpRequest, league_id: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda: leagues.league_leave(league_id=league_id, user=request.user),
    )


@login_required
@require_POST
def league_start(request: HttpRequest, league_id: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda: leagues.league_start(league_id=league_id, user=request.user),
    )
