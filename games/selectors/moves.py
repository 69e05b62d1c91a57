"""The move log as anyone may read it, and the one place that hides a sealed answer (a sealed
bid, or a pass in a sealed auction) until its auction's bids are opened: the API's move list,
and whatever counts moves for others to read (a player's reliability, the forecast), ask here.
"""

from __future__ import annotations

from typing import cast

from django.db.models import QuerySet

from games import engine, shapes
from games.models import Game, Move
from games.selectors.history import game_log
from powergrid.actions import SEALED_SHOWN, sealed_move
from powergrid.state import SEALED_BID


def move_list(*, game: Game, since: int = 0) -> QuerySet[Move]:
    return Move.objects.filter(game=game, seq__gt=since).order_by("seq")


def move_list_public(*, game: Game, since: int = 0) -> list[shapes.Move]:
    """The move log after ``since`` as anyone may read it: every move as sent, except a sealed
    answer (``powergrid.actions.sealed_move``: a sealed bid, or a pass in a sealed auction)
    while its auction is under way, which shows as ``{"type": "seal_bid"}`` whether it bid or
    passed, with the source ``sealed`` whoever gave it (a pass made by the deadline would
    otherwise say ``timeout``: a timeout in a sealed auction is a pass); once the last answer
    is in they are shown like the rest."""
    moves = list(
        move_list(game=game, since=since).only("seq", "seat", "action", "created_at", "source")
    )
    sealed = _sealed_auctions(game)
    hidden = _secret_hidden(game) if any(_secret(m.action, sealed) for m in moves) else set()
    return [
        {
            "seq": m.seq,
            "seat": m.seat,
            "action": {"type": SEALED_SHOWN} if m.seq in hidden else m.action,
            "time": m.created_at,
            "source": SEALED_SOURCE if m.seq in hidden else cast(shapes.MoveSource, m.source),
        }
        for m in moves
    ]


#: The source a sealed answer shows until its auction's bids are opened (``move_list_public``).
SEALED_SOURCE: shapes.MoveSource = "sealed"


def _sealed_auctions(game: Game) -> bool:
    """Whether the game's auctions are sealed (the sealed-bid variant: every auction is)."""
    return game.variant == SEALED_BID


def _secret(action: object, sealed_auction: bool) -> bool:
    """Whether a move is a sealed answer (the engine's one rule, ``sealed_move``)."""
    return isinstance(action, dict) and sealed_move(action, sealed_auction)


def _secret_hidden(game: Game) -> set[int]:
    """The seqs of the sealed answers (sealed bids, and passes in a sealed auction) that stay
    hidden: those of the sealed auction under way, and every one taken back (its auction may
    never have been resolved: a take-back of the auction's opening withdraws the bids given,
    unopened)."""
    log = game_log(game)
    standing = engine.standing(log)
    kept = {seq for seq, _seat, _action in standing}
    start = _sealed_auction_start(game, standing)
    sealed = _sealed_auctions(game)
    return {
        seq
        for seq, _seat, action in log
        if _secret(action, sealed) and (seq not in kept or (start is not None and seq > start))
    }


def sealed_hidden(game: Game) -> set[int]:
    """The seqs of the sealed answers still hidden (``_secret_hidden``), for a sealed-bid game;
    empty for any other. Whatever counts moves for others to read (a player's reliability, the
    forecast's replies) leaves these out until the bids are opened: a sealed answer made by the
    deadline is a pass, so counting it as a timeout would tell it."""
    if not _sealed_auctions(game) or game.status != Game.Status.RUNNING:
        return set()
    return _secret_hidden(game)


def _sealed_auction_start(game: Game, standing: list[engine.LogEntry]) -> int | None:
    """The seq of the move that opened the sealed auction under way (the latest plant put up
    among the ``standing`` moves), or None if none is under way."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return None
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    if state.auction is None or state.auction.sealed is None:
        return None
    opened = [seq for seq, _seat, a in standing if a.get("type") == "choose_plant"]
    return opened[-1] if opened else 0
