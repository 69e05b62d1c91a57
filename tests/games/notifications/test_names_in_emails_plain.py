"""Names in emails, as a mail client shows them: Unicode's isolates (U+2068/U+2069) only around a
name that holds right-to-left text (several clients draw them as boxes), ``<bdi>`` in the HTML
as before; a list of names joined as the recipient's language writes a list (", " in English,
"、" in Japanese). The one rule lives in ``games.templatetags.names``."""

from __future__ import annotations

import pytest
from apihelpers import play_default
from django.template.loader import render_to_string
from django.utils import translation

from games.fastpath import rendering
from games.models import Notification
from games.notifications import emails
from games.templatetags.names import isolate, join_names, needs_isolation

pytestmark = pytest.mark.django_db

LTR = ["Anna", "アンナ", "Zoë"]


def test_every_game_email_of_left_to_right_names_carries_no_isolate(new_game):
    gid, ps = new_game(players=3)
    for p, name in zip(ps, LTR, strict=True):
        p.user.profile.display_name = name
        p.user.profile.save()
    play_default(gid, ps, times=3)
    built = [emails.email_build(n) for n in Notification.objects.order_by("pk")]
    mails = [m for m in built if m is not None]
    assert len(mails) >= 3
    for m in mails:
        html = m.alternatives[0][0]
        for part in (m.subject, m.body, html):
            assert "\u2068" not in part, part
            assert "\u2069" not in part, part
        assert sum(html.count(f"<bdi>{n}</bdi>") for n in LTR) >= 1  # the HTML keeps <bdi>


@pytest.mark.parametrize(
    ("name", "isolated"),
    [("Anna", False), ("アンナ", False), ("x1", False), ("אבי2", True), ("رنا", True),
     ("Anna \u05d0", True), ("\u0661\u0662", True)],
)  # fmt: skip
def test_a_name_is_isolated_exactly_when_it_holds_right_to_left_text(name, isolated):
    assert needs_isolation(name) is isolated
    assert (isolate(name) == f"\u2068{name}\u2069") is isolated


def test_lists_of_names_follow_the_language():
    with translation.override("en"):
        assert join_names(["A", "B", "C"]) == "A, B, C"
    with translation.override("ja"):
        assert join_names(["A", "B", "C"]) == "A、B、C"
        assert join_names(["A", "\u05d0"], isolate) == "A、\u2068\u05d0\u2069"


@pytest.mark.parametrize("template", ["game_started", "game_full", "invited"])
def test_japanese_emails_list_players_with_the_japanese_comma(template):
    ctx = {
        "game_id": 7,
        "map_name": "ドイツ",
        "game_url": "https://pg.example/mail/go/x/",
        "settings_url": "https://pg.example/mail/settings/x/",
        "site_url": "https://pg.example",
        "recipient_name": "アンナ",
        "LANGUAGE_CODE": "ja",
        "players": ["アンナ", "ボブ", "カロル"],
        "first": ["ボブ", "カロル"],
        "your_turn": False,
        "inviter": "ボブ",
        "seats_total": 4,
    }
    rendering.reset()
    with translation.override("ja"):
        for suffix in (".txt", ".html"):
            text = rendering.render(f"emails/{template}{suffix}", ctx)
            assert text == render_to_string(f"emails/{template}{suffix}", ctx)
            assert "、" in text, text
            assert "アンナ, " not in text, text
            assert "ボブ, " not in text, text
