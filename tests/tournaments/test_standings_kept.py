"""The standings a process keeps between changes (``tournaments.selectors.standings_of``): read
outside a transaction they are computed once per version of what they are made of, and every
change the standings read (a table's result, a drop-out, a join or leave, a bye) makes them
computed again; inside a transaction (a service, which may roll back) never kept."""

from __future__ import annotations

import pytest
from django.db import transaction

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def computed(monkeypatch):
    """How many times the standings were computed (not taken from the process's copy)."""
    from tournaments import selectors

    selectors._standings.clear()
    calls = []
    real = selectors._standings_computed

    def counting(t):
        calls.append(t.pk)
        return real(t)

    monkeypatch.setattr(selectors, "_standings_computed", counting)
    yield calls
    selectors._standings.clear()


def _open(make_user, n=7, **kw):
    from tournaments import services

    director = make_user()
    fields = {"name": "Cup", "maps": ["germany"], "table_min": 3, "table_max": 4, **kw}
    t = services.tournament_create(director=director, **fields)
    users = [make_user() for _ in range(n)]
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    return t, director, users


def _finish(table):
    from tournaments import scoring
    from tournaments.models import TablePlayer

    seats = list(TablePlayer.objects.filter(table=table))
    points = scoring.table_points(list(range(1, len(seats) + 1)))
    for rank, (p, pts) in enumerate(zip(seats, points, strict=True), start=1):
        p.rank, p.points, p.powered, p.money = rank, pts, 20 - rank, rank
    TablePlayer.objects.bulk_update(seats, ["rank", "points", "powered", "money"])
    table.finished = True
    table.save(update_fields=["finished"])


def test_kept_until_what_they_read_changes(make_user, computed):
    from tournaments import services
    from tournaments.models import Entrant, Table
    from tournaments.selectors import standings_of

    t, director, users = _open(make_user)
    first = standings_of(t)
    assert [s.points for s in standings_of(t)] == [s.points for s in first]
    assert len(computed) == 1  # the second read: the kept copy
    # a leave and a join: as many entrants as before, another one among them
    services.tournament_leave(tournament_id=t.pk, user=users[0])
    services.tournament_join(tournament_id=t.pk, user=make_user())
    entrants = set(Entrant.objects.filter(tournament=t).values_list("pk", flat=True))
    assert {s.entrant for s in standings_of(t)} == entrants
    assert len(computed) == 2
    services.tournament_start(tournament_id=t.pk, user=director)
    standings_of(t)
    standings_of(t)
    assert len(computed) == 2  # seated, nothing played: the same standings, still kept
    table = Table.objects.filter(round__tournament=t).first()
    _finish(table)
    rows = standings_of(t)
    assert len(computed) == 3
    assert rows[0].points == 120
    services.tournament_leave(tournament_id=t.pk, user=users[3])
    dropped = Entrant.objects.get(tournament=t, user=users[3]).pk
    assert next(s for s in standings_of(t) if s.entrant == dropped).dropped
    assert len(computed) == 4
    # the copy handed out is the caller's list: reordering it changes nothing kept
    rows = standings_of(t)
    rows.reverse()
    assert standings_of(t)[0].points == 120


def test_a_bye_changes_them(make_user, computed):
    from tournaments import services
    from tournaments.models import Bye
    from tournaments.selectors import standings_of

    t, director, _users = _open(make_user, n=5, table_min=4, table_max=4)
    services.tournament_start(tournament_id=t.pk, user=director)  # 4 seated, 1 sits out
    assert Bye.objects.filter(round__tournament=t).count() == 1
    rows = standings_of(t)
    assert sorted(s.byes for s in rows) == [0, 0, 0, 0, 1]
    Bye.objects.all().delete()  # (a change no service makes: the count tells it apart)
    assert sorted(s.byes for s in standings_of(t)) == [0, 0, 0, 0, 0]
    assert len(computed) == 2


def test_never_kept_inside_a_transaction(make_user, computed):
    from tournaments.models import Table
    from tournaments.selectors import _standings, standings_of

    t, director, _users = _open(make_user)
    from tournaments import services

    services.tournament_start(tournament_id=t.pk, user=director)
    try:
        with transaction.atomic():
            _finish(Table.objects.filter(round__tournament=t).first())
            assert standings_of(t)[0].points == 120
            assert standings_of(t)[0].points == 120
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    assert len(computed) == 2
    assert t.pk not in _standings
    assert standings_of(t)[0].points == 0  # what was committed: nothing played
