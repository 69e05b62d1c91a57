"""A finished game's record and result, and players' profiles."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypedDict

from games.shapes.base import BotLevel, Component, GameStatus, JSONObject
from games.shapes.takebacks import TakebackEntry
from powergrid.shapes import Colour, Doc, HouseRule, PlantDeck, ResultRow, Variant


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


class BotLevelRating(TypedDict):
    """One bot level and its rating, as the "Bot levels" page (/bots/) shows it."""

    level: BotLevel
    name: Annotated[str, Doc("The level as a player, in the reader's language.")]
    rating: Annotated[
        int | None, Doc("The rating shown (as a player's `rating.value`); null: not rated yet.")
    ]
    games: Annotated[int, Doc("The finished games that rated it.")]
    username: Annotated[
        str | None,
        Doc("Its rating account (GET /api/v1/players/{username}/); null: it has not played."),
    ]


class PlayerProfile(TypedDict):
    """What the site says about a player (their page, /players/{username}/), from public facts."""

    username: str
    display_name: Annotated[str, Doc("The name games show (display name, else username).")]
    bot_account: Annotated[bool, Doc("A third party's bot account.")]
    server_bot: Annotated[bool, Doc("One of the server's own bots.")]
    rating: Annotated[PlayerRating | None, Doc("null: not rated yet.")]
    reliability: Annotated[
        PlayerReliability | None,
        Doc(
            "null: one of the server's bots (`server_bot`), which has no turns of its own to "
            "count (a level's rating account, or a seat's bot)."
        ),
    ]
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
