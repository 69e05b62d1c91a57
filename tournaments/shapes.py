"""The API's answers about tournaments, declared once as TypedDicts (the OpenAPI components are
generated from them by ``games.api.openapi``, as the games' are from ``games.shapes``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, TypedDict

from powergrid.shapes import Doc

TournamentStatus = Literal["open", "running", "finished"]


class TournamentPlayer(TypedDict):
    """An entrant at a table: the seat, and once the game ended its result and points."""

    username: str
    name: str
    seat: int
    rank: Annotated[int | None, Doc("The rules' rank at the table (1: winner); null: playing.")]
    powered: int | None
    money: int | None
    points: Annotated[int | None, Doc("Tournament points (120 to a table's winner).")]


class TournamentTable(TypedDict):
    number: int
    map: str
    game: Annotated[
        int | None,
        Doc(
            "The table's game: `/api/v1/games/{game}/`; null while the table is being set up"
            " (just after its round was seated, until its game is made)."
        ),
    ]
    finished: bool
    players: list[TournamentPlayer]


class _Paged(TypedDict):
    """Where a page lies in its list (``games.api.base.Paging``: ``?limit=&offset=``)."""

    count: Annotated[int, Doc("How many the whole list holds.")]
    next: Annotated[str | None, Doc("The next page's URL; null: this is the last.")]
    previous: Annotated[str | None, Doc("The previous page's URL; null: this is the first.")]


class TournamentRound(TypedDict):
    """A round as the tournament lists it: its tables are counted, and read a page at a time
    from `/api/v1/tournaments/{id}/rounds/{number}/`."""

    number: int
    started_at: datetime
    finished_at: datetime | None
    tables_count: Annotated[int, Doc("How many tables the round seated.")]


class TournamentRoundTables(_Paged):
    """One round: a page of its tables (`results`, by number; `count`: all of them) and its
    byes."""

    number: int
    started_at: datetime
    finished_at: datetime | None
    byes: Annotated[list[str], Doc("Usernames sitting the round out (a bye: 60 points).")]
    results: list[TournamentTable]


class TournamentSummary(TypedDict):
    """A tournament as lists show it."""

    id: int
    name: str
    director: str
    status: TournamentStatus
    maps: list[str]
    table_min: int
    table_max: int
    round_count: Annotated[int, Doc("Rounds the tournament plays (`rounds` when created).")]
    current_round: int
    turn_hours: int
    private: bool
    signup_deadline: datetime | None
    rating_min: int | None
    rating_max: int | None
    entrants: Annotated[
        int,
        Doc("How many entered (those who dropped out too): `/api/v1/tournaments/{id}/players/`."),
    ]
    created_at: datetime


class TournamentEntrant(TypedDict):
    username: str
    name: str
    dropped: bool


class TournamentLeague(TypedDict):
    """The league a division's tournament belongs to."""

    id: Annotated[int, Doc("The league: `/api/v1/leagues/{id}/`.")]
    name: str
    season: int
    division: Annotated[int, Doc("1: the top division.")]


class Tournament(TournamentSummary):
    """A tournament with its rounds, each with its number of tables. Its entrants (`entrants`
    of them) are paged at `/api/v1/tournaments/{id}/players/`, a round's tables at
    `/api/v1/tournaments/{id}/rounds/{number}/`: the answer is as small at 2,000 entrants as
    at 10."""

    league: Annotated[
        TournamentLeague | None, Doc("A league division's tournament: which; else null.")
    ]
    rounds: Annotated[
        list[TournamentRound], Doc("Every round seated so far (at most `round_count`).")
    ]
    entered: Annotated[bool, Doc("Whether you entered it (dropped out or not).")]
    invite_code: Annotated[
        str | None,
        Doc(
            "A private tournament's code (the `code` its join and reads take): shown to its"
            " director only; null to anyone else, and for a public tournament."
        ),
    ]


class TournamentPage(_Paged):
    """A page of tournaments, newest first."""

    results: list[TournamentSummary]


class TournamentEntrantPage(_Paged):
    """A page of a tournament's entrants, in the order they entered."""

    results: list[TournamentEntrant]


class StandingRow(TypedDict):
    place: Annotated[int, Doc("Shared by players equal on every tie-break but join order.")]
    username: str
    name: str
    points: int
    powered: int
    money: int
    head_to_head: int
    games: int
    byes: int
    dropped: bool


class Standings(_Paged):
    """A page of a tournament's standings (`results`, best first; `count`: every entrant)."""

    tournament: int
    final: Annotated[bool, Doc("true once the last round ended.")]
    results: list[StandingRow]


# -- Leagues --------------------------------------------------------------------------------


class LeagueSummary(TypedDict):
    """A league as lists show it."""

    id: int
    name: str
    director: str
    maps: list[str]
    table_min: int
    table_max: int
    rounds: Annotated[int, Doc("Rounds each season plays (each member once a round).")]
    turn_hours: int
    division_size: Annotated[int, Doc("The most members a division holds.")]
    movers: Annotated[
        int,
        Doc(
            "At a season's end the top `movers` of a division go up, the bottom down (at least"
            " 1, at most half of `division_size`)."
        ),
    ]
    members: Annotated[int, Doc("How many members: `/api/v1/leagues/{id}/players/`.")]
    season: Annotated[int, Doc("The running or last season's number; 0: none yet.")]
    season_running: bool
    created_at: datetime


class LeagueMember(TypedDict):
    username: str
    name: str
    division: Annotated[int | None, Doc("Their division in the running or last season.")]
    waiting: Annotated[bool, Doc("Joined during the season: plays from the next one.")]


class LeagueSeasonSummary(TypedDict):
    """A season as the league lists it: its divisions are counted, and read a page at a time
    (with their standings) from `/api/v1/leagues/{id}/seasons/{number}/`."""

    number: int
    started_at: datetime
    finished_at: datetime | None
    divisions_count: Annotated[int, Doc("How many divisions the season plays.")]
    your_division: Annotated[
        int | None,
        Doc(
            "Your division in the season (1 to `divisions_count`, the top first, in the order"
            " the season's pages list them, so `?offset=` one less than it opens a page with"
            " it); null if you did not play in it."
        ),
    ]


class League(LeagueSummary):
    """A league with its seasons, each with its number of divisions. Its members (`members`
    of them) are paged at `/api/v1/leagues/{id}/players/`, a season's divisions at
    `/api/v1/leagues/{id}/seasons/{number}/`: the answer does not grow with the members."""

    seasons: list[LeagueSeasonSummary]
    member: Annotated[bool, Doc("Whether you are a member.")]


class LeaguePage(_Paged):
    """A page of leagues, newest first."""

    results: list[LeagueSummary]


class LeagueMemberPage(_Paged):
    """A page of a league's members, in the order they joined."""

    results: list[LeagueMember]


class LeagueStandingRow(StandingRow):
    move: Annotated[
        Literal["up", "down", "stay"],
        Doc("Promoted, relegated or staying at the season's end (while it runs: if it ended now)."),
    ]


class LeagueDivision(TypedDict):
    number: int
    tournament: int
    status: TournamentStatus
    current_round: int
    round_count: int
    rows: Annotated[list[LeagueStandingRow], Doc("The division's standings, best first.")]


class LeagueSeason(_Paged):
    """A season: a page of its divisions (`results`, the top first; `count`: all of them), each
    with its standings and who moves up and down."""

    league: int
    number: int
    started_at: datetime
    finished_at: datetime | None
    final: Annotated[bool, Doc("true once every division's last round ended.")]
    results: list[LeagueDivision]
