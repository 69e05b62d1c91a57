"""A league season end to end: 12 members in two divisions by rating, a member joining during
the season (who waits), every table's game played out by the bots after the timeouts (nobody
moving, as in the 9-player tournament), the season ending by the game-end hooks alone, and the
next season seated with the top of division 2 promoted and the bottom of division 1 relegated."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_season_with_promotion_and_relegation(
    make_user, django_capture_on_commit_callbacks, tables_inline
):
    from tablehelpers import play_silent

    from games.models import Game, Move, Notification, Rating
    from tournaments import league_present, leagues
    from tournaments.models import Division, Entrant, Season, Table, Tournament

    director = make_user()
    league = leagues.league_create(
        director=director,
        name="Sunday league",
        maps=["germany"],
        table_min=3,
        table_max=3,
        rounds=2,
        division_size=7,
        movers=2,
    )
    users = [make_user() for _ in range(12)]
    for i, u in enumerate(users):
        leagues.league_join(league_id=league.pk, user=u)
        Rating.objects.create(user=u, mu=40.0 - i, sigma=1.0)  # users[0] rated best
    with django_capture_on_commit_callbacks(execute=True):  # the tables' games: their tasks
        leagues.league_start(league_id=league.pk, user=director)
    late = make_user()
    leagues.league_join(league_id=league.pk, user=late)  # during season 1: waits

    season1 = Season.objects.get(league=league, number=1)
    divisions = list(Division.objects.filter(season=season1).select_related("tournament"))
    members = [
        set(Entrant.objects.filter(tournament=d.tournament).values_list("user_id", flat=True))
        for d in divisions
    ]
    assert members == [{u.pk for u in users[:6]}, {u.pk for u in users[6:]}]  # by rating
    assert late.pk not in members[0] | members[1]
    assert [m.user_id for m in league_present.waiting(league)] == [late.pk]

    for number in (1, 2):
        tables = list(
            Table.objects.filter(round__tournament__division__season=season1, round__number=number)
        )
        seated = [p.entrant.user_id for tb in tables for p in tb.players.all()]
        assert sorted(seated) == sorted(u.pk for u in users)  # everyone once a round
        for tb in tables:
            with django_capture_on_commit_callbacks(execute=True):
                play_silent(tb.game_id)

    season1.refresh_from_db()
    assert season1.finished_at is not None
    assert all(
        Tournament.objects.get(pk=d.tournament_id).status == Tournament.Status.FINISHED
        for d in divisions
    )
    games = Game.objects.filter(tournament_table__round__tournament__division__season=season1)
    assert games.count() == 8
    assert all(g.status == Game.Status.FINISHED for g in games)
    assert Move.objects.filter(game__in=games, source="bot").exists()

    report = league_present.season(league, season1)
    assert report["final"] is True
    top, bottom = report["divisions"]
    down = [r["username"] for r in top["rows"] if r["move"] == "down"]
    up = [r["username"] for r in bottom["rows"] if r["move"] == "up"]
    assert down == [r["username"] for r in top["rows"][-2:]]
    assert up == [r["username"] for r in bottom["rows"][:2]]
    assert not [r for r in top["rows"] if r["move"] == "up"]
    assert not [r for r in bottom["rows"] if r["move"] == "down"]

    # each member's "final standings" email says where they go (written when their division
    # ended; the league page's link)
    told = {
        n.recipient.username: n.payload
        for n in Notification.objects.filter(kind="final_standings").select_related("recipient")
    }
    assert {u for u, p in told.items() if p["move"] == "up"} == set(up)
    assert {u for u, p in told.items() if p["move"] == "down"} == set(down)
    assert len(told) == 12
    assert all(p["competition"]["league"] == "Sunday league" for p in told.values())
    assert all(p["competition"]["url"].endswith("?season=1") for p in told.values())

    season2 = Season.objects.get(league=league, number=2)  # started by the hooks alone
    assert season2.finished_at is None
    names = {u.pk: u.username for u in [*users, late]}
    next_divisions = [
        {
            names[uid]
            for uid in Entrant.objects.filter(tournament=d.tournament).values_list(
                "user_id", flat=True
            )
        }
        for d in Division.objects.filter(season=season2).select_related("tournament")
    ]
    assert len(next_divisions) == 2
    assert set(up) <= next_divisions[0]
    assert not set(up) & next_divisions[1]
    assert set(down) <= next_divisions[1]
    assert not set(down) & next_divisions[0]
    assert late.username in next_divisions[1]  # the newcomer starts at the bottom
    assert [len(d) for d in next_divisions] == [6, 7]
    stayed = {r["username"] for r in top["rows"][:4]}
    assert stayed <= next_divisions[0]
    assert Table.objects.filter(round__tournament__division__season=season2).count() == 4
