"""Error messages for the pages: the engine's sentence, translated for Japanese readers."""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _


def _known() -> dict[str, str]:
    return {
        "not_your_turn": _("It is not your turn."),
        "wrong_phase": _("That move does not belong to this phase."),
        "unknown_action": _("Unknown move."),
        "invalid_field": _("Something in the form is not valid."),
        "unknown_plant": _("There is no such plant."),
        "plant_not_available": _("That plant cannot be chosen now."),
        "bid_too_low": _("The bid is too low."),
        "insufficient_funds": _("You do not have enough money."),
        "cannot_pass_round_one": _("In round 1 everyone must buy a plant."),
        "no_storage": _("Your plants cannot store that."),
        "market_exhausted": _("The market does not hold that many tokens."),
        "city_not_in_play": _("That city is not in play."),
        "city_full": _("That city has no free build space."),
        "already_in_city": _("You are already in that city."),
        "plant_not_owned": _("You do not own that plant."),
        "not_enough_resources": _("You do not have enough resources."),
        "stale_state": _(
            "Someone moved before you: here is the game as it is now. Check and try again."
        ),
        "game_over": _("The game is over."),
        "not_a_player": _("You hold no seat in this game."),
        "game_not_started": _("The game has not started yet."),
        "game_already_started": _("The game has already started."),
        "game_full": _("The game is full."),
        "already_joined": _("You already hold a seat in this game."),
        "not_enough_players": _("A game needs at least two players."),
        "not_creator": _("Only the game's creator can do that."),
        "not_found": _("No such game."),
    }


def error_text(code: str, message: str) -> str:
    """In English the engine's own sentence (it carries the numbers); in another language a
    translated sentence for the code followed by the engine's sentence."""
    lang = (get_language() or "en")[:2]
    if lang == "en" or code == "stale_state":
        if code == "stale_state":
            return _known()["stale_state"]
        return message
    known = _known().get(code)
    if known is None:
        return message
    return f"{known} ({message})"
