"""Every API error has the body ``{"error": {"code", "message", "details"}}``, DRF's own too."""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import powergrid
from config.unavailable import database_lost, database_unavailable
from games.services.errors import ServiceError
from games.shapes import Error

# DRF exception class -> our code
_CODES: list[tuple[type[Exception], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ParseError, "parse_error"),
    (exceptions.ValidationError, "invalid_field"),
]

ERROR_CODES: dict[str, str] = {
    "not_authenticated": "401: no credentials were sent.",
    "authentication_failed": "401: wrong username/password or an invalid token.",
    "permission_denied": "403: not allowed.",
    "reauthentication_required": "403: a session must confirm its password first "
    "(details.reauthenticate_url) to add a webhook or make a bot account; a token need not.",
    "not_a_player": "403: the caller holds no seat in this game.",
    "not_creator": "403: only the creator may start the game.",
    "not_found": "404: unknown game, map or URL.",
    "method_not_allowed": "405.",
    "not_acceptable": "406: the Accept header asks for something other than JSON.",
    "unsupported_media_type": "415: send application/json.",
    "parse_error": "400: the body is not valid JSON.",
    "invalid_field": "400: a field is missing, has the wrong type or value, or is one the body "
    "does not declare (details.field; details.allowed: the keys the body takes).",
    "unknown_map": "400: no map with that slug.",
    "idempotency_key_reused": "422: the Idempotency-Key was used before for a different request.",
    "stale_state": "409: expected_seq is behind the game's seq; fetch the state and retry.",
    "game_not_started": "409: the game is still open.",
    "game_not_finished": "409: the game is not over (its record and seed come at the end).",
    "game_already_started": "409: the game has started (join, leave, start refused).",
    "game_full": "409: all seats are taken.",
    "already_joined": "409: the caller already holds a seat.",
    "not_enough_players": "409: a game needs at least two players to start.",
    "throttled": "429: too many requests; details.retry_after gives the seconds to wait.",
    "service_unavailable": "503: the database is briefly unavailable; nothing was changed. Retry "
    "after Retry-After seconds (with the same Idempotency-Key).",
    "server_error": "500: a bug; reported to the operators.",
    "request_too_large": "413: the body is larger than the server accepts (details.max_bytes).",
    "bad_request": "400: the request could not be read (a malformed header, say).",
    "trailing_slash_missing": "308: API URLs end with a slash; Location (and details.location) "
    "is the URL with it, where the same method and body go (a 308 keeps both).",
    "invalid_plan": "400: a plan's field is missing or wrong (details.field).",
    "plan_not_found": "404: no such plan of yours (one that has acted is gone).",
    "invalid_sheet": "400: a line of a round sheet is wrong (details.line and details.field, "
    "e.g. open[1].max).",
    "sheet_stale": "409: the sheet is for another round (details.round: the round now).",
    "game_not_running": "409: only a game under way has that (plans, a forecast, a build quote).",
    "invalid_webhook": "400: a webhook's field is wrong (details.field: url, format, events).",
    "webhook_not_found": "404: no such webhook of yours.",
    "invalid_message": "400: a chat message is empty, longer than 1000 characters or holds a "
    "control character (a text-direction control, U+202A-U+202E or U+2066-U+2069, included).",
    "edit_window_over": "400: a chat message can be changed for 10 minutes only.",
    "message_not_found": "404: no such chat message (or not yours to change).",
    "bot_upgrade_refused": "409: only an account that has never held a seat can become a bot.",
    "not_invited": "403: the game is by invitation; its link or the creator's invitation lets "
    "you in.",
    "below_reliability": "403: the game asks for players who make more of their turns in time "
    "(details.min_on_time, details.yours).",
    "takeback_needs_agreement": "409: someone else has moved since, or the move revealed "
    "something hidden (details.reason: others_moved, plant_drawn, sealed_bids_opened): ask the "
    "others with POST .../takeback/requests/.",
    "takeback_limit_reached": "409: the player has made the take-backs the game allows alone "
    "(details.limit, the game's options.takebacks); asking the others is still possible.",
    "takebacks_off": "409: the game is rated and its creator did not allow take-backs.",
    "nothing_to_take_back": "409: the player has no move of their own that stands.",
    "takeback_too_far": "409: the player's last move is more than details.max_moves moves back.",
    "takeback_request_open": "409: another take-back request of this game waits for answers.",
    "takeback_request_not_found": "404: no such take-back request in this game.",
    "takeback_request_closed": "409: the request was accepted, declined or withdrawn already.",
    "takeback_moved_on": "409: the game moved on after the request: it is void.",
    "takeback_expired": "409: the request's deadline passed before everyone agreed.",
    "not_asked": "403: the player who asked cannot answer their own request.",
    "not_yours": "403: only the player who asked may withdraw a request.",
    "no_record": "409: a practice game began from a position, not from a seed: no record.",
    "practice_refused": "409: no practice game from there (details.why: the game is open, the "
    "move is its end, or the caller holds no seat in a running game).",
    "removed_by_creator": "403: the creator removed you from this game; only their invitation "
    "lets you back in.",
    "invitation_refused": "403: that player does not take invitations from you (their "
    "`invitations` setting).",
    "token_not_found": "404: no API token of yours starts with that prefix.",
    "already_on_vacation": "409: a vacation runs already; end it first (DELETE).",
    "not_on_vacation": "409: there is no vacation to end.",
    "seat_left": "409: the caller resigned from this game: the bot plays their seat (they may "
    "no longer move, resign again or offer it).",
    "seat_timed_out": "409: the bot plays the caller's seat after missed deadlines, offered to "
    "substitutes until the caller moves again.",
    "seat_not_offered": "409: that seat is not offered to substitutes.",
    "no_substitutes": "409: the game was made with `substitutes` false (a tournament's tables "
    "are): no seat is offered, nor taken; the bot plays a seat its player left.",
    "already_seated": "409: the caller holds or held a seat in this game (a player cannot take "
    "a second seat, nor come back to the game by another).",
    "substitute_is_bot": "409: a bot account cannot take a seat as a substitute.",
    "not_enough_days": "400: fewer vacation days are left this year (details.days_left).",
    "invalid_discord_user_id": "400: a Discord user ID is 17 to 20 digits (details.field: "
    "discord_user_id).",
    "blocked": "403: a block stands between you and that player (one of you blocked the other): "
    "no joining their game, inviting them or writing in a chat they read.",
    "invalid_block": "400: a block names no user, or names yourself, or you have blocked the "
    "most players allowed (details.field: user; details.max).",
    "user_not_found": "404: no player has that username.",
    "invalid_subscription": "400: a push subscription's field is wrong (details.field: endpoint, "
    "keys.p256dh, keys.auth, name, turns): an https endpoint of a push service, the keys in "
    "base64url.",
    "subscription_not_found": "404: no push subscription (device) of yours has that id.",
    "push_unavailable": "409: Web Push is not configured on this server (no VAPID key; GET "
    "/api/v1/push/key/ answers an empty key).",
    # Tournaments (the tournaments app, docs/API.md "Tournaments").
    "not_director": "403: only the tournament's (or the league's) director may start it.",
    "tournament_started": "409: the tournament has started; sign-up is closed.",
    "tournament_finished": "409: the tournament is over.",
    "already_entered": "409: you have entered this tournament already.",
    "not_entered": "403: you have not entered this tournament.",
    "outside_rating_range": "403: your rating is outside the tournament's range (details.rating, "
    "rating_min, rating_max).",
    "too_few_entrants": "409: fewer entrants than table_min: no table can be seated "
    "(details.entrants, table_min).",
    # Leagues (the tournaments app, docs/API.md "Leagues").
    "already_member": "409: you are a member of this league already.",
    "not_member": "403: you are not a member of this league.",
    "season_running": "409: a season of this league is under way; the next starts when it ends.",
}

# The engine's codes (400), from shared/API.md: the engine owns the list.
ENGINE_CODES = sorted(powergrid.CODES)


def error_body(code: str, message: str, details: dict[str, object] | None = None) -> Error:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _message(detail: object, path: str = "", name: str = "") -> str:
    """The first error's message, naming its field once, by its path (``options.turn_hours``).
    ``name``: the last key of the path that names a field (a list's item is keyed by its
    index, an int: its field is its list's)."""
    if isinstance(detail, list) and detail:
        return _message(detail[0], path, name)
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        if key == "non_field_errors":
            return _message(value, path, name)
        named = name if isinstance(key, int) else str(key)
        return _message(value, f"{path}.{key}" if path else str(key), named)
    return _named_once(str(detail), path, name or path)


def _named_once(text: str, path: str, name: str) -> str:
    """``text`` naming the field ``name`` at ``path`` once. A strict field's own message starts
    with its name (``'turn_hours' must be a whole number from 12 to 168.``, ``private must be
    true or false.``): the name becomes the path. DRF's own (``This field is required.``) names
    none: the path goes first. Before, both went first: ``options: turn_hours: 'turn_hours'``.

    >>> _named_once("'turn_hours' must be a whole number from 12 to 168.",
    ...             "options.turn_hours", "turn_hours")
    "'options.turn_hours' must be a whole number from 12 to 168."
    >>> _named_once("This field is required.", "options.turn_hours", "turn_hours")
    'options.turn_hours: This field is required.'
    >>> _named_once("areas must be a JSON string.", "areas.0", "areas")
    'areas.0 must be a JSON string.'
    """
    if not path:
        return text
    for written, quoted in ((f"'{name}' ", f"'{path}' "), (f"{name} ", f"{path} ")):
        if text.startswith(written):
            return quoted + text[len(written) :]
    return f"{path}: {text}"


def _first_field(detail: object, prefix: str = "") -> str | None:
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        path = f"{prefix}.{key}" if prefix else str(key)
        return _first_field(value, path) or path
    return None


def exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(exc.as_body(), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _CODES if isinstance(exc, cls)), "error")
    details: dict[str, object] = {}
    if isinstance(exc, exceptions.ValidationError):
        details = {"fields": exc.detail if isinstance(exc.detail, dict) else {"": exc.detail}}
        field = _first_field(exc.detail)
        if field:
            details["field"] = field
            # What the field takes (games.api.serializers.FieldRefused): min/max, choices.
            details.update(getattr(exc, "takes", {}))
        message = _message(exc.detail)
    elif isinstance(exc, exceptions.Throttled):
        retry_after = getattr(exc, "wait", None)  # set by __init__; the stubs omit the attribute
        details = {"retry_after": retry_after}
        wait = int(retry_after) if retry_after is not None else None
        message = (
            f"Too many requests: try again in {wait} seconds."
            if wait is not None
            else "Too many requests."
        )
    else:
        message = _message(getattr(exc, "detail", str(exc)))
    response.data = error_body(code, message, details)
    return response


#: Where machines post or read (the API, the mail providers' webhooks, inbound mail): their
#: errors are JSON with a code, never a page.
MACHINE_PATHS = ("/api/", "/mail/events/", "/inbound/")


def _wants_page(request: HttpRequest) -> bool:
    """API clients and webhooks get the JSON error body; people browsing the site get a page."""
    return not request.path.startswith(MACHINE_PATHS)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_page(request):
        try:
            return render(request, "404.html", status=status.HTTP_404_NOT_FOUND)
        except Exception:  # a broken page must not turn a 404 into a 500
            pass
    return JsonResponse(error_body("not_found", "No such URL."), status=status.HTTP_404_NOT_FOUND)


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django itself refused (a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a bad host,
    a malformed header): under /api/ JSON with a code (413 ``request_too_large`` for a body too
    big), elsewhere the plain page."""
    too_big = isinstance(exception, RequestDataTooBig)
    if _wants_page(request):
        return HttpResponse(
            loader.get_template("400.html").render({"too_big": too_big}),
            status=413 if too_big else 400,
        )
    if too_big:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return JsonResponse(
            error_body(
                "request_too_large",
                f"The request body is larger than {limit} bytes.",
                {"max_bytes": limit},
            ),
            status=413,
        )
    return JsonResponse(error_body("bad_request", "The request could not be read."), status=400)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_page(request):
        return HttpResponse(loader.get_template("403.html").render({}), status=403)
    return JsonResponse(error_body("permission_denied", "Not allowed."), status=403)


def handler500(request: HttpRequest) -> HttpResponse:
    # The database went away where no view's exception handling could see it (a middleware
    # reading the session's user, the profile): 503 with Retry-After, as a view's loss is.
    lost = database_lost(sys.exc_info()[1])
    if lost is not None:
        return database_unavailable(request, lost)
    if _wants_page(request):
        # Rendered without context processors: the failure may be in the database or a template.
        return HttpResponse(
            loader.get_template("500.html").render({}),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    return JsonResponse(
        error_body("server_error", "Something went wrong on the server."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
