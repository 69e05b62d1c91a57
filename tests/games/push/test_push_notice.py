"""The push notice's words (``games.push.sending.notice``): in the recipient's profile language
at the time it is sent, the site's language when the profile names none; the same link, tag
and game whatever the language."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "title", "body"),
    [
        ("en", "Your turn", "It is your turn in Power Grid game #{gid}."),
        ("ja", "あなたの手番", "電力会社 ゲーム #{gid} であなたの番です。"),
        ("", "Your turn", "It is your turn in Power Grid game #{gid}."),
    ],
)
def test_the_notice_is_in_the_recipients_language(new_game, language, title, body):
    from django.utils import translation

    from games.models import PushMessage
    from games.push.sending import notice

    gid, ps = new_game(players=2)
    user = ps[0].user
    user.profile.language = language
    user.profile.save()
    with translation.override("en" if language == "ja" else "ja"):  # not the request's
        got = notice(PushMessage(recipient=user, game_id=gid, seat=0, seq=0))
    assert got == {
        "title": title,
        "body": body.format(gid=gid),
        "url": f"/games/{gid}/",
        "tag": f"turn-{gid}",
        "game": gid,
    }
