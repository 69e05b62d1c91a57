"""What each kind of email's template reads: one TypedDict per kind, the builder's answer
(``builders``), so a template's variables are declared once and mypy checks every key a builder
fills. ``email_build`` adds ``Common`` to each.

A template that reads a new variable: add it to its kind's context here, then fill it in the
builder (mypy names the builder that misses it); ``tests/games/notifications/test_contexts.py``
checks that every variable a template reads is declared for its kind."""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from django.contrib.auth.models import User

from games.models import Game, Seat
from powergrid.shapes import Resource


class Tap(TypedDict):
    """A one-tap link (it opens a confirmation page)."""

    label: str
    url: str


class ChatLine(TypedDict):
    author: str
    text: str


class PlantLine(TypedDict):
    """A plant in a turn email (``facts``): None for the Step 3 card's number; ``tokens``: the
    tokens on an owned plant ({} in the market), ``stored`` the same in words; ``text``: the
    whole line."""

    number: int | None
    fuel: str
    burns: int
    powers: int
    tokens: dict[Resource, int]
    stored: str
    text: str


class ResourceLine(TypedDict):
    """One resource of the market: ``prices`` the tokens at each price in words; ``costs`` what
    buying 1, 2, 3... tokens costs the recipient now (empty unless they buy now)."""

    resource: str
    label: str
    count: int
    next_price: int | None
    prices: str
    costs: list[int]
    costs_text: str
    text: str


class PlayerFacts(TypedDict):
    """A player's public facts; ``money`` only for the recipient (None for the others)."""

    name: str
    you: bool
    cities: int
    city_names: str
    plants: list[PlantLine]
    money: int | None


class CityCost(TypedDict):
    """One of the recipient's cheapest next cities (the board in words' figures)."""

    slug: str
    name: str
    space: int
    connection: int
    total: int


class Facts(TypedDict):
    """What a turn email tells of the game beyond the moves (``facts.facts``)."""

    market_current: list[PlantLine]
    market_future: list[PlantLine]
    deck_size: int
    auction: str
    resources: list[ResourceLine]
    buying: bool
    me: PlayerFacts | None
    others: list[PlayerFacts]
    next_cities: list[CityCost]
    building: bool


class StateSummary(Facts):
    round: int
    step: int
    phase: str


class GameContext(TypedDict):
    """What every email about one game has (``parts.game_context``)."""

    game: Game
    game_id: int
    map_name: str
    game_url: str
    seat: Seat | None


class SheetMail(TypedDict):
    """The round sheet in a turn email (``games.sheets.inbox.sheet_mail``)."""

    round: int
    lines: list[tuple[str, str]]  # (command, reason)
    accept_url: str


class TurnContext(GameContext):
    """``turn``: it is the recipient's turn (also the reminder)."""

    reminder: bool
    #: Not awaited by the engine: only its round sheet is asked (``games.sheets.asking``).
    sheet_only: bool
    moves: list[str]
    earlier_moves: int
    summary: StateSummary
    asked: list[str]
    deadline: str
    plan_note: str
    private_note: str  # the recipient's own note on the game (games.notes): theirs alone
    reply_to: str | None
    reply_examples: list[str]
    taps: list[Tap]
    chat: list[ChatLine]
    sheet: SheetMail | None


class ReplyContext(GameContext):
    """``reply``: the answer to a move sent by email; what is asked next while awaited."""

    ok: bool
    plan: bool
    resigned: bool  # the reply was "resign": the player left the game
    line: str
    error: str
    code: str
    moves: list[str]
    asked: list[str]
    reply_to: str | None
    takeback_url: str
    will: str  # a sheet answered by reply: what it will do, line by line
    reply_examples: NotRequired[list[str]]
    taps: NotRequired[list[Tap]]
    #: While awaited: the turn email's facts (``parts.state_summary``), to decide what is asked
    #: without opening a page.
    summary: NotRequired[StateSummary]
    #: ``wrong_sender``, ``sender_not_authenticated``, ``no_sender``: the address the reply came
    #: from ("" when it is not shown or none could be read), the account's address and its
    #: page's URL.
    other: NotRequired[str]
    account_email: NotRequired[str]
    account_url: NotRequired[str]
    #: The same three, to a player who no longer holds the token's seat: no advice on moving.
    seat_gone: NotRequired[bool]
    #: ``resign_confirm``: the bot that would play the seat (its label) and how many hours the
    #: email's reply address confirms leaving.
    bot: NotRequired[str]
    hours: NotRequired[int]


class TakebackContext(GameContext):
    """``takeback``: another player took back moves that had told the recipient to play."""

    player: str
    moves: list[str]
    n: int
    your_turn: bool


class TakebackAskedContext(GameContext):
    """``takeback_asked``: another player asks to take back their moves."""

    player: str
    moves: list[str]
    n: int
    why: str
    deadline: str
    taps: list[Tap]


class TakebackDeclinedContext(GameContext):
    """``takeback_declined``: to the player who asked, another refused."""

    player: str


class StartedContext(GameContext):
    """``game_started``: with what is asked when the recipient plays first, else who does."""

    players: list[str]
    your_turn: bool
    asked: NotRequired[list[str]]
    reply_to: NotRequired[str | None]
    reply_examples: NotRequired[list[str]]
    deadline: NotRequired[str]
    first: NotRequired[list[str]]
    summary: NotRequired[StateSummary]
    #: A sheets game: round 1's sheet (every seat is asked at once).
    sheet: NotRequired[SheetMail | None]


class ResultLine(TypedDict):
    rank: int
    name: str
    powered: int
    cities: int
    money: int
    you: bool


class OverContext(GameContext):
    """``game_over``: the scores (public at the end) and the winners."""

    results: list[ResultLine]
    winners: list[str]


class TimeoutContext(GameContext):
    """``timeout``: the server moved for the recipient when their time ran out."""

    action: str
    #: The round whose sheet was played by its suggestions at its deadline (0: a turn's move).
    sheet_round: int
    timeouts_in_row: int
    bot_after: int
    bot_controlled: bool


class SeatContext(GameContext):
    """``seat``: another seat was left, offered, or taken by a substitute (games.services.seats)."""

    event: str  # left, seeking, joined
    player: str  # who left or seeks; the substitute who joined
    before: str  # joined: whom they replace
    seat_no: int


class BotContext(GameContext):
    """``bot_took_over``: a bot plays a seat now (the recipient's or another's)."""

    you: bool
    player: str


class WaitingGame(TypedDict):
    game_id: int
    map_name: str
    deadline: str
    url: str


class FinishedGame(TypedDict):
    game_id: int
    map_name: str
    url: str


class StartedGame(TypedDict):
    game_id: int
    map_name: str


class ChatGame(TypedDict):
    """A game's chat messages in a digest."""

    game_id: int
    map_name: str
    url: str
    messages: list[ChatLine]


class DigestContext(TypedDict):
    """``digest``: the games waiting for the recipient and what happened since the last one."""

    waiting: list[WaitingGame]
    chat: list[ChatGame]
    finished: list[FinishedGame]
    started: list[StartedGame]
    timeouts: int


class FullContext(GameContext):
    """``game_full``: to the creator, every seat is taken."""

    players: list[str]


class InvitedContext(GameContext):
    """``invited``: an invitation to an open game."""

    players: list[str]
    inviter: str
    seats_total: int


class WebhookDisabledContext(TypedDict):
    """``webhook_disabled``: a webhook turned off after failing too often."""

    url: str
    reason: str
    failures: int
    webhooks_url: str


class OpenWarningContext(GameContext):
    """``open_warning``: to the creator, their open game has not filled and will be closed."""

    days_open: int
    close_on: datetime
    seats_taken: int
    seats_total: int


class OpenClosedContext(TypedDict):
    """``open_closed``: to the creator, their open game that never filled was closed."""

    game_id: int
    map_name: str
    days_open: int
    new_game_url: str


class RestoredGame(TypedDict):
    """One game in a ``restored`` email: where it went back to and what of the reader's was
    lost (``games.restore.told``)."""

    head: str
    lines: list[str]
    url: str


class RestoredContext(TypedDict):
    """``restored``: what a failover or a restore lost of the recipient's (games.restore)."""

    restored_to: str
    blocks: list[RestoredGame]
    #: A game of the email went back (lost moves): its deadlines start again.
    went_back: bool


class CompetitionContext(TypedDict):
    """What every tournament and league email has (``competitions``: from its row's payload,
    written when it happened). ``league``: "" unless the tournament is a league's division."""

    title: str  # the name as the email says it (a league's: with its season and division)
    competition: str
    league: str
    season: int
    division: int
    competition_url: str
    round: int
    rounds: int
    place: int | None  # in the standings (before this round, for a round's email)
    points: int | None


class TableReadyContext(CompetitionContext):
    """``table_ready``: round 1's table (its game just started: ``start``, as the game's own
    "started" email says it, which this email replaces)."""

    table: int
    start: StartedContext
    reply_to: NotRequired[str | None]  # the game's, as in its "started" email: reply to move


class RoundStartedContext(CompetitionContext):
    """``round_started``: a later round; ``table`` None (and no ``start``): a bye."""

    table: int | None
    start: NotRequired[StartedContext]
    reply_to: NotRequired[str | None]


class LeaderLine(TypedDict):
    place: int
    name: str
    points: int


class FinalStandingsContext(CompetitionContext):
    """``final_standings``: the recipient's place of ``of``, the leaders, and in a league
    whether they go up, down or stay (``move``; "" outside a league)."""

    of: int
    leaders: list[LeaderLine]
    move: str


#: What a builder answers (one of these per kind).
EmailContext = (
    TurnContext
    | ReplyContext
    | TakebackContext
    | TakebackAskedContext
    | TakebackDeclinedContext
    | StartedContext
    | OverContext
    | TimeoutContext
    | BotContext
    | DigestContext
    | FullContext
    | InvitedContext
    | WebhookDisabledContext
    | OpenWarningContext
    | OpenClosedContext
    | RestoredContext
    | TableReadyContext
    | RoundStartedContext
    | FinalStandingsContext
)


class Common(TypedDict):
    """What ``email_build`` adds to every email's context (the base templates read it)."""

    recipient: User
    recipient_name: str
    settings_url: str
    site_url: str
    kind: str
    LANGUAGE_CODE: str
    #: The rendered subject line, added before the text and HTML are rendered
    #: (``emails.email_render``): the HTML's ``<title>``.
    subject: NotRequired[str]
