"""The tournament create page: linked from the list, a plain form (no JavaScript) with its
defaults, a tournament made and its page opened, each refusal named beside its field."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Winter cup",
    "maps": ["germany"],
    "table_min": "3",
    "table_max": "4",
    "rounds": "2",
    "turn_hours": "24",
    "play": "on",
}


def _client(make_user):
    c = Client()
    user = make_user()
    c.force_login(user)
    return c, user


def test_linked_from_the_list_with_defaults_and_no_script(make_user):
    c, _user = _client(make_user)
    assert 'href="/tournaments/new/"' in c.get("/tournaments/").content.decode()
    html = c.get("/tournaments/new/").content.decode()
    assert "<script" not in html.split("<main", 1)[-1].split("</main>", 1)[0]
    assert re.search(r'name="maps" value="germany"[^>]*checked', html)
    assert re.search(r'<option value="3" selected>3</option>', html)  # fewest
    assert re.search(r'<option value="5" selected>5</option>', html)  # most
    assert re.search(r'name="rounds" value="3"', html)
    assert re.search(r'name="turn_hours" value="24"', html)
    assert re.search(r'type="checkbox" name="play"[^>]*checked', html)
    assert 'type="datetime-local"' in html


def test_a_good_form_makes_the_tournament_and_enters_its_director(make_user):
    from tournaments.models import Entrant, Tournament

    c, user = _client(make_user)
    deadline = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    r = c.post("/tournaments/new/", {**GOOD, "signup_deadline": deadline, "rating_min": "-5"})
    t = Tournament.objects.get()
    assert r.status_code == 302
    assert r["Location"] == f"/tournaments/{t.pk}/"
    assert (t.name, t.maps, t.table_min, t.table_max, t.rounds) == (
        "Winter cup",
        ["germany"],
        3,
        4,
        2,
    )
    assert t.director == user
    assert t.rating_min == -5
    assert t.signup_deadline is not None
    assert Entrant.objects.filter(tournament=t, user=user).exists()
    c.post("/tournaments/new/", {**GOOD, "play": ""})
    assert Tournament.objects.count() == 2
    assert Entrant.objects.count() == 1  # the second: directed, not entered


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"maps": []}, "maps"),
        ({"maps": ["atlantis"]}, "maps"),
        ({"table_min": "5", "table_max": "4"}, "table_max"),
        ({"table_min": "2"}, "table_min"),
        ({"rounds": "0"}, "rounds"),
        ({"rounds": "three"}, "rounds"),
        ({"turn_hours": "5"}, "turn_hours"),
        ({"signup_deadline": "2000-01-01T10:00"}, "signup_deadline"),
        ({"signup_deadline": "soon"}, "signup_deadline"),
        ({"rating_min": "1600", "rating_max": "1500"}, "rating_max"),
    ],
)
def test_each_refusal_is_named_beside_its_field_and_makes_nothing(make_user, change, field):
    from tournaments.models import Tournament

    c, _user = _client(make_user)
    r = c.post("/tournaments/new/", {**GOOD, **change})
    assert r.status_code == 400
    html = r.content.decode()
    form = r.context["form"]
    assert list(form.errors) == [field], form.errors
    assert f'href="#id_{field}"' in html  # the summary names it, linked
    assert not Tournament.objects.exists()
    assert 'value="Winter cup"' in html or field == "name"  # what was typed is kept


def test_anonymous_is_sent_to_log_in():
    r = Client().get("/tournaments/new/")
    assert r.status_code == 302
    assert "/accounts/login/" in r["Location"]
