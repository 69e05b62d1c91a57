"""The league create page: linked from the league list, a plain form (no JavaScript) with its
defaults, a league made (its director a member when asked) and its page opened, each refusal
named beside its field with what was typed kept, in English and Japanese."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Sunday league",
    "maps": ["germany"],
    "table_min": "3",
    "table_max": "4",
    "rounds": "2",
    "turn_hours": "24",
    "division_size": "8",
    "movers": "2",
    "play": "on",
}


def _client(make_user):
    c = Client()
    user = make_user()
    c.force_login(user)
    return c, user


def test_linked_from_the_list_with_defaults_and_no_script(make_user):
    c, _user = _client(make_user)
    assert 'href="/leagues/new/"' in c.get("/leagues/").content.decode()
    assert 'href="/leagues/new/"' not in Client().get("/leagues/").content.decode()
    r = c.get("/leagues/new/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "<script" not in html.split("<main", 1)[-1].split("</main>", 1)[0]
    assert re.search(r'name="maps" value="germany"[^>]*checked', html)
    assert re.search(r'<select name="table_min"[^>]*>.*?<option value="3" selected>', html, re.S)
    assert re.search(r'<select name="table_max"[^>]*>.*?<option value="5" selected>', html, re.S)
    for name, value in (("rounds", 3), ("turn_hours", 24), ("division_size", 9), ("movers", 2)):
        assert re.search(rf'name="{name}" value="{value}"', html), name
    assert re.search(r'type="checkbox" name="play"[^>]*checked', html)


def test_a_good_form_makes_the_league_and_makes_its_director_a_member(make_user):
    from tournaments.models import League, LeagueMember

    c, user = _client(make_user)
    r = c.post("/leagues/new/", GOOD)
    league = League.objects.get()
    assert r.status_code == 302
    assert r["Location"] == f"/leagues/{league.pk}/"
    assert (
        league.name,
        league.maps,
        league.table_min,
        league.table_max,
        league.rounds,
        league.turn_hours,
        league.division_size,
        league.movers,
    ) == ("Sunday league", ["germany"], 3, 4, 2, 24, 8, 2)
    assert league.director == user
    assert list(LeagueMember.objects.values_list("user", flat=True)) == [user.pk]
    page = c.get(r["Location"]).content.decode()
    assert "League created" in page
    assert f'action="/leagues/{league.pk}/start/"' in page
    c.post("/leagues/new/", {**GOOD, "play": ""})
    assert League.objects.count() == 2
    assert LeagueMember.objects.count() == 1  # the second: directed, not joined


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"maps": []}, "maps"),
        ({"maps": ["atlantis"]}, "maps"),
        ({"table_min": "2"}, "table_min"),
        ({"table_max": "7"}, "table_max"),
        ({"table_min": "5", "table_max": "4"}, "table_max"),
        ({"rounds": "0"}, "rounds"),
        ({"rounds": "three"}, "rounds"),
        ({"turn_hours": "5"}, "turn_hours"),
        ({"division_size": "3", "table_max": "4", "movers": "1"}, "division_size"),
        ({"division_size": "61"}, "division_size"),
        ({"division_size": "８"}, "division_size"),
        ({"movers": "0"}, "movers"),
        ({"movers": "5", "division_size": "8"}, "movers"),
    ],
)
def test_each_refusal_is_named_beside_its_field_and_keeps_what_was_typed(make_user, change, field):
    from tournaments.models import League, LeagueMember

    c, _user = _client(make_user)
    typed = {**GOOD, "turn_hours": "36", "rounds": "4", **change}
    r = c.post("/leagues/new/", typed)
    assert r.status_code == 400
    html = r.content.decode()
    form = r.context["form"]
    assert list(form.errors) == [field], form.errors
    assert f'href="#id_{field}"' in html  # the summary names it, linked
    assert not League.objects.exists()
    assert not LeagueMember.objects.exists()
    for name in ("name", "rounds", "turn_hours", "division_size", "movers"):
        if name != field:
            assert f'name="{name}" value="{typed[name]}"' in html, name  # kept as typed
    if field != "maps":
        assert re.search(r'name="maps" value="germany"[^>]*checked', html)


def test_a_refusal_of_the_service_is_shown_beside_its_field(make_user, monkeypatch):
    """The service checks every field again (for every caller): its refusal lands beside the
    field it names, and nothing is made."""
    from tournaments import leagues
    from tournaments.models import League

    monkeypatch.setattr(leagues.services, "NAME_MAX", 5)
    c, _user = _client(make_user)
    r = c.post("/leagues/new/", GOOD)
    assert r.status_code == 400
    assert list(r.context["form"].errors) == ["name"]
    assert not League.objects.exists()


def test_in_japanese(make_user):
    ensure_compiled()
    c, user = _client(make_user)
    user.profile.language = "ja"
    user.profile.save()
    for data in (None, {**GOOD, "movers": "7"}):
        r = c.get("/leagues/new/") if data is None else c.post("/leagues/new/", data)
        html = r.content.decode()
        assert 'lang="ja"' in html
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", html)
        assert english_words(html, {"Sunday", "league"}) == []


def test_anonymous_is_sent_to_log_in():
    r = Client().get("/leagues/new/")
    assert r.status_code == 302
    assert "/accounts/login/" in r["Location"]
    r = Client().post("/leagues/new/", GOOD)
    assert r.status_code == 302
