"""The sheet card for keyboard and screen reader users: after "accept" the page opens at the
confirmation, which takes the focus without JavaScript (the redirect's fragment names it, and it
is focusable and autofocused); each limit box's name says what it limits; in both languages."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_back():
    """A Japanese page activates Japanese in this thread: the next test starts as usual."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _labels(html: str, prefix: str) -> dict[str, str]:
    """The text of each ``<label for="<prefix>-N">`` (what is hidden from a screen reader and
    the tags dropped): the boxes' accessible names."""
    out = {}
    for target, inner in re.findall(rf'<label for="({prefix}-\d+)">(.*?)</label>', html, re.S):
        heard = re.sub(r'<span aria-hidden="true">.*?</span>', "", inner, flags=re.S)
        out[target] = " ".join(re.sub(r"<[^>]+>", "", heard).split())
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_accepting_lands_on_a_focused_confirmation(started_game, client_for, lang):
    game, users = started_game()
    waiting = next(i for i in range(3) if i not in Game.objects.get(pk=game.pk).to_act)
    users[waiting].profile.language = lang
    users[waiting].profile.save()
    c = client_for(users[waiting])
    r = c.post(f"/games/{game.pk}/sheet/", {"accept": "1"})
    assert r.status_code == 302
    assert r["Location"] == f"/games/{game.pk}/#sheet-done"
    page = c.get(f"/games/{game.pk}/").content.decode()
    status = re.search(r'<p id="sheet-done"[^>]*>(.*?)</p>', page, re.S)
    assert status is not None
    tag = status.group(0)
    assert 'role="status"' in tag
    assert 'tabindex="-1"' in tag
    assert "autofocus" in tag
    assert status.group(1).strip()
    # Shown once: a reload has no confirmation (and nothing else takes the focus).
    again = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="sheet-done"' not in again
    assert "autofocus" not in again


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_limit_box_is_named_by_what_it_limits(started_game, client_for, lang):
    game, users = started_game()
    users[1].profile.language = lang
    users[1].profile.save()
    html = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    for prefix in ("open-max", "bid-max", "bid-plant"):
        names = _labels(html, prefix)
        assert len(names) >= 2, prefix
        assert len(set(names.values())) == len(names), names  # no two boxes named alike
    opens = _labels(html, "open-max")
    first = re.search(r'name="open_plant_0"[^>]*value="(\d+)"', html)
    assert first is not None
    with translation.override(lang):
        # One whole name each (not "up to : most to pay for plant 10", two names run together).
        want = translation.gettext("up to, for plant %(n)s") % {"n": first.group(1)}
        assert opens["open-max-0"] == want
        if lang == "en":
            assert _labels(html, "bid-plant")["bid-plant-0"] == "Plant (line 1)"
    # Each suggestion's reason describes the boxes of its line (not loose text beside them).
    for prefix in ("open", "bid"):
        reasons = re.findall(rf'<span class="muted small" id="({prefix}-why-(\d+))">', html)
        assert reasons or prefix == "bid", prefix
        for why, i in reasons:
            for box in (f"{prefix}-plant-{i}", f"{prefix}-max-{i}"):
                tag = re.search(rf'<input id="{box}"[^>]*>', html)
                assert tag is not None
                described = re.search(r'aria-describedby="([^"]*)"', tag.group(0))
                assert described is not None, tag.group(0)
                assert why in described.group(1).split(), tag.group(0)
    assert not re.search(r'<span class="muted small">[^<]', _card(html)), (
        "a reason linked to no box"
    )
    for box, why in (("res-max", "res-why"), ("build-max", "build-why")):
        tag = re.search(rf'<input id="{box}"[^>]*>', html)
        if tag is not None:
            assert f'aria-describedby="{why}"' in tag.group(0)


def _card(html: str) -> str:
    start = html.index('id="sheet"')
    return html[start : html.index("</section>", start)]


def test_the_sheet_page_has_a_level_one_heading(started_game, client_for):
    game, users = started_game()
    html = client_for(users[1]).get(f"/games/{game.pk}/sheet/").content.decode()
    assert html.count("<h1") == 1
    h1 = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert h1 is not None
    assert f"#{game.pk}" in h1.group(1)
