"""A reply to the turn email that answers the round sheet (``ok``, or edited lines), and the
sheet's part of the turn email (its text and the one-tap "accept the suggestions" link). The
reading is ``games.sheets.mailtext``; the answering, the same service as every channel."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games import engine
from games.inbox import onetap
from games.models import Game, Seat, SheetAnswer
from games.notifications.contexts import SheetMail
from games.sheets.asking import sheets_on
from games.sheets.mailtext import apply_reply, sheet_lines, what_will_happen
from games.sheets.services import UNREAD, Unread, sheet_document, sheet_put
from games.sheets.shapes import Sheet

#: How long the one-tap link stays good (hours): the round's sheet; void once the round is over.
LINK_HOURS = 72.0


def sheet_reply_apply(*, text: str, game: Game, user: Any, seat: int) -> tuple[int, list[str]]:
    """Answer the seat's sheet with a reply's ``text``: (the game's seq after the moves made at
    once, what the sheet will do, line by line). ``ParseError`` or the service's errors."""
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    doc = sheet_document(game, seat, state)
    gmap = engine.map_load(game.map)
    answered, _read = apply_reply(text, doc, gmap)
    _made, seq = sheet_put(game_id=game.pk, user=user, body=answered, source="email")
    lang = translation.get_language() or "en"
    return seq, what_will_happen(answered, gmap, lang[:2])


def sheet_waits(game: Game, seat: Seat, latest: Sheet | Unread | None = UNREAD) -> bool:
    """Whether ``seat`` (not awaited by the engine) is asked for its round sheet: a seat of a
    running sheets game whose sheet waits (``Seat.sheet_waits``, its deadline the sheet's:
    ``games.sheets.asking``) and has not answered the round's sheet. A turn email to a seat not
    awaited is its sheet's email. ``latest``: the seat's latest answer as a batch of emails
    read it (its round may be a past one), else read here."""
    if not sheets_on(game) or game.status != Game.Status.RUNNING:
        return False
    if seat.deadline is None or seat.bot_controlled or not seat.sheet_waits:
        return False
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    if latest is not UNREAD:
        return latest is None or latest.get("round") != state.round
    return not SheetAnswer.objects.filter(game=game, seat=seat.seat, round=state.round).exists()


def sheet_mail(
    game: Game, seat: Seat, user: Any, latest: Sheet | Unread | None = UNREAD
) -> SheetMail | None:
    """The turn email's sheet: ``lines`` ((command, reason) pairs), the ``accept_url`` link
    (None when the game is not under way). ``latest``: the seat's latest answer as a batch of
    emails read it (a past round's is no answer to this round's sheet), else read here."""
    if game.status != Game.Status.RUNNING:
        return None
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    if latest is not UNREAD and latest is not None and latest.get("round") != state.round:
        latest = None
    doc = sheet_document(game, seat.seat, state, latest, deadline=seat.deadline)
    lang = (translation.get_language() or "en")[:2]
    return {
        "round": doc["round"],
        "lines": sheet_lines(doc, engine.map_load(game.map), lang),
        "accept_url": onetap.link(
            game=game,
            seat=seat.seat,
            user_id=user.pk,
            choice="sheet_ok",
            hours=LINK_HOURS,
            round_=doc["round"],
        ),
    }
