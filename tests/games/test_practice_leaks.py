"""Practice games, and the leak test: nothing of a running game's hidden information reaches a
practice game made from it.

The leak test makes a practice game from a player's position, then changes every hidden part
of the original's stored state (the order of the unseen cards and which were removed face down,
the seed, the other players' money), makes a second practice game with the
same new seed, and walks both: the stored start, the API's game, state, moves and take-back
answers, the pages, the event stream, and the whole practice game played to its end (where the
scores show every player's money). Everything is the same, so nothing hidden was used; and the
original's seed appears nowhere. The same walk on a practice that copied the state fails.
The others' sealed answers are not in reach at all: no practice is made while a sealed auction
with another bidder is under way.
"""

from __future__ import annotations

import json
import random
import re

import pytest
import time_machine
from apihelpers import seat_players
from django.utils import timezone

pytestmark = pytest.mark.django_db


def _state(gid):
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _play_defaults_until(gid, seats, done, limit=400):
    import powergrid
    from games.models import Game

    for _ in range(limit):
        if done(_state(gid)):
            return
        game = Game.objects.get(pk=gid)
        seat = game.to_act[0]
        action = powergrid.default_action(_state(gid), seat)
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": game.seq}
        )
        assert r.status_code == 201, r.json()
    raise AssertionError("the position was not reached")


def _mid_game(new_game, *, opened=True):
    """A 3-player sealed-bid game in round 2: its first plant put up, one player's sealed bid in,
    the practising player's awaited; ``opened``: then the practising player passes, the bids
    are opened (no practice is made during a sealed auction with another bidder), and the game
    goes on with the next auction."""
    from games.models import Game

    gid, ps = new_game(players=3, options={"variant": "sealed_bid"})
    seats = seat_players(gid, ps)
    _play_defaults_until(gid, seats, lambda s: s.round == 2 and s.auction is None)
    s = _state(gid)
    opener = s.order[0]
    plant = min(s.market[:4])

    def move(seat, action):
        seq = Game.objects.get(pk=gid).seq
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
        assert r.status_code == 201, r.json()

    move(opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    other, me = (x for x in s.order if x != opener)
    money = _state(gid).players[other].money
    move(
        other, {"type": "seal_bid", "amount": plant + 1} if money > plant else {"type": "pass_bid"}
    )
    assert _state(gid).auction.sealed[me] == -1
    if opened:
        move(me, {"type": "pass_bid"})
        assert _state(gid).auction is None
    return gid, seats, me


def _tamper(gid, me, rng):
    """Change every part of the stored state the player ``me`` cannot see."""
    import powergrid
    from games import engine
    from games.models import Game
    from powergrid.practice import unseen_places
    from powergrid.state import Auction

    s = _state(gid)
    places = unseen_places(s)
    pool = [s.deck[i] for i in places] + list(s.setup_removed)
    rng.shuffle(pool)
    k = len(s.setup_removed)
    deck = list(s.deck)
    for place, card in zip(places, pool[k:], strict=True):
        deck[place] = card
    players = tuple(
        p if i == me else p.replace(money=p.money + rng.randint(5, 50))
        for i, p in enumerate(s.players)
    )
    auc = s.auction
    if auc is not None and auc.sealed is not None:
        sealed = tuple(
            rng.choice([0, auc.bid + rng.randint(1, 9)])
            if b != -1 and i not in (me, auc.opener)
            else b
            for i, b in enumerate(auc.sealed)
        )
        auc = Auction(auc.plant, auc.bid, auc.high, auc.bidders, auc.turn, auc.opener, sealed)
    t = s.replace(
        deck=tuple(deck),
        setup_removed=tuple(pool[:k]),
        seed=rng.randrange(1 << 50),
        players=players,
        auction=auc,
    )
    assert t != s
    Game.objects.filter(pk=gid).update(state_json=powergrid.to_json(t))
    engine.state_forget(game_id=gid)
    return s, t


def _practise(player, gid, monkeypatch, seed=4242):
    from games.services import practice

    monkeypatch.setattr(practice.secrets, "randbits", lambda _bits: seed)
    r = player.post(f"/api/v1/games/{gid}/practice/", {})
    assert r.status_code == 201, r.json()
    return r.json()["id"]


def _norm(text: str, pid: int) -> str:
    """``text`` without what tells two practice games apart but their number: the game's id
    where it is named, bots' account names, per-request tokens."""
    for pattern in (
        rf"/games/{pid}/",
        rf"#{pid}\b",
        rf'"(?:id|game)": ?{pid}\b',
        rf"id: {pid}:",
        rf"calendar/{pid}\b",
        rf"\?game={pid}\b",  # the page's live-update address (data-live)
        rf'data-game="{pid}"',  # the live region's game (static/js/announce.js)
    ):
        text = re.sub(pattern, lambda m: m.group(0).replace(str(pid), "G"), text)
    text = re.sub(r"bot-heuristic-[0-9a-f]+", "bot", text)
    # The seed's fingerprint is of the game's number and its seed.
    text = re.sub(r"[0-9a-f]{64}", "commitment", text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", text)
    return re.sub(r'name="form_id" value="[^"]+"', "form_id", text)


def _walk(player, client, pid) -> dict[str, str]:
    """What the practice game shows its player through every channel, normalised for its id."""
    from games.models import Game
    from games.stream import log

    out: dict[str, str] = {}
    for path in ("", "state/", "moves/", "takeback/", "forecast/", "plans/", "record/"):
        r = player.get(f"/api/v1/games/{pid}/{path}")
        body = r.json()
        if isinstance(body, dict):
            body.pop("created_at", None)
        out["api " + path] = f"{r.status_code} " + json.dumps(body, sort_keys=True)
    client.force_login(player.user)
    for path in ("", "history/0/", "plans/"):
        out["page " + path] = _norm(client.get(f"/games/{pid}/{path}").content.decode(), pid)
    # What the game's stream says on connect (its frames' ids are positions in the shared log).
    frames = log.snapshot(log.Reader(None, pid), log.head())
    assert frames
    out["stream"] = repr([re.sub(rb"^id: \d+\n", b"", f) for f in frames])
    out["start"] = Game.objects.get(pk=pid).start_state
    return {k: _norm(v, pid) for k, v in out.items()}


def _play_to_end(player, pid):
    """The practice game to its end: the player's seat plays the heuristic bot's move through
    the API, the bots' seats are played as the worker plays them."""
    from apihelpers import bot_action

    from games.deadlines.sweep import game_handle_due
    from games.models import Game
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    mine = Game.objects.get(pk=pid).seats.get(user=player.user).seat
    for _ in range(3000):
        game = Game.objects.get(pk=pid)
        if game.status == "finished":
            return player.get(f"/api/v1/games/{pid}/state/").json()["result"]
        if mine in game.to_act:
            r = player.post(
                f"/api/v1/games/{pid}/moves/",
                {"action": bot_action(pid, mine, bot), "expected_seq": game.seq},
            )
            assert r.status_code == 201, r.json()
        else:
            assert game_handle_due(game_id=pid, wait=True) > 0
    raise AssertionError("the practice game did not end")


def test_nothing_hidden_in_a_running_game_reaches_its_practice_game(new_game, client, monkeypatch):
    rng = random.Random(7)
    with time_machine.travel(timezone.now(), tick=False):
        gid, seats, me = _mid_game(new_game)
        original = _state(gid)
        first = _practise(seats[me], gid, monkeypatch)
        walked_first = _walk(seats[me], client, first)
        before, tampered = _tamper(gid, me, rng)
        assert before == original
        assert tampered.deck != original.deck
        assert tampered.seed != original.seed
        assert [p.money for p in tampered.players] != [p.money for p in original.players]
        second = _practise(seats[me], gid, monkeypatch)
        walked_second = _walk(seats[me], client, second)
        assert walked_first == walked_second
        # The original's seed appears nowhere.
        for text in walked_first.values():
            assert str(original.seed) not in text
        # Played to the end, where everyone's money shows, the two are the same game.
        assert _play_to_end(seats[me], first) == _play_to_end(seats[me], second)


def test_the_walk_catches_a_practice_that_copies_the_hidden_state(new_game, client, monkeypatch):
    from games import engine
    from games.services import practice

    rng = random.Random(8)
    with time_machine.travel(timezone.now(), tick=False):
        gid, seats, me = _mid_game(new_game)
        # A leaky practice: the position copied as stored, hidden parts and all.
        monkeypatch.setattr(
            practice.engine, "practice_position", lambda state, seat, seed, money: state
        )
        first = _practise(seats[me], gid, monkeypatch)
        walked_first = _walk(seats[me], client, first)
        _tamper(gid, me, rng)
        second = _practise(seats[me], gid, monkeypatch)
        assert _walk(seats[me], client, second) != walked_first
    del engine


def test_no_practice_while_a_sealed_auction_with_another_bidder_is_under_way(new_game):
    """The others' sealed answers (a bid or a pass) are secret until the bids are opened, and a
    practice game from now would have the other seats answer again in the player's sight: it is
    refused (``sealed_auction``) while another bidder than the player and the opener takes part,
    and made again once the bids are opened. (``powergrid.practice.practice_position`` would
    withdraw the others' answers anyway: ``tests/engine/test_practice.py``.)"""
    gid, seats, me = _mid_game(new_game, opened=False)
    r = seats[me].post(f"/api/v1/games/{gid}/practice/", {})
    assert r.status_code == 409, r.json()
    assert r.json()["error"]["details"]["why"] == "sealed_auction"
    from games.models import Game

    seq = Game.objects.get(pk=gid).seq
    r = seats[me].post(
        f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass_bid"}, "expected_seq": seq}
    )
    assert r.status_code == 201
    assert seats[me].post(f"/api/v1/games/{gid}/practice/", {}).status_code == 201


def test_practice_during_a_sealed_auction_with_no_other_bidder(new_game, monkeypatch):
    """Two players: the opener's bid is public, the player's own answer is theirs: nothing
    hidden from them, practice is made (the opener's bid stands in it)."""
    gid, ps = new_game(players=2, options={"variant": "sealed_bid"})
    seats = seat_players(gid, ps)
    from apihelpers import open_first_auction

    _s, opener, _plant = open_first_auction(gid, seats)
    me = 1 - opener
    assert _state(gid).auction.sealed[me] == -1
    pid = _practise(seats[me], gid, monkeypatch)
    state = seats[me].get(f"/api/v1/games/{pid}/state/").json()
    assert state["auction"]["sealed"] is True


def test_a_practice_game_is_unrated_unlisted_quiet_and_purged_after_30_days(
    new_game, make_player, monkeypatch
):
    from datetime import timedelta

    from django.contrib.auth import get_user_model

    from games.models import Game, Notification, Seat
    from games.services import practice

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    me = next(s for s, p in seats.items() if p is ps[0])
    pid = _practise(ps[0], gid, monkeypatch)
    game = Game.objects.get(pk=pid)
    assert game.practice
    assert game.options["private"] is True
    assert game.notify is False
    assert game.practice_from_id == gid
    bots = Seat.objects.filter(game=game).exclude(user=ps[0].user)
    assert bots.count() == 2
    assert all(s.user.profile.bot_kind == "heuristic" for s in bots)
    assert Seat.objects.get(game=game, user=ps[0].user).seat == me
    assert not Notification.objects.filter(game=game).exists()
    # Not listed to others, not in the player's public record.
    other = make_player()
    listed = [g["id"] for g in other.get("/api/v1/games/").json()["results"]]
    assert pid not in listed
    from games.players import recent_turns

    assert all(t.game_id != pid for t in recent_turns(ps[0].user))
    # The record is refused: it began from a position.
    assert ps[0].get(f"/api/v1/games/{pid}/record/").json()["error"]["code"] == "no_record"
    # Purged after 30 days, bots' accounts with it.
    bot_users = list(bots.values_list("user_id", flat=True))
    assert practice.practice_purge() == 0
    later = timezone.now() + timedelta(days=practice.PRACTICE_DAYS + 1)
    assert practice.practice_purge(now=later) == 1
    assert not Game.objects.filter(pk=pid).exists()
    assert Game.objects.filter(pk=gid).exists()
    assert not get_user_model().objects.filter(pk__in=bot_users).exists()


def test_practice_refusals(new_game, make_player):
    gid, ps = new_game(players=3)
    stranger = make_player()
    r = stranger.post(f"/api/v1/games/{gid}/practice/", {})
    assert r.status_code == 409
    assert r.json()["error"]["details"]["why"] == "not_a_player"
    r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"seq": 5})
    assert r.json()["error"]["details"]["why"] == "not_current"
    mine = next(s for s, p in seat_players(gid, ps).items() if p is ps[0])
    r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"seat": (mine + 1) % 3})
    assert r.json()["error"]["details"]["why"] == "not_your_seat"
    r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"seat": "x"})
    assert r.status_code == 400
    open_gid, open_ps = new_game(players=3, start=False)
    r = open_ps[0].post(f"/api/v1/games/{open_gid}/practice/", {})
    assert r.json()["error"]["details"]["why"] == "open"
    assert ps[0].post("/api/v1/games/99999/practice/", {}).status_code == 404


def test_emails_of_a_practice_game_only_when_asked(new_game, monkeypatch):
    from games.models import Game, Notification

    gid, ps = new_game(players=2)
    from games.services import practice

    monkeypatch.setattr(practice.secrets, "randbits", lambda _bits: 99)
    r = ps[0].post(f"/api/v1/games/{gid}/practice/", {"emails": True})
    game = Game.objects.get(pk=r.json()["id"])
    assert game.notify is True
    assert Notification.objects.filter(game=game, recipient=ps[0].user).exists()


def test_a_quiet_practice_game_is_not_in_the_daily_digest(new_game, monkeypatch):
    from games.models import Game, Notification, Seat
    from games.notifications.builders import digest_context

    gid, ps = new_game(players=2)
    me = ps[0].user
    pid = _practise(ps[0], gid, monkeypatch)
    mine = Seat.objects.get(game_id=pid, user=me).seat
    Game.objects.filter(pk=pid).update(to_act=[mine])  # the practice awaits its player
    since = {"since": timezone.now().isoformat()}
    ctx = digest_context(Notification(recipient=me, kind="digest", payload=since))
    waiting = [w["game_id"] for w in (ctx or {}).get("waiting", [])]
    assert pid not in waiting
    Game.objects.filter(pk=pid).update(notify=True)  # emails asked for: listed
    ctx = digest_context(Notification(recipient=me, kind="digest", payload=since))
    assert pid in [w["game_id"] for w in ctx["waiting"]]
