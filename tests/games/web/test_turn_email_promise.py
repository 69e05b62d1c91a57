"""What the game page promises a waiting player about their turn's email is what the outbox
will do (``games.notifications.outbox.turn_emails``): an email each turn, the daily digest, or
none, for every reason there is none (emails off, a practice game made without emails, an
address our emails do not reach); in English and Japanese."""

from __future__ import annotations

import pytest
from webhelpers import fresh

from tests.i18n_helpers import ensure_compiled

pytestmark = pytest.mark.django_db

EACH = {
    "en": "You will get an email when it is your turn.",
    "ja": "あなたの手番になるとメールでお知らせします。",
}
DIGEST = {
    "en": "Your daily digest will list this game when it is your turn.",
    "ja": "あなたの手番になると、毎日のまとめメールにこのゲームが載ります。",
}
NONE = {
    "en": "No email will tell you when it is your turn: come back to this page.",
    "ja": "手番はメールでお知らせしません。このページをご確認ください。",
}


def _waiting(started_game):
    """A started game and a player whose turn it is not."""
    game, users = started_game(3)
    first = fresh(game).to_act[0]
    return game, next(u for i, u in enumerate(users) if i != first)


def _said(client_for, user, game_id, lang):
    from accounts.models import Profile

    Profile.objects.filter(user=user).update(language=lang)
    html = client_for(user).get(f"/games/{game_id}/").content.decode()
    return [
        k
        for k, texts in (("each", EACH), ("digest", DIGEST), ("none", NONE))
        if texts[lang] in html
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_way_a_player_hears_of_their_turn(started_game, client_for, lang):
    from django.utils import timezone

    from accounts import deliverability
    from accounts.models import Profile

    ensure_compiled()
    game, user = _waiting(started_game)
    assert _said(client_for, user, game.pk, lang) == ["each"]
    Profile.objects.filter(user=user).update(notification_mode="digest")
    assert _said(client_for, user, game.pk, lang) == ["digest"]
    Profile.objects.filter(user=user).update(notification_mode="none")
    assert _said(client_for, user, game.pk, lang) == ["none"]
    Profile.objects.filter(user=user).update(notification_mode="every_turn")
    user.refresh_from_db()
    deliverability.address_mark_undeliverable(
        user=user, address=user.email, reason="hard_bounce", at=timezone.now()
    )
    assert _said(client_for, user, game.pk, lang) == ["none"]


@pytest.mark.parametrize("emails", [False, True])
def test_a_practice_game_promises_an_email_only_when_asked(started_game, client_for, emails):
    from games.models import Game
    from games.services import practice

    game, users = started_game(2)
    mine = next(i for i in range(2) if i != fresh(game).to_act[0])
    # The practice game from now, in the seat that is not awaited: the bot moves first.
    p = practice.practice_create(user=users[mine], game_id=game.pk, emails=emails)
    assert Game.objects.get(pk=p.pk).notify is emails
    assert _said(client_for, users[mine], p.pk, "en") == (["each"] if emails else ["none"])
