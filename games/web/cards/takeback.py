"""The take-back card: what the reader may take back now (alone, or by asking the others), the
request waiting for answers, and, for a practice game, where it began and when it goes. The
buttons post to ``games.web.takeback``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NotRequired, TypedDict

from django.utils.safestring import SafeString

from games import selectors, shapes, takebacks
from games.models import Game
from games.services import practice
from games.web.context import Person

from .viewing import Viewing


class TakebackOffer(TypedDict):
    """What the player may take back now (``games.takebacks.Offer``) as the page words it;
    ``text``: the move it would undo, in a sentence (the log card writes it)."""

    how: str
    first: int
    n: int
    why: str
    left: int | None
    limit: int | None
    text: NotRequired[SafeString]


class TakebackRequestView(shapes.TakebackRequest):
    """The declared ``TakebackRequest`` (the API's), with what the page says of it."""

    name: str
    person: Person
    mine: bool
    asked_me: bool
    waiting_people: list[Person]
    why: str


#: A practice game: the game and move it began from, and when it goes ("from" is a keyword).
PracticeInfo = TypedDict("PracticeInfo", {"from": int | None, "seq": int | None, "until": datetime})


class TakebackCard(TypedDict):
    """``templates/games/cards/takeback.html``."""

    takeback: TakebackOffer | None
    takeback_request: TakebackRequestView | None
    practice_info: PracticeInfo | None


def takeback_card(view: Viewing) -> TakebackCard:
    game, me = view.game, view.me
    card: TakebackCard = {
        "takeback": None,
        "takeback_request": None,
        "practice_info": _practice_info(game),
    }
    if game.status != Game.Status.RUNNING or view.history_seq is not None or me is None:
        return card
    seats = selectors.game_seats(game)
    usernames = {s.seat: s.user.get_username() for s in seats}

    def person(seat: int) -> Person:
        """A seat's name as the page writes it: a link to its player's page (``|player``)."""
        return {"name": view.names.get(seat, "?"), "username": usernames.get(seat)}

    offer = takebacks.offer_for(game, view.user)
    if offer is not None and offer.how is not None:
        card["takeback"] = {
            "how": offer.how,
            "first": offer.cancels[0],
            "n": len(offer.cancels),
            "why": takebacks.why_ask(offer.reason),
            "left": offer.left,
            "limit": offer.limit,
        }
    req = offer.request if offer is not None else takebacks.request_open(game)
    if req is not None:
        data = takebacks.request_json(req, game)
        card["takeback_request"] = {
            **data,
            "name": view.names.get(req.seat, "?"),
            "person": person(req.seat),
            "mine": req.seat == me.seat,
            "asked_me": me.seat in data["waiting_for"],
            "waiting_people": [person(s) for s in data["waiting_for"]],
            "why": takebacks.why_ask(req.reason or None),
        }
    return card


def _practice_info(game: Game) -> PracticeInfo | None:
    if not game.practice:
        return None
    return {
        "from": game.practice_from_id,
        "seq": game.practice_seq,
        "until": game.created_at + timedelta(days=practice.PRACTICE_DAYS),
    }
