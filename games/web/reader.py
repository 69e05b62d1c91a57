"""What the game page reads for its reader alone, in ONE statement beside the game and its seats
(``tests/games/web/test_page_queries.py``):

* the running games waiting for the reader's move besides this one: the head card's "Next game
  waiting (n)" (``games.waiting``'s rule);
* on this game's row, their private note (the note card, ``games.notes``), their seat's answer to
  this round's sheet (the sheet card, ``games.sheets``), the rounds the game's sheets answered
  (the forecast's waits, ``games.forecast``) and the payload of their latest ``restored`` row of
  the last ``told.PAGE_DAYS`` days (the restored card: what a recovery lost, ``games.restore``).

The statement is rooted at the games: this game's row, and for a signed-in reader each running
game where they hold a seat the server's bot does not play (that seat joined as ``mine``). This
game's own facts are subqueries written on its row only. A visitor not signed in gets this game's
row alone; nothing is read when there is nothing to read. Nobody else's note or sheet is read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypedDict, cast

from django.db.models import (
    Case,
    Count,
    FilteredRelation,
    IntegerField,
    JSONField,
    Q,
    Subquery,
    TextField,
    When,
)
from django.utils import timezone

from games import selectors
from games.forecast import sheets_counted
from games.models import Game, GameNote, Notification, SheetAnswer
from games.restore.told import PAGE_DAYS, RestoredPayload
from games.sheets.services import UNREAD, Unread
from games.sheets.shapes import Sheet
from games.waiting import Waiting, awaits, nearest_first


class _Row(TypedDict, total=False):
    """A row of the statement: a game; the reader's seat there (``mine``); this game's facts."""

    pk: int
    to_act: list[int] | None
    mine__seat: int | None
    mine__deadline: datetime | None
    mine__offered: str | None
    note: str | None
    answer: Sheet | None
    sheet_rounds: int | None
    restored: RestoredPayload | None


@dataclass(frozen=True)
class ReaderRows:
    #: The reader's private note on the game ("" when none, or not read: not seated).
    note: str = ""
    #: Their seat's answer to this round's sheet (None: not answered); ``UNREAD`` when not read
    #: (not seated, a past board, a game not under way): the sheet card reads it then, if shown.
    sheet_answer: Sheet | Unread | None = UNREAD
    #: The rounds the game's sheets answered; None when not read (the forecast reads it then).
    sheet_rounds: int | None = None
    #: The other games waiting for the reader's move, nearest deadline first.
    waiting: list[Waiting] = field(default_factory=list)
    #: The payload of the reader's latest ``restored`` row of the last ``PAGE_DAYS`` days
    #: (None: none, or not read: not seated).
    restored: RestoredPayload | None = None


def reader_rows(
    game: Game,
    user: selectors.Reader,
    *,
    seat: int | None,
    round_: int | None,
    forecast: bool,
) -> ReaderRows:
    """The reader's rows (see the module): ``seat`` their seat here (None: not seated),
    ``round_`` the round whose sheet the page shows (None: no sheet card), ``forecast`` whether
    the page forecasts the game's end (not on a past board)."""
    uid = int(getattr(user, "pk", 0) or 0) if getattr(user, "is_authenticated", False) else None
    here = Q(pk=game.pk)
    facts: dict[str, Case] = {}
    if forecast and game.status == Game.Status.RUNNING and sheets_counted(game):
        answered = SheetAnswer.objects.filter(game_id=game.pk).values("game_id")
        rounds = answered.annotate(n=Count("round", distinct=True)).values("n")[:1]
        facts["sheet_rounds"] = Case(When(here, then=Subquery(rounds)), output_field=IntegerField())
    if uid is not None and seat is not None:
        note = GameNote.objects.filter(game_id=game.pk, user_id=uid).values("text")[:1]
        facts["note"] = Case(When(here, then=Subquery(note)), output_field=TextField())
        told = Notification.objects.filter(
            recipient_id=uid,
            kind=Notification.Kind.RESTORED,
            created_at__gte=timezone.now() - timedelta(days=PAGE_DAYS),
        ).order_by("-created_at")
        facts["restored"] = Case(
            When(here, then=Subquery(told.values("payload")[:1])), output_field=JSONField()
        )
        if round_ is not None:
            answer = SheetAnswer.objects.filter(game_id=game.pk, seat=seat, round=round_)
            facts["answer"] = Case(
                When(here, then=Subquery(answer.values("data")[:1])), output_field=JSONField()
            )
    if uid is None and not facts:
        return ReaderRows()
    games = Game.objects.filter(here)
    columns = ["pk"]
    if uid is not None:
        mine = FilteredRelation(
            "seats", condition=Q(seats__user_id=uid, seats__bot_controlled=False)
        )
        others = Q(status=Game.Status.RUNNING, mine__seat__isnull=False)
        games = Game.objects.annotate(mine=mine).filter(here | others)
        columns += ["to_act", "mine__seat", "mine__deadline", "mine__offered"]
    rows = [cast(_Row, r) for r in games.values(*columns, **facts).order_by()]
    own = next((r for r in rows if r["pk"] == game.pk), _Row())
    return ReaderRows(
        note=own.get("note") or "",
        sheet_answer=own.get("answer") if "answer" in facts else UNREAD,
        sheet_rounds=own.get("sheet_rounds") or 0 if "sheet_rounds" in facts else None,
        restored=own.get("restored"),
        waiting=nearest_first(
            [
                Waiting(r["pk"], r.get("mine__deadline"))
                for r in rows
                if r["pk"] != game.pk
                and (seat := r.get("mine__seat")) is not None
                and awaits(seat, r.get("to_act"), r.get("mine__offered") or "")
            ]
        ),
    )
