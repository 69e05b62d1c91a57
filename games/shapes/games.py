"""Maps, games (the lobby's and a game's own), the state as the caller sees it, the move
log, the forecast, chat and build quotes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NotRequired, TypedDict

from games.shapes.base import BotLevel, Component, GameStatus, JSONObject, MoveSource
from powergrid.shapes import (
    Colour,
    Doc,
    HouseRule,
    MapArea,
    MapCity,
    MapConnection,
    PlantDeck,
    PlayerView,
    Resource,
    Variant,
    Viewbox,
    ViewOf,
)


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
SeatOffered = Literal["", "seeking", "left", "timed_out"]


class Seat(TypedDict):
    seat: int
    username: str
    display_name: str
    colour: Colour
    bot_controlled: Annotated[bool, Doc("A bot plays this seat after timeouts.")]
    offered: Annotated[
        SeatOffered,
        Doc(
            'Whether the seat is offered to substitutes (`POST .../substitute/`), and why: `""` '
            "(not offered), `seeking` (its player seeks a substitute and plays on), `left` (its "
            "player resigned; the bot plays it), `timed_out` (the bot took it over after missed "
            "deadlines; its player may still come back)."
        ),
    ]
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
    sheets: Annotated[
        bool, Doc("Played by round sheets (one answer a round per player); false: move by move.")
    ]
    substitutes: Annotated[
        bool, Doc("A seat left or taken over by the bot is offered to substitutes; false: never.")
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


class NextGame(TypedDict):
    """``GET /api/v1/games/next/``: the game to play next."""

    game: Game
    deadline: Annotated[str | None, Doc("Your deadline in it (ISO 8601), null if none.")]
    waiting: Annotated[int, Doc("How many games wait for your move, this one included.")]


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
    hours_per_wait: Annotated[
        float, Doc("Expected hours a wait: minutes_per_wait / 60, to 3 places (never 0 alone).")
    ]
    minutes_per_wait: Annotated[
        float, Doc("The same in minutes, to 1 place (a practice game against bots waits minutes).")
    ]
    minutes_left: Annotated[int, Doc("Minutes until the expected end (at least 1).")]
    finish: Annotated[datetime, Doc("Expected end (a rough guide).")]
    bottleneck: Annotated[
        int | None, Doc("The seat the game waits on most (null: too early to say).")
    ]
    seats: list[SeatPace]
    sheet_rounds: Annotated[
        int,
        Doc(
            "Rounds whose sheets were answered (one wait each, all seats at once): counted "
            "among the waits so far, the moves the sheets made are not."
        ),
    ]


# ---------------------------------------------------------------- chat
class ChatMessage(TypedDict):
    id: int
    author: Annotated[str, Doc("The author's display name.")]
    seat: Annotated[int | None, Doc("The author's seat, null if they hold none.")]
    text: Annotated[str, Doc("Plain text (never HTML).")]
    time: datetime
    edited: bool


# ---------------------------------------------------------------- build quote
class BuildQuote(TypedDict):
    """What building in these cities now would cost the caller's seat, in the cheapest order
    the rules allow (build spaces plus the cheapest connections); money is not checked."""

    cities: Annotated[list[str], Doc("The cities priced, as asked.")]
    cost: int
    money_left: Annotated[int, Doc("The caller's money after paying (negative: too little).")]
