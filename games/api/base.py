"""What every view of the API builds on: ``GameView`` (a view of one game, which asks THE
visibility rule first), the game or its 404, and the query string's whole numbers, flags and
pages (``Paging``; refused with 400 ``invalid_field``, never read as a default)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Never, TypeVar, cast

from django.db.models import QuerySet
from django.http import QueryDict
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from games import numbers, selectors
from games.models import Game
from games.services.errors import GameNotFound, ServiceError

#: A row of a paged list (``Paging.answer``).
R = TypeVar("R")


def game_or_404(game_id: int, *, seats: bool = True) -> Game:
    """The game, with its seats read in the same query unless ``seats`` is False (after an
    action the caller made in it; a view's own game is ``GameView.game``)."""
    game = (
        selectors.game_get_with_seats(game_id=game_id)
        if seats
        else selectors.game_get(game_id=game_id)
    )
    if game is None:
        raise GameNotFound()
    return game


class GameView(APIView):
    """A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden)."""

    visible_on_error: tuple[str, ...] = ()
    game: Game

    def check_permissions(self, request: Request) -> None:
        if request.method not in self.visible_on_error:
            game = self.visible_game(request)
            if game is None:
                raise GameNotFound()
            self.game = game
        super().check_permissions(request)

    def visible_game(self, request: Request) -> Game | None:
        return selectors.game_for(game_id=self.kwargs["game_id"], user=request.user, seats=True)

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
        if (
            request.method in self.visible_on_error
            and 400 <= response.status_code < 500
            and response.status_code != 404
            and self.visible_game(request) is None
        ):
            response = Response(GameNotFound().as_body(), status=404)
        return super().finalize_response(request, response, *args, **kwargs)


def query_int(request: Request, name: str, default: int, *, low: int) -> int:
    """A whole number from the query string (``games.numbers``: ASCII digits, bounded), at least
    ``low``; ``default`` when the parameter is absent (given empty it is refused). Refused with
    400 ``invalid_field``."""
    value = numbers.from_query(
        request.query_params,
        name,
        low=low,
        high=numbers.INT32_MAX,
        default=default,
        empty_is_absent=False,
    )
    return default if value is None else value


class Paging(LimitOffsetPagination):
    """THE reader of a list's page: ``limit`` (1-200, default 50; more counts as 200) and
    ``offset`` (from 0), anything else a 400 ``invalid_field`` naming the parameter (DRF's
    pagination would ignore it and answer the first page, so a client's bug went unseen). The
    games' list and the tournaments' and leagues' lists page with it (``schema.PAGING_PARAMS``
    describes it; a subclass may change the numbers, ``schema.paging_params``); the answer is
    ``{count, next, previous, results}`` (``answer``)."""

    default_limit = 50
    max_limit = 200

    def get_limit(self, request: Request) -> int:
        return min(query_int(request, "limit", self.default_limit, low=1), self.max_limit)

    def get_offset(self, request: Request) -> int:
        return query_int(request, "offset", 0, low=0)

    def get_previous_link(self) -> str | None:
        """Past the end (``offset`` at or beyond ``count``), the page before is the last page,
        not the one ``limit`` before (DRF's: a client walking back from ``offset=1000`` of 13
        went through nineteen empty pages)."""
        count, offset, limit, request = self.count, self.offset, self.limit, self.request
        if not (count and offset is not None and offset >= count and limit and request):
            return super().get_previous_link()
        last = (count - 1) // limit * limit
        url = replace_query_param(request.build_absolute_uri(), self.limit_query_param, limit)
        if last == 0:
            return remove_query_param(url, self.offset_query_param)
        return replace_query_param(url, self.offset_query_param, last)

    def answer(
        self,
        request: Request,
        view: APIView,
        rows: Iterable[R],
        shown: Callable[[list[R]], Sequence[object]],
    ) -> dict[str, object]:
        """The page of ``rows`` (a query set or a list) the query asks for, shown by ``shown``
        (the page's rows -> their items: one read for the whole page, not one a row):
        ``{count, next, previous, results}`` (``next`` and ``previous`` keep the rest of the
        query, a private tournament's ``code`` too)."""
        page = self.paginate_queryset(cast("QuerySet[Never]", rows), request, view=view) or []
        return dict(self.get_paginated_response(list(shown(cast(list[R], page)))).data)


def flag(params: QueryDict, name: str) -> bool:
    """THE reader of a boolean query parameter (the schema's ``boolean``: generators send
    ``true``/``false``, and docs/API.md promises those two): absent is false; ``true`` or
    ``false`` once; anything else (``?mine=yes``, ``1``, ``TRUE``, empty, or the parameter given
    twice, ``?mine=true&mine=false``) is refused with 400 ``invalid_field`` (``details.field``,
    ``details.choices``) instead of being read as something: a misspelt filter must not list
    other games silently."""
    values = params.getlist(name)
    if not values:
        return False
    if len(values) == 1 and values[0] in ("true", "false"):
        return values[0] == "true"
    raise ServiceError(
        f"'{name}' must be true or false, given once.",
        code="invalid_field",
        details={"field": name, "choices": ["true", "false"]},
    )


def query_text(params: QueryDict, name: str) -> str:
    """A text query parameter (a private tournament's ``code``): "" when absent; given twice,
    refused with 400 ``invalid_field`` (which one was meant? the last one used to win, so
    ``?code=wrong&code=right`` read and ``?code=right&code=wrong`` did not)."""
    values = params.getlist(name)
    if len(values) > 1:
        raise ServiceError(
            f"'{name}' must be given once.", code="invalid_field", details={"field": name}
        )
    return values[0] if values else ""


def query_choice(params: QueryDict, name: str, choices: list[str]) -> str | None:
    """A query parameter that is one of ``choices`` (the schema's ``enum``), or None when it is
    absent; anything else, empty or given twice included, is refused with 400 ``invalid_field``
    (``details.field``, ``details.choices``)."""
    values = params.getlist(name)
    if not values:
        return None
    if len(values) == 1 and values[0] in choices:
        return values[0]
    raise ServiceError(
        f"'{name}' must be one of: {', '.join(choices)} (given once).",
        code="invalid_field",
        details={"field": name, "choices": list(choices)},
    )
