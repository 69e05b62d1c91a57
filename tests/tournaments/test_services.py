"""Tournament services: create, join/leave, start (director or deadline), rounds advancing when
every table's game ended, drop-outs, refusals with codes."""

from __future__ import annotations

from datetime import timedelta

import pytest

pytestmark = pytest.mark.django_db


def _tournament(director, **kw):
    from tournaments import services

    fields = {"name": "Autumn cup", "maps": ["germany"], "table_min": 3, "table_max": 4}
    fields.update(kw)
    return services.tournament_create(director=director, **fields)


def test_create_refuses_bad_fields_with_codes(make_user):
    from tournaments import services
    from tournaments.errors import InvalidTournament
    from tournaments.models import Tournament

    d = make_user()
    for bad in (
        {"name": ""},
        {"maps": []},
        {"maps": ["atlantis"]},
        {"table_min": 2},
        {"table_max": 7},
        {"table_min": 5, "table_max": 4},
        {"rounds": 0},
        {"turn_hours": 1},
        {"private": "yes"},
        {"rating_min": 1600, "rating_max": 1500},
    ):
        fields = {"name": "Cup", "maps": ["germany"]}
        fields.update(bad)
        with pytest.raises(InvalidTournament) as exc:
            services.tournament_create(director=d, **fields)
        assert exc.value.status == 400
        assert exc.value.details["field"] in bad
    assert not Tournament.objects.exists()


def test_join_leave_and_private_code(make_user):
    from tournaments import services
    from tournaments.errors import AlreadyEntered, NotEntered, TournamentNotFound
    from tournaments.models import Entrant

    d, a, b = make_user(), make_user(), make_user()
    t = _tournament(d, private=True)
    with pytest.raises(TournamentNotFound):
        services.tournament_join(tournament_id=t.pk, user=a)
    services.tournament_join(tournament_id=t.pk, user=a, code=t.invite_code)
    with pytest.raises(AlreadyEntered):
        services.tournament_join(tournament_id=t.pk, user=a, code=t.invite_code)
    services.tournament_leave(tournament_id=t.pk, user=a)
    assert not Entrant.objects.exists()
    with pytest.raises(NotEntered):
        services.tournament_leave(tournament_id=t.pk, user=b)


def test_a_private_tournament_under_way_is_not_found_by_a_stranger_joining(
    make_user, django_capture_on_commit_callbacks
):
    """Joining a started private tournament without its code is 404, not 409
    ``tournament_started``: the answer would tell a stranger it exists, and how far it got."""
    from tournaments import services
    from tournaments.errors import TournamentNotFound, TournamentStarted

    d = make_user()
    t = _tournament(d, private=True)
    for _ in range(3):
        services.tournament_join(tournament_id=t.pk, user=make_user(), code=t.invite_code)
    with django_capture_on_commit_callbacks(execute=False):
        services.tournament_start(tournament_id=t.pk, user=d)
    with pytest.raises(TournamentNotFound):
        services.tournament_join(tournament_id=t.pk, user=make_user())
    with pytest.raises(TournamentStarted):  # with the code, the truth
        services.tournament_join(tournament_id=t.pk, user=make_user(), code=t.invite_code)


def test_rating_range(make_user):
    from games.models import Rating
    from tournaments import services
    from tournaments.errors import OutsideRatingRange

    d, a, b = make_user(), make_user(), make_user()
    t = _tournament(d, rating_min=0, rating_max=100)
    Rating.objects.create(user=a, mu=60.0, sigma=1.0)
    with pytest.raises(OutsideRatingRange) as exc:
        services.tournament_join(tournament_id=t.pk, user=a)
    assert exc.value.code == "outside_rating_range"
    services.tournament_join(tournament_id=t.pk, user=b)  # no rating yet: may enter


def test_start_refused_below_table_min_and_by_others(make_user):
    from tournaments import services
    from tournaments.errors import NotDirector, TooFewEntrants
    from tournaments.models import Tournament

    d, a, b = make_user(), make_user(), make_user()
    t = _tournament(d)
    for u in (a, b):
        services.tournament_join(tournament_id=t.pk, user=u)
    with pytest.raises(NotDirector):
        services.tournament_start(tournament_id=t.pk, user=a)
    with pytest.raises(TooFewEntrants) as exc:
        services.tournament_start(tournament_id=t.pk, user=d)
    assert exc.value.code == "too_few_entrants"
    assert exc.value.status == 409
    assert Tournament.objects.get(pk=t.pk).status == "open"  # nothing changed


def test_start_seats_seven_at_four_and_three_and_starts_every_game(make_user):
    from tablehelpers import make_tables

    from games.models import Game
    from tournaments import services
    from tournaments.errors import TournamentStarted
    from tournaments.models import Table

    d = make_user()
    t = _tournament(d)
    users = [make_user() for _ in range(7)]
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    services.tournament_start(tournament_id=t.pk, user=d)
    make_tables()
    tables = list(Table.objects.filter(round__tournament=t).select_related("game"))
    assert sorted(tb.game.seats.count() for tb in tables) == [3, 4]
    assert all(tb.game.status == Game.Status.RUNNING for tb in tables)
    assert all(tb.game.options["turn_hours"] == 24 for tb in tables)
    seated = {s.user_id for tb in tables for s in tb.game.seats.all()}
    assert seated == {u.pk for u in users}
    with pytest.raises(TournamentStarted):
        services.tournament_join(tournament_id=t.pk, user=make_user())


def test_the_sweep_starts_at_the_deadline(make_user):
    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Tournament

    d = make_user()
    t = _tournament(d, signup_deadline=timezone.now() + timedelta(hours=1))
    few = _tournament(d, signup_deadline=timezone.now() + timedelta(hours=1))
    for _ in range(3):
        services.tournament_join(tournament_id=t.pk, user=make_user())
    later = timezone.now() + timedelta(hours=2)
    assert services.tournaments_sweep(now=timezone.now()) == {
        "started": 0,
        "refused": 0,
        "recorded": 0,
        "tables": 0,
    }
    report = services.tournaments_sweep(now=later)
    assert report["started"] == 1
    assert report["refused"] == 1
    assert Tournament.objects.get(pk=t.pk).status == "running"
    assert Tournament.objects.get(pk=few.pk).status == "open"


def test_rounds_advance_when_all_games_end_and_dropouts_sit_out(
    make_user, django_capture_on_commit_callbacks
):
    from tablehelpers import make_tables, play_out

    from tournaments import selectors, services
    from tournaments.models import Table, TablePlayer, Tournament

    d = make_user()
    t = _tournament(d, rounds=2, table_min=3, table_max=3)
    users = [make_user() for _ in range(7)]  # 7 at 3-3: two tables, one bye
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    services.tournament_start(tournament_id=t.pk, user=d)
    make_tables()
    tables = list(Table.objects.filter(round__tournament=t, round__number=1))
    assert len(tables) == 2
    dropper = TablePlayer.objects.filter(table=tables[0]).first().entrant.user
    services.tournament_leave(tournament_id=t.pk, user=dropper)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(tables[0].game_id)
    assert Tournament.objects.get(pk=t.pk).current_round == 1  # one table still playing
    with django_capture_on_commit_callbacks(execute=True):
        play_out(tables[1].game_id)
    t.refresh_from_db()
    assert t.current_round == 2
    make_tables()  # round 2's tables' games, made by their tasks after the round's commit
    round2 = list(Table.objects.filter(round__tournament=t, round__number=2))
    seated = {p.entrant.user_id for tb in round2 for p in tb.players.all()}
    assert dropper.pk not in seated
    assert len(seated) == 6
    rows = selectors.standings_of(t)
    assert sum(r.points for r in rows) == 2 * (120 + 60 + 0) + 60  # two tables and a bye
    for tb in round2:
        with django_capture_on_commit_callbacks(execute=True):
            play_out(tb.game_id)
    t.refresh_from_db()
    assert t.status == "finished"


def test_players_across_a_block_are_never_seated_together(make_user):
    """Issue 42: "I am not seated with them in tournaments". Six entrants at 3-3, three blocks
    (each made one way): every table's game seats no two across a block, and every game starts
    (the lobby's join, which refuses a block, is how the tables are filled)."""
    from tablehelpers import make_tables

    from accounts import blocks
    from games.models import Game
    from tournaments import services
    from tournaments.models import Table

    for seed in range(4):
        d = make_user()
        t = _tournament(d, table_min=3, table_max=3)
        t.seed = seed
        t.save()
        users = [make_user() for _ in range(6)]
        for u in users:
            services.tournament_join(tournament_id=t.pk, user=u)
        for a, b in ((0, 1), (3, 2), (4, 5)):
            blocks.block(user=users[a], username=users[b].username)
        services.tournament_start(tournament_id=t.pk, user=d)
        make_tables()
        tables = list(Table.objects.filter(round__tournament=t).select_related("game"))
        assert len(tables) == 2
        for tb in tables:
            assert tb.game.status == Game.Status.RUNNING
            seated = {s.user_id for s in tb.game.seats.all()}
            for a, b in ((0, 1), (2, 3), (4, 5)):
                assert not {users[a].pk, users[b].pk} <= seated, (seed, a, b)


def test_when_one_table_takes_everyone_the_later_entrant_of_a_block_sits_out(make_user):
    from tablehelpers import make_tables

    from accounts import blocks
    from tournaments import services
    from tournaments.models import Bye, Table

    d = make_user()
    t = _tournament(d, table_min=3, table_max=4)
    users = [make_user() for _ in range(4)]
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    blocks.block(user=users[3], username=users[1].username)
    services.tournament_start(tournament_id=t.pk, user=d)
    make_tables()
    [table] = Table.objects.filter(round__tournament=t).select_related("game")
    assert {s.user_id for s in table.game.seats.all()} == {u.pk for u in users[:3]}
    assert [b.entrant.user_id for b in Bye.objects.filter(round__tournament=t)] == [users[3].pk]


@pytest.mark.parametrize(
    "name",
    ["\u202eevil", "Cup\u2066", "Cup\u200f", "Cup\nBcc: x@example.com", "Cup\r", "Cup\x00",
     "\u2028Cup", "Cup\u00ad"],
)  # fmt: skip
def test_a_name_with_a_control_character_is_refused_for_tournaments_and_leagues(make_user, name):
    """A name goes into pages and email subjects ("<name>: your table is ready"): a
    text-direction override would reverse the subject, a line break forge a line. Refused with
    400 ``invalid_field`` naming it, by the service every caller goes through; nothing made."""
    from tournaments import leagues, services
    from tournaments.errors import InvalidTournament
    from tournaments.models import League, Tournament

    d = make_user()
    for create in (
        lambda: services.tournament_create(director=d, name=name, maps=["germany"]),
        lambda: leagues.league_create(director=d, name=name, maps=["germany"]),
    ):
        with pytest.raises(InvalidTournament) as exc:
            create()
        assert (exc.value.status, exc.value.details["field"]) == (400, "name")
        assert "control characters" in str(exc.value)
    assert not Tournament.objects.exists()
    assert not League.objects.exists()
    ok = services.tournament_create(director=d, name="  秋の杯 Cup  ", maps=["germany"])
    assert ok.name == "秋の杯 Cup"
