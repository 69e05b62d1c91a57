"""Every name of a player is a link to their page (rating, reliability), by one filter
(``games.templatetags.names.player``): the lobby, the game page's players, move log and chat,
the home page's lists and the result page. The test walks each page and checks every seat's name
there is inside a link to that player's page."""

from __future__ import annotations

import re

import pytest
from webhelpers import advance

pytestmark = pytest.mark.django_db


def _unlinked(page: str, users) -> list[str]:
    """The names of ``users`` on ``page`` that appear outside a link to their player page."""
    from games import selectors
    from games.models import Seat

    page = page[page.index('<main id="main"') :]  # the header's "signed in as" is one's own
    out = []
    for u in users:
        seat = Seat.objects.filter(user=u).select_related("user__profile").first()
        name = selectors.seat_name(seat)
        link = (
            rf'<a class="player-link" href="/players/{re.escape(u.username)}/" translate="no">'
            rf"<bdi>{re.escape(name)}</bdi></a>"
        )
        stripped = re.sub(link, "", page)
        if f"<bdi>{name}</bdi>" in stripped or f"\u2068{name}\u2069" in stripped:
            out.append(name)
        if not re.search(link, page):
            out.append(f"{name} (no link)")
    return out


def test_the_lobby_names_link_to_the_players(make_user, client_for):
    from games import services

    users = [make_user() for _ in range(2)]
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    services.game_join(game_id=game.pk, user=users[1])
    c = client_for(users[0])
    assert _unlinked(c.get(f"/games/{game.pk}/").content.decode(), users) == []
    home = c.get("/").content.decode()
    assert _unlinked(home, users) == []


def test_the_game_page_names_link_to_the_players(started_game, client_for):
    from games.chat.services import chat_post

    game, users = started_game(3)
    game = advance(game, users, "resources")  # a log with every seat's moves and sales
    chat_post(game_id=game.pk, user=users[1], text="hello")
    c = client_for(users[0])
    page = c.get(f"/games/{game.pk}/").content.decode()
    # The log's sentences name the players as links too.
    log = page[page.index('class="log-text"') :]
    assert '<a class="player-link" href="/players/' in log
    bad = _unlinked(page, users)
    assert bad == []
    assert _unlinked(c.get("/").content.decode(), users) == []
