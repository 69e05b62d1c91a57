"""The shape of every response body of the API, declared once.

The engine's part (the view, plants, legal moves, maps) is ``powergrid.shapes``; this module adds
what the server knows (names, ``game``, ``seq``, ``deadline``, the lobby, the move log, plans,
chat, webhooks, errors). The selectors and presenters that fill these are typed to return them,
so mypy checks every key they fill; the pages read the same objects; and the OpenAPI schema's
components are generated from these classes (``games.api.openapi``, one closed component per
class, see ``powergrid.shapes`` for the rules), never written by hand.

A new response: declare its TypedDict here, return it from the function that fills it, and name
it in the view's ``extend_schema(responses={200: shape(Thing)})``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from powergrid.shapes import (
    Colour,
    Doc,
    HouseRule,
    MapArea,
    MapCity,
    MapConnection,
    Named,
    PlantDeck,
    PlayerView,
    Resource,
    ResultRow,
    Variant,
    Viewbox,
    ViewOf,
)


@dataclass(frozen=True, slots=True)
class Component:
    """A field whose schema is the named component, built from a registry rather than a
    TypedDict (the move log's actions come from ``powergrid.actions.ACTIONS``)."""

    name: str


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
MoveSource = Literal["web", "api", "email", "timeout", "bot", "plan"]
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


# ---------------------------------------------------------------- auth and me
class Token(TypedDict):
    token: Annotated[str, Doc("Send as `Authorization: Bearer <token>`. Shown once.")]
    expiry: Annotated[datetime | None, Doc("null: valid until revoked.")]


class EmailUndeliverable(TypedDict):
    """Why and since when our emails to the account's address do not arrive
    (``accounts.deliverability``)."""

    reason: Annotated[
        UndeliverableReason,
        Doc(
            "hard_bounce (the mailbox or domain does not exist), soft_bounces (several came back: "
            "a full mailbox, a refusing server), rejected (the provider refused the address), "
            "complaint (an email was marked as spam: emails are also turned off)."
        ),
    ]
    since: Annotated[datetime, Doc("When the address was found undeliverable (UTC).")]


class Me(TypedDict):
    username: str
    email: str
    display_name: str
    timezone: Annotated[str, Doc("IANA name, e.g. Asia/Tokyo.")]
    language: Language
    notification_mode: NotificationMode
    reminder_fraction: float
    invitations: Annotated[
        Invitations,
        Doc(
            "Who may invite you to a game by username: anyone, only players you have played a "
            "game with, or nobody (each invitation is an email to you)."
        ),
    ]
    vacation_days_per_year: int
    vacation_days_used: int
    bot_account: Annotated[bool, Doc("A third party's bot (POST /api/v1/me/bot/ makes one).")]
    email_undeliverable: Annotated[
        EmailUndeliverable | None,
        Doc(
            "Set while our emails to `email` are known not to arrive (a bounce, a refusal, a "
            "spam complaint): nothing is sent to it meanwhile. null when the address is fine."
        ),
    ]


# ---------------------------------------------------------------- maps
class MapRules(TypedDict):
    """What differs from the base game's set-up on this map (France, Italy: seed 002)."""

    starting_market: Annotated[
        dict[Resource, int], Doc("Tokens in each resource market at the start.")
    ]
    cheapest_price: Annotated[
        dict[Resource, int | None],
        Doc("The price of the cheapest token of each resource at the start."),
    ]
    top_plant: Annotated[int, Doc("The plant on top of the deck (13 usually).")]
    removed_plants: Annotated[
        list[int],
        Doc(
            "Plants out of the game on this map in games started now (the latest rules edition: "
            "none on any map; France's 13 is an ordinary card)."
        ),
    ]
    required_areas: list[str]
    notes: Annotated[list[str], Doc("The rules in words.")]


class MapSummary(TypedDict):
    slug: str
    name_en: str
    name_ja: str
    areas: list[MapArea]
    required_areas: list[str]
    rules: MapRules


class Map(MapSummary):
    viewbox: Annotated[Viewbox, Doc("The drawing area city coordinates live in (y down).")]
    cities: list[MapCity]
    connections: list[MapConnection]


# ---------------------------------------------------------------- games
class Seat(TypedDict):
    seat: int
    username: str
    display_name: str
    colour: Colour
    bot_controlled: Annotated[bool, Doc("A bot plays this seat after timeouts.")]
    bot_level: NotRequired[
        Annotated[
            BotLevel,
            Doc(
                "The level of the server's bot that plays this seat (a bot's seat, or a seat "
                "taken over after timeouts: the game's `bot_level`); absent when a person or a "
                "program plays it."
            ),
        ]
    ]


class GameOptions(TypedDict):
    """The game's options (docs/API.md; the request's GameOptions gives their bounds)."""

    turn_hours: int
    variant: Variant
    plant_deck: PlantDeck
    pause_weekends: bool
    auto_start: bool
    chat_public: bool
    private: bool
    min_on_time: int
    timeouts_before_bot: int
    takebacks: Annotated[int, Doc("Take-backs each player may make alone.")]
    takebacks_rated: Annotated[bool, Doc("Take-backs allowed although the game is rated.")]
    bot_level: Annotated[
        BotLevel, Doc("The level of the bot that plays a seat taken over after timeouts.")
    ]


class Game(TypedDict):
    """A game as anyone may see it (nothing secret)."""

    id: int
    status: GameStatus
    map: str
    areas: Annotated[list[str] | None, Doc("null until the start when drawn at random.")]
    max_players: int
    options: GameOptions
    house_rules: Annotated[
        list[HouseRule],
        Doc(
            "The rules this game plays that are not the published game's (house rules): "
            '`["sealed_bid"]` or `[]`.'
        ),
    ]
    rules_edition: Annotated[
        int,
        Doc(
            "The edition of the rules the game is played by, fixed when it starts; a correction "
            "to the rules becomes a new edition, so games already running keep theirs. 2: as the "
            "seeds write them (France: plant 13 is an ordinary card; no cap on a player's "
            "cities). 1: games started before edition 2 (France without 13; at most 22 cities)."
        ),
    ]
    creator: Annotated[str | None, Doc("Username of the creator (who may start it).")]
    seats: list[Seat]
    seq: Annotated[int, Doc("Number of moves made; send it as expected_seq.")]
    to_act: Annotated[list[int], Doc("Awaited seats.")]
    deadline: Annotated[datetime | None, Doc("Earliest deadline of the awaited seats (UTC).")]
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seed_commitment: Annotated[
        str | None,
        Doc(
            'SHA-256 (hex) of "<game id>:<seed>", published from the start (null while open): '
            "the deck and first player order follow from the seed, which stays secret."
        ),
    ]
    seed: Annotated[int | None, Doc("The seed, revealed when the game is over (null until then).")]
    invite_url: NotRequired[
        Annotated[
            str, Doc("The private invitation link: to the creator only, while the game is open.")
        ]
    ]


class GamePage(TypedDict):
    """One page of games, newest first."""

    count: int
    next: Annotated[str | None, Doc("The next page's URL.")]
    previous: Annotated[str | None, Doc("The previous page's URL.")]
    results: list[Game]


class Invitation(TypedDict):
    username: Annotated[str, Doc("The invited player's username.")]


# ---------------------------------------------------------------- the state
class Player(PlayerView):
    """One player as the caller sees them."""

    name: Annotated[str, Doc("The name the game shows (display name, else username).")]
    username: str


class State(ViewOf[Player]):
    """The state as the caller may see it: the engine's view (``powergrid.view``) with the
    server's keys. Other players' money is null until the end."""

    game: Annotated[int, Doc("The game id.")]
    seq: Annotated[int, Doc("Moves so far: send it as expected_seq.")]
    seat: Annotated[int | None, Doc("The caller's seat, null if none.")]
    deadline: Annotated[datetime | None, Doc("Earliest deadline of the awaited seats (UTC).")]


# ---------------------------------------------------------------- the move log and the record
class Move(TypedDict):
    """One move of the log."""

    seq: int
    seat: int
    action: Annotated[
        JSONObject,
        Component("LoggedAction"),
        Doc(
            "The action as sent; a sealed answer (a seal_bid, or a pass_bid in a sealed "
            'auction) shows as {"type": "seal_bid"} until its auction\'s bids are opened.'
        ),
    ]
    time: datetime
    source: MoveSource


class GameRecord(TypedDict):
    """A finished game's record: ``python -m powergrid verify record.json`` checks it."""

    game_id: int
    map: str
    players: Annotated[int, Doc("The number of players.")]
    areas: Annotated[list[str] | None, Doc("null: drawn from the seed.")]
    variant: Variant
    house_rules: Annotated[
        list[HouseRule], Doc("The variant when it is a house rule, not the published game's.")
    ]
    plant_deck: PlantDeck
    edition: Annotated[
        int,
        Doc(
            "The rules edition (see the game's `rules_edition`); `python -m powergrid verify` "
            "sets the game up with it."
        ),
    ]
    seed: int
    commitment: str
    moves: Annotated[
        list[tuple[int, Annotated[JSONObject, Component("LoggedAction")]]],
        Doc("[seat, action] in the order played, take-backs among them."),
    ]
    takebacks: Annotated[list[TakebackEntry], Doc("The take-backs among the moves.")]
    result: list[ResultRow]


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


#: One of the caller's plans, by kind (docs/API.md, Plans).
Plan = Annotated[
    ProxyBidPlan | AutoPassPlan | PassWhenNothingPlan | BuyPlan | BuildPlan | PowerPlan,
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
            "What your plan did at once, one entry per move of the log it made for your seat "
            "(empty when it waits for your turn): set during your own turn, a plan that holds "
            "acts before the answer."
        ),
    ]


# ---------------------------------------------------------------- forecast
class SeatPace(TypedDict):
    seat: int
    median_reply_hours: Annotated[
        float | None,
        Doc(
            "Median time from when the game awaited this seat to its own move (in a "
            "simultaneous phase, from when the phase asked everyone)."
        ),
    ]
    waited_hours: Annotated[float, Doc("Hours the game waited on it, recent moves.")]
    replies: Annotated[int, Doc("Moves of its own counted (at most 20).")]


class Forecast(TypedDict):
    rounds_left: int
    waits_left: Annotated[int, Doc("Times the game will wait for a person.")]
    hours_per_wait: float
    finish: Annotated[datetime, Doc("Expected end (a rough guide).")]
    bottleneck: Annotated[
        int | None, Doc("The seat the game waits on most (null: too early to say).")
    ]
    seats: list[SeatPace]


# ---------------------------------------------------------------- webhooks
WebhookEvent = Literal["your_turn", "game_started", "game_over", "takeback", "takeback_asked"]


class Webhook(TypedDict):
    id: int
    url: str
    format: WebhookFormat
    events: list[WebhookEvent]
    game: Annotated[int | None, Doc("The game whose every turn is posted; null: your own.")]
    active: bool
    failures_in_row: int
    disabled_reason: str
    secret: Annotated[
        str,
        Doc(
            "generic format: verify X-PowerGrid-Signature = sha256=HMAC-SHA256(secret, "
            '"<X-PowerGrid-Timestamp>.<body>").'
        ),
    ]


class WebhookTest(TypedDict):
    delivery: Annotated[int, Doc("The test delivery's id (X-PowerGrid-Delivery).")]


# ---------------------------------------------------------------- chat
class ChatMessage(TypedDict):
    id: int
    author: Annotated[str, Doc("The author's display name.")]
    seat: Annotated[int | None, Doc("The author's seat, null if they hold none.")]
    text: Annotated[str, Doc("Plain text (never HTML).")]
    time: datetime
    edited: bool


# ---------------------------------------------------------------- players' profiles
class PlayerRating(TypedDict):
    """A player's rating (openskill's Plackett-Luce model), changed once per rated game."""

    value: Annotated[
        int, Doc("The rating shown: the conservative estimate (mu - 3 sigma) times 10.")
    ]
    mu: Annotated[float, Doc("The model's estimate of the player's skill.")]
    sigma: Annotated[float, Doc("Its uncertainty (it shrinks with each rated game).")]
    games: Annotated[int, Doc("Rated games played.")]
    updated_at: datetime


class PlayerReliability(TypedDict):
    """How the player keeps to deadlines, over their last turns (the server's bots and a seat the
    bot played are not counted)."""

    turns: Annotated[int, Doc("Recent turns counted (made by the player or timed out, last 50).")]
    on_time: int
    timed_out: int
    percent: Annotated[int | None, Doc("on_time of turns, in %; null: no turn yet.")]
    abandoned: Annotated[int, Doc("Seats the bot plays now after the player's timeouts.")]
    median_reply_hours: Annotated[
        float | None, Doc("Median time from when a turn was awaited to the player's move.")
    ]


class PlayerGame(TypedDict):
    """One of the player's games, as anyone may see it listed (a private game only for its
    players and invitees)."""

    id: int
    map: str
    status: GameStatus
    players: Annotated[int, Doc("Seats taken.")]
    max_players: int
    place: Annotated[int | None, Doc("Finished games: the player's rank (1 = won; ties share it).")]
    finished_at: datetime | None


class PlayerGamePage(TypedDict):
    """One page of the player's finished games, newest first (20 a page)."""

    count: int
    page: int
    pages: int
    results: list[PlayerGame]


class PlayerProfile(TypedDict):
    """What the site says about a player (their page, /players/{username}/), from public facts."""

    username: str
    display_name: Annotated[str, Doc("The name games show (display name, else username).")]
    bot_account: Annotated[bool, Doc("A third party's bot account.")]
    server_bot: Annotated[bool, Doc("One of the server's own bots.")]
    rating: Annotated[PlayerRating | None, Doc("null: not rated yet.")]
    reliability: PlayerReliability
    current_games: Annotated[
        list[PlayerGame], Doc("Open games and games under way, newest first (at most 30).")
    ]
    finished_games: PlayerGamePage


# ---------------------------------------------------------------- a finished game's result
class GameResultRow(TypedDict):
    """One seat's score, as the result page's table shows it."""

    seat: int
    rank: Annotated[int, Doc("1 = won; ties share a rank.")]
    name: str
    username: str
    colour: Colour
    powered: Annotated[int, Doc("Cities powered in the last round.")]
    money: int
    cities: Annotated[int, Doc("Cities connected.")]
    takebacks_alone: int
    takebacks_agreed: int


class SeatFigures(TypedDict):
    seat: int
    money: Annotated[int, Doc("Money (every payment is public once the game is over).")]
    cities: Annotated[int, Doc("Cities connected.")]
    plants: Annotated[int, Doc("Power plants owned.")]


class RoundFigures(TypedDict):
    """Each seat's figures at the start of a round (or at the end of the game)."""

    round: Annotated[int, Doc("The round (the end: the round after the last).")]
    end: Annotated[bool, Doc("The final position, after the last round's bureaucracy.")]
    seats: list[SeatFigures]


class GameResult(TypedDict):
    """A finished game's result: the scores and, per round, each seat's money, cities and plants
    (what the result page charts, replayed from the move log)."""

    game: int
    rows: Annotated[list[GameResultRow], Doc("By rank, then seat.")]
    rounds: list[RoundFigures]


# ---------------------------------------------------------------- build quote
class BuildQuote(TypedDict):
    """What building in these cities now would cost the caller's seat, in the cheapest order
    the rules allow (build spaces plus the cheapest connections); money is not checked."""

    cities: Annotated[list[str], Doc("The cities priced, as asked.")]
    cost: int
    money_left: Annotated[int, Doc("The caller's money after paying (negative: too little).")]


# ---------------------------------------------------------------- the caller's account
class CalendarFeed(TypedDict):
    """The caller's calendar feed: an iCalendar of their deadlines at a secret address anyone
    holding it may read (no login)."""

    url: Annotated[str | None, Doc("null: the feed is off.")]


class Vacation(TypedDict):
    """The caller's vacation: while on it, their turn clocks stop (days counted against a
    yearly allowance)."""

    on: bool
    until: Annotated[datetime | None, Doc("When the vacation ends (null when not on one).")]
    days_per_year: int
    days_used: Annotated[int, Doc("Days taken this year (unused days of one ended early back).")]
    days_left: int
    year: Annotated[int, Doc("The year the allowance is counted in.")]


class ApiToken(TypedDict):
    """One of the caller's API tokens; the token itself is shown only once, when made."""

    prefix: Annotated[
        str, Doc("The token's first characters (to tell it apart; DELETE .../{prefix}/).")
    ]
    name: Annotated[str, Doc("The name its owner gave it (may be empty).")]
    created: datetime
    last_used: Annotated[
        datetime | None,
        Doc("When it last authenticated a request, to within minutes (null: not yet)."),
    ]
    expiry: Annotated[datetime | None, Doc("null: valid until revoked.")]
    current: Annotated[bool, Doc("The token this request was made with.")]
