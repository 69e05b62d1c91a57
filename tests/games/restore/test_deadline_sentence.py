"""The ``restored`` email's closing words: "your deadline starts again from now" only to a
reader one of whose games went back (lost moves: ``services._rearm`` gives its awaited seats a
fresh turn); a reader who lost only chat (a message, an edit) or whose only game was lost whole
has no deadline restarted and reads only the apology. It ended so for everyone."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from games.models import Notification
from games.notifications.emails import email_build

pytestmark = pytest.mark.django_db

AT = "2026-01-02T03:04:05+00:00"


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _game(gid: int, *, seq: int | None, chat: bool = False, lost: bool = False) -> dict:
    return {
        "game": gid,
        "seq": seq,
        "lost_game": lost,
        "map": "germany",
        "moves": [],
        "chat": [[AT, "see you in Essen"]] if chat else [],
        "edits": [],
    }


def _words(lang: str) -> tuple[str, str]:
    with translation.override(lang):
        return (
            translation.gettext(
                "In the games that went back, your deadline starts again from now."
            ),
            translation.gettext("We are sorry for the trouble."),
        )


def _built(user, games: list[dict]):
    n = Notification.objects.create(
        recipient=user,
        kind=Notification.Kind.RESTORED,
        payload={"label": "t", "restored_to": AT, "games": games},
        dedupe_key=f"restored:t:{user.pk}:{timezone.now().timestamp()}",
    )
    built = email_build(n)
    assert built is not None
    return built.body, " ".join(built.alternatives[0][0].split())


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("what", "shape", "said"),
    [
        ("chat only", [{"seq": None, "chat": True}], False),
        ("lost whole", [{"seq": None, "lost": True}], False),
        ("went back", [{"seq": 3}], True),
        ("went back, and chat of another", [{"seq": None, "chat": True}, {"seq": 2}], True),
    ],
)
def test_the_deadline_sentence_only_when_a_game_went_back(new_game, lang, what, shape, said):
    gid, ps = new_game(players=2)
    other, _ = new_game(players=2)
    user = ps[0].user
    user.profile.language = lang
    user.profile.save()
    games = []
    for i, g in enumerate(shape):
        # A game lost whole is one the database does not hold (a number past every game's).
        number = other + 1000 if g.get("lost") else (gid if i == 0 else other)
        chat, lost = bool(g.get("chat")), bool(g.get("lost"))
        games.append(_game(number, seq=g["seq"], chat=chat, lost=lost))
    body, html = _built(user, games)
    deadline, sorry = _words(lang)
    for part in (body, html):
        assert (deadline in part) is said, (what, part)
        assert sorry in part, what
