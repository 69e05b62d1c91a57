"""The note card: a player's private note, written on the page, shown to them only (not to the
other players' pages, the API's state, nor the others' turn emails); in their own turn email."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for
from django.utils import translation

from games.web.cards.note import note_card

pytestmark = pytest.mark.django_db

SECRET = "Bluff on plant 13 <b>then</b> hoard coal"


def test_the_note_is_its_authors_alone_on_every_channel(started_game, client):
    from games import notes
    from games.models import Notification
    from games.notifications.emails import email_build

    game, users = started_game(2)
    first = game.to_act[0]
    author, other = users[first], users[1 - first]
    client.force_login(author)
    r = client.post(f"/games/{game.pk}/note/", {"note": SECRET})
    assert r.status_code == 302
    assert notes.note_of(game, author) == SECRET
    card = note_card(view_for(game, author))
    assert card == {"note": SECRET}
    html = render_card("note", view_for(game, author), card)
    assert "&lt;b&gt;then&lt;/b&gt;" in html  # escaped
    assert note_card(view_for(game, other)) == {"note": ""}
    assert note_card(view_for(game, None)) == {"note": None}
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Bluff on plant 13" in page
    client.force_login(other)
    assert "Bluff on plant 13" not in client.get(f"/games/{game.pk}/").content.decode()
    state = client.get(f"/api/v1/games/{game.pk}/state/").content.decode()
    assert "Bluff" not in state
    mine = email_build(Notification(recipient=author, game=game, kind="turn", payload={}))
    assert SECRET in mine.body
    theirs = Notification(recipient=other, game=game, kind="turn", payload={})
    built = email_build(theirs)
    assert built is None or "Bluff" not in built.body + str(built.alternatives)
    # A stranger cannot write one.
    from games.services.errors import NotAPlayer

    with pytest.raises(NotAPlayer):
        notes.note_set(game_id=game.pk, user=users[0].__class__.objects.create_user("zz"), text="x")


def test_the_card_in_japanese(started_game):
    game, users = started_game(2)
    view = view_for(game, users[0])
    with translation.override("ja"):
        assert "自分だけのメモ" in render_card("note", view, note_card(view))


def test_the_note_in_the_authors_turn_email_in_japanese(started_game):
    """The author's turn email carries the note under its Japanese label, in the text and the
    HTML parts alike."""
    from games import notes
    from games.models import Notification
    from games.notifications.emails import email_build

    game, users = started_game(2)
    author = users[game.to_act[0]]
    author.profile.language = "ja"
    author.profile.save()
    notes.note_set(game_id=game.pk, user=author, text="石炭を買い占める")
    mail = email_build(Notification(recipient=author, game=game, kind="turn", payload={}))
    assert "自分だけのメモ：\n石炭を買い占める" in mail.body
    assert "Your private note" not in mail.body
    [(html, _mime)] = mail.alternatives
    assert "自分だけのメモ：" in html
    assert "石炭を買い占める" in html
