"""The round sheet's documents (docs/API.md, "Round sheets"): what ``GET .../sheet/`` returns
and ``PUT`` takes, and the PUT's answer. For the sheet's owner only. The keys marked
``ReadOnly`` (the game, the phase, ``due``, ``answered``, each line's reason) are the server's:
a PUT may send them back, and they are not read (``games.sheets.document``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from games.shapes import PlanMove, ReadOnly
from powergrid.shapes import Doc, Resource


class SheetReason(TypedDict):
    """Why the suggestion says so: a code (for programs), its parameters, and in words."""

    code: str
    params: dict[str, int | str]
    text: Annotated[str, Doc("In the reader's language (the API: English).")]


class SheetOpenLine(TypedDict):
    plant: Annotated[int, Doc("A plant to open when it is your turn to (in this order).")]
    max: Annotated[int, Doc("The most you will pay for it.")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetBidLine(TypedDict):
    plant: Annotated[int, Doc("A plant another player may open.")]
    max: Annotated[int, Doc("The most you will pay for it (auctions of plants not listed: pass).")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetPassLine(TypedDict):
    value: Annotated[bool, Doc("None of your plants offered: open no auction (after round 1).")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetDiscardLine(TypedDict):
    plant: Annotated[int | None, Doc("The plant to give up for a plant too many (null: ask).")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetResourcesLine(TypedDict):
    mode: Annotated[
        Literal["fuel", "buy"],
        Doc("fuel: what your plants need at your turn; buy: exactly `amounts`."),
    ]
    max_price: Annotated[int, Doc("Each token at most this.")]
    amounts: Annotated[
        dict[Resource, int], Doc("buy: the tokens; fuel: what that is today (shown, not read).")
    ]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetBuildLine(TypedDict):
    mode: Annotated[
        Literal["auto", "cities"],
        Doc("auto: the cheapest cities next to your network at your turn; cities: exactly those."),
    ]
    max_total: Annotated[int, Doc("At most this in total.")]
    cities: Annotated[list[str], Doc("cities: the slugs; auto: what that is today (shown).")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class SheetPowerLine(TypedDict):
    value: Annotated[bool, Doc("Power with the best choice (false: be asked).")]
    reason: NotRequired[Annotated[SheetReason, ReadOnly()]]


class Sheet(TypedDict):
    """Your round sheet: what GET returns, PUT accepts unchanged (docs/API.md, Round sheets)."""

    game: Annotated[int, ReadOnly()]
    round: Annotated[int, Doc("The round it is for: a PUT for another round is refused.")]
    phase: Annotated[
        str, Doc("The lines from this phase on play (the sheet for what remains)."), ReadOnly()
    ]
    due: Annotated[bool, Doc("The game waits for your answer (read only)."), ReadOnly()]
    answered: Annotated[bool, Doc("You answered this round's sheet (read only)."), ReadOnly()]
    deadline: Annotated[
        datetime | None,
        Doc(
            "While due: when the suggestion is played for you if you have not answered (the "
            "game's turn hours from the round's start, or from when you were asked again); "
            "null when not due (read only)."
        ),
        ReadOnly(),
    ]
    open: list[SheetOpenLine]
    bids: list[SheetBidLine]
    pass_else: SheetPassLine
    discard: SheetDiscardLine
    resources: SheetResourcesLine | None
    build: SheetBuildLine | None
    power: SheetPowerLine


class SheetAnswered(TypedDict):
    sheet: Annotated[Sheet, Doc("Your sheet as it stands now.")]
    moves_made: Annotated[int, Doc("Moves the sheets made at once (0 when nothing was due).")]
    seq: Annotated[int, Doc("The game's seq after them.")]
    acted: Annotated[list[PlanMove], Doc("What your sheet did at once, in the move log's words.")]
