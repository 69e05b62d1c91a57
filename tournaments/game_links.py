"""The game page's link back to the tournament a game is a table of (``games.web.part_of``,
registered in ``TournamentsConfig.ready``): a watcher who came from the tournament's page has a
way back, and a player sees that the game is a table. One query; a private tournament's name
only to those who may see it (its director and entrants: they watch its tables)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Game
from games.selectors import Reader
from games.web.part_of import PartOf
from tournaments import selectors
from tournaments.models import MADE_FOR, Table

__all__ = ["MADE_FOR", "tournament_of"]


def tournament_of(game: Game, user: Reader) -> PartOf | None:
    table = (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament")
        .only("number", "round__number", "round__tournament")
        .first()
    )
    if table is None:
        return None
    t = table.round.tournament
    if not selectors.may_see(t, user):
        return None
    return {
        "text": _("Round %(round)s, table %(table)s of %(name)s")
        % {"round": table.round.number, "table": table.number, "name": t.name},
        "url": reverse("tournament", args=[t.pk]),
    }
