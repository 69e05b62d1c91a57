"""Helpers for the server tests (imported by tests and by conftest.py)."""

from __future__ import annotations

import itertools
from typing import Any

from tests.api_schema import ValidatingAPIClient as APIClient

PASSWORD = "correct-horse-battery"
_counter = itertools.count()


class Player:
    """A user with a token-authenticated API client."""

    def __init__(self, user: Any, client: APIClient, token: str) -> None:
        self.user = user
        self.client = client
        self.token = token

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, data: Any = None, **kw: Any) -> Any:
        return self.client.post(path, data, format="json", **kw)


#: A game played move by move (no round sheets): each turn its own deadline and turn email,
#: as before sheets existed. Round sheets' asks, emails and deadlines: tests/games/sheets/.
BY_MOVES = {"sheets": False}


def by_moves(new_game: Any) -> Any:
    """``new_game`` (the fixture) for games played move by move (``BY_MOVES``): a module
    about each turn's email or deadline overrides its ``new_game`` with this."""

    def make(players: int = 3, start: bool = True, **create: Any) -> Any:
        create["options"] = {**BY_MOVES, **create.get("options", {})}
        return new_game(players, start, **create)

    return make


def seat_players(gid: int, players: list[Player]) -> dict[int, Player]:
    from games.models import Seat

    by_user = {p.user.pk: p for p in players}
    return {s.seat: by_user[s.user_id] for s in Seat.objects.filter(game_id=gid)}


def leaf_values(obj: Any) -> Any:
    """Every number and string inside a JSON body (to check a secret appears nowhere)."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from leaf_values(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from leaf_values(v)
    else:
        yield obj


def open_first_auction(gid: int, seats: dict[int, Player]) -> tuple[Any, int, int]:
    """Round 1's opener puts the cheapest plant up at its number, through the API. Returns
    (the state before, the opener's seat, the plant)."""
    import powergrid
    from games.models import Game

    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    opener = powergrid.to_act(s)[0]
    plant = s.market[0]
    r = seats[opener].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "choose_plant", "plant": plant, "bid": plant}, "expected_seq": 0},
    )
    assert r.status_code == 201, r.json()
    return s, opener, plant


def bot_action(gid: int, seat: int, bot: Any) -> dict[str, Any]:
    """What ``bot`` plays for ``seat`` now (reads the server's snapshot; test-only)."""
    import powergrid
    from games.models import Game

    state = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    return bot.choose(state, seat)


def play_default(gid: int, players: list[Player], *, times: int = 1) -> None:
    """The awaited player makes the engine's default move through the API (``times`` moves)."""
    import powergrid
    from games.models import Game

    seats = seat_players(gid, players)
    for _ in range(times):
        game = Game.objects.get(pk=gid)
        seat = game.to_act[0]
        action = powergrid.default_action(powergrid.from_json(game.state_json), seat)
        body = {"action": action, "expected_seq": game.seq}
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", body)
        assert r.status_code == 201, r.content


def play_to_end(gid: int, players: list[Player]) -> None:
    """Every awaited player plays the heuristic bot's move through the API until the game ends."""
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    seats = seat_players(gid, players)
    bot = HeuristicBot()
    for _ in range(3000):
        g = Game.objects.get(pk=gid)
        if g.status == "finished":
            return
        seat = g.to_act[0]
        body = {"action": bot_action(gid, seat, bot), "expected_seq": g.seq}
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", body)
        assert r.status_code == 201, r.content
    raise AssertionError("the game did not end")
