"""Take-backs on the server: which moves a player may take back, and whether alone or by asking.

The engine says what a take-back is (``powergrid.takeback``: a log entry that cancels the latest
moves that stand; what a move revealed). The rules of this server:

* **Which moves.** From the player's own last move that they made themselves (on the page, by the
  API or by email; not one their plan, the clock or the bot made) to the end of the log: their
  move and everything after it. At most ``MAX_MOVES`` standing moves back.
* **Alone, at once,** when nobody else has moved since and none of those moves revealed anything
  hidden (a plant drawn from the deck, sealed bids opened; ``powergrid.takeback.revealed``). At
  most ``options.takebacks`` of these per player and game (a lobby option, default 3).
* **Otherwise by asking** (``TakebackRequest``): every other player must accept, before the
  game's current deadline and before anything else moves (a move meanwhile makes the request
  void: the game has moved on). The server's own bots accept at once. Asking is not counted.
* **Never** in a rated game (every seat a person, no seat played by the bot) unless its creator
  allowed take-backs at creation (``options.takebacks_rated``); never once the game is over: its
  end revealed every player's money, and its result stands (rated, announced).

Reads here (the offer a page shows, from the cached move log); writes in
``games.services.takeback``, which checks everything again under the game's lock, from a replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils import timezone
from django.utils.translation import gettext as _

from games import log, selectors, shapes
from games.models import DEFAULT_OPTIONS, Game, Move, Seat, TakebackRequest
from games.ratings import rated_so_far
from games.services.errors import TakebackRefused
from powergrid.takeback import REVEALS, TAKEBACK

#: Sources of the moves a player made themselves: only those can be taken back.
HUMAN = frozenset({Move.Source.WEB, Move.Source.API, Move.Source.EMAIL})
#: How many standing moves back a take-back may reach (a round of six players, with bidding).
MAX_MOVES = 60

#: How a take-back is made: alone at once, or by asking the others.
NOW = "now"
ASK = "ask"
#: Why a take-back needs asking when nothing was revealed.
OTHERS_MOVED = "others_moved"


@dataclass(frozen=True)
class LogRow:
    """One entry of the move log, as far as take-backs care."""

    seq: int
    seat: int
    source: str
    action: dict[str, Any]


@dataclass(frozen=True)
class Tail:
    """The moves a take-back would cancel (seqs, oldest first; the first is the player's own),
    whether another seat moved among them, and the first thing one of them revealed."""

    cancels: list[int]
    others_moved: bool
    revealed: str | None

    @property
    def alone(self) -> bool:
        """Whether the player may take them back alone, at once."""
        return not self.others_moved and self.revealed is None

    @property
    def reason(self) -> str | None:
        """Why asking is needed: ``others_moved`` or what was revealed (None: it is not)."""
        return OTHERS_MOVED if self.others_moved else self.revealed


def standing_rows(rows: Sequence[LogRow]) -> list[LogRow]:
    """The rows no take-back cancelled, in order (take-back rows themselves left out)."""
    out: list[LogRow] = []
    for r in rows:
        if r.action.get("type") == TAKEBACK:
            gone = set(r.action.get("cancels") or ())
            while out and out[-1].seq in gone:
                out.pop()
        else:
            out.append(r)
    return out


def tail_start(standing: Sequence[LogRow], seat: int) -> int:
    """The index in ``standing`` of the seat's last move made by the player, or
    ``TakebackRefused`` (``nothing_to_take_back``, ``takeback_too_far``)."""
    for i in range(len(standing) - 1, -1, -1):
        r = standing[i]
        if r.seat == seat and r.source in HUMAN:
            if len(standing) - i > MAX_MOVES:
                raise TakebackRefused(
                    f"Your last move is too far back to take back (more than {MAX_MOVES} "
                    "moves ago).",
                    code="takeback_too_far",
                    details={"max_moves": MAX_MOVES},
                )
            return i
    raise TakebackRefused("You have no move of your own to take back.", code="nothing_to_take_back")


def tail_of(standing: Sequence[LogRow], seat: int, reveal_of: Callable[[int], str | None]) -> Tail:
    """What a take-back by ``seat`` would cancel now (``reveal_of``: what the move of a seq
    revealed)."""
    start = tail_start(standing, seat)
    rows = standing[start:]
    revealed = next((r for r in (reveal_of(x.seq) for x in rows) if r is not None), None)
    return Tail(
        cancels=[r.seq for r in rows],
        others_moved=any(r.seat != seat for r in rows),
        revealed=revealed,
    )


def limit(game: Game) -> int:
    """Take-backs each player may make alone in ``game`` (``options.takebacks``)."""
    return int((game.options or {}).get("takebacks", DEFAULT_OPTIONS["takebacks"]))


def refusal(game: Game, seats: list[Seat]) -> TakebackRefused | None:
    """Why nobody may take anything back in ``game`` now (None: they may). A game stays rated
    when a player leaves or times out (``games.ratings``), so the bot's moves change nothing."""
    if game.status == Game.Status.FINISHED:
        return TakebackRefused(
            "The game is over: its end showed every player's money, and the result stands.",
            code="game_over",
        )
    if game.status != Game.Status.RUNNING:
        return TakebackRefused("The game has not started yet.", code="game_not_started")
    allowed = bool((game.options or {}).get("takebacks_rated"))
    if not allowed and rated_so_far(game, seats):
        return TakebackRefused(
            "This game is rated: take-backs are off (its creator did not allow them when "
            "creating it).",
            code="takebacks_off",
        )
    return None


def used(rows: Sequence[LogRow], seat: int) -> int:
    """How many take-backs ``seat`` has made alone (agreed ones are not counted)."""
    return sum(
        1
        for r in rows
        if r.seat == seat and r.action.get("type") == TAKEBACK and not r.action.get("accepted_by")
    )


def why_ask(code: str | None) -> str:
    """Why a take-back needs the others, in the reader's language ("a plant was drawn from the
    deck"); empty for None."""
    if code == OTHERS_MOVED:
        return _("another player has moved since")
    return _(REVEALS[code]) if code in REVEALS else ""


# -- requests -------------------------------------------------------------------------------------


def request_state(req: TakebackRequest, game: Game) -> str:
    """A request's status now: a pending one whose game moved on is ``void``, one past its
    deadline ``expired`` (written so by the next service that touches it)."""
    if req.status != TakebackRequest.Status.PENDING:
        return str(req.status)
    if game.seq != req.at_seq:
        return TakebackRequest.Status.VOID
    if req.deadline <= timezone.now():
        return TakebackRequest.Status.EXPIRED
    return TakebackRequest.Status.PENDING


def request_open(game: Game) -> TakebackRequest | None:
    """The game's request still waiting for answers, if any."""
    req = (
        TakebackRequest.objects.filter(game=game, status=TakebackRequest.Status.PENDING)
        .order_by("-created_at")
        .first()
    )
    if req is None or request_state(req, game) != TakebackRequest.Status.PENDING:
        return None
    return req


def request_json(req: TakebackRequest, game: Game) -> shapes.TakebackRequest:
    """A request as the API and the page show it to the game's players."""
    seats = selectors.game_seats(game)
    asked = sorted(s.seat for s in seats if s.seat != req.seat)
    return {
        "id": req.pk,
        "seat": req.seat,
        "cancels": list(req.cancels),
        "reason": req.reason,
        "status": cast(shapes.TakebackRequestStatus, request_state(req, game)),
        "at_seq": req.at_seq,
        "asked": asked,
        "accepted": sorted(req.accepted),
        "waiting_for": [s for s in asked if s not in req.accepted and s != req.declined_by],
        "declined_by": req.declined_by,
        "deadline": req.deadline,
        "created_at": req.created_at,
        "takeback_seq": req.move_seq,
    }


# -- the offer a page shows -----------------------------------------------------------------------


@dataclass
class Offer:
    """What the player may take back now, for the page and ``GET .../takeback/``: ``how`` is
    ``now`` (alone, at once), ``ask`` (with the others' agreement) or None with ``refused``
    (a code) and ``message``; ``left``: take-backs they may still make alone."""

    how: str | None
    cancels: list[int] = field(default_factory=list)
    reason: str | None = None
    refused: str | None = None
    message: str = ""
    left: int = 0
    limit: int = 0
    request: TakebackRequest | None = None

    def as_json(self, game: Game) -> shapes.TakebackOffer:
        return {
            "how": self.how,
            "cancels": self.cancels,
            "reason": self.reason,
            "refused": self.refused,
            "message": self.message,
            "left": self.left,
            "limit": self.limit,
            "request": None if self.request is None else request_json(self.request, game),
        }


def rows_from_entries(entries: list[log.Item]) -> tuple[list[LogRow], dict[int, str | None]]:
    """The log's rows and what each move revealed, from the cached log entries (the first entry
    of each seq is the move's own)."""
    rows: list[LogRow] = []
    reveals: dict[int, str | None] = {}
    seen: set[int] = set()
    for e in entries:
        seq = e["seq"]
        if seq in seen:
            continue
        seen.add(seq)
        action: dict[str, Any] = {"type": e["kind"]}
        if e["kind"] == TAKEBACK:
            action["cancels"] = list(e["params"].get("cancels", ()))
            action["accepted_by"] = [0] if e["params"].get("agreed") else []
        seat = e["seat"] if e["seat"] is not None else -1
        rows.append(LogRow(seq, seat, e["source"], action))
        reveals[seq] = e["revealed"]
    return rows, reveals


def offer_for(game: Game, user: selectors.Reader) -> Offer | None:
    """The player's take-back offer now (None for someone without a seat). From the cached move
    log: no replay (the service replays when it is used)."""
    seat = selectors.seat_of(game, user)
    if seat is None:
        return None
    cap = limit(game)
    entries = log.entries(game)
    refused = refusal(game, selectors.game_seats(game))
    if refused is not None:
        return Offer(None, refused=refused.code, message=refused.message, limit=cap)
    rows, reveals = rows_from_entries(entries)
    left = max(0, cap - used(rows, seat.seat))
    req = request_open(game)
    try:
        tail = tail_of(standing_rows(rows), seat.seat, reveals.get)
    except TakebackRefused as exc:
        return Offer(None, refused=exc.code, message=exc.message, left=left, limit=cap, request=req)
    how = NOW if tail.alone and left > 0 else ASK
    return Offer(how, cancels=tail.cancels, reason=tail.reason, left=left, limit=cap, request=req)
