"""Where a keyboard and screen-reader player lands on the game page (issue 38): when a move is
awaited, the page's first Tab stop is "Skip to your move", to the move card (focusable); after a
move sent by a form, the page opens at the move's confirmation, which has the focus without
JavaScript (the redirect's fragment names it; it is focusable and autofocused), shown once,
before the take-back bar and the move card. In both languages."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation
from webhelpers import actor, fresh, legal_for, post_move

pytestmark = pytest.mark.django_db

SKIP = {"en": "Skip to your move", "ja": "あなたの手番へ移動"}
RECORDED = {"en": "Your move was recorded.", "ja": "手を記録しました。"}


@pytest.fixture(autouse=True)
def _language_back():
    """A Japanese page activates Japanese in this thread: the next test starts as usual."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _speak(user, lang: str) -> None:
    user.profile.language = lang
    user.profile.save(update_fields=["language"])


def _focusable(html: str) -> list[str]:
    """The body's focusable elements' opening tags, in order (no negative tabindex)."""
    body = html[html.index("<body") :]
    tags = re.findall(
        r"<(?:a\s[^>]*href|button|input(?![^>]*type=\"hidden\")|select|textarea|summary)[^>]*>",
        body,
    )
    return [t for t in tags if 'tabindex="-1"' not in t]


def _text(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_first_tab_stop_skips_to_the_move_when_it_is_awaited(started_game, client_for, lang):
    game, users = started_game(3)
    mover = actor(game, users)
    other = next(u for u in users if u.pk != mover.pk)
    for u in users:
        _speak(u, lang)
    html = client_for(mover).get(f"/games/{game.pk}/").content.decode()
    first = _focusable(html)[0]
    assert first.startswith('<a class="skip" href="#move"'), first
    link = re.search(r'<a class="skip" href="#move">(.*?)</a>', html)
    assert link is not None
    assert link.group(1) == SKIP[lang]
    # Its target can take the focus (so a screen reader reads on from there), and is the card
    # that asks for the move.
    card = re.search(r'<section class="card move" id="move"[^>]*>', html)
    assert card is not None
    assert 'tabindex="-1"' in card.group(0)
    assert "move-form" in html[card.end() : html.index("</section>", card.end())]
    # Nobody is asked for a move: no such link (the site's "Skip to content" comes first).
    for page in (
        client_for(other).get(f"/games/{game.pk}/").content.decode(),
        client_for(mover).get(f"/games/{game.pk}/history/0/").content.decode(),
    ):
        assert 'href="#move"' not in page
        assert _focusable(page)[0].startswith('<a class="skip" href="#main"')


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_move_made_lands_on_its_focused_confirmation(started_game, client_for, lang):
    game, users = started_game(3, options={"takebacks_rated": True})
    mover = actor(game, users)
    _speak(mover, lang)
    c = client_for(mover)
    plant = min(p["number"] for p in legal_for(game, mover)["choose_plant"]["plants"])
    r = post_move(
        c, game, {"action": "choose_plant", "plant": str(plant), "bid": str(plant), "form_id": "f1"}
    )
    assert r.status_code == 302
    assert r["Location"] == f"/games/{game.pk}/#move-done"
    html = c.get(r["Location"]).content.decode()
    done = re.search(r'<p id="move-done"([^>]*)>(.*?)</p>', html, re.S)
    assert done is not None
    attrs = done.group(1)
    for attr in ('role="status"', 'tabindex="-1"', "autofocus"):
        assert attr in attrs, attrs
    assert _text(done.group(2)) == RECORDED[lang]
    assert html.count("autofocus") == 1  # nothing else takes the focus
    # Right after it: what there is to do next (the take-back bar, then the move card), not the
    # site's menu; the message is not repeated at the top.
    assert html.index('id="move-done"') < html.index('id="takeback"') < html.index('id="move"')
    assert RECORDED[lang] not in html[: html.index('id="move-done"')]
    # Shown once: the page opened again has neither the confirmation nor an autofocus.
    again = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="move-done"' not in again
    assert "autofocus" not in again
    # The same form sent twice (a double tap): it says so, in the same place.
    g = fresh(game)
    r = post_move(
        c,
        game,
        {"action": "choose_plant", "plant": str(plant), "bid": str(plant), "form_id": "f1"},
        seq=g.seq - 1,
    )
    assert r["Location"] == f"/games/{game.pk}/#move-done"
    html = c.get(r["Location"]).content.decode()
    done = re.search(r'<p id="move-done"[^>]*>(.*?)</p>', html, re.S)
    assert done is not None
    with translation.override(lang):
        assert _text(done.group(1)) == translation.gettext("That move was already recorded.")
