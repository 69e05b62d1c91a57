"""The OpenAPI entry of ``GET /api/v1/stream/`` (an async Django view, which drf-spectacular
does not see): added to the generated schema by a post-processing hook."""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}

STREAM_OPERATION: dict[str, Any] = {
    "operationId": "stream",
    "tags": ["stream"],
    "summary": "Server-sent events of your games (or of one game you watch)",
    "description": (
        "`text/event-stream`. On connect: a `game` event for each of your running games (or "
        "for the game watched), then one each time one of them changes, and a `: keepalive` "
        "comment line every 20 s. Each event's `id` is `<game>:<seq>`; its `data` is JSON: "
        '`{"event": "game", "game": {"id", "map", "seq", "status", "to_act": [seats]}}`, on '
        'your own stream also `"seat"`, `"your_turn"` and `"deadline"`. Read the state '
        "(`GET /api/v1/games/{id}/state/`) for the rest: nothing secret travels on the stream. "
        "Reconnect when the connection drops (`retry: 2000`): the snapshot on connect holds "
        "every game's latest `seq`, so nothing is lost. Authenticate with a token (or a "
        "session), or pass `?game=<id>` to watch one game without an account (a private game: "
        "only as one of its players, invitees or staff)."
    ),
    "parameters": [
        {
            "name": "game",
            "in": "query",
            "required": False,
            "schema": {"type": "integer"},
            "description": "Watch this game's public events instead of your own games.",
        }
    ],
    "security": [{"tokenAuth": []}, {"cookieAuth": []}, {}],
    "responses": {
        "200": {
            "description": "The event stream (never ends; reconnect when it does).",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        "400": {
            "description": "invalid_field: `game` is not a number.",
            "content": {"application/json": {"schema": _ERROR}},
        },
        "401": {
            "description": "not_authenticated / authentication_failed.",
            "content": {"application/json": {"schema": _ERROR}},
        },
        "404": {
            "description": "not_found: no such game, or a private game the caller may not see.",
            "content": {"application/json": {"schema": _ERROR}},
        },
        "429": {
            "description": (
                "throttled: the account (STREAM_MAX_PER_USER, 5) or the client's address "
                "(STREAM_MAX_PER_ADDRESS, 20) has as many streams open as a server process "
                "keeps; close one (details.retry_after)."
            ),
            "content": {"application/json": {"schema": _ERROR}},
        },
    },
}


def stream_path(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: add the stream's operation."""
    result.setdefault("paths", {})["/api/v1/stream/"] = {"get": STREAM_OPERATION}
    return result
