"""A whole game played by email replies only: real Redis, a real Celery worker, PostgreSQL and
an SMTP sink. Each move is a reply to the newest email that carries a reply address for the
game's current position (a turn email, or the answer to the previous reply), handed to the same
handler an MTA pipe uses."""

from __future__ import annotations

import email.parser
import email.policy
import time
from typing import Any

import pytest
from livehelpers import start_game, wait_for

pytestmark = [pytest.mark.integration]


def command_for(action: dict[str, Any]) -> str:
    """What a player writes for ``action`` (``games/inbox/parse.py``'s language)."""
    kind = action["type"]
    if kind == "choose_plant":
        return f"choose {action['plant']} bid {action['bid']}"
    if kind in ("bid", "seal_bid"):
        return f"bid {action['amount']}"
    if kind in ("pass_bid", "pass_auction"):
        return "pass"
    if kind == "discard_plant":
        return f"discard {action['plant']}"
    if kind == "buy_resources":
        parts = [f"{action[r]} {r}" for r in ("coal", "oil", "garbage", "uranium") if action.get(r)]
        return "buy " + (" ".join(parts) if parts else "nothing")
    if kind == "build":
        return "build " + (" ".join(action["cities"]) if action["cities"] else "nothing")
    return "power"  # the best choice


def _reply_address(raw: bytes) -> str | None:
    msg = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(raw)
    value = msg.get("Reply-To")
    return str(value) if value else None


def test_a_whole_game_by_email_replies(
    pg_db, worker_env, workers, smtp_sink, settings_for_integration
):
    import powergrid
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import read_token
    from games.models import Game, Move, Notification, Seat
    from powergrid.heuristic import HeuristicBot

    # Every email exactly once, under any load: the outbox's lease as production's order of
    # magnitude (a 3 s lease gives a 1 s SMTP timeout, which a loaded CI machine's sink, in this
    # busy process, overran once: a send timed out after the sink took it, and went again).
    worker_env["NOTIFY_SENDING_LEASE_SECONDS"] = "60"
    settings_for_integration.NOTIFY_SENDING_LEASE_SECONDS = 60
    workers("w1")
    gid, _users = start_game(3)
    email_of = {
        s.seat: s.user.email for s in Seat.objects.filter(game_id=gid).select_related("user")
    }
    bot = HeuristicBot()
    used: set[str] = set()
    moves = 0
    started = time.time()
    while moves < 600:
        game = Game.objects.get(pk=gid)
        if game.status == "finished":
            break
        state = powergrid.from_json(game.state_json)
        seat = game.to_act[0]
        # In phase 5 everyone awaited was written to at once: the others' moves since leave a
        # reply address valid.
        floor = game.seq
        for m in Move.objects.filter(game_id=gid).order_by("-seq").values_list("action", flat=True):
            if m.get("type") != "power":
                break
            floor -= 1

        def address_now(seat: int = seat, seq: int = floor) -> str | None:
            for r in reversed(smtp_sink.received):
                if email_of[seat] not in r.to:
                    continue
                to = _reply_address(r.raw)
                if not to or to in used:
                    continue
                token = read_token(to.split("+", 1)[1].split("@")[0])
                if token.seq >= seq and token.seat == seat:
                    return to
            return None

        to = wait_for(
            address_now, 20, 0.01, what=f"an email with a reply address at seq {game.seq}"
        )
        used.add(to)
        text = command_for(bot.choose(state, seat))
        raw = (
            f"From: <{email_of[seat]}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
            f"Message-ID: <m{moves}.{gid}@client.example>\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{text}\r\n\r\nOn Tuesday, Power Grid wrote:\r\n> It is your turn\r\n"
        ).encode()
        got = mail_receive(raw, via="pipe")
        assert got.status == "applied", (text, got)
        moves += 1
    game = Game.objects.get(pk=gid)
    assert game.status == "finished", f"not finished after {moves} replies"
    assert set(Move.objects.filter(game_id=gid).values_list("source", flat=True)) == {"email"}
    print(f"{moves} moves by email in {time.time() - started:.1f} s")
    wait_for(lambda: not Notification.objects.exclude(status="sent").exists(), 30,
             what="every answer sent")  # fmt: skip
    counts = smtp_sink.by_notification()
    twice = {n: c for n, c in counts.items() if c != 1}
    # the header's ids matched as the strings the sink read (no number read by hand)
    kinds = {
        str(pk): kind
        for pk, kind in Notification.objects.filter(game_id=gid).values_list("pk", "kind")
        if str(pk) in twice
    }
    assert set(counts.values()) == {1}, (twice, kinds)  # every email delivered exactly once
    answers = Notification.objects.filter(game_id=gid, kind="reply").count()
    assert answers == moves  # each reply answered once
