"""The caller's account beyond ``/api/v1/me/``, as its pages offer it: the calendar feed's
address, vacations, and the API tokens (listed and revoked; made with ``POST /api/v1/auth/token/``).

    GET/POST/DELETE /api/v1/me/calendar/        the feed's address; a new one; off
    GET/POST/DELETE /api/v1/me/vacation/        the vacation; start one; end it early
    GET             /api/v1/me/tokens/          the tokens (prefixes, never the tokens)
    DELETE          /api/v1/me/tokens/{prefix}/ revoke one

Thin: the services are the pages' (``accounts.profiles``, ``accounts.vacation``,
``accounts.tokens``). What outlives a session (a new calendar address, readable without a login;
revoking tokens) asks a session to have confirmed its password lately, as the pages do
(``RecentAuthentication``); a token passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from knox.models import AuthToken
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from accounts.profiles import calendar_address_set, calendar_url
from accounts.tokens import token_revoke, tokens_of
from accounts.vacation import VacationError, vacation_days_left, vacation_start, vacation_stop
from games import shapes
from games.api.openapi import shape
from games.api.permissions import RecentAuthentication
from games.api.schema import COMMON, err
from games.api.serializers import RequestSerializer, WholeNumberField
from games.services.errors import ServiceError

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission


E403_REAUTH = err(
    "reauthentication_required: a session (not a token) must confirm its password on "
    "details.reauthenticate_url first."
)


# ---------------------------------------------------------------- calendar
def _calendar(profile: Profile) -> shapes.CalendarFeed:
    return {"url": calendar_url(profile)}


class CalendarView(APIView):
    permission_classes = [permissions.IsAuthenticated, RecentAuthentication]

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        # Turning the feed off takes nothing away from the account: no password asked.
        if self.request is not None and self.request.method == "DELETE":
            return [permissions.IsAuthenticated()]
        return [p() for p in self.permission_classes]

    @extend_schema(
        operation_id="me_calendar_retrieve",
        responses={200: shape(shapes.CalendarFeed), **COMMON},
        tags=["me"],
        summary="Your calendar feed's address (an iCalendar of your deadlines)",
    )
    def get(self, request: Request) -> Response:
        profile, _created = Profile.objects.get_or_create(user=request.user)
        return Response(_calendar(profile))

    @extend_schema(
        operation_id="me_calendar_renew",
        request=None,
        responses={200: shape(shapes.CalendarFeed), 403: E403_REAUTH, **COMMON},
        tags=["me"],
        summary="Give the feed a new secret address (the old one stops working at once)",
    )
    def post(self, request: Request) -> Response:
        return Response(_calendar(calendar_address_set(user=request.user, on=True)))

    @extend_schema(
        operation_id="me_calendar_off",
        request=None,
        responses={200: shape(shapes.CalendarFeed), **COMMON},
        tags=["me"],
        summary="Turn the feed off (its address stops working)",
    )
    def delete(self, request: Request) -> Response:
        return Response(_calendar(calendar_address_set(user=request.user, on=False)))


# ---------------------------------------------------------------- vacation
class VacationStartSerializer(RequestSerializer):
    days = WholeNumberField(
        min_value=1,
        max_value=366,
        help_text="Whole days from now, at most the days left this year (`days_left`).",
    )


def _vacation(profile: Profile, now: datetime) -> shapes.Vacation:
    on = bool(profile.vacation_until and profile.vacation_until > now)
    left = vacation_days_left(profile, now=now)
    return {
        "on": on,
        "until": profile.vacation_until if on else None,
        "days_per_year": profile.vacation_days_per_year,
        "days_used": profile.vacation_days_per_year - left,
        "days_left": left,
        "year": now.year,
    }


class VacationView(APIView):
    @extend_schema(
        operation_id="me_vacation_retrieve",
        responses={200: shape(shapes.Vacation), **COMMON},
        tags=["me"],
        summary="Your vacation and the days left this year",
    )
    def get(self, request: Request) -> Response:
        profile, _created = Profile.objects.get_or_create(user=request.user)
        return Response(_vacation(profile, timezone.now()))

    @extend_schema(
        operation_id="me_vacation_start",
        request=VacationStartSerializer,
        responses={
            200: shape(shapes.Vacation),
            400: err(
                "invalid_field: `days` is not a whole number from 1; not_enough_days "
                "(details.days_left)."
            ),
            409: err("already_on_vacation."),
            **COMMON,
        },
        examples=[OpenApiExample("A week", value={"days": 7}, request_only=True)],
        tags=["me"],
        summary="Start a vacation now: your turn clocks stop for `days` days",
        description="Every running deadline of yours moves back by the vacation's length; a "
        "turn given meanwhile starts its clock when the vacation ends.",
    )
    def post(self, request: Request) -> Response:
        ser = VacationStartSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        now = timezone.now()
        try:
            profile = vacation_start(user=request.user, days=ser.validated_data["days"], now=now)
        except VacationError as exc:
            profile, _created = Profile.objects.get_or_create(user=request.user)
            left = vacation_days_left(profile, now=now)
            if exc.code == "already_on_vacation":
                raise ServiceError(str(exc), code=exc.code, status=409) from None
            if exc.code == "not_enough_days":
                raise ServiceError(
                    str(exc), code=exc.code, status=400, details={"days_left": left}
                ) from None
            raise ServiceError(
                str(exc), code="invalid_field", status=400, details={"field": "days"}
            ) from None
        return Response(_vacation(profile, now))

    @extend_schema(
        operation_id="me_vacation_stop",
        request=None,
        responses={200: shape(shapes.Vacation), 409: err("not_on_vacation."), **COMMON},
        tags=["me"],
        summary="End your vacation now",
        description="Unused whole days go back to this year's allowance, and your deadlines "
        "are pulled forward by the unused time.",
    )
    def delete(self, request: Request) -> Response:
        now = timezone.now()
        profile, _created = Profile.objects.get_or_create(user=request.user)
        if not (profile.vacation_until and profile.vacation_until > now):
            raise ServiceError("You are not on vacation.", code="not_on_vacation", status=409)
        return Response(_vacation(vacation_stop(user=request.user, now=now), now))


# ---------------------------------------------------------------- API tokens
def _token(row: AuthToken, current: object) -> shapes.ApiToken:
    info = getattr(row, "info", None)  # none for a token made before names were kept
    return {
        "prefix": row.token_key,
        "name": info.name if info else "",
        "created": row.created,
        "last_used": info.last_used_at if info else None,
        "expiry": row.expiry,
        "current": isinstance(current, AuthToken) and current.pk == row.pk,
    }


class TokenListView(APIView):
    @extend_schema(
        operation_id="me_tokens_list",
        responses={200: shape(shapes.ApiToken)(many=True), **COMMON},
        tags=["auth"],
        summary="Your API tokens, newest first (never the tokens themselves)",
    )
    def get(self, request: Request) -> Response:
        return Response([_token(t, request.auth) for t in tokens_of(request.user)])


class TokenDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated, RecentAuthentication]

    @extend_schema(
        operation_id="me_tokens_revoke",
        request=None,
        responses={
            204: None,
            403: E403_REAUTH,
            404: err("token_not_found: no token of yours starts with that prefix."),
            **COMMON,
        },
        tags=["auth"],
        summary="Revoke one of your API tokens (by its prefix)",
    )
    def delete(self, request: Request, prefix: str) -> Response:
        if not token_revoke(user=request.user, prefix=prefix):
            raise ServiceError(
                "No API token of yours starts with that prefix.",
                code="token_not_found",
                status=404,
            )
        return Response(status=status.HTTP_204_NO_CONTENT)
