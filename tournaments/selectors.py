"""Reads of tournaments: standings, seating history, lists. No writes."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from django.db import connection
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery

from tournaments import scoring, seating
from tournaments.models import Bye, Entrant, Round, TablePlayer, Tournament

#: Standings this process computed, by tournament: (version, standings). See ``standings_of``.
_standings: OrderedDict[int, tuple[tuple[int, ...], tuple[scoring.Standing, ...]]] = OrderedDict()
_standings_lock = threading.Lock()
_STANDINGS_KEPT = 32


def tournaments_listed(user: Any | None = None) -> QuerySet[Tournament]:
    """Public tournaments, newest first, with their entrant counts (private ones only for
    their director and entrants); a league's divisions are listed with their league."""
    visible = Q(private=False)
    if user is not None and getattr(user, "is_authenticated", False):
        visible |= Q(director=user) | Q(entrants__user=user)
    return (
        Tournament.objects.filter(visible, division__isnull=True)
        .distinct()
        .annotate(entrant_count=Count("entrants", distinct=True))
        .order_by("-created_at", "-pk")
    )


def records_of(t: Tournament) -> list[scoring.GameRecord]:
    """Every finished table of ``t`` as the scoring reads it."""
    rows = (
        TablePlayer.objects.filter(table__round__tournament=t, table__finished=True)
        .values_list("table_id", "table__round__number", "entrant_id", "rank", "powered", "money")
        .order_by("table_id", "seat")
    )
    tables: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for table_id, rnd, entrant, rank, powered, money in rows:
        tables.setdefault(table_id, []).append((rnd, entrant, rank or 0, powered or 0, money or 0))
    return [
        scoring.GameRecord(
            round=seats[0][0],
            players=tuple(s[1] for s in seats),
            ranks=tuple(s[2] for s in seats),
            powered=tuple(s[3] for s in seats),
            money=tuple(s[4] for s in seats),
        )
        for seats in tables.values()
    ]


def _standings_version(t: Tournament) -> tuple[int, ...]:
    """What the standings are made of, counted: the entrants (how many, the newest: a join
    always adds a higher number, so a leave and a join never count the same), those who
    dropped out, the finished tables (a table's results are written once, with its
    ``finished``) and the byes. Every write the standings read changes one of them."""

    def counted(qs: QuerySet[Any]) -> Subquery:
        return Subquery(qs.order_by().values("n")[:1])

    entrants = Entrant.objects.filter(tournament=OuterRef("pk")).values("tournament")
    rounds = Round.objects.filter(tournament=OuterRef("pk")).values("tournament")
    row = (
        Tournament.objects.filter(pk=t.pk)
        .annotate(
            v_entrants=counted(entrants.annotate(n=Count("pk"))),
            v_newest=counted(entrants.annotate(n=Max("pk"))),
            v_dropped=counted(entrants.filter(dropped_at__isnull=False).annotate(n=Count("pk"))),
            v_tables=counted(
                rounds.filter(tables__finished=True).annotate(n=Count("tables", distinct=True))
            ),
            v_byes=counted(rounds.annotate(n=Count("byes", distinct=True))),
        )
        .values_list("v_entrants", "v_newest", "v_dropped", "v_tables", "v_byes")
        .get()
    )
    return tuple(int(x or 0) for x in row)


def _standings_computed(t: Tournament) -> list[scoring.Standing]:
    entrants = list(
        Entrant.objects.filter(tournament=t)
        .order_by("joined_at", "pk")
        .values_list("pk", "dropped_at")
    )
    byes = Bye.objects.filter(round__tournament=t).values_list("entrant_id", flat=True)
    return scoring.standings(
        [e for e, _ in entrants],
        records_of(t),
        byes=list(byes),
        dropped=[e for e, d in entrants if d is not None],
    )


def standings_of(t: Tournament) -> list[scoring.Standing]:
    """The standings now (finished tables and byes count), best first. Read outside a
    transaction (a page, the API) they are kept in this process by their version
    (``_standings_version``: three counting queries instead of reading every seat of every
    round: a tournament of 2,000 entrants after 5 rounds has 10,000); inside one (a service
    seating the next round) they are computed from what the transaction sees and not kept,
    since it may still roll back. The rows are shared: read them, do not change them."""
    if connection.in_atomic_block:
        return _standings_computed(t)
    version = _standings_version(t)
    with _standings_lock:
        hit = _standings.get(t.pk)
    if hit is not None and hit[0] == version:
        return list(hit[1])
    rows = _standings_computed(t)
    with _standings_lock:
        _standings[t.pk] = (version, tuple(rows))
        _standings.move_to_end(t.pk)
        while len(_standings) > _STANDINGS_KEPT:
            _standings.popitem(last=False)
    return rows


def history_of(t: Tournament) -> seating.History:
    """The seating history of ``t``'s rounds so far."""
    history = seating.History()
    rounds = Round.objects.filter(tournament=t).prefetch_related("tables__players", "byes")
    for rnd in rounds:
        plan = seating.RoundPlan(
            tables=tuple(
                seating.TablePlan(
                    players=tuple(p.entrant_id for p in table.players.all()), map=table.map
                )
                for table in rnd.tables.all()
            ),
            byes=tuple(b.entrant_id for b in rnd.byes.all()),
        )
        history.record(plan)
    return history


def may_see(t: Tournament, user: Any, code: str = "") -> bool:
    """A public tournament: anyone signed in; a private one: its director, its entrants, and
    whoever has its code (the private link)."""
    if not t.private:
        return True
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    if signed_in and (
        t.director_id == user.pk or Entrant.objects.filter(tournament=t, user=user).exists()
    ):
        return True
    return bool(code) and secrets.compare_digest(str(code), t.invite_code)


def paths_of(t: Tournament, entrant_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each of these entrants' path through the rounds so far: per round their table (its
    number, game, size) with their rank and points once it ended, or their bye. Three queries
    whatever the tournament's size (a page of the standings asks for its rows only)."""
    seats = list(
        TablePlayer.objects.filter(table__round__tournament=t, entrant_id__in=entrant_ids)
        .values_list(
            "entrant_id",
            "table__round__number",
            "table__number",
            "table__game_id",
            "rank",
            "points",
            "table_id",
        )
        .order_by()
    )
    sizes = dict(
        TablePlayer.objects.filter(table_id__in={row[6] for row in seats})
        .order_by()
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    steps: dict[int, list[tuple[int, dict[str, Any]]]] = {e: [] for e in entrant_ids}
    for entrant, rnd, table, game, rank, points, table_id in seats:
        step = {
            "round": rnd,
            "bye": False,  # every step has its keys: a template's miss costs a dir() each
            "table": table,
            "game": game,
            "rank": rank,
            "points": points,
            "size": sizes.get(table_id, 0),
        }
        steps[entrant].append((rnd, step))
    byes = Bye.objects.filter(round__tournament=t, entrant_id__in=entrant_ids).values_list(
        "entrant_id", "round__number"
    )
    for entrant, rnd in byes:
        steps[entrant].append((rnd, {"round": rnd, "bye": True}))
    return {e: [step for _, step in sorted(s, key=lambda x: x[0])] for e, s in steps.items()}
