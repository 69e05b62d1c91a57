"""Players' names in emails are isolated from the sentence around them, as on the game page:
between Unicode's isolates (U+2068 ... U+2069) in the text part, the subject and the move log's
sentences, in ``<bdi>`` in the HTML. A right-to-left name beside a number ("אבי2 bids 15", "Hello
אבי,") would otherwise carry the words around it into its own direction. The fast renderer
(games.fastpath.rendering) and Django's give the same emails."""

from __future__ import annotations

import pytest
from apihelpers import by_moves, play_default
from django.template.loader import render_to_string
from django.utils import translation

from games.fastpath import rendering
from games.models import Notification
from games.notifications import emails

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


NAMES = ["אבי2", "דנה", "رنا7"]  # Hebrew with a digit, Hebrew, Arabic with a digit


def _bare(text: str, name: str) -> int:
    """How often ``name`` stands in ``text`` neither in <bdi> nor between isolates."""
    return text.count(name) - text.count(f"<bdi>{name}</bdi>") - text.count(f"\u2068{name}\u2069")


def _check(part: str, *, html: bool) -> None:
    for name in NAMES:
        assert _bare(part, name) == 0, (name, part)
    if not html:
        assert "<bdi>" not in part


def test_every_name_in_the_game_emails_is_isolated(new_game):
    gid, ps = new_game(players=3)
    for p, name in zip(ps, NAMES, strict=True):
        p.user.profile.display_name = name
        p.user.profile.save()
    play_default(gid, ps, times=3)
    for p in ps:
        p.post(f"/api/v1/games/{gid}/chat/", {"text": "gl hf"})
    built = [emails.email_build(n) for n in Notification.objects.order_by("pk")]
    mails = [m for m in built if m is not None]
    kinds = {m.extra_headers["X-PowerGrid-Kind"] for m in mails}
    assert {"game_started", "turn"} <= kinds
    seen = 0
    for m in mails:
        html = m.alternatives[0][0]
        _check(m.subject, html=False)
        _check(m.body, html=False)
        _check(html, html=True)
        seen += sum(m.body.count(n) for n in NAMES)
        recipient = m.to[0].split("@")[0]
        me = next(p for p in ps if p.user.username == recipient).user.profile.display_name
        assert f"Hello \u2068{me}\u2069," in m.body
        assert f"Hello <bdi>{me}</bdi>," in html
    assert seen > 3 * len(mails)  # the greeting, the players, the moves, the chat


@pytest.mark.parametrize(
    "template", ["turn", "game_started", "game_over", "bot_took_over", "invited", "game_full"]
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_email_template_isolates_its_names_in_both_renderers(template, lang):
    a, b, c = NAMES
    ctx = {
        "game_id": 7,
        "map_name": "Germany",
        "game_url": "https://pg.example/mail/go/x/",
        "settings_url": "https://pg.example/mail/settings/x/",
        "site_url": "https://pg.example",
        "recipient_name": a,
        "LANGUAGE_CODE": lang,
        "deadline": "soon",
        "moves": [],
        "chat": [{"author": b, "text": "hi"}],
        "summary": {
            "round": 1,
            "step": 1,
            "phase": "auction",
            "auction": "",
            "me": None,
            # The others' facts name them (games.notifications.facts).
            "others": [
                {
                    "name": n,
                    "you": False,
                    "cities": 0,
                    "city_names": "",
                    "plants": [],
                    "money": None,
                }
                for n in NAMES
                if n != a
            ],
        },
        "players": NAMES,
        "first": [b, c],
        "your_turn": False,
        "results": [
            {"rank": 1, "name": b, "powered": 3, "cities": 9, "money": 40, "you": False},
            {"rank": 1, "name": c, "powered": 3, "cities": 9, "money": 40, "you": False},
            {"rank": 3, "name": a, "powered": 2, "cities": 8, "money": 10, "you": True},
        ],
        "winners": [b, c],
        "player": b,
        "you": False,
        "inviter": c,
        "seats_total": 4,
    }
    rendering.reset()
    with translation.override(lang):
        for suffix in (".txt", ".html", "_subject.txt"):
            name = f"emails/{template}{suffix}"
            fast = rendering.render(name, ctx)
            assert fast == render_to_string(name, ctx)
            _check(fast, html=suffix == ".html")
            if suffix != "_subject.txt":
                assert all(n in fast for n in (a, b)), fast  # the names are there
