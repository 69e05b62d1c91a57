"""Take-backs (docs/API.md, Take-backs)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from games.shapes.games import State
from powergrid.shapes import Doc

# ---------------------------------------------------------------- take-backs (docs/API.md)
TakebackRequestStatus = Literal["pending", "accepted", "declined", "withdrawn", "void", "expired"]


class TakebackEntry(TypedDict):
    """A take-back in the log: the move log shows it as an entry whose action is
    ``{"type": "takeback", "cancels": [...], "accepted_by": [...]}``."""

    seq: Annotated[int, Doc("The take-back's own number in the log.")]
    seat: Annotated[int, Doc("Whose moves were taken back.")]
    cancels: Annotated[list[int], Doc("The moves taken back (seqs), oldest first.")]
    accepted_by: Annotated[list[int], Doc("The seats that agreed (empty: taken back alone).")]


class TakebackRequest(TypedDict):
    """A player's request to take back moves, which every other player must accept."""

    id: int
    seat: Annotated[int, Doc("The player who asks.")]
    cancels: Annotated[list[int], Doc("The moves it would take back (seqs).")]
    reason: Annotated[
        str,
        Doc(
            "Why it needs the others: others_moved, plant_drawn or sealed_bids_opened (empty: "
            "the player could have taken it back alone)."
        ),
    ]
    status: TakebackRequestStatus
    at_seq: Annotated[int, Doc("The position it was asked in: any move makes it void.")]
    asked: list[int]
    accepted: list[int]
    waiting_for: list[int]
    declined_by: int | None
    deadline: Annotated[datetime, Doc("Everyone must accept before this.")]
    created_at: datetime
    takeback_seq: Annotated[
        int | None, Doc("The take-back's entry in the log, once everyone agreed.")
    ]


class TakebackOffer(TypedDict):
    """What the caller may take back now."""

    how: Annotated[
        str | None,
        Doc(
            "`now`: POST .../takeback/ takes it back at once; `ask`: the others must agree "
            "(POST .../takeback/requests/); null: nothing can be taken back (see `refused`)."
        ),
    ]
    cancels: Annotated[list[int], Doc("The moves it would take back (seqs).")]
    reason: Annotated[
        str | None,
        Doc("Why `ask`: others_moved, plant_drawn or sealed_bids_opened (null with `now`)."),
    ]
    refused: Annotated[str | None, Doc("An error code, when `how` is null.")]
    message: str
    left: Annotated[int, Doc("Take-backs the caller may still make alone.")]
    limit: Annotated[int, Doc("The game's option `takebacks`.")]
    request: Annotated[
        TakebackRequest | None, Doc("The request waiting for answers in this game, if any.")
    ]


class TakebackDone(TypedDict):
    """A take-back made: its entry, and the state now (as after a move)."""

    takeback: TakebackEntry
    state: State


class TakebackAnswer(TypedDict):
    """A request as it stands; set ``takeback`` and ``state`` when it was the last acceptance."""

    request: TakebackRequest
    takeback: TakebackEntry | None
    state: NotRequired[State]
