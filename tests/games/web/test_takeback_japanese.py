"""Take-backs and practice games in Japanese: the take-back bar and button, the request with its
answers, a move struck through, the practice forms, and the emails (the notice, the request with
its one-tap answers) show no English to a Japanese reader."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from webhelpers import fresh, play

from tests.i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db


def _check(resp, allowed=()):
    assert resp.status_code == 200, resp.status_code
    html = resp.content.decode()
    assert 'lang="ja"' in html
    words = english_words(html, set(allowed))
    assert words == [], sorted(set(words))
    return html


def _ja_game(started_game):
    import powergrid
    from accounts.models import Profile

    ensure_compiled()
    # Move by move: the take-back's emails follow turn emails (round sheets': tests/games/sheets/).
    game, users = started_game(3, options={"takebacks_rated": True, "sheets": False})
    Profile.objects.filter(user__in=users).update(language="ja")
    order = powergrid.from_json(fresh(game).state_json).order
    # Names (display names like "Webuser3": the words of them) are not English to translate.
    return game, users, order, {"Webuser", "webuser"}


def test_the_takeback_pages_in_japanese(started_game, client_for):
    game, users, order, names = _ja_game(started_game)
    a = users[order[0]]
    play(game, a, {"type": "choose_plant", "plant": 6, "bid": 6})
    ca = client_for(a)
    html = _check(ca.get(f"/games/{game.pk}/"), names)
    assert "取り消す" in html
    assert "ここから練習する" in html  # the practice form of a game under way
    html = _check(
        ca.post(f"/games/{game.pk}/takeback/", {"expected_seq": 1, "how": "now"}, follow=True),
        names,
    )
    assert "取り消し済み" in html
    play(game, a, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = users[fresh(game).to_act[0]]
    play(game, b, {"type": "bid", "amount": 7})
    html = _check(ca.get(f"/games/{game.pk}/"), names)
    assert "取り消しを頼む" in html
    _check(
        ca.post(f"/games/{game.pk}/takeback/", {"expected_seq": 4, "how": "ask"}, follow=True),
        names,
    )
    html = _check(client_for(b).get(f"/games/{game.pk}/"), names)
    assert "同意する" in html
    assert "断る" in html


def test_the_takeback_emails_in_japanese(started_game, client_for, settings):
    from games.models import Notification
    from games.notifications import sending

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game, users, order, names = _ja_game(started_game)
    a = users[order[0]]
    play(game, a, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = users[fresh(game).to_act[0]]

    def send():
        ids = list(Notification.objects.filter(status="pending").values_list("id", flat=True))
        sending.notifications_send(ids=ids)

    send()
    client_for(a).post(f"/games/{game.pk}/takeback/", {"expected_seq": 1, "how": "now"})
    mail.outbox.clear()
    send()
    (notice,) = [m for m in mail.outbox if m.to == [b.email]]
    assert "取り消しました" in notice.subject
    html = notice.alternatives[0][0]
    assert english_words(html, names | {"Power", "Grid"}) == []
    play(game, a, {"type": "choose_plant", "plant": 6, "bid": 6})
    play(game, b, {"type": "bid", "amount": 7})
    client_for(a).post(f"/games/{game.pk}/takeback/", {"expected_seq": 4, "how": "ask"})
    mail.outbox.clear()
    send()
    asked = [m for m in mail.outbox if "依頼" in m.subject]
    assert len(asked) == 2
    for m in asked:
        html = m.alternatives[0][0]
        assert english_words(html, names | {"Power", "Grid"}) == []
        assert re.search(r"同意する</a>", html)
