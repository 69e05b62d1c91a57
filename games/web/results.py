"""A finished game's result page (/games/<id>/result/): the score table and the charts of
money, cities and plants over the rounds (``games.results``). A game under way has none: its
money is secret until the end."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from config.replica import reads_from_replica
from games import results, selectors
from games.web import board_svg, charts
from powergrid.maps import name_in


@reads_from_replica  # a finished game no longer changes: a replica's copy is as good
def game_result_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.game_for(game_id=game_id, user=request.user, seats=True)
    if game is None:
        raise Http404(_("No such game."))
    result = results.game_result(game)
    if result is None:
        messages.info(request, _("The result is shown when the game is over."))
        return HttpResponseRedirect(reverse("game", args=[game.pk]))
    seats = selectors.game_seats(game)
    titles = {"money": _("Money"), "cities": _("Cities"), "plants": _("Power plants")}
    # Each chart's values also as a table (a picture has no text alternative of its figures):
    # a column per point (the start of each round, the end), a row per player.
    names = {r["seat"]: r for r in result.rows}
    drawn = [
        {
            "title": titles[s.key],
            "columns": [
                _("Round %(n)s") % {"n": r} if i < len(s.rounds) - 1 else _("end")
                for i, r in enumerate(s.rounds)
            ],
            "table": [(names.get(seat), vals) for seat, vals in sorted(s.values.items())],
            "svg": mark_safe(  # built from numbers and escaped labels (games.web.charts)
                charts.chart_svg(
                    s, seats, title=titles[s.key], round_label=_("Round"), end_label=_("end")
                )
            ),
        }
        for s in result.charts
    ]
    lang = (request.LANGUAGE_CODE or "en")[:2]
    stopped = results.who_stopped(game, seats)
    ctx = {
        "game": game,
        "map_name": name_in(board_svg.load_map(game.map), lang),
        # Each row with who held its seat before and stopped (docs/API.md, "Leaving and
        # substitutes"): the result names a leaver and the substitute who finished for them.
        "rows": [{**r, "earlier": stopped.get(r["seat"], [])} for r in result.rows],
        "charts": drawn,
        "takebacks": any(r["takebacks_alone"] or r["takebacks_agreed"] for r in result.rows),
    }
    return render(request, "games/result.html", ctx)
