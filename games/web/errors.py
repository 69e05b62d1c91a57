"""Error messages for the pages: the engine's sentence, translated for Japanese readers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.templatetags.names import join_names
from powergrid.levels import LEVELS


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
        "city_unreachable": _("No connection leads to that city through the cities in play."),
        "areas_not_connected": _(
            "The cities of these areas are not one network, so the game could not end. "
            "Choose other areas."
        ),
        "city_full": _("That city has no free build space."),
        "already_in_city": _("You are already in that city."),
        "plant_not_owned": _("You do not own that plant."),
        "not_enough_resources": _("You do not have enough resources."),
        "stale_state": _(
            "Someone moved before you: here is the game as it is now. Check and try again."
        ),
        "game_over": _("The game is over."),
        "invalid_plan": _("The plan is not valid: check the plant, amounts, cities and limits."),
        "plan_not_found": _("You have no such plan: it may have acted already."),
        "game_not_running": _("Plans are for a game being played."),
        "invalid_webhook": _(
            "Check the address (https:// and a public host), the format and the events."
        ),
        "webhook_not_found": _("No such webhook."),
        "invalid_message": _(
            "A message must have some text, at most 1000 characters, and no control characters."
        ),
        "edit_window_over": _("A message can be changed for ten minutes only."),
        "message_not_found": _("No such message."),
        "token_expired": _(
            "This reply address has expired: open the game, or reply to a newer email."
        ),
        "token_used": _("A move was already made with this email: reply to the newest one."),
        "unreadable": _("No move was found at the top of the reply."),
        "unknown_command": _(
            "The first line is not a move: try pass, bid, choose, buy, build, power or discard."
        ),
        "bad_number": _("A number is missing or not a whole number."),
        "not_understood": _(
            "Your reply could not be understood, and nothing was changed: open the game, or "
            "reply to the newest email with one move on the first line."
        ),
        "unknown_city": _("A city named in the reply is not on this map."),
        "unknown_resource": _("Resources are coal, oil, garbage and uranium."),
        "nothing_to_pass": _("There is nothing to pass now."),
        "not_a_player": _("You hold no seat in this game."),
        "game_not_started": _("The game has not started yet."),
        "game_not_finished": _("The game is not over yet."),
        "game_already_started": _("The game has already started."),
        "game_full": _("The game is full."),
        "already_joined": _("You already hold a seat in this game."),
        "not_enough_players": _("A game needs at least two players."),
        "not_creator": _("Only the game's creator can do that."),
        "not_found": _("No such game."),
        "unknown_map": _("There is no such map."),
        "not_authenticated": _("Please log in."),
        "authentication_failed": _("Wrong username, password or token."),
        "permission_denied": _("You are not allowed to do that."),
        "method_not_allowed": _("That cannot be done here."),
        "not_acceptable": _("The answer cannot be given in the format asked for."),
        "unsupported_media_type": _("Send the request as JSON."),
        "parse_error": _("The request could not be read."),
        "idempotency_key_reused": _("This request key was already used for another request."),
        "throttled": _("Too many requests: wait a moment and try again."),
        "service_unavailable": _(
            "The server is briefly unavailable; nothing was changed. Try again."
        ),
        "server_error": _("Something went wrong on our side; it has been reported."),
        "bot_upgrade_refused": _(
            "Only a new account can become a bot account: this one has played or joined games."
        ),
        "not_invited": _("This game is by invitation: ask its creator for the link."),
        "invitation_refused": _(
            "That player does not take invitations from you (their profile says who may "
            "invite them)."
        ),
        "removed_by_creator": _(
            "The creator removed you from this game: only their invitation lets you back in."
        ),
        "reauthentication_required": _("Confirm your password first, then try again."),
        "trailing_slash_missing": _("The address must end with a slash."),
        "request_too_large": _("What was sent is too large."),
        "bad_request": _("The request could not be read."),
        "below_reliability": _(
            "This game is for players who make more of their turns in time than you so far."
        ),
        "takeback_needs_agreement": _(
            "This take-back needs the other players' agreement: ask them."
        ),
        "takeback_limit_reached": _(
            "You have used the take-backs this game allows alone: ask the other players."
        ),
        "takebacks_off": _(
            "This game is rated: take-backs are off (its creator did not allow them)."
        ),
        "nothing_to_take_back": _("You have no move of your own to take back."),
        "takeback_too_far": _("Your last move is too far back to take back."),
        "takeback_request_open": _("A take-back request is waiting for answers already."),
        "takeback_request_not_found": _("There is no such take-back request."),
        "takeback_request_closed": _("That take-back request has been answered already."),
        "takeback_moved_on": _(
            "The game has moved on since the request: it can no longer be taken back so."
        ),
        "takeback_expired": _("The deadline passed before everyone agreed."),
        "not_asked": _("This is your own request: withdraw it instead."),
        "not_yours": _("Only the player who asked may withdraw the request."),
        "no_record": _("A practice game began from a position: it has no record to verify."),
        "practice_refused": _("A practice game cannot be made from there."),
    }


def _with_numbers(code: str, details: dict[str, Any]) -> str | None:
    """The translated sentence with the numbers the engine's ``details`` carry, for the refusals
    a player corrects by changing a number (the English sentence carries them too)."""

    def n(key: str) -> int | None:
        value = details.get(key)
        return value if type(value) is int else None

    if code == "bid_too_low" and n("min") is not None:
        return _("The bid must be at least %(min)s.") % {"min": n("min")}
    if code == "insufficient_funds" and n("cost") is not None and n("money") is not None:
        return _("That costs %(cost)s Elektro; you have %(money)s.") % {
            "cost": n("cost"),
            "money": n("money"),
        }
    if code == "insufficient_funds" and n("max") is not None:
        return _("You have %(max)s Elektro: bid at most that.") % {"max": n("max")}
    if code in ("invalid_field", "invalid_plan") and n("min") is not None and n("max") is not None:
        # games.numbers: a number from outside that is not one, or out of its bounds
        return _("%(field)s must be a whole number from %(min)s to %(max)s.") % {
            "field": str(details.get("field", "")),
            "min": n("min"),
            "max": n("max"),
        }
    if code == "invalid_field" and isinstance(details.get("choices"), list):
        # A tampered form (an unknown bot level): the field and the values it takes, in words.
        return _choices_text(str(details.get("field", "")), details["choices"])
    return None


def _choices_text(field: str, choices: list[Any]) -> str:
    """ "The bot's level must be one of: Beginner, ..." in the reader's language: a bot level
    by its label, another field and value as sent."""
    levels = ("kind", "level", "bot_level", "options.bot_level")
    names = {name: _("The bots' level") for name in levels}

    def label(choice: Any) -> str:
        if choice in LEVELS:
            return _(LEVELS[choice].label)
        return _("Random bot") if choice == "random" else str(choice)

    return _("%(field)s must be one of: %(choices)s.") % {
        "field": names.get(field, field),
        "choices": join_names(label(c) for c in choices),
    }


def error_text(code: str, message: str, details: dict[str, Any] | None = None) -> str:
    """In English the engine's own sentence (it carries the numbers); in another language the
    translated sentence for the code, with the numbers from ``details`` where the player needs
    them: the engine's English sentence is not shown to a reader of another language
    (``tests/test_translations.py`` walks every code in Japanese)."""
    lang = (get_language() or "en")[:2]
    if code == "stale_state":
        return _known()["stale_state"]
    if lang == "en":
        return message
    return (
        _with_numbers(code, details or {})
        or _known().get(code)
        or _("That move is not possible now.")
    )
