"""``LongSelect`` (accounts/widgets.py) writes the markup Django's Select writes, in one pass:
the same element, attributes, options and choice, read back as HTML (not compared as text:
Django's template leaves blank lines and orders attributes its own way)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django import forms

from accounts.forms import ProfileForm
from accounts.widgets import LongSelect

CHOICES = [("Europe/Berlin", "Europe/Berlin"), ('a"<b>&c', "A <b> & 'c'"), ("UTC", "UTC")]


class _Read(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.select: dict[str, str | None] = {}
        self.options: list[tuple[str | None, bool, str]] = []
        self._in: list[str] | None = None
        self._attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag, attrs):
        if tag == "select":
            self.select = dict(attrs)
        elif tag == "option":
            self._attrs = dict(attrs)
            self._in = []

    def handle_data(self, data):
        if self._in is not None:
            self._in.append(data)

    def handle_endtag(self, tag):
        if tag == "option" and self._in is not None:
            a = self._attrs
            self.options.append((a.get("value"), "selected" in a, "".join(self._in)))
            self._in = None


def _read(html: str) -> _Read:
    r = _Read()
    r.feed(str(html))
    return r


@pytest.mark.parametrize("value", ["UTC", 'a"<b>&c', "", None, "Nowhere/Else"])
@pytest.mark.parametrize("required", [True, False])
def test_the_same_select_as_djangos(value, required):
    class F(forms.Form):
        django = forms.ChoiceField(
            choices=CHOICES, required=required, widget=forms.Select(attrs={"translate": "no"})
        )
        long = forms.ChoiceField(
            choices=CHOICES, required=required, widget=LongSelect(attrs={"translate": "no"})
        )

    f = F(initial={"django": value, "long": value})
    theirs, ours = _read(f["django"]), _read(f["long"])
    assert ours.options == theirs.options
    assert {**ours.select, "name": "", "id": ""} == {**theirs.select, "name": "", "id": ""}
    assert ours.select["name"] == "long"
    assert ours.select["id"] == "id_long"


@pytest.mark.django_db
def test_the_profile_form_offers_every_zone_with_the_players_chosen(django_user_model):
    user = django_user_model.objects.create_user("zoned")
    user.profile.timezone = "Asia/Tokyo"
    form = ProfileForm(instance=user.profile)
    r = _read(form["timezone"])
    chosen = [v for v, selected, _text in r.options if selected]
    assert chosen == ["Asia/Tokyo"]
    assert len(r.options) > 300
    assert r.select["translate"] == "no"
