"""The build form's quote, ``/games/{id}/quote/?cities=a&cities=b``: what building there costs
and the money left, for the page's script and for API clients (the same answer as the API's
``/api/v1/games/{id}/quote/``, to the same reader)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated

from games import selectors, services
from games.api.auth import TokenAuthentication, token_from_header
from games.models import Game
from games.selectors.hints import game_build_quote

from .context import Quote, QuoteError
from .errors import error_text


def build_quote(
    game: Game, user: selectors.Reader, cities: list[str], *, by_token: bool
) -> tuple[Quote, int]:
    """The build quote (``games.selectors.hints.game_build_quote``, the API's too) with its
    status: the same body as the API's for the same question (its error shape, ``details``
    included); the page's own session also gets the error's ``text`` in the reader's language,
    which a token's client, reading the API's closed ``Error``, is not sent."""
    try:
        return game_build_quote(game, user, cities), 200
    except services.ServiceError as exc:
        error: QuoteError = {"code": exc.code, "message": exc.message, "details": exc.details}
        if not by_token:
            error["text"] = error_text(exc.code, exc.message)
        return {"error": error}, exc.status


def _quote_reader(request: HttpRequest) -> selectors.Reader:
    """Who asks for a quote: the API token's owner when the request carries an Authorization
    header (the API's own authentication, ``games.api.auth``: a client holding a token gets the
    same answer here as at ``/api/v1/games/{id}/quote/``), else the site's session. A header
    that is no valid token is refused (``AuthenticationFailed``), never read as anonymous."""
    # As DRF reads it (``get_authorization_header``): the header's text as bytes.
    header = request.headers.get("Authorization", "").encode("iso-8859-1")
    if not header:
        return request.user
    found = TokenAuthentication().authenticate_credentials(token_from_header(header) or b"")
    user: selectors.Reader = found[0]
    return user


def _unauthorized(code: str, message: str) -> JsonResponse:
    """The API's 401 (RFC 9110: a 401 names the scheme to use), with the page's ``text``."""
    refused = JsonResponse(
        {"error": {"code": code, "message": message, "details": {}, "text": message}}, status=401
    )
    refused["WWW-Authenticate"] = TokenAuthentication.WWW_AUTHENTICATE
    return refused


@require_GET
def game_quote(request: HttpRequest, game_id: int) -> JsonResponse:
    """``?cities=a&cities=b`` → ``{"cost": n, "money_left": m}`` or an error (the engine's).
    A session or an API token (``_quote_reader``): the same reader, the same answer."""
    try:
        reader = _quote_reader(request)
    except AuthenticationFailed as exc:
        return _unauthorized("authentication_failed", str(exc.detail))
    game = selectors.game_for(game_id=game_id, user=reader)
    if game is None:
        raise Http404(_("No such game."))
    if reader is None or not reader.is_authenticated:  # as the API: after its 404, a 401
        return _unauthorized("not_authenticated", str(NotAuthenticated.default_detail))
    # As the API reads them: no silent cut at 30 (refused), and none is a quote of cost 0.
    cities = [c for c in request.GET.getlist("cities") if c]
    by_token = bool(request.headers.get("Authorization"))
    data, status = build_quote(game, reader, cities, by_token=by_token)
    return JsonResponse(data, status=status)
