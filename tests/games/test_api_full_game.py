"""Whole games through the API: bots on every seat, and the hidden-information check on every
response (another player's money, the seed, the deck order, the plants removed at setup)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db

MAX_MOVES = 3000


def _walk(obj: Any, path: str = ""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", k, v
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")


class Secrets:
    """What the server knows and must never say (read from its own snapshot, or at move
    ``seq``: the replayed state then, for the answers about a past position)."""

    def __init__(self, gid: int, seq: int | None = None) -> None:
        import powergrid
        from games import selectors
        from games.models import Game

        game = Game.objects.get(pk=gid)
        if seq is None:
            self.state = powergrid.from_json(game.state_json)
        else:
            self.state = selectors.game_engine_state_at(game, seq)
        self.seed = game.seed
        self.seed_strings = {str(game.seed)}

    def check(self, body: Any, viewer_seat: int | None, finished: bool) -> None:
        text = json.dumps(body)
        if not finished:  # at the end the seed is shown, so that anyone can verify the shuffle
            for s in self.seed_strings:
                assert s not in text, "the seed leaked"
        forbidden_keys = {"deck", "setup_removed", "state_json"}
        for path, key, value in _walk(body):
            assert key not in forbidden_keys, f"secret key {path}"
            if key == "seed" and not finished:
                assert value is None, f"the seed leaked at {path}"
            if key == "deck_size":
                assert isinstance(value, int)
        if isinstance(body, dict) and "players" in body and not finished:
            for pl in body["players"]:
                if pl["seat"] != viewer_seat:
                    assert pl["money"] is None, f"money of seat {pl['seat']} leaked"
        # The deck's order: no list in the response equals the (secret) remaining deck order.
        deck = list(self.state.deck)
        if len(deck) >= 3:
            for _path, _key, value in _walk(body):
                if isinstance(value, list) and len(value) >= 3:
                    assert value != deck, "the deck order leaked"
        removed = list(self.state.setup_removed)
        if removed:
            for _path, key, value in _walk(body):
                if isinstance(value, list) and value and value == removed:
                    raise AssertionError(f"setup removals leaked at {key}")


def _play(gid: int, ps, bot_factory, check_secrets: bool, spectator=None) -> dict:
    from games.models import Game

    seats = seat_players(gid, ps)
    bots = {seat: bot_factory(seat) for seat in seats}
    moves = 0
    quotes = 0
    finished = False
    commitment = ps[0].get(f"/api/v1/games/{gid}/").json()["seed_commitment"]
    assert commitment is not None
    assert len(commitment) == 64
    while moves < MAX_MOVES:
        game = ps[0].get(f"/api/v1/games/{gid}/").json()
        assert game["seed_commitment"] == commitment  # fixed from the start
        if check_secrets:
            Secrets(gid).check(game, None, game["status"] == "finished")
        if game["status"] == "finished":
            finished = True
            break
        if check_secrets and moves % 50 == 0:
            r = ps[0].get(f"/api/v1/games/{gid}/record/")
            assert r.status_code == 409
            assert r.json()["error"]["code"] == "game_not_finished"
        seat = game["to_act"][0]
        p = seats[seat]
        st = p.get(f"/api/v1/games/{gid}/state/").json()
        assert st["seq"] == game["seq"]
        assert st["legal"], "the awaited seat must have something to do"
        if check_secrets:
            secrets = Secrets(gid)
            secrets.check(st, seat, False)
            for other_seat, other in seats.items():
                if other_seat != seat:
                    secrets.check(
                        other.get(f"/api/v1/games/{gid}/state/").json(), other_seat, False
                    )
            if spectator is not None:
                secrets.check(spectator.get(f"/api/v1/games/{gid}/state/").json(), None, False)
        if check_secrets and moves % 25 == 0:
            _walk_the_other_answers(gid, seats, spectator, seat, st, moves)
        if check_secrets:
            quotes += _check_quotes(gid, seats, seat, st)
        action = bots[seat](gid, seat, st)
        r = p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": st["seq"]})
        assert r.status_code == 201, (action, r.json())
        if check_secrets:
            Secrets(gid).check(r.json(), seat, r.json()["phase"] == "finished")
        moves += 1
    assert finished, f"not finished after {moves} moves"
    assert quotes or not check_secrets, "no build quote was checked"
    final = ps[0].get(f"/api/v1/games/{gid}/state/").json()
    assert final["phase"] == "finished"
    assert final["result"]
    assert Game.objects.get(pk=gid).seq == moves
    log = ps[0].get(f"/api/v1/games/{gid}/moves/").json()
    assert [m["seq"] for m in log] == list(range(1, moves + 1))
    if check_secrets:
        Secrets(gid).check(log, None, True)
    # The end reveals the seed: the record verifies with the engine alone.
    from powergrid.verify import verify

    if check_secrets:  # the end: money is public now, the seed too
        result = ps[0].get(f"/api/v1/games/{gid}/result/").json()
        Secrets(gid).check(result, None, True)
        assert len(result["rounds"]) >= 2
    record = ps[0].get(f"/api/v1/games/{gid}/record/").json()
    assert record["commitment"] == commitment
    assert record["seed"] == ps[0].get(f"/api/v1/games/{gid}/").json()["seed"]
    assert verify(record).ok
    return final


def _walk_the_other_answers(gid, seats, spectator, seat, st, moves) -> None:
    """Every other answer about a game under way, as each seat and a spectator: the state at a
    past move (checked against the secrets of that moment and of now), the build quote, the
    players' profiles, the result (409 until the end)."""
    import random

    rng = random.Random(moves)
    past = rng.randint(0, st["seq"])
    then, now = Secrets(gid, past), Secrets(gid)
    readers = [*seats.items(), *([(None, spectator)] if spectator is not None else [])]
    for viewer_seat, reader in readers:
        body = reader.get(f"/api/v1/games/{gid}/states/{past}/").json()
        assert body["seq"] == past
        assert body["legal"] == []
        then.check(body, viewer_seat, False)
        now.check(body, viewer_seat, False)
        r = reader.get(f"/api/v1/games/{gid}/result/")
        assert (r.status_code, r.json()["error"]["code"]) == (409, "game_not_finished")
        for p in seats.values():
            profile = reader.get(f"/api/v1/players/{p.user.username}/").json()
            now.check(profile, viewer_seat, False)
            assert "money" not in json.dumps(profile)


def _check_quotes(gid, seats, seat, st) -> int:
    """When the awaited seat may build: its quote for the cheapest city is that city's cost in
    ``legal``; every seat's quote (its own money, nobody else's) holds no secret. How many
    were checked."""
    now = Secrets(gid)
    build = [e for e in st["legal"] if e["type"] == "build"]
    if build and build[0]["cities"]:
        city = min(build[0]["cities"], key=lambda c: (build[0]["cities"][c], c))
        quote = seats[seat].get(f"/api/v1/games/{gid}/quote/?cities={city}").json()
        assert quote["cost"] == build[0]["cities"][city]
        now.check(quote, seat, False)
        for other_seat, other in seats.items():
            if other_seat != seat:  # one's own money only: another seat has no quote
                r = other.get(f"/api/v1/games/{gid}/quote/?cities={city}")
                assert r.status_code == 200 or r.json()["error"]["code"] != "not_a_player"
                if r.status_code == 200:
                    now.check(r.json(), other_seat, False)
        return 1
    return 0


def heuristic_factory(seat: int):
    from apihelpers import bot_action

    from powergrid.bots import HeuristicBot

    bot = HeuristicBot()
    return lambda gid, s, state: bot_action(gid, s, bot)


def test_complete_game_with_heuristic_bots(new_game):
    from django.core.management import call_command

    gid, ps = new_game(players=4)
    final = _play(gid, ps, heuristic_factory, check_secrets=False)
    ranks = sorted(r["rank"] for r in final["result"])
    assert ranks[0] == 1
    call_command("check_replays", str(gid))


def test_hidden_information_over_a_whole_game(new_game, make_player):
    gid, ps = new_game(players=3)
    _play(gid, ps, heuristic_factory, check_secrets=True, spectator=make_player())
