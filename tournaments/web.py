"""The tournaments' pages (English and Japanese): the list (linked from the lobby; a page at a
time), the create page, a tournament's page with its standings (a page of them at a time) and
each player's path and its rounds' tables linking to their games (a big round's on the round's
page, a page at a time; a game the viewer may not see is named by its number, unlinked), and
the join / leave / start forms (plain POST forms: no JavaScript needed)."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import get_urlconf, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.words import aside
from games.selectors.visibility import games_visible_among
from games.services.errors import ServiceError
from games.web.common import lang, with_user_timezone
from games.web.errors import error_text
from tournaments import present, selectors, services, shapes
from tournaments.forms import TournamentCreateForm
from tournaments.league_present import division_page
from tournaments.models import Tournament

#: Tournaments the list shows at a time (``?page=``), as the API's list pages by default.
TOURNAMENTS_PER_PAGE = 50


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the viewer may see, newest first, a page at a time (a page number that
    is not one gives the first page, one out of range the last: ``Paginator.get_page``)."""
    rows = selectors.tournaments_listed(request.user).select_related("director")
    pages = Paginator(rows, TOURNAMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request, "tournaments/list.html", {"tournaments": list(pages.object_list), "pages": pages}
    )


@login_required
@with_user_timezone
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The create form (a GET shows it with its defaults; a POST creates the tournament and
    opens its page, or shows the form again with each refusal beside its field: 400)."""
    form = TournamentCreateForm(request.POST if request.method == "POST" else None, lang=lang())
    if request.method == "POST" and form.is_valid():
        try:
            t = services.tournament_create(director=request.user, **form.service_fields())
            if form.cleaned_data["play"]:
                services.tournament_join(tournament_id=t.pk, user=request.user)
        except ServiceError as exc:
            field = str(exc.details.get("field", ""))
            form.add_error(
                field if field in form.fields else None,
                error_text(exc.code, exc.message, exc.details),
            )
        else:
            messages.success(request, _("Tournament created. Players join it from its page."))
            return HttpResponseRedirect(reverse("tournament", args=[t.pk]))
    status = 400 if form.errors else 200
    return render(request, "tournaments/new.html", {"form": form}, status=status)


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    t = Tournament.objects.filter(pk=tournament_id).select_related("director").first()
    if t is None or not selectors.may_see(t, request.user, request.GET.get("code", "")):
        raise Http404
    return t


#: A game number no game has, to cut the game page's URL around (``_game_url``).
_MARK = 987654321


@functools.lru_cache(maxsize=4)
def _game_url_around(urlconf: str | None) -> tuple[str, str]:
    before, _, after = reverse("game", args=[_MARK], urlconf=urlconf).partition(str(_MARK))
    return before, after


def _games_seen(
    t: Tournament, user: Any, page: present.StandingsPage | None, rounds: list[Any]
) -> set[int]:
    """The games of the page's paths and tables that ``user`` may see: only those are linked.
    A public tournament's tables are public games (``services._table_game``; tables made before
    by the migration ``0004_table_games_follow_privacy``): all of them, asking nothing (the
    question costs 3-4 ms on a page of 2,000 entrants' standings). A private one's: the games'
    own rule, one query (its director, entrants and staff see them; a visitor with its code
    does not)."""
    ids = {s["game"] for r in (page.rows if page else []) for s in r["path"] if s.get("game")}
    for rnd in rounds:
        ids.update(table["game"] for table in rnd["tables"] or [] if table["game"])
    return games_visible_among(user, ids) if t.private else ids


def _finishing_order(player: dict[str, Any]) -> tuple[bool, int, int]:
    """A finished table's player's place in its list: by rank (1 first; a rank not written
    last), then by seat (tied ranks, and a table whose results are not written yet)."""
    rank = player["rank"]
    return (rank is None, rank or 0, player["seat"])


def _tables_linked(rounds: list[Any], seen: set[int]) -> None:
    """Each listed table's ``watch``: whether its game is linked (the viewer may see it); and a
    finished table's players in the order they finished, as a reader of a result expects (a
    table still playing keeps its seat order, the order of play). The shapes' order is the
    API's (seat order), so the page orders its own copy here."""
    for rnd in rounds:
        for table in rnd["tables"] or []:
            table["watch"] = table["game"] in seen
            if table["finished"]:
                table["players"] = sorted(table["players"], key=_finishing_order)


def _with_links(page: present.StandingsPage, seen: set[int]) -> present.StandingsPage:
    """Each step of the rows' paths with its game's URL (a game the viewer may see, ``seen``;
    another one's number as text instead) and its label ("R2", "R3: bye"), made here once per
    round rather than by a template tag per step: a page of 100 rows after 5 rounds has 500
    steps, and the tags were half the page's time."""
    before, after = _game_url_around(get_urlconf())
    labels: dict[tuple[int, bool], str] = {}
    for row in page.rows:
        for step in row["path"]:
            key = (step["round"], bool(step.get("bye")))
            if key not in labels:
                n = {"n": step["round"]}
                labels[key] = _("R%(n)s: bye") % n if key[1] else _("R%(n)s") % n
            step["label"] = labels[key]
            if key[1]:
                continue
            game = step["game"]  # a table being set up (no game yet) has no link
            linked = game in seen
            step["url"] = f"{before}{game}{after}" if linked else ""
            step["number"] = aside(_("game #%(id)s") % {"id": game}) if game and not linked else ""
    return page


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament: a page of its standings (``?page=``) with each player's path, and its
    rounds (a big round's tables on the round's page: ``tournaments.present``)."""
    t = _visible(request, tournament_id)
    user = request.user
    standings = present.standings_page(t, user, request.GET.get("page"))
    rounds = present.rounds_for_page(t)
    seen = _games_seen(t, user, standings, rounds)
    _tables_linked(rounds, seen)
    head = present.page_head(t, user)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": head,
            "league_url": _league_url(head["league"]),
            "standings": _with_links(standings, seen),
            "rounds": rounds,
            "final": t.status == Tournament.Status.FINISHED,
            "is_director": user.is_authenticated and user.pk == t.director_id,
            "code": request.GET.get("code", ""),
        },
    )


def _league_url(league: shapes.TournamentLeague | None) -> str:
    """A league division's tournament links to its division on the league's page: the page of
    divisions holding it (``league_present.division_page``), at its heading."""
    if not league:
        return ""
    n = league["division"]
    page = division_page(n)
    return f"{reverse('league', args=[league['id']])}?page={page}&season={league['season']}#d{n}-h"


def tournament_round(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One round's tables, a page at a time (``?page=``; a round too big to list on the
    tournament's page)."""
    t = _visible(request, tournament_id)
    found = present.round_page(t, number, request.GET.get("page"))
    if found is None:
        raise Http404
    rnd, pages = found
    _tables_linked([rnd], _games_seen(t, request.user, None, [rnd]))
    return render(
        request,
        "tournaments/round.html",
        {"t": present.summary(t), "rnd": rnd, "pages": pages, "code": request.GET.get("code", "")},
    )


def _act(request: HttpRequest, tournament_id: int, do: Any) -> HttpResponse:
    try:
        do()
    except ServiceError as exc:
        messages.error(request, error_text(exc.code, exc.message, exc.details))
    return HttpResponseRedirect(reverse("tournament", args=[tournament_id]))


@login_required
@require_POST
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    code = request.POST.get("code", "")
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_join(tournament_id=tournament_id, user=request.user, code=code),
    )


@login_required
@require_POST
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_leave(tournament_id=tournament_id, user=request.user),
    )


@login_required
@require_POST
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_start(tournament_id=tournament_id, user=request.user),
    )
