"""What a tournament tells its players, by email, webhook and stream, at its three moments:
round 1's tables ("your table is ready"), each later round ("the next round starts": a table
or a bye) and the end ("final standings"; in a league, whether one goes up or down).

Called in the transaction that made a table's game (``services.table_make``: its players, and
with the round's first table the round's byes) or ended the tournament (``receivers``), so a
rolled-back change tells nobody. Emails go through the games' outbox
(``games.notifications.competitions``: a table's email takes the place of the game's own
"started" email; nobody whose settings turned emails off gets one), webhooks to the players'
own webhooks and the table's game's (``games.webhooks.events``), stream events to the players'
own streams (``games.stream.log.record_personal``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.models import Game, Notification, Seat
from games.notifications import competitions
from games.selectors import player_name
from games.stream import log as stream_log
from games.webhooks import events as hooks
from tournaments import ladder
from tournaments.models import Bye, Division, Entrant, LeagueMember, Round, Table, Tournament
from tournaments.selectors import standings_of

Kind = Notification.Kind
#: How many of the first places a final-standings email lists.
LEADERS = 5


def _division(t: Tournament) -> Division | None:
    return Division.objects.filter(tournament=t).select_related("season__league").first()


def _competition(t: Tournament, division: Division | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": t.name,
        "url": reverse("tournament", args=[t.pk]),
        "league": "",
        "season": 0,
        "division": 0,
    }
    if division is not None:
        out.update(
            league=division.season.league.name,
            season=division.season.number,
            division=division.number,
        )
    return out


def _facts(t: Tournament, number: int, table: int | None) -> dict[str, Any]:
    """The stream's and the webhooks' ``tournament`` (``StreamTournament``)."""
    return {
        "id": t.pk,
        "name": t.name,
        "round": number,
        "rounds": t.rounds,
        "table": table,
        "url": reverse("tournament", args=[t.pk]),
    }


def table_told(t: Tournament, rnd: Round, table: Table) -> None:
    """Tell the players of ``table`` (its game just made and started, in this transaction)
    where they play; with the round's first table, tell its byes too (their stream event is
    carried by that table's game, as a personal event needs a game)."""
    kind = Kind.TABLE_READY if rnd.number == 1 else Kind.ROUND_STARTED
    competition = _competition(t, _division(t))
    so_far = {s.entrant: s for s in standings_of(t)} if rnd.number > 1 else {}
    base = {"competition": competition, "round": rnd.number, "rounds": t.rounds}
    game = table.game
    assert game is not None, "a table is told once its game exists"
    users = []
    for p in table.players.select_related("entrant__user__profile"):
        st = so_far.get(p.entrant_id)
        payload = {
            **base,
            "seat": p.seat,
            "table": table.number,
            "place": st.place if st else None,
            "points": st.points if st else None,
        }
        competitions.table_notice(game=game, user=p.entrant.user, kind=kind, payload=payload)
        users.append(p.entrant.user_id)
    facts = {"tournament": _facts(t, rnd.number, table.number)}
    _hooks_of_game(game, kind, facts)
    stream_log.record_personal(game, users, kind, facts)
    if table.number == 1:
        _byes_told(t, rnd, game, base, so_far)


def _byes_told(
    t: Tournament, rnd: Round, game: Game, base: dict[str, Any], so_far: dict[int, Any]
) -> None:
    """Tell the round's byes that it starts without them (with its first table's game)."""
    byes = list(Bye.objects.filter(round=rnd).select_related("entrant__user__profile"))
    if not byes:
        return
    rows = []
    for b in byes:
        st = so_far.get(b.entrant_id)
        payload = {
            **base,
            "table": None,
            "place": st.place if st else None,
            "points": st.points if st else None,
        }
        key = f"round:{t.pk}:{rnd.number}:{b.entrant.user_id}"
        rows.append((b.entrant.user, str(Kind.ROUND_STARTED), key, payload))
    competitions.notices(rows)
    bye_facts: dict[str, object] = {"tournament": _facts(t, rnd.number, None)}
    users = [b.entrant.user_id for b in byes]
    hooks.schedule(
        hooks.personal_write(
            hooks.ROUND_STARTED, dict.fromkeys(users, bye_facts), f"{t.pk}:{rnd.number}:bye"
        )
    )
    stream_log.record_personal(game, users, hooks.ROUND_STARTED, bye_facts)


def _hooks_of_game(game: Game, event: str, facts: dict[str, Any]) -> None:
    """The table's game's webhooks and its players' own (``deliveries_write``)."""
    if not game.hooks_active:
        return
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    hooks.schedule(hooks.deliveries_write(game, [(event, None, facts)], seats))


def _moves(division: Division, finish: list[int]) -> dict[int, str]:
    """Who goes up, down or stays, by the ladder's rule (``ladder.moves``), as the season's
    divisions stand now (its other divisions' sizes, without members who left)."""
    season = division.season
    staying = set(
        LeagueMember.objects.filter(league_id=season.league_id).values_list("user_id", flat=True)
    )
    finishes: list[list[int]] = []
    at = 0
    for i, d in enumerate(Division.objects.filter(season=season).order_by("number")):
        if d.pk == division.pk:
            at = i
            finishes.append([u for u in finish if u in staying])
        else:
            users = Entrant.objects.filter(tournament_id=d.tournament_id).values_list(
                "user_id", flat=True
            )
            finishes.append([u for u in users if u in staying])
    mv = ladder.moves(finishes, season.league.movers)[at]
    out = dict.fromkeys(finishes[at], "stay")
    out.update(dict.fromkeys(mv.up, "up"))
    out.update(dict.fromkeys(mv.down, "down"))
    return out


def final_told(t: Tournament) -> None:
    """Tell every entrant still playing (not dropped out) the final standings."""
    division = _division(t)
    competition = _competition(t, division)
    if division is not None:
        league_url = reverse("league", args=[division.season.league_id])
        competition["url"] = f"{league_url}?season={division.season.number}"
    entrants = {
        e.pk: e for e in Entrant.objects.filter(tournament=t).select_related("user__profile")
    }
    rows = standings_of(t)
    leaders = [[r.place, player_name(entrants[r.entrant].user), r.points] for r in rows[:LEADERS]]
    moves = (
        _moves(division, [entrants[r.entrant].user_id for r in rows])
        if division is not None
        else {}
    )
    playing = [r for r in rows if not r.dropped]
    notices = []
    for r in playing:
        user = entrants[r.entrant].user
        payload = {
            "competition": competition,
            "round": t.current_round,
            "rounds": t.rounds,
            "place": r.place,
            "points": r.points,
            "of": len(rows),
            "leaders": leaders,
            "move": moves.get(user.pk, ""),
        }
        notices.append((user, str(Kind.FINAL_STANDINGS), f"final:{t.pk}:{user.pk}", payload))
    competitions.notices(notices)
    users = [entrants[r.entrant].user_id for r in playing]
    facts: dict[str, object] = {"tournament": _facts(t, t.current_round, None)}
    hooks.schedule(
        hooks.personal_write(hooks.FINAL_STANDINGS, dict.fromkeys(users, facts), f"{t.pk}:final")
    )
    last = (
        Table.objects.filter(round__tournament=t, round__number=t.current_round, game__isnull=False)
        .select_related("game")
        .first()
    )
    if last is not None and last.game is not None:
        stream_log.record_personal(last.game, users, hooks.FINAL_STANDINGS, facts)
