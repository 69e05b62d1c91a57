"""The pieces of the OpenAPI description every resource's views share: an error answer
(``err``: the ``Error`` shape with the codes a status may carry), the common ones (401, 404,
429), the sentence on reauthentication, the ``Idempotency-Key`` header's parameter and a paged
list's ``limit`` and ``offset``.

One table, so a status reads the same in every operation of the schema."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from games import shapes
from games.api.idempotency import HEADER
from games.api.openapi import shape
from games.numbers import INT32_MAX


def err(description: str) -> OpenApiResponse:
    """An error answer: the ``Error`` body, ``description`` naming its codes."""
    return OpenApiResponse(shape(shapes.Error), description=description)


E400 = err("invalid_field / parse_error: the body is not valid.")
E401 = err("not_authenticated / authentication_failed.")
E404 = err("not_found: no such game.")
E429 = err("throttled: details.retry_after seconds (also the Retry-After header).")
REAUTH = (
    "reauthentication_required: a session (not a token) must confirm its password on "
    "details.reauthenticate_url first."
)
COMMON = {401: E401, 429: E429}

IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID) up to 255 characters, without control "
    "characters (400 invalid_field otherwise). A retry with the same key "
    "and body returns the first response (header `Idempotent-Replayed: true`) and changes "
    "nothing; the same key with a different body is refused with 422 idempotency_key_reused.",
)
E403_PLAYER = err("not_a_player: plans are for the game's players.")


def int_query(name: str, description: str, *, low: int, high: int = INT32_MAX) -> OpenApiParameter:
    """A whole-number query parameter with the bounds its reader (``games.numbers.from_query``)
    enforces, declared in the schema (``minimum``, ``maximum``): a generated client or a fuzzer
    then knows ``?limit=0`` is refused before sending it (every such parameter is walked against
    the server by tests/games/test_api_query_strict.py)."""
    return OpenApiParameter(
        name, {"type": "integer", "minimum": low, "maximum": high}, description=description
    )


def paging_params(default: int = 50, most: int = 200) -> list[OpenApiParameter]:
    """A paged list's query (read by ``base.Paging``, or a subclass of it with other numbers:
    ``default_limit``, ``max_limit``)."""
    return [
        int_query(
            "limit",
            f"Page size (1-{most}, default {default}; more, up to {INT32_MAX}, counts as {most}).",
            low=1,
        ),
        int_query("offset", "Start of the page (from 0; past the end: no results).", low=0),
    ]


#: A paged list's query (read by ``base.Paging``).
PAGING_PARAMS = paging_params()
