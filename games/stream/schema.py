"""The OpenAPI entry of ``GET /api/v1/stream/`` (an async Django view, which drf-spectacular
does not see): added to the generated schema by a post-processing hook, with the events' data
declared here once (``StreamEvent`` and its members) and published as components, so a client
generated from the schema has a type for each event a stream sends."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from games.api import openapi
from games.numbers import ID_MAX
from powergrid.shapes import Doc, Named


class StreamGame(TypedDict):
    """The public facts of a game, as every reader of the stream is told them."""

    id: int
    map: str
    seq: Annotated[int, Doc("The game's move counter after this change.")]
    status: Literal["open", "running", "finished"]
    to_act: Annotated[list[int], Doc("The seats awaited (empty once finished).")]


class StreamGameEvent(TypedDict):
    """`event: game`: the game changed (one event per change, in order; the game's end has
    `status: finished`). On a player's own stream also their `seat`, `your_turn` and its
    `deadline`; on a watcher's (`?game=`) only the game. Read the state for the rest."""

    event: Literal["game"]
    game: StreamGame
    seat: NotRequired[Annotated[int, Doc("Your seat (your own stream only).")]]
    your_turn: NotRequired[Annotated[bool, Doc("Whether you are awaited (your own stream).")]]
    deadline: NotRequired[
        Annotated[datetime | None, Doc("When your turn times out (your own stream).")]
    ]


class StreamGameRef(TypedDict):
    """The game an event of its own is about, and its `seq` after the change."""

    id: int
    seq: int


class StreamTakeback(TypedDict):
    """What a take-back concerns: the seat asking, the move numbers cancelled, whether the
    others agreed (`takeback`) or the request to answer (`takeback_asked`)."""

    seat: int
    cancels: list[int]
    agreed: NotRequired[bool]
    request: NotRequired[int]


class StreamTakebackEvent(TypedDict):
    """`event: takeback`: moves were taken back (after the `game` event of the same change)."""

    event: Literal["takeback"]
    game: StreamGameRef
    takeback: StreamTakeback


class StreamTakebackAskedEvent(TypedDict):
    """`event: takeback_asked`: a player asks the others to agree to take moves back."""

    event: Literal["takeback_asked"]
    game: StreamGameRef
    takeback: StreamTakeback


class StreamSheetRef(TypedDict):
    """The round sheet asked: its round (`GET /api/v1/games/{id}/sheet/` reads it)."""

    round: int


class StreamSheetAskedEvent(TypedDict):
    """`event: sheet_asked` (your own stream only): a round began in a game played by round
    sheets and your seat is asked for its sheet (every seat at once). GET your sheet and, while
    it is `due`, PUT it back (changed or not) before `deadline`, when its suggestion is played
    for you. Follows the `game` event of the change that began the round."""

    event: Literal["sheet_asked"]
    game: StreamGameRef
    sheet: StreamSheetRef
    seat: Annotated[int, Doc("Your seat.")]
    deadline: Annotated[
        datetime | None, Doc("When the sheet's suggestion is played if you have not answered.")
    ]


class StreamTournament(TypedDict):
    """A tournament's facts on a stream event (a league's division: its tournament)."""

    id: Annotated[int, Doc("`GET /api/v1/tournaments/{id}/` for its rounds and standings.")]
    name: str
    round: int
    rounds: int
    table: Annotated[int | None, Doc("Your table's number this round; null: a bye, or the end.")]
    url: Annotated[str, Doc("The tournament's page.")]


class StreamTableReadyEvent(TypedDict):
    """`event: table_ready` (your own stream only): round 1 seated you at a table; `game` is
    the table's game (its `game` event follows as for any game that starts)."""

    event: Literal["table_ready"]
    game: StreamGameRef
    tournament: StreamTournament


class StreamRoundStartedEvent(TypedDict):
    """`event: round_started` (your own stream only): a later round began; `game` is your
    table's game, or with `tournament.table` null (a bye) one of the round's games."""

    event: Literal["round_started"]
    game: StreamGameRef
    tournament: StreamTournament


class StreamFinalStandingsEvent(TypedDict):
    """`event: final_standings` (your own stream only): the last round ended; read the
    standings (`GET /api/v1/tournaments/{id}/standings/`). `game`: a game of the last round."""

    event: Literal["final_standings"]
    game: StreamGameRef
    tournament: StreamTournament


class StreamResyncEvent(TypedDict):
    """`event: resync` (no `id`): the events since your `Last-Event-ID` are no longer kept
    (`expired`: away longer than the server keeps them, 24 h by default) or the id is not one of
    this server's (`unknown`). Read the state of your games again; the snapshot follows, its
    events carrying `at` as their id."""

    event: Literal["resync"]
    reason: Literal["unknown", "expired"]
    at: Annotated[int, Doc("The stream's position now (the id of the snapshot's events).")]


StreamEvent = Annotated[
    StreamGameEvent
    | StreamTakebackEvent
    | StreamTakebackAskedEvent
    | StreamSheetAskedEvent
    | StreamTableReadyEvent
    | StreamRoundStartedEvent
    | StreamFinalStandingsEvent
    | StreamResyncEvent,
    Named("StreamEvent"),
]


def event_components() -> openapi.Schema:
    """The components of the events' data (``StreamEvent`` and what it refers to)."""
    out: openapi.Schema = {}

    def ref(tp: object) -> openapi.Schema:
        name = openapi.name_of(tp)
        if name not in out:
            out[name] = {}  # taken before its schema is built: a type may refer to itself
            if openapi._is_typeddict(tp):
                out[name] = openapi.typeddict_schema(tp, ref)
            else:
                out[name] = openapi.named_union_schema(tp, ref)
        return {"$ref": f"#/components/schemas/{name}"}

    ref(StreamEvent)
    return out


_ERROR = {"$ref": "#/components/schemas/Error"}

STREAM_OPERATION: openapi.Schema = {
    "operationId": "stream",
    "tags": ["stream"],
    "summary": "Server-sent events of your games (or of one game you watch)",
    "description": (
        "`text/event-stream`. On connect: a `game` event for each of your running games (or "
        "for the game watched), then one event per change, in order, the game's end "
        "(`status: finished`) included, and a `: keepalive` comment line every 20 s. Each "
        "event's `data` is a `StreamEvent`; its `id` is its position in the server's event log. "
        "Read the state (`GET /api/v1/games/{id}/state/`) for the rest: nothing secret travels "
        "on the stream. Reconnect when the connection drops (`retry: 2000`) with "
        "`Last-Event-ID`: every event missed follows, once; a client away longer than the "
        "server keeps events (24 h by default) gets `resync` and must read its games' state. "
        "Authenticate with a token (or a session), or pass `?game=<id>` to watch one game "
        "without an account (a private game: only as one of its players, invitees or staff)."
    ),
    "parameters": [
        {
            "name": "Last-Event-ID",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": (
                "Resume: the `id` of the last event received. Every event of yours after it "
                "follows, once and in order; `resync` first when it is older than the server "
                "keeps (STREAM_REPLAY_SECONDS, 24 h by default) or unknown."
            ),
        },
        {
            "name": "last_event_id",
            "in": "query",
            "required": False,
            "schema": {"type": "string"},
            "description": "`Last-Event-ID` for clients that cannot send headers.",
        },
        {
            "name": "game",
            "in": "query",
            "required": False,
            "schema": {"type": "integer", "minimum": 1, "maximum": ID_MAX},
            "description": "Watch this game's public events instead of your own games.",
        },
    ],
    "security": [{"tokenAuth": []}, {"cookieAuth": []}, {}],
    "responses": {
        "200": {
            "description": (
                "The event stream (never ends; reconnect when it does). Each event's `data` is "
                "one `StreamEvent` (JSON), its SSE `event` field the same as `data.event`."
            ),
            "content": {
                "text/event-stream": {
                    "schema": {"type": "string"},
                    "x-event-data": {"$ref": "#/components/schemas/StreamEvent"},
                }
            },
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
    result: openapi.Schema, generator: object, request: object, public: bool
) -> openapi.Schema:
    """drf-spectacular post-processing hook: add the stream's operation and its events."""
    result.setdefault("paths", {})["/api/v1/stream/"] = {"get": STREAM_OPERATION}
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in event_components().items():
        schemas.setdefault(name, schema)
    return result
