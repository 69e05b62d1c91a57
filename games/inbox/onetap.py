"""One-tap actions in a turn email: a signed link for each obvious choice (pass this auction,
power with the best choice, buy the fuel one's plants lack to run once, buy or build nothing),
bound to the game, seat, player and position,
single use, and void once the turn has moved on. Opening the link shows a confirmation page; only
its button (a POST) acts: mail scanners follow links, and a GET must never move for anyone.

Take-backs use the same links (``TAKEBACK_CHOICES``): "take back this move" in the answer to a
move sent by email (while nothing has moved since), and "agree" / "refuse" in the email that asks
a player about another's take-back (bound to the request and the position it was asked in).

The link's token is a reply token (``games.inbox.tokens``) and the action's name, signed
together: whoever holds the link may make that one move for that seat, once, in that position.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse

from games.callers import Caller
from games.inbox.tokens import BadToken, ReplyToken, make_token, read_token
from games.models import Game, InboundMail, Move
from games.selectors import game_engine_state
from games.services.errors import ServiceError
from games.services.moves import move_submit
from games.services.takeback import takeback_answer, takeback_now
from games.sheets.services import sheet_document, sheet_put
from powergrid.helpers import Refuel, capacity, refuel_plan
from powergrid.state import State

_SALT = "powergrid.onetap"

#: The one-tap choices: the action each makes, offered when its type is in ``legal``.
CHOICES: dict[str, dict[str, Any]] = {
    "pass_bid": {"type": "pass_bid"},
    "pass_auction": {"type": "pass_auction"},
    "power": {"type": "power"},
    "buy_nothing": {"type": "buy_resources"},
    "build_nothing": {"type": "build", "cities": []},
    # The amounts are read from the state when the link is made and again when it is used: the
    # link is void once the game moves, so both readings are of the same state.
    "buy_fuel": {"type": "buy_resources"},
    # The fuel for as many cities as all the plants power: for a player building this round.
    "buy_fuel_more": {"type": "buy_resources"},
    # Accept the round sheet's suggestions (games.sheets): good while its round lasts.
    "sheet_ok": {"type": "sheet_ok"},
}
FUEL_CHOICES = ("buy_fuel", "buy_fuel_more")
_OFFERED_BY = {
    "pass_bid": "pass_bid",
    "pass_auction": "pass_auction",
    "power": "power",
    "buy_resources": "buy_nothing",
    "build": "build_nothing",
}


#: The take-back choices: take back one's own move at once, agree to or refuse a request.
TAKEBACK_CHOICES = frozenset({"takeback", "takeback_accept", "takeback_decline"})


class LinkInvalid(Exception):
    """``forged``, ``expired``, ``used``, ``moved_on`` (the turn has moved), ``wrong_user``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def link(
    *,
    game: Game,
    seat: int,
    user_id: int,
    choice: str,
    hours: float,
    seq: int | None = None,
    request_id: int | None = None,
    round_: int | None = None,
) -> str:
    """The absolute URL of a one-tap link, good in the position ``seq`` (default: the game's
    now); ``request_id``: the take-back request an answer is about."""
    token = make_token(
        game_id=game.pk, seat=seat, seq=game.seq if seq is None else seq, user_id=user_id,
        expires=int(time.time() + hours * 3600),
    )  # fmt: skip
    data: dict[str, Any] = {"t": token, "c": choice}
    if request_id is not None:
        data["r"] = request_id
    if round_ is not None:
        data["n"] = round_
    signed = signing.dumps(data, salt=_SALT, compress=True)
    return settings.SITE_URL + reverse("onetap", args=[signed])


def choices_for(
    legal: Sequence[Mapping[str, Any]], fuel: Mapping[str, Any] | None = None
) -> list[str]:
    """The one-tap choices ``legal`` allows now, in the order offered; the fuel purchases
    ``fuel`` holds (``fuel_offers``) first."""
    kinds = {str(e.get("type")) for e in legal}
    offered = [choice for kind, choice in _OFFERED_BY.items() if kind in kinds]
    if "buy_resources" not in kinds:
        return offered
    return [c for c in FUEL_CHOICES if (fuel or {}).get(c)] + offered


def fuel_offer(choice: str, state: State, seat: int) -> Refuel | None:
    """The purchase of a fuel choice now: ``buy_fuel`` powers the cities the seat has,
    ``buy_fuel_more`` as many as all its plants power (for a player who builds this round)."""
    if choice == "buy_fuel":
        return refuel_plan(state, seat)
    return refuel_plan(state, seat, cities=capacity(state, seat))


def fuel_offers(state: State, seat: int) -> dict[str, Refuel]:
    """The fuel choices worth offering: for the cities one has; and for more, only when that is
    another purchase (more cities than the first powers)."""
    out: dict[str, Refuel] = {}
    now = fuel_offer("buy_fuel", state, seat)
    more = fuel_offer("buy_fuel_more", state, seat)
    if now is not None:
        out["buy_fuel"] = now
    if more is not None and more.cities > (now.cities if now else len(state.players[seat].cities)):
        out["buy_fuel_more"] = more
    return out


def action_for(choice: str, state: State, seat: int) -> dict[str, Any]:
    """The move a choice makes in ``state`` (``LinkInvalid("moved_on")`` if a fuel purchase no
    longer applies); a take-back choice makes no move of its own: ``{"type": choice}``."""
    if choice in TAKEBACK_CHOICES:
        return {"type": choice}
    action = dict(CHOICES[choice])
    if choice in FUEL_CHOICES:
        plan = fuel_offer(choice, state, seat)
        if plan is None:
            raise LinkInvalid("moved_on")
        action.update(plan.amounts)
    return action


@dataclass(frozen=True)
class Tap:
    token: ReplyToken
    choice: str
    key: str  # what makes the link single use (a digest of it)
    request_id: int | None = None  # a take-back request's answer
    round: int | None = None  # the round a sheet's link is for


def read(signed: str) -> Tap:
    """The link's contents, or ``LinkInvalid`` (forged or expired)."""
    try:
        data = signing.loads(signed, salt=_SALT)
        token = read_token(str(data["t"]))
        choice = str(data["c"])
        request_id = None if data.get("r") is None else int(data["r"])
        round_ = None if data.get("n") is None else int(data["n"])
    except BadToken as exc:
        raise LinkInvalid(str(exc)) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise LinkInvalid("forged") from None
    if choice not in CHOICES and choice not in TAKEBACK_CHOICES:
        raise LinkInvalid("forged")
    if (choice in ("takeback_accept", "takeback_decline")) != (request_id is not None):
        raise LinkInvalid("forged")
    if (choice == "sheet_ok") != (round_ is not None):
        raise LinkInvalid("forged")
    key = "tap:" + hashlib.sha256(signed.encode()).hexdigest()[:60]
    return Tap(token, choice, key, request_id, round_)


def check(tap: Tap, user: Caller) -> Game:
    """The game the link acts in, or ``LinkInvalid``: used already, the turn moved on, or a
    different signed-in user."""
    if getattr(user, "is_authenticated", False) and user.pk != tap.token.user_id:
        raise LinkInvalid("wrong_user")
    if InboundMail.objects.filter(token=tap.key, status=InboundMail.Status.APPLIED).exists():
        raise LinkInvalid("used")
    game = Game.objects.filter(pk=tap.token.game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        raise LinkInvalid("moved_on")
    if tap.choice == "sheet_ok":  # good for the round: others answering theirs move the game
        if game_engine_state(game).round != tap.round:
            raise LinkInvalid("moved_on")
    elif game.seq != tap.token.seq:
        raise LinkInvalid("moved_on")
    return game


def tap_apply(tap: Tap, user: Caller) -> int | None:
    """Make the link's move (once): the new seq (None: an agreement that took nothing back
    yet). ``LinkInvalid`` or the services' errors."""
    game = check(tap, user)
    action = action_for(tap.choice, game_engine_state(game), tap.token.seat)
    owner = get_user_model().objects.get(pk=tap.token.user_id)
    try:
        with transaction.atomic():
            seq = _apply(tap, owner, action)
            InboundMail.objects.create(
                sender=owner.email[:254], token=tap.key, game_id=tap.token.game_id,
                seat=tap.token.seat, user=owner, via="onetap", status=InboundMail.Status.APPLIED,
                line=tap.choice, move_seq=seq,
            )  # fmt: skip
    except IntegrityError:
        raise LinkInvalid("used") from None
    except ServiceError as exc:
        if exc.code in ("stale_state", "takeback_moved_on"):
            raise LinkInvalid("moved_on") from None
        raise
    return seq


def _apply(tap: Tap, owner: Caller, action: dict[str, Any]) -> int | None:
    """Do what the link does, in the caller's transaction: the game's seq after it (None for
    an answer that took nothing back yet)."""
    game_id, source = tap.token.game_id, Move.Source.EMAIL
    if tap.choice == "sheet_ok":
        game = Game.objects.get(pk=game_id)
        state = game_engine_state(game)
        doc = sheet_document(game, tap.token.seat, state)
        _made, seq = sheet_put(game_id=game_id, user=owner, body=doc, source="email")
        return seq
    if tap.choice == "takeback":
        done = takeback_now(game_id=game_id, user=owner, expected_seq=tap.token.seq, source=source)
        return done.move.seq
    if tap.choice in ("takeback_accept", "takeback_decline"):
        assert tap.request_id is not None
        answer = takeback_answer(
            game_id=game_id,
            request_id=tap.request_id,
            user=owner,
            accept=tap.choice == "takeback_accept",
            source=source,
        )
        return answer.result.move.seq if answer.result else None
    result = move_submit(
        game_id=game_id, user=owner, action=action, expected_seq=tap.token.seq, source=source
    )
    return result.move.seq
