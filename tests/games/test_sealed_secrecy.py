"""A sealed auction's answers stay sealed until the bids are opened, on every channel.

In the sealed-bid variant (docs/API.md, "The sealed-bid auction": every bidder gives one sealed
bid at once; ``pass_bid``: "in the sealed-bid variant: give no bid") a pass is a sealed answer
like a bid: the view counts it among ``sealed_in`` and shows nobody else whether it was a pass.
The one rule (``powergrid.actions.sealed_move``: a sealed bid, or a pass in a sealed auction)
is followed by every channel that shows moves: here a pass and a bid are given in the same
auction and each channel is read, as every other player, a spectator and the passer, until the
last answer is in: the pass cannot be told from the bid. Then both show.

And a bot's sealed bid is not an oracle: it follows the game's secret (``bot_seed``), which
nothing shown before the end reveals, and a practice game is refused while a sealed auction
with another bidder is under way (the outsider's scenario).
"""

from __future__ import annotations

import json
import re

import pytest
from apihelpers import by_moves, open_first_auction, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


PASS_WORDS = ("pass_bid", "dropped out", "passed", "had passed")


def _move(seats, gid, seat, action):
    from games.models import Game

    seq = Game.objects.get(pk=gid).seq
    r = seats[seat].post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.json()
    return seq + 1


def _four(new_game, **options):
    """A 4-player sealed-bid game, round 1's first plant put up; the three others to answer."""
    gid, ps = new_game(players=4, options={"variant": "sealed_bid", **options})
    seats = seat_players(gid, ps)
    s, opener, plant = open_first_auction(gid, seats)
    a, b, c = [x for x in s.order if x != opener]
    return gid, seats, opener, (a, b, c), plant


def _entries(gid, seq):
    from games import log
    from games.models import Game

    return [
        {"kind": e["kind"], "params": e["params"], "revealed": e["revealed"]}
        for e in log.entries(Game.objects.get(pk=gid))
        if e["seq"] == seq
    ]


def _channels(gid, seats, viewer, client) -> dict[str, str]:
    """Everything ``viewer`` (a seat, or None: a spectator) reads of the game, as text."""
    from games.models import Game, Notification, StreamEvent, WebhookDelivery
    from games.notifications.emails import email_build

    api = seats[viewer] if viewer is not None else None
    out: dict[str, str] = {}
    for path in ("", "state/", "moves/", "takeback/", "record/", "forecast/"):
        if api is not None:
            r = api.get(f"/api/v1/games/{gid}/{path}")
        else:
            client.logout()
            r = client.get(f"/api/v1/games/{gid}/{path}")
        out["api " + path] = json.dumps(r.json(), sort_keys=True)
    if viewer is not None:
        client.force_login(seats[viewer].user)
    else:
        client.logout()
    game = Game.objects.get(pk=gid)
    for path in ("", f"history/{game.seq}/", "calendar.ics"):
        out["page " + path] = client.get(f"/games/{gid}/{path}").content.decode()
    out["stream"] = json.dumps(
        [[e.kind, e.body] for e in StreamEvent.objects.filter(game_id=gid).order_by("id")]
    )
    out["webhooks"] = json.dumps(
        [d.payload for d in WebhookDelivery.objects.filter(webhook__game_id=gid)]
    )
    mails = []
    for n in Notification.objects.filter(game_id=gid).exclude(kind="timeout"):
        if viewer is not None and n.recipient_id != seats[viewer].user.pk:
            continue
        msg = email_build(n)
        if msg is not None:
            mails.append(msg.body)
    out["emails"] = "\n".join(mails)
    return out


def _timeout(gid, seat):
    """``seat``'s deadline passes: the worker makes its move (source ``timeout``)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Move, Seat

    seq = Game.objects.get(pk=gid).seq
    Seat.objects.filter(game_id=gid, seat=seat).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    game_handle_due(game_id=gid, wait=True)
    move = Move.objects.get(game_id=gid, seq=seq + 1)
    assert (move.seat, move.source, move.action) == (seat, "timeout", {"type": "pass_bid"})
    return seq + 1


#: Words that tell a move was the deadline's (its source), which a pass's is in a sealed auction.
TIMEOUT_WORDS = ("time ran out", '"timeout"', "timed out")


@pytest.mark.parametrize("how", ["api", "timeout"])
def test_a_pass_in_a_sealed_auction_looks_like_a_sealed_bid_everywhere_until_the_opening(
    new_game, client, how
):
    """A pass given by the player, or made by the deadline (a timeout in a sealed auction is
    a pass: its source would tell it): either reads as a sealed answer until the opening."""
    from games.models import Game, Webhook

    gid, seats, opener, (a, b, c), plant = _four(new_game)
    for seat in seats:
        Webhook.objects.create(
            owner=seats[seat].user, game_id=gid, url="https://hooks.example.com/x", secret="s"
        )
    Game.objects.filter(pk=gid).update(hooks_active=True)
    amount = plant + 38
    pass_bid = {"type": "pass_bid"}
    passed = _timeout(gid, a) if how == "timeout" else _move(seats, gid, a, pass_bid)
    bid = _move(seats, gid, b, {"type": "seal_bid", "amount": amount})
    # The moves API: the same line for both, to everyone.
    for viewer in (opener, a, b, c):
        log = {m["seq"]: m for m in seats[viewer].get(f"/api/v1/games/{gid}/moves/").json()}
        assert log[passed]["action"] == log[bid]["action"] == {"type": "seal_bid"}
        assert log[passed]["source"] == log[bid]["source"]
    # The log's entries (the page's and the emails' lines): the same for both.
    assert _entries(gid, passed) == _entries(gid, bid)
    assert _entries(gid, passed)[0]["kind"] == "seal_bid"
    # Every channel, as the other players not asked now (c is: its forms offer a pass), the
    # passer and a spectator.
    for viewer in (opener, b, a, None):
        for name, text in _channels(gid, seats, viewer, client).items():
            for word in PASS_WORDS:
                assert word not in text, (viewer, name, word)
            for word in TIMEOUT_WORDS if viewer != a else ():
                assert word not in text.lower(), (viewer, name, word)
            if viewer in (opener, a, None):
                assert f'"amount": {amount}' not in text, (viewer, name)
    # The passer's public record and the game's forecast count neither answer yet (a timeout
    # counted now would tell a pass: found by an outsider, both read the move's source).
    passer = seats[a].user.username
    record = seats[c].get(f"/api/v1/players/{passer}/").json()["reliability"]
    assert record["timed_out"] == 0, record
    bidder = seats[c].get(f"/api/v1/players/{seats[b].user.username}/").json()["reliability"]
    assert record["turns"] == bidder["turns"], (record, bidder)
    forecast = seats[c].get(f"/api/v1/games/{gid}/forecast/").json()
    replies = {s["seat"]: s.get("replies") for s in forecast["seats"]}
    assert replies[a] == replies[b], replies
    # The others' state: both answers are in, neither says which.
    st = seats[c].get(f"/api/v1/games/{gid}/state/").json()
    assert sorted(st["auction"]["sealed_in"]) == sorted([a, b])
    assert "your_sealed_bid" not in st["auction"]
    assert f'"amount": {amount}' not in json.dumps(st)
    client.force_login(seats[c].user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert len(re.findall(rf"gave a sealed answer for plant {plant}\b", page)) >= 2
    # The last answer opens the bids: now both show, on every channel that shows moves.
    last = _move(seats, gid, c, {"type": "seal_bid", "amount": plant + 2})
    for viewer in (opener, c):
        log = {m["seq"]: m for m in seats[viewer].get(f"/api/v1/games/{gid}/moves/").json()}
        assert log[passed]["action"] == {"type": "pass_bid"}
        assert log[bid]["action"] == {"type": "seal_bid", "amount": amount}
    opened = {(e["kind"], e["params"].get("amount")) for e in _entries(gid, last)}
    assert ("sealed_pass_opened", None) in opened
    assert ("sealed_bid_opened", amount) in opened
    assert ("sealed_bid_opened", plant + 2) in opened
    st = seats[opener].get(f"/api/v1/games/{gid}/state/").json()
    assert str(a) not in st["sealed_last"]["bids"]  # a passed: no bid
    client.force_login(seats[opener].user)
    page = client.get(f"/games/{gid}/").content.decode()
    assert f"had passed on plant {plant}" in page
    assert f"sealed bid for plant {plant}: {amount}." in page


def test_a_pass_taken_back_stays_sealed(new_game):
    """A pass taken back (alone, nothing moved since) stays as sealed as a bid taken back: its
    auction may be opened with another answer in its place."""
    gid, seats, opener, (a, b, c), plant = _four(new_game, takebacks_rated=True)
    passed = _move(seats, gid, a, {"type": "pass_bid"})
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": passed})
    assert r.status_code in (200, 201), r.json()
    _move(seats, gid, a, {"type": "seal_bid", "amount": plant + 4})
    _move(seats, gid, b, {"type": "pass_bid"})
    _move(seats, gid, c, {"type": "pass_bid"})  # the bids are opened
    log = {m["seq"]: m for m in seats[opener].get(f"/api/v1/games/{gid}/moves/").json()}
    assert log[passed]["action"] == {"type": "seal_bid"}
    assert [m["action"]["type"] for m in log.values()].count("pass_bid") == 2


def test_open_auctions_show_a_pass_at_once(new_game):
    """Outside the sealed-bid variant a pass is an open move, shown as it was made."""
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _s, opener, _plant = open_first_auction(gid, seats)
    from games.models import Game

    nxt = Game.objects.get(pk=gid).to_act[0]
    seq = _move(seats, gid, nxt, {"type": "pass_bid"})
    log = {m["seq"]: m for m in seats[opener].get(f"/api/v1/games/{gid}/moves/").json()}
    assert log[seq]["action"] == {"type": "pass_bid"}
    assert _entries(gid, seq)[0]["kind"] == "pass_bid"


# -- a bot's sealed bid follows the game's secret ------------------------------------------------


def _bot_game(make_player, level):
    """A 3-seat sealed-bid game: a person and two bots of ``level``, started."""
    from games import services
    from games.models import Game

    p = make_player()
    game = services.game_create(
        creator=p.user,
        map="germany",
        max_players=3,
        options={"auto_start": False, "variant": "sealed_bid"},
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
    services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
    services.game_start(game_id=game.pk, user=p.user)
    return Game.objects.get(pk=game.pk), p


def _bot_sealed_bids(game, p):
    """Play the game (the person as the heuristic bot would, the bots through the worker),
    yielding (game, bot seat) at each position where a bot is asked for a sealed bid with room
    to bid more than the least, before that bot answers."""
    from apihelpers import bot_action

    import powergrid
    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Seat
    from games.services.moves import move_submit
    from powergrid.heuristic import HeuristicBot

    mine = Seat.objects.get(game=game, user=p.user).seat
    asked: set[tuple[int, int]] = set()
    for _ in range(600):
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            return
        s = powergrid.from_json(game.state_json)
        for seat in game.to_act:
            legal = [o for o in powergrid.legal(s, seat) if o["type"] == "seal_bid"]
            if seat == mine or (game.seq, seat) in asked or not legal:
                continue
            if legal[0]["max"] - legal[0]["min"] >= 6:
                asked.add((game.seq, seat))
                yield game, seat
        if mine in game.to_act:
            r = p.get(f"/api/v1/games/{game.pk}/state/")
            assert r.status_code == 200
            action = bot_action(game.pk, mine, HeuristicBot())
            move_submit(
                game_id=game.pk, user=p.user, action=action, expected_seq=game.seq, source="api"
            )
        else:
            game_handle_due(game_id=game.pk, wait=True)


#: Secrets tried at a position before its answer is taken for one the level's reading settles.
SECRETS = 24


@pytest.mark.parametrize("level", ["beginner", "heuristic", "advanced", "expert", "random"])
def test_a_bots_sealed_bid_in_the_worker_follows_the_games_secret(
    make_player, settings, monkeypatch, level
):
    """The same position, the same public facts: only the game's secret seed changed (as it
    would be in another game), and the bot's sealed answer changes; with the same secret it is
    the same. So it cannot be worked out from public facts (nor played again in a practice
    game, whose seed is its own).

    Not at every position: where the level's reading settles the answer (a plant it would never
    pay the least bid for is passed whatever the secret, as any player would pass it), no secret
    moves it. So the game is played on, position after position, until one where the answer
    changes with the secret; a level that ignored the secret would find none in four games."""
    from games import log, selectors
    from games.deadlines import sweep
    from games.deadlines.sweep import _bot_action
    from games.models import Seat

    settings.BOT_BUDGET_SCALE = 0.05
    settled = []
    for _attempt in range(4):
        started, p = _bot_game(make_player, level)
        for game, seat_no in _bot_sealed_bids(started, p):
            seat = Seat.objects.select_related("user__profile").get(game=game, seat=seat_no)
            state = selectors.game_engine_state(game)
            # The public log's accounts (the expert's) are public facts: the same whatever the
            # secret.
            accounts = log.public_accounts(game)
            monkeypatch.setattr(sweep, "log_accounts", lambda g, accounts=accounts: accounts)
            real = game.seed
            answers = set()
            for k in range(SECRETS):
                game.seed = real + k
                answers.add(json.dumps(_bot_action(game, state, seat), sort_keys=True))
                if len(answers) > 1:
                    break
            game.seed = real
            assert _bot_action(game, state, seat) == _bot_action(game, state, seat)
            if len(answers) > 1:
                return
            settled.append((game.seq, seat_no, *answers))
    raise AssertionError(f"no answer followed the secret at {len(settled)} positions: {settled}")


def test_the_bots_secret_is_the_games_and_shown_nowhere_before_the_end(new_game, client):
    """``bot_seed`` changes with the game's secret seed, is not the seed commitment, and neither
    the seed nor the bots' secret appears in anything the API or the pages show before the
    end (the commitment is SHA-256 of the game's id and a 63-bit secret: not invertible)."""
    import hashlib

    from games.deadlines.sweep import bot_seed
    from games.models import Game, Seat

    gid, seats, opener, (a, _b, _c), _plant = _four(new_game)
    _move(seats, gid, a, {"type": "pass_bid"})
    game = Game.objects.get(pk=gid)
    seat = Seat.objects.get(game=game, seat=a)
    secret = bot_seed(game, seat).split(":")[0]
    commitment = hashlib.sha256(f"{gid}:{game.seed}".encode()).hexdigest()
    assert secret != commitment
    other = Game(pk=gid, seed=game.seed + 1)
    assert bot_seed(other, seat) != bot_seed(game, seat)
    for viewer in (opener, a, None):
        for name, text in _channels(gid, seats, viewer, client).items():
            assert str(game.seed) not in text, (viewer, name)
            assert secret not in text, (viewer, name)
    r = seats[opener].get(f"/api/v1/games/{gid}/record/")
    assert r.status_code == 409
    body = seats[opener].get(f"/api/v1/games/{gid}/").json()
    assert body["seed"] is None
    assert body["seed_commitment"] == commitment


def test_no_practice_from_a_sealed_auction_under_way_the_outsiders_scenario(
    make_player, monkeypatch
):
    """The outsider's scenario: a bot has sealed its bid, the person asks for a practice game
    from now (which would have a copy of the bot bid again in sight): refused, with why
    ``sealed_auction``; once the bids are opened, practice is offered again."""
    import powergrid
    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Seat
    from games.services.moves import move_submit

    game, p = _bot_game(make_player, "heuristic")
    mine = Seat.objects.get(game=game, user=p.user).seat

    def sealed_with_a_bot_in(s):
        auc = s.auction
        return (
            auc is not None
            and auc.sealed is not None
            and any(auc.sealed[i] != -1 for i in auc.bidders if i not in (mine, auc.opener))
        )

    # Until a sealed auction has a bot's answer in and the person's is awaited.
    for _ in range(200):
        game = Game.objects.get(pk=game.pk)
        s = powergrid.from_json(game.state_json)
        if sealed_with_a_bot_in(s) and mine in game.to_act:
            break
        if mine in game.to_act:
            action = powergrid.default_action(s, mine)
            move_submit(
                game_id=game.pk, user=p.user, action=action, expected_seq=game.seq, source="api"
            )
        else:
            game_handle_due(game_id=game.pk, wait=True)
    else:
        raise AssertionError("no sealed auction with a bot's answer in")
    r = p.post(f"/api/v1/games/{game.pk}/practice/", {"level": "heuristic"})
    assert r.status_code == 409, r.json()
    err = r.json()["error"]
    assert err["code"] == "practice_refused"
    assert err["details"]["why"] == "sealed_auction"
    assert "sealed auction" in err["message"]
    # The person answers, the other bot too: the bids are opened, practice is offered again.
    move_submit(
        game_id=game.pk,
        user=p.user,
        action={"type": "pass_bid"},
        expected_seq=game.seq,
        source="api",
    )
    for _ in range(3):
        game = Game.objects.get(pk=game.pk)
        if not powergrid.from_json(game.state_json).auction:
            break
        game_handle_due(game_id=game.pk, wait=True)
    assert powergrid.from_json(Game.objects.get(pk=game.pk).state_json).auction is None
    r = p.post(f"/api/v1/games/{game.pk}/practice/", {"level": "heuristic"})
    assert r.status_code == 201, r.json()
