"""The game page's context, declared: what ``templates/games/game.html`` and its parts read.

The game-state part IS the API's declared answer: ``state`` is ``games.shapes.State`` as
``selectors.game_state_for`` returns it (the body of ``GET /api/v1/games/{id}/state/``), and the
templates read its keys (``state.phase``, ``state.round``, ``state.deadline``, ...) by the names
the schema publishes. What the page needs beyond it (cards drawn, names linked, forms filled in,
the chat, the log in sentences) is a page-only part, each piece typed here or in
``games.web.present``, and made from the declared state rather than beside it: nothing on the
page's path is ``Any`` (``tests/test_no_any_on_the_state_path.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from django.utils.safestring import SafeString

from games import shapes
from games.models import Game, Seat
from games.selectors import BestPower
from games.web.present import (
    ChooseCard,
    DiscardCard,
    FormMeaning,
    LegalByType,
    PlantCard,
    PlayerPanel,
    PowerCard,
    ResupplyRow,
    Step3CardView,
    StepFacts,
    TrackRow,
)
from powergrid.shapes import Resource, ResourcePrices


class Person(TypedDict):
    """A name the page links to the player's page (``|player``): username None for nobody's."""

    name: str
    username: str | None


class RefusedError(TypedDict):
    """A refused move's error beside its form: the code and the sentence in the reader's
    language."""

    code: str
    text: str


class Refusal(TypedDict):
    """What a refused move's page shows: the error, the form as sent, what the form meant."""

    error: RefusedError
    posted: dict[str, list[str]]
    posted_meaning: FormMeaning | None


class Live(TypedDict):
    """What lets the open page follow the game (static/js/live.js)."""

    live_url: str
    your_turn: bool
    your_turn_mark: str
    bots_thinking: bool


class PageBase(Live):
    """What every game page has, in the lobby and on the board."""

    game: Game
    me: Seat | None
    turn_emails: str
    error: RefusedError | None
    lang: str
    names: dict[int, str]
    seed_commitment: str | None
    seed_revealed: int | None
    map_name: str
    board: str
    lobby: bool


class LobbySeat(TypedDict):
    name: str
    username: str
    seat: int
    colour: str
    colour_label: str
    is_creator: bool
    is_bot: bool


class LobbyPage(PageBase):
    """An open game's page: the seats, the join and invitation forms."""

    seats: list[LobbySeat]
    is_creator: bool
    bot_levels: list[tuple[str, str]]
    can_join: bool
    is_private: bool
    min_on_time: int
    invite_code: str
    invite_url: str
    areas_label: str


class Forecast(TypedDict):
    """The line under the title: the expected end and the seat waited on most."""

    finish: datetime
    soon: bool
    hours: int | None
    days: int
    bottleneck: str | None
    bottleneck_seat: int | None
    bottleneck_hours: int | None
    bottleneck_person: NotRequired[Person]


class ChatLine(TypedDict):
    id: int
    author: str
    name: str
    username: str | None
    author_id: int | None
    text: str
    time: datetime
    edited: bool
    mine: bool
    editable: bool


class Chat(TypedDict):
    can_post: bool
    messages: list[ChatLine]


class MailDown(TypedDict):
    """The players of a running game our emails do not reach, for the others."""

    seats: set[int]
    people: list[Person]
    hours: int


class AuctionView(TypedDict):
    """The declared ``Auction`` with the seats named (``|player``) and its plant drawn."""

    plant: PlantCard
    high_bid: int
    high_bidder: str
    high_bidder_person: Person
    bidders: list[Person]
    sealed: bool
    sealed_in: list[Person]
    your_sealed_bid: int | None


class SealedLastView(TypedDict):
    """The declared ``SealedLast`` with the seats named."""

    plant: int
    winner: Person
    price: int
    bids: SafeString


class BuyRow(TypedDict):
    resource: Resource
    label: str
    max: int
    prices: list[int]
    prices_text: str
    value: str


class FuelSuggestion(TypedDict):
    """A fuel purchase the buy form offers to fill in (the one-tap email's), with its price."""

    choice: str
    label: str
    href: str
    amounts: dict[str, int]
    chosen: bool


class BuildCity(TypedDict):
    slug: str
    name: str
    cost: int
    checked: bool


class QuoteError(TypedDict):
    """The API's ``ErrorDetail`` (the same body to the same token), and for the page's own
    session the sentence in the reader's language."""

    code: str
    message: str
    details: shapes.JSONObject
    text: NotRequired[str]


class QuoteRefused(TypedDict):
    error: QuoteError


#: The build form's total: the API's ``BuildQuote``, or its refusal in the reader's language.
Quote = shapes.BuildQuote | QuoteRefused


class CalcField(TypedDict):
    resource: Resource
    label: str
    value: int


class Calculator(TypedDict):
    """The cost calculator of the reference panel (computed here without JS)."""

    market: ResourcePrices
    money: int | None
    asked: bool
    fields: list[CalcField]
    problem: NotRequired[str]
    counts: NotRequired[dict[Resource, int]]
    cities: NotRequired[int]
    bid: NotRequired[int]
    res_cost: NotRequired[int]
    total: NotRequired[int]
    left: NotRequired[int | None]
    short: NotRequired[list[str]]


class TakebackOffer(TypedDict):
    """What the player may take back now (``games.takebacks.Offer``) as the page words it;
    ``text``: the move it would undo, in a sentence."""

    how: str
    first: int
    n: int
    why: str
    left: int | None
    limit: int | None
    text: NotRequired[SafeString]


class TakebackRequestView(shapes.TakebackRequest):
    """The declared ``TakebackRequest`` (the API's), with what the page says of it."""

    name: str
    person: Person
    mine: bool
    asked_me: bool
    waiting_people: list[Person]
    why: str


#: A practice game: the game and move it began from, and when it goes ("from" is a keyword).
PracticeInfo = TypedDict("PracticeInfo", {"from": int | None, "seq": int | None, "until": datetime})


class PracticeSeat(TypedDict):
    seat: int
    name: str


class PracticeForm(TypedDict):
    seq: int | None
    seats: list[PracticeSeat]
    mine: int
    levels: list[tuple[str, str]]


class TakebackPart(TypedDict):
    """Take-backs and practice games on the page (``games.web.takeback.page_context``)."""

    takeback: TakebackOffer | None
    takeback_request: TakebackRequestView | None
    practice_form: PracticeForm | None
    practice_info: NotRequired[PracticeInfo]


class LogLine(TypedDict):
    """One line of the move log as the page shows it (``games.log.Item``, marked and said)."""

    seq: int
    time: datetime
    cancelled: bool
    takeback_here: bool
    text: SafeString
    note: str


class BoardPage(PageBase, TakebackPart):
    """A started game's page. ``state`` is the API's declared answer, read by the templates by
    the schema's keys; everything after it is the page's own part, made from it."""

    state: shapes.State
    history_seq: int | None
    seq: int
    phase_label: str
    thresholds: dict[str, int | None]
    current: list[PlantCard | Step3CardView]
    future: list[PlantCard | Step3CardView]
    track: list[TrackRow]
    panels: list[PlayerPanel]
    mail_down: MailDown | None
    you: shapes.Player | None
    money: int | None
    legal: LegalByType
    form_id: str
    income_rows: list[tuple[str, int]]
    deck_cards: list[PlantCard]
    resupply: list[ResupplyRow]
    resources: tuple[Resource, ...]
    facts: StepFacts | None
    waiting: list[str]
    waiting_people: list[Person]
    acted: list[Person]
    kept_amount: str
    log: list[LogLine]
    log_more: bool
    calc: Calculator
    forecast: NotRequired[Forecast | None]
    chat: NotRequired[Chat | None]
    auction: NotRequired[AuctionView]
    sealed_last: NotRequired[SealedLastView]
    choose: NotRequired[list[ChooseCard]]
    choose_max: NotRequired[int]
    choose_min: NotRequired[int]
    choose_bid: NotRequired[str | int]
    discard: NotRequired[list[DiscardCard]]
    holds_tokens: NotRequired[bool]
    drops: NotRequired[list[tuple[Resource, str]]]
    buy: NotRequired[list[BuyRow]]
    fuel: NotRequired[list[FuelSuggestion]]
    build_cities: NotRequired[list[BuildCity]]
    build_none_affordable: NotRequired[bool]
    quote: NotRequired[Quote]
    power: NotRequired[list[PowerCard]]
    power_best: NotRequired[BestPower]
    power_income: NotRequired[int]
