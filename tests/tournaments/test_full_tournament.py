"""The whole tournament: 9 players, 3 rounds at tables of 3, nobody moving (the deadline sweep
times each seat out and the bot takes it over, as in any game), played to the final standings
through the game-end hook alone, each round's tables' games made by their tasks after the
round's commit (run in this process: ``tables_inline``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_nine_players_three_rounds_with_bots_to_final_standings(
    make_user, django_capture_on_commit_callbacks, tables_inline
):
    from tablehelpers import play_silent

    from games.models import Game, Move
    from tournaments import selectors, services
    from tournaments.models import Table, Tournament
    from tournaments.seating import repeat_pairs

    director = make_user()
    t = services.tournament_create(
        director=director,
        name="Nine",
        maps=["germany", "usa"],
        table_min=3,
        table_max=3,
        rounds=3,
    )
    users = [make_user() for _ in range(9)]
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk, user=director)
    for number in (1, 2, 3):
        t.refresh_from_db()
        assert t.current_round == number
        tables = list(Table.objects.filter(round__tournament=t, round__number=number))
        assert [tb.game.seats.count() for tb in tables] == [3, 3, 3]
        for tb in tables:
            with django_capture_on_commit_callbacks(execute=True):
                play_silent(tb.game_id)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.count() == 9
    assert all(g.status == Game.Status.FINISHED for g in games)
    assert Move.objects.filter(game__in=games, source="timeout").exists()
    assert Move.objects.filter(game__in=games, source="bot").exists()
    rows = selectors.standings_of(t)
    assert len(rows) == 9
    assert all(r.games == 3 for r in rows)
    assert sum(r.points for r in rows) == 9 * (120 + 60)
    assert rows[0].place == 1
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    # both maps played, everyone met new opponents in round 2 (9 at 3: no repeat forced)
    assert {tb.map for tb in Table.objects.filter(round__tournament=t)} == {"germany", "usa"}
    history = selectors.history_of(t)
    assert repeat_pairs(history) <= 3
