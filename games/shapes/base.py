"""The server's shapes' common parts: the markers the schema generator reads, the literals
several resources share, and the error every answer may be."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict

from powergrid.shapes import Doc


@dataclass(frozen=True, slots=True)
class Component:
    """A field whose schema is the named component, built from a registry rather than a
    TypedDict (the move log's actions come from ``powergrid.actions.ACTIONS``)."""

    name: str


@dataclass(frozen=True, slots=True)
class ReadOnly:
    """A key the server writes and ignores when a request sends it back (``readOnly`` in the
    schema): a document that PUT takes as GET returned it (a round sheet) keeps these keys, and
    only the others are read."""


#: A JSON object whose keys depend on its ``code`` (an error's details) or its type.
JSONObject = dict[str, object]

#: A declared answer (each TypedDict here is one), as code that only passes it on sees it.
Body = Mapping[str, object]

GameStatus = Literal["open", "running", "finished"]
Language = Literal["en", "ja"]
NotificationMode = Literal["every_turn", "digest", "none"]
Invitations = Literal["anyone", "played_with", "nobody"]
UndeliverableReason = Literal["hard_bounce", "soft_bounces", "rejected", "complaint"]
WebhookFormat = Literal["generic", "discord", "slack"]
MoveSource = Literal["web", "api", "email", "timeout", "bot", "plan", "sheet", "sealed"]
#: The server's bot levels, weakest first (``powergrid.levels``).
BotLevel = Literal["beginner", "heuristic", "advanced", "expert"]


# ---------------------------------------------------------------- errors
class ErrorDetail(TypedDict):
    code: Annotated[str, Component("ErrorCode")]
    message: Annotated[str, Doc("A sentence for humans.")]
    details: Annotated[
        JSONObject,
        Doc(
            "Code-specific data, e.g. {field} for invalid_field, {seq} for stale_state, "
            "{retry_after} for throttled."
        ),
    ]


class Error(TypedDict):
    """Every error, whatever its status."""

    error: ErrorDetail
