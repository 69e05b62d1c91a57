"""Every name of a player is a link to their page (rating, reliability), by one filter
(``games.templatetags.names.player``): the lobby, the game page's players, move log and chat,
the home page's lists and the result page; the status line ("Waiting for", "Already chosen"),
an auction's bidders, a sealed auction's, a take-back request, the players our emails miss and
the finished game's "Game over" list. The tests walk each page in the states that name players
and check every name there is inside a link to that player's page, and that no template writes
a name without it."""

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


# -- every name on a game page, in every state that names players ------------------------------

_LINK = re.compile(
    r'<a class="player-link" href="/players/[^"]+/" translate="no"><bdi>.*?</bdi></a>'
)


def _bare_names(page: str) -> list[str]:
    """Every name on ``page``'s main part that is not a link to its player's page: a page writes
    a name in ``<bdi>`` (and only names, besides a chat message's text), so a ``<bdi>`` left
    once the links are taken out is a name that is not one."""
    main = page[page.index('<main id="main"') :]
    main = re.sub(r'<bdi class="chat-text">.*?</bdi>', "", _LINK.sub("", main), flags=re.S)
    return re.findall(r"<bdi>(.*?)</bdi>", main)


def _status(page: str) -> str:
    return page[page.index('<p class="status">') : page.index("</p>", page.index('"status"'))]


def test_the_status_line_names_who_has_chosen_as_links(started_game, client_for):
    game, users = started_game(3)
    game = advance(game, users, "bureaucracy")
    from webhelpers import actor, play

    play(game, actor(game, users), {"type": "power"})  # one has chosen; the others not yet
    page = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    status = _status(page)
    assert "Already chosen: " in status
    chosen = status[status.index("Already chosen: ") :]
    assert '<a class="player-link"' in chosen
    assert _bare_names(page) == []


def test_an_auctions_bidders_are_links(started_game, client_for):
    from webhelpers import actor, play

    game, users = started_game(3)
    play(game, actor(game, users), {"type": "choose_plant", "plant": 6, "bid": 6})
    page = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    still = page[page.index("Still bidding: ") :]
    assert still.index('<a class="player-link"') < still.index("</p>")
    assert _bare_names(page) == []


def test_a_sealed_auctions_names_are_links(started_game, client_for):
    from webhelpers import fresh, play

    game, users = started_game(3, options={"variant": "sealed_bid"})
    opener = fresh(game).to_act[0]
    play(game, users[opener], {"type": "choose_plant", "plant": 6, "bid": 6})
    first = fresh(game).to_act[0]
    play(game, users[first], {"type": "seal_bid", "amount": 9})
    page = client_for(users[opener]).get(f"/games/{game.pk}/").content.decode()
    assert "Sealed bids in: " in page
    assert _bare_names(page) == []
    for seat in fresh(game).to_act:
        play(game, users[seat], {"type": "pass_bid"})
    page = client_for(users[opener]).get(f"/games/{game.pk}/").content.decode()
    last = page[page.index("Last sealed auction") :]
    last = last[: last.index("</p>")]
    assert last.count('<a class="player-link"') >= 2  # the winner, and each bid's bidder
    assert _bare_names(page) == []


def test_a_takeback_request_names_are_links(started_game, client_for):
    from webhelpers import fresh, play

    game, users = started_game(3, options={"takebacks_rated": True})
    a = fresh(game).to_act[0]
    play(game, users[a], {"type": "choose_plant", "plant": 6, "bid": 6})
    play(game, users[fresh(game).to_act[0]], {"type": "bid", "amount": 7})
    r = client_for(users[a]).post(f"/games/{game.pk}/takeback/", {"expected_seq": 2, "how": "ask"})
    assert r.status_code == 302
    other = next(u for i, u in enumerate(users) if i != a)
    page = client_for(other).get(f"/games/{game.pk}/").content.decode()
    assert "asks to take back a move" in page
    assert "Waiting for: " in page
    assert _bare_names(page) == []
    assert _bare_names(client_for(users[a]).get(f"/games/{game.pk}/").content.decode()) == []


def test_the_players_our_emails_miss_are_links(started_game, client_for):
    from django.utils import timezone

    from accounts import deliverability

    game, users = started_game(3)
    deliverability.address_mark_undeliverable(
        user=users[1], address=users[1].email, reason="hard_bounce", at=timezone.now()
    )
    page = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    note = page[page.index("mail-down-note") :]
    assert note.index('<a class="player-link"') < note.index("</p>")
    assert _bare_names(page) == []


def test_the_game_over_list_names_are_links(new_game, client):
    from apihelpers import play_to_end

    gid, ps = new_game(players=3)
    play_to_end(gid, ps)
    client.force_login(ps[0].user)
    page = client.get(f"/games/{gid}/").content.decode()
    over = page[page.index('<ol class="result">') :]
    over = over[: over.index("</ol>")]
    assert over.count('<a class="player-link"') == 3
    assert _bare_names(page) == []


def test_no_template_writes_a_players_name_without_the_link():
    """The class, not the examples: ``|bdi``/``|bdi_join`` isolate a name without linking it;
    a page names a player with ``|player``/``|players``. The one exception is the player page's
    own heading (it is the page the link leads to)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "templates"
    found = []
    for path in sorted(root.rglob("*.html")):
        if "emails" in path.parts:
            continue  # emails link to the game, not to pages a mail client would open
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in re.finditer(r"\|\s*(bdi_join|bdi)\b", line):
                where = f"{path.relative_to(root)}:{n}"
                if where == "games/player.html:4":
                    continue
                found.append(f"{where} {m.group(0)}")
    assert found == []
