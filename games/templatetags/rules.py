"""``{{ game|rules_words }}`` and ``{{ game|rules_words_short }}``: what a game plays that differs
from the published base game (a house rule named as one, the plant deck, an older rules edition),
worded once in ``games.describe.game_rules_describe``."""

from __future__ import annotations

from django import template

from games import describe
from games.models import Game

register = template.Library()


@register.filter
def rules_words(game: Game) -> list[str]:
    started = game.status != Game.Status.OPEN
    return describe.game_rules_describe(
        variant=game.variant,
        plant_deck=game.plant_deck,
        edition=game.rules_edition if started else None,
    )


@register.filter
def rules_words_short(game: Game) -> list[str]:
    return describe.game_rules_describe(
        variant=game.variant, plant_deck=game.plant_deck, short=True
    )
