#!/usr/bin/env python3
"""A bot that plays Power Grid on this server: a starting point for your own (docs/BOTS.md).

It plays through the client generated from the API's schema (``clients/python``, the package
``powergrid_client``) and learns of its turns from the event stream, as Lichess's bot starter
does: one stream per bot, reconnecting with ``Last-Event-ID`` when it drops (so no turn is
missed), a move only when the stream says it is its turn, chosen from the state's ``legal``
moves. ``choose`` is the part to replace with your own strategy.

    pip install -e clients/python          # or: PYTHONPATH=clients/python
    python examples/bot_starter/bot_starter.py --server https://example.org --token <token>

``--game ID`` plays that game only and exits when it is over (how CI runs three of them).
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
from powergrid_client import AuthenticatedClient
from powergrid_client.api.play import games_moves_create, games_state_retrieve
from powergrid_client.models import Error, MoveSubmitRequest, State, StreamGameEvent

log = logging.getLogger("bot_starter")

# -- the strategy: replace with yours ----------------------------------------------------------

#: Resources a plant's fuel burns (a hybrid burns coal or oil).
BURNS = {"coal": ["coal"], "oil": ["oil"], "garbage": ["garbage"], "uranium": ["uranium"]}
BURNS["hybrid"] = ["coal", "oil"]


def choose(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves to try, best first (the last is always accepted), from the state's ``legal``."""
    me = state["players"][state["seat"]]
    money = me["money"] or 0
    legal = {m["type"]: m for m in state["legal"]}
    if "discard_plant" in legal:
        return [{"type": "discard_plant", "plant": min(legal["discard_plant"]["plants"])}]
    if "choose_plant" in legal:
        plants = sorted(legal["choose_plant"]["plants"], key=lambda p: -p["number"])
        affordable = [p for p in plants if p["min_bid"] <= money - 10 * len(me["plants"])]
        buy = [
            {"type": "choose_plant", "plant": p.get("id", p["number"]), "bid": p["min_bid"]}
            for p in affordable[:1]
        ]
        if "pass_auction" in legal and len(me["plants"]) >= 2:
            return [{"type": "pass_auction"}]
        cheapest = min(plants, key=lambda p: p["min_bid"])
        last = {"type": "choose_plant", "plant": cheapest.get("id", cheapest["number"])}
        return [*buy, {**last, "bid": cheapest["min_bid"]}]
    if "pass_bid" in legal:
        return [{"type": "pass_bid"}]
    if "seal_bid" in legal:
        return [{"type": "seal_bid", "amount": legal["seal_bid"]["min"]}]
    if "buy_resources" in legal:
        return [*_buy(me, legal["buy_resources"], money), {"type": "buy_resources"}]
    if "build" in legal:
        cities = sorted(legal["build"]["cities"].items(), key=lambda kv: kv[1])
        tries = []
        for n in (3, 2, 1):
            pick = cities[:n]
            if len(pick) == n and sum(c for _s, c in pick) <= money * 0.7:
                tries.append({"type": "build", "cities": [s for s, _c in pick]})
        return [*tries, {"type": "build", "cities": []}]
    if "power" in legal:
        return [{"type": "power"}]
    return [{"type": state["legal"][0]["type"]}]


def _buy(me: dict[str, Any], legal: dict[str, Any], money: int) -> list[dict[str, Any]]:
    """Enough tokens to fire each plant once, cheapest first, within money and the market."""
    want: dict[str, int] = {}
    for plant in me["plants"]:
        fuels = BURNS.get(plant["fuel"], [])
        if fuels:
            have = sum(plant["stored"].get(r, 0) for r in fuels)
            want[fuels[0]] = want.get(fuels[0], 0) + max(0, plant["burns"] - have)
    move: dict[str, Any] = {"type": "buy_resources"}
    for resource, n in want.items():
        prices = legal["prices"].get(resource, [])[: min(n, legal["max"].get(resource, 0))]
        while prices and sum(prices) > money:
            prices.pop()
        if prices:
            move[resource] = len(prices)
            money -= sum(prices)
    return [move] if len(move) > 1 else []


# -- the plumbing: the stream and the client ---------------------------------------------------


def events(client: AuthenticatedClient, last_id: list[str | None]) -> Iterator[dict[str, Any]]:
    """Each event's data from the stream, for ever: reconnects after the server's ``retry``
    with ``Last-Event-ID``, so every event is told once even across a dropped connection."""
    pause = 2.0
    while True:
        headers = {"Accept": "text/event-stream"}
        if last_id[0] is not None:
            headers["Last-Event-ID"] = last_id[0]
        try:
            http = client.get_httpx_client()
            with http.stream("GET", "/api/v1/stream/", headers=headers, timeout=60) as response:
                response.raise_for_status()
                pause = 2.0
                event_id, data = None, None
                for line in response.iter_lines():
                    if line.startswith("id: "):
                        event_id = line[4:]
                    elif line.startswith("data: "):
                        data = json.loads(line[6:])
                    elif line.startswith("retry: "):
                        pause = int(line[7:]) / 1000
                    elif not line and data is not None:
                        if event_id is not None:
                            last_id[0] = event_id
                        yield data
                        event_id, data = None, None
        except httpx.HTTPError as exc:
            log.warning("stream dropped (%s); reconnecting in %.0f s", exc, pause)
        time.sleep(pause)
        pause = min(pause * 2, 60.0)


def play_turn(client: AuthenticatedClient, game_id: int, seq: int) -> None:
    """Read the state; if it is still the turn the stream told of, send the first move the
    server accepts (a 409 means the game moved on: the stream will say what came next)."""
    state = games_state_retrieve.sync(game_id=game_id, client=client)
    if not isinstance(state, State) or state.seq != seq or state.seat not in state.to_act:
        return
    for action in choose(state.to_dict()):
        body = MoveSubmitRequest.from_dict({"action": action, "expected_seq": seq})
        answer = games_moves_create.sync_detailed(game_id=game_id, client=client, body=body)
        if answer.status_code == 201:
            return
        error = answer.parsed.error.code if isinstance(answer.parsed, Error) else answer.status_code
        if answer.status_code == 409:
            return
        log.info("game %s: %s refused (%s); trying the next", game_id, action["type"], error)


def run(
    server: str, token: str, only_game: int | None = None, httpx_args: dict[str, Any] | None = None
) -> None:
    """Play every turn the stream announces (of ``only_game``: until it is over)."""
    client = AuthenticatedClient(
        base_url=server, token=token, timeout=httpx.Timeout(30.0), httpx_args=httpx_args or {}
    )
    last_id: list[str | None] = [None]
    for data in events(client, last_id):
        if data["event"] == "resync":
            log.info("away too long: the snapshot follows")
            continue
        if data["event"] != "game":
            continue  # takeback, takeback_asked: a game event follows or came first
        event = StreamGameEvent.from_dict(data)
        game = event.game
        if only_game is not None and game.id != only_game:
            continue
        if game.status == "finished":
            log.info("game %s is over", game.id)
            if only_game is not None:
                return
            continue
        for attempt in range(3 if event.your_turn else 0):
            try:
                play_turn(client, game.id, game.seq)
                break
            except httpx.HTTPError as exc:  # the server away a moment: try again
                log.warning("game %s: %s (attempt %d)", game.id, exc, attempt + 1)
                time.sleep(2)


def main() -> None:
    ap = argparse.ArgumentParser(description="A Power Grid bot playing from the event stream.")
    ap.add_argument("--server", required=True, help="e.g. https://powergrid.example.org")
    ap.add_argument("--token", required=True, help="the bot account's API token")
    ap.add_argument("--game", type=int, help="play this game only, and exit when it is over")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    run(args.server.rstrip("/"), args.token, args.game)


if __name__ == "__main__":
    main()
