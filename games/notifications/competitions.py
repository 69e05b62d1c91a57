"""Tournament and league emails: "your table is ready" (``table_ready``, round 1), "the next
round starts" (``round_started``: a table, or a bye) and "final standings"
(``final_standings``).

The ``tournaments`` app writes their rows (games knows nothing of tournaments: it imports none
of them); everything such an email says is in its row's payload, written when it happened,
but for a table's game, read as the game's own "started" email reads it (whether the recipient
moves first, what they may do, how to reply). A table's email takes the place of that
"started" email: the tournament turns the game's pending row (same dedupe key,
``outbox.started_key``) into its own kind, so a player seated at a table gets one email, not
two. A player whose settings say no emails (or the digest only) has no such row, and gets no
tournament email either (``outbox.wants_email``).

The payload (``Competition``): ``competition``: ``{name, url, league, season, division}``
(``url``: a path of the site; ``league`` "" outside a league), ``round``, ``rounds``,
``table`` (None: a bye), ``place`` and ``points`` in the standings so far; a final email
adds ``of``, ``leaders`` (``[place, name, points]`` of the first few) and ``move`` (``up``,
``down``, ``stay`` in a league, else "").
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games.fastpath import rows as sql_rows
from games.models import Game, Notification
from games.shapes.base import JSONObject

from . import builders, contexts, outbox, parts

Kind = Notification.Kind


def table_notice(*, game: Game, user: User, kind: str, payload: JSONObject) -> bool:
    """Turn ``user``'s pending "started" email of ``game`` (written by the game's start in the
    same transaction) into a tournament's ``kind`` with ``payload``; False when there is none
    (emails off, the digest only)."""
    changed = Notification.objects.filter(
        dedupe_key=outbox.started_key(game.pk, user.pk),
        status=Notification.Status.PENDING,
        kind=Kind.GAME_STARTED,
    ).update(kind=kind, payload=payload)
    return changed > 0


def notices(rows: Sequence[tuple[User, str, str, JSONObject]]) -> int:
    """Write game-less rows ``(recipient, kind, dedupe key, payload)`` for those who want
    emails (a key written before is left as it is) and send them after commit; how many."""
    made = [
        Notification(recipient=user, game=None, kind=kind, payload=payload, dedupe_key=key)
        for user, kind, key, payload in rows
        if outbox.wants_email(user, kind)
    ]
    if made:
        sql_rows.insert_many(made, ignore_conflicts=True)
        outbox.schedule_send_pending()
    return len(made)


def _competition(n: Notification) -> contexts.CompetitionContext:
    p = n.payload
    c = p.get("competition") or {}
    path = str(c.get("url") or "/")
    name, league = str(c.get("name") or ""), str(c.get("league") or "")
    title = name
    if league:
        title = _("%(league)s, season %(season)s, division %(division)s") % {
            "league": league,
            "season": int(c.get("season") or 0),
            "division": int(c.get("division") or 0),
        }
    return {
        "title": title,
        "competition": name,
        "league": league,
        "season": int(c.get("season") or 0),
        "division": int(c.get("division") or 0),
        "competition_url": settings.SITE_URL + (path if path.startswith("/") else "/"),
        "round": int(p.get("round") or 0),
        "rounds": int(p.get("rounds") or 0),
        "place": int(p["place"]) if p.get("place") is not None else None,
        "points": int(p["points"]) if p.get("points") is not None else None,
    }


def table_ready_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.TableReadyContext | None:
    start = builders.started_context(n, pf)
    if start is None:
        return None
    return {
        **_competition(n),
        "table": int(n.payload.get("table") or 0),
        "start": start,
        "reply_to": start.get("reply_to"),
    }


def round_started_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.RoundStartedContext | None:
    if n.game_id is None:  # a bye
        return {**_competition(n), "table": None}
    start = builders.started_context(n, pf)
    if start is None:
        return None
    return {
        **_competition(n),
        "table": int(n.payload.get("table") or 0),
        "start": start,
        "reply_to": start.get("reply_to"),
    }


def final_standings_context(
    n: Notification, pf: parts.Prefetch | None = None
) -> contexts.FinalStandingsContext:
    leaders: list[contexts.LeaderLine] = [
        {"place": int(row[0]), "name": str(row[1]), "points": int(row[2])}
        for row in n.payload.get("leaders") or []
        if isinstance(row, list) and len(row) == 3
    ]
    return {
        **_competition(n),
        "of": int(n.payload.get("of") or 0),
        "leaders": leaders,
        "move": str(n.payload.get("move") or ""),
    }
