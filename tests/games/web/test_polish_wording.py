"""Wording an outside review at 390 px still found (issue 23), each fixed where the words are
made: no doubled full stop after an English time ("9:36 a.m.."), a median reply under an hour
said in minutes, Japanese spans without a list's "、" between their units ("23時間59分後"),
asides in the language's brackets (Japanese full-width "（）"), and lists of plants joined as the
language joins lists ("、" in Japanese)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def ja():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()
    with translation.override("ja"):
        yield


def test_a_vacation_until_a_morning_time_ends_with_one_full_stop(make_user, client_for):
    from accounts.models import Profile

    user = make_user()
    c = client_for(user)
    c.post("/accounts/reauthenticate/", {"password": "pw-web-123456"})
    # 9:36 a.m. UTC: English writes it "9:36 a.m.", whose stop ends the sentence too.
    until = timezone.now().replace(hour=9, minute=36) + timedelta(days=3)
    Profile.objects.filter(user=user).update(vacation_until=until)
    page = c.get("/accounts/profile/").content.decode()
    assert "a.m. Your turn clocks" in page
    assert ".." not in re.sub(r"\.{3,}", "", page)


def test_the_vacation_started_message_has_one_full_stop():
    from config.words import one_stop

    assert one_stop("until Nov. 28, 2026, 9:36 a.m..") == "until Nov. 28, 2026, 9:36 a.m."
    assert one_stop("Wait...") == "Wait..."
    src = (ROOT / "accounts" / "views.py").read_text()
    start = src.index("Your vacation has started")
    assert "one_stop(" in src[start - 120 : start]


@pytest.mark.parametrize(
    ("hours", "en", "jp"),
    [
        (0.0, "under a minute", "1分未満"),
        (0.004, "under a minute", "1分未満"),
        (0.25, "15 minutes", "15分"),
        (1 / 60, "1 minute", "1分"),
        (1.0, "1 hour", "1時間"),
        (2.54, "2.5 hours", "2.5時間"),
        (30.0, "30 hours", "30時間"),
    ],
)
def test_a_median_reply_is_said_in_the_unit_it_is_in(hours, en, jp):
    from games.templatetags.when import hours_span
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()
    with translation.override("en"):
        assert hours_span(hours) == en
    with translation.override("ja"):
        assert hours_span(hours) == jp


def test_the_player_page_says_a_quick_median_in_minutes():
    src = (ROOT / "templates" / "games" / "player.html").read_text()
    assert "median_reply_hours|hours_span" in src
    assert "median_reply_hours|floatformat" not in src


def test_a_japanese_span_has_no_list_separator_between_its_units(ja):
    from games.templatetags.when import when

    soon = timezone.now() + timedelta(hours=23, minutes=59, seconds=30)
    text = str(when(soon))
    assert "23時間59分後" in text
    assert "、59分" not in text
    with translation.override("en"):
        assert "in 23\xa0hours, 59\xa0minutes" in str(when(soon))


def test_asides_use_the_languages_brackets(ja):
    from config.words import aside
    from games import describe

    assert aside(describe.source_note("bot")) == "（ボットが指しました）"
    with translation.override("en"):
        assert aside(describe.source_note("bot")) == "(played by a bot)"


def test_the_game_pages_log_note_is_in_full_width_brackets(started_game, client_for):
    from webhelpers import actor, fresh

    from games import services

    game, users = started_game(3)
    u = actor(game, users)
    services.move_submit(
        game_id=game.pk,
        user=u,
        action={"type": "choose_plant", "plant": 6, "bid": 6},
        expected_seq=fresh(game).seq,
        source="bot",
    )
    from accounts.models import Profile

    Profile.objects.filter(user=users[0]).update(language="ja")
    c = client_for(users[0])
    c.cookies["django_language"] = "ja"
    page = c.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "（ボットが指しました）" in page
    assert "(ボットが指しました)" not in page


def test_no_template_writes_an_aside_in_ascii_brackets_around_a_translated_word():
    """The class: ``({% translate "x" %})`` or ``({{ note }})`` outside a translated sentence
    writes ASCII brackets in Japanese too; ``{{ _("x")|aside }}`` writes the language's."""
    found = []
    for path in sorted(p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt")):
        text = path.read_text()
        outside = re.sub(r"\{% blocktranslate.*?\{% endblocktranslate %\}", "", text, flags=re.S)
        for m in re.finditer(r"\(\{% translate [^%]*%\}\)|\(\{\{ [a-z_.]+ \}\}\)", outside):
            found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    allowed = {"templates/home.html: ({{ p.rating }})"}  # a number, not words
    assert [f for f in found if f not in allowed] == []


def test_japanese_plant_lists_are_joined_as_japanese_lists(ja):
    from games import describe

    legal = [{"type": "choose_plant", "plants": [{"number": 3}, {"number": 4}], "max_bid": 50}]
    said = " ".join(describe.legal_describe(legal))
    assert "3、4" in said
    assert "3, 4" not in said
    with translation.override("en"):
        assert "3, 4" in " ".join(describe.legal_describe(legal))


def test_no_display_list_is_joined_with_a_bare_comma():
    """The class: a list written for a reader goes through ``join_names`` (", " in English,
    "、" in Japanese); a bare ``", ".join`` in the code that writes pages and emails is English
    whatever the reader's language."""
    files = [ROOT / "games" / "describe.py", ROOT / "games" / "notifications" / "emails.py"]
    files += sorted((ROOT / "games" / "web").glob("*.py"))
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if '", ".join(' in line
    ]
    assert found == []
