"""Error messages for the pages: the engine's sentence, translated for Japanese readers."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.templatetags.names import join_names
from powergrid.levels import LEVELS


def _seat_codes() -> dict[str, str]:
    """Leaving and substitutes (``games.services.seats``)."""
    return {
        "seat_left": _("You have left this game."),
        "seat_timed_out": _(
            "The bot plays your seat after missed deadlines: make a move to take it back."
        ),
        "seat_not_offered": _("That seat is not offered to substitutes."),
        "no_substitutes": _(
            "This game takes no substitutes: the bot plays a seat its player leaves."
        ),
        "already_seated": _("You hold or held a seat in this game."),
        "substitute_is_bot": _("A bot account cannot take a seat as a substitute."),
        "resign_only": _(
            "This email only confirms leaving the game: reply resign to it to leave, or make "
            "your move by replying to your newest turn email."
        ),
    }


def _sheets() -> dict[str, str]:
    """The round sheet's refusals (``games.sheets.document``)."""
    return {
        "invalid_sheet": _("A line of your sheet is not valid: check the marked line."),
        "sheet_stale": _("The round has moved on: here is the sheet for the round now."),
    }


def _account_codes() -> dict[str, str]:
    """The block list's, the devices' and the Discord user ID's codes."""
    return {
        "invalid_discord_user_id": _(
            "A Discord user ID is 17 to 20 digits (in Discord: Copy User ID)."
        ),
        "blocked": _("A block stands between you and that player: this cannot be done."),
        "invalid_block": _(
            "Name another player's username (you cannot block yourself), within the limit."
        ),
        "user_not_found": _("No player has that username."),
        "invalid_subscription": _("This browser's push subscription could not be used."),
        "subscription_not_found": _("No such device."),
    }


#: The engine's refusals of a move (``powergrid``).
_MOVES = {
    "not_your_turn": gettext_lazy("It is not your turn."),
    "wrong_phase": gettext_lazy("That move does not belong to this phase."),
    "unknown_action": gettext_lazy("Unknown move."),
    "invalid_field": gettext_lazy("Something in the form is not valid."),
    "unknown_plant": gettext_lazy("There is no such plant."),
    "plant_not_available": gettext_lazy("That plant cannot be chosen now."),
    "bid_too_low": gettext_lazy("The bid is too low."),
    "insufficient_funds": gettext_lazy("You do not have enough money."),
    "cannot_pass_round_one": gettext_lazy("In round 1 everyone must buy a plant."),
    "no_storage": gettext_lazy("Your plants cannot store that."),
    "market_exhausted": gettext_lazy("The market does not hold that many tokens."),
    "city_not_in_play": gettext_lazy("That city is not in play."),
    "city_unreachable": gettext_lazy(
        "No connection leads to that city through the cities in play."
    ),
    "areas_not_connected": gettext_lazy(
        "The cities of these areas are not one network, so the game could not end. "
        "Choose other areas."
    ),
    "city_full": gettext_lazy("That city has no free build space."),
    "already_in_city": gettext_lazy("You are already in that city."),
    "plant_not_owned": gettext_lazy("You do not own that plant."),
    "not_enough_resources": gettext_lazy("You do not have enough resources."),
    "stale_state": gettext_lazy(
        "Someone moved before you: here is the game as it is now. Check and try again."
    ),
    "game_over": gettext_lazy("The game is over."),
}

#: Plans (``games.plans``), webhooks (``games.webhooks``) and the chat (``games.chat``).
_PLANS_WEBHOOKS_CHAT = {
    "invalid_plan": gettext_lazy(
        "The plan is not valid: check the plant, amounts, cities and limits."
    ),
    "plan_not_found": gettext_lazy("You have no such plan: it may have acted already."),
    "game_not_running": gettext_lazy("Plans are for a game being played."),
    "invalid_webhook": gettext_lazy(
        "Check the address (https:// and a public host), the format and the events."
    ),
    "webhook_not_found": gettext_lazy("No such webhook."),
    "invalid_message": gettext_lazy(
        "A message must have some text, at most 1000 characters, and no control characters."
    ),
    "edit_window_over": gettext_lazy("A message can be changed for ten minutes only."),
    "message_not_found": gettext_lazy("No such message."),
}

#: Replies by email (``games.inbox``).
_EMAIL_REPLIES = {
    "token_expired": gettext_lazy(
        "This reply address has expired: open the game, or reply to a newer email."
    ),
    "token_used": gettext_lazy("A move was already made with this email: reply to the newest one."),
    "unreadable": gettext_lazy("No move was found at the top of the reply."),
    "unknown_command": gettext_lazy(
        "The first line is not a move: try pass, bid, choose, buy, build, power or discard."
    ),
    "bad_number": gettext_lazy("A number is missing or not a whole number."),
    "not_understood": gettext_lazy(
        "Your reply could not be understood, and nothing was changed: open the game, or "
        "reply to the newest email with one move on the first line."
    ),
    "unknown_city": gettext_lazy("A city named in the reply is not on this map."),
    "unknown_resource": gettext_lazy("Resources are coal, oil, garbage and uranium."),
    "nothing_to_pass": gettext_lazy("There is nothing to pass now."),
}

#: Joining, starting and seeing games (``games.services.lobby``).
_LOBBY = {
    "not_a_player": gettext_lazy("You hold no seat in this game."),
    "game_not_started": gettext_lazy("The game has not started yet."),
    "game_not_finished": gettext_lazy("The game is not over yet."),
    "game_already_started": gettext_lazy("The game has already started."),
    "game_full": gettext_lazy("The game is full."),
    "already_joined": gettext_lazy("You already hold a seat in this game."),
    "not_enough_players": gettext_lazy("A game needs at least two players."),
    "not_creator": gettext_lazy("Only the game's creator can do that."),
    "not_found": gettext_lazy("No such game."),
    "unknown_map": gettext_lazy("There is no such map."),
    "not_invited": gettext_lazy("This game is by invitation: ask its creator for the link."),
    "invitation_refused": gettext_lazy(
        "That player does not take invitations from you (their profile says who may invite them)."
    ),
    "removed_by_creator": gettext_lazy(
        "The creator removed you from this game: only their invitation lets you back in."
    ),
    "below_reliability": gettext_lazy(
        "This game is for players who make more of their turns in time than you so far."
    ),
}

#: The API's and the pages' refusals of a request as such (``games.api.errors``).
_REQUESTS = {
    "not_authenticated": gettext_lazy("Please log in."),
    "authentication_failed": gettext_lazy("Wrong username, password or token."),
    "permission_denied": gettext_lazy("You are not allowed to do that."),
    "method_not_allowed": gettext_lazy("That cannot be done here."),
    "not_acceptable": gettext_lazy("The answer cannot be given in the format asked for."),
    "unsupported_media_type": gettext_lazy("Send the request as JSON."),
    "parse_error": gettext_lazy("The request could not be read."),
    "idempotency_key_reused": gettext_lazy(
        "This request key was already used for another request."
    ),
    "throttled": gettext_lazy("Too many requests: wait a moment and try again."),
    "service_unavailable": gettext_lazy(
        "The server is briefly unavailable; nothing was changed. Try again."
    ),
    "server_error": gettext_lazy("Something went wrong on our side; it has been reported."),
    "bot_upgrade_refused": gettext_lazy(
        "Only a new account can become a bot account: this one has played or joined games."
    ),
    "reauthentication_required": gettext_lazy("Confirm your password first, then try again."),
    "trailing_slash_missing": gettext_lazy("The address must end with a slash."),
    "request_too_large": gettext_lazy("What was sent is too large."),
    "bad_request": gettext_lazy("The request could not be read."),
}

#: Take-backs (``games.takebacks``) and practice games.
_TAKEBACKS = {
    "takeback_needs_agreement": gettext_lazy(
        "This take-back needs the other players' agreement: ask them."
    ),
    "takeback_limit_reached": gettext_lazy(
        "You have used the take-backs this game allows alone: ask the other players."
    ),
    "takebacks_off": gettext_lazy(
        "This game is rated: take-backs are off (its creator did not allow them)."
    ),
    "nothing_to_take_back": gettext_lazy("You have no move of your own to take back."),
    "takeback_too_far": gettext_lazy("Your last move is too far back to take back."),
    "takeback_request_open": gettext_lazy("A take-back request is waiting for answers already."),
    "takeback_request_not_found": gettext_lazy("There is no such take-back request."),
    "takeback_request_closed": gettext_lazy("That take-back request has been answered already."),
    "takeback_moved_on": gettext_lazy(
        "The game has moved on since the request: it can no longer be taken back so."
    ),
    "takeback_expired": gettext_lazy("The deadline passed before everyone agreed."),
    "not_asked": gettext_lazy("This is your own request: withdraw it instead."),
    "not_yours": gettext_lazy("Only the player who asked may withdraw the request."),
    "no_record": gettext_lazy("A practice game began from a position: it has no record to verify."),
    "practice_refused": gettext_lazy("A practice game cannot be made from there."),
}


#: Every code's sentence, by subject; ``_known`` reads them in the reader's language.
_TABLES = (_MOVES, _PLANS_WEBHOOKS_CHAT, _EMAIL_REPLIES, _LOBBY, _REQUESTS, _TAKEBACKS)


def _known() -> dict[str, str]:
    """Every code's sentence in the reader's language (the seats' and the tournaments' codes
    aside: ``error_text`` asks them after)."""
    table = {code: str(text) for group in _TABLES for code, text in group.items()}
    return {**_sheets(), **table, **_account_codes()}


def _with_numbers(code: str, details: Mapping[str, object]) -> str | None:
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
    choices = details.get("choices")
    if code == "invalid_field" and isinstance(choices, list):
        # A tampered form (an unknown bot level): the field and the values it takes, in words.
        return _choices_text(str(details.get("field", "")), choices)
    return None


def _choices_text(field: str, choices: list[object]) -> str:
    """ "The bot's level must be one of: Beginner, ..." in the reader's language: a bot level
    by its label, another field and value as sent."""
    levels = ("kind", "level", "bot_level", "options.bot_level")
    names = {name: _("The bots' level") for name in levels}

    def label(choice: object) -> str:
        if isinstance(choice, str) and choice in LEVELS:
            return _(LEVELS[choice].label)
        return _("Random bot") if choice == "random" else str(choice)

    return _("%(field)s must be one of: %(choices)s.") % {
        "field": names.get(field, field),
        "choices": join_names(label(c) for c in choices),
    }


def _known_tournaments() -> dict[str, str]:
    """The codes of the tournaments app (``tournaments.errors``)."""
    return {
        "not_director": _("Only the tournament's director can do that."),
        "tournament_started": _("The tournament has started: sign-up is closed."),
        "tournament_finished": _("The tournament is over."),
        "already_entered": _("You have entered this tournament already."),
        "not_entered": _("You have not entered this tournament."),
        "outside_rating_range": _("Your rating is outside this tournament's range."),
        "too_few_entrants": _("Too few entrants to seat a table."),
        "already_member": _("You are a member of this league already."),
        "not_member": _("You are not a member of this league."),
        "season_running": _("A season of this league is under way: the next starts when it ends."),
    }


def error_text(code: str, message: str, details: Mapping[str, object] | None = None) -> str:
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
        or _known_tournaments().get(code)
        or _seat_codes().get(code)
        or _("That move is not possible now.")
    )
