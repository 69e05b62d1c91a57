"""Plans (docs/API.md, Plans): their owner's only."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from powergrid.shapes import Doc, Named, Resource


# ---------------------------------------------------------------- plans (their owner's only)
class ProxyBidPlan(TypedDict):
    kind: Literal["proxy_bid"]
    plant: int
    max: Annotated[int, Doc("The most you will pay (at least the plant's number).")]
    discard: NotRequired[
        Annotated[int, Doc("One of your plants to give up if winning this one is one too many.")]
    ]


class AutoPassPlan(TypedDict):
    kind: Literal["auto_pass"]
    round: Annotated[int, Doc("The round it is for (set by the server).")]


class PassWhenNothingPlan(TypedDict):
    kind: Literal["pass_when_nothing"]


class BuyPlan(TypedDict):
    kind: Literal["buy"]
    round: int
    amounts: Annotated[dict[Resource, int], Doc("Tokens wanted per resource.")]
    max_price: Annotated[int, Doc("Buy a token only if it costs at most this.")]


class BuildPlan(TypedDict):
    kind: Literal["build"]
    round: int
    cities: Annotated[list[str], Doc("City slugs, built in the cheapest order.")]
    max_total: Annotated[int, Doc("Build only if all of them cost at most this in total.")]


class PowerPlan(TypedDict):
    kind: Literal["power"]
    round: int


class OpenPlan(TypedDict):
    kind: Literal["open"]
    round: int
    choices: Annotated[
        list[list[int]],
        Doc(
            "[plant, max] pairs in order of preference: when it is your turn to open an auction, "
            "the first offered within its max is opened at its minimum, then bid for up to max."
        ),
    ]
    pass_else: NotRequired[
        Annotated[bool, Doc("None of them offered: pass (true, the default) or be asked.")]
    ]
    others_pass: NotRequired[
        Annotated[bool, Doc("Pass auctions for plants neither listed nor under a proxy bid.")]
    ]
    discard: NotRequired[
        Annotated[int, Doc("One of your plants to give up if a plant won is one too many.")]
    ]


class FuelPlan(TypedDict):
    kind: Literal["fuel"]
    round: int
    max_price: Annotated[int, Doc("The fuel your plants need, each token at most this.")]


class AutoBuildPlan(TypedDict):
    kind: Literal["auto_build"]
    round: int
    max_total: Annotated[int, Doc("The cheapest cities next to your network, up to this total.")]


#: One of the caller's plans, by kind (docs/API.md, Plans).
Plan = Annotated[
    ProxyBidPlan
    | AutoPassPlan
    | PassWhenNothingPlan
    | BuyPlan
    | BuildPlan
    | PowerPlan
    | OpenPlan
    | FuelPlan
    | AutoBuildPlan,
    Named("Plan"),
]


class PlanList(TypedDict):
    plans: list[Plan]


class PlanMove(TypedDict):
    """A move your plan made at once, as the move log describes it."""

    seq: Annotated[int, Doc("The move's number in the log (GET .../moves/ has its action).")]
    text: Annotated[
        str,
        Doc(
            "What it did, in words (English, as the API speaks; the game page's log says "
            'the same): e.g. "Anna bid 23 for plant 10."'
        ),
    ]


class PlanSet(TypedDict):
    plan: Plan
    moves_made: Annotated[int, Doc("Moves the plans made at once (0 when it waits its turn).")]
    seq: Annotated[int, Doc("The game's seq after them.")]
    acted: Annotated[
        list[PlanMove],
        Doc(
            "What your plan did at once, one entry per move it made for your seat (each seq "
            "once: a move the log tells in several lines is one entry, its lines joined; empty "
            "when it waits for your turn): set during your own turn, a plan that holds acts "
            "before the answer."
        ),
    ]
