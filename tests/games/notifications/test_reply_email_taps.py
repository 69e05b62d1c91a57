"""The answer to a move by email, when the game asks the player again, carries the turn email's
one-tap links (it is the email they read, not a turn email); and every example of what a reply
may say names what is offered now: each one, parsed as a reply would be, is a legal move (the
turn email's "choose 13 bid 13" named a plant that was not in the market)."""

from __future__ import annotations

import time

import pytest
from apihelpers import play_default, seat_players

pytestmark = pytest.mark.django_db


def _reply(to: str, sender: str, body: str) -> bytes:
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <r{time.time_ns()}@client.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def test_the_answer_to_a_reply_that_leaves_the_turn_has_one_tap_links(new_game):
    import powergrid
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import make_token
    from games.models import Game, Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    while powergrid.from_json(Game.objects.get(pk=gid).state_json).phase != "resources":
        play_default(gid, ps)
    game = Game.objects.get(pk=gid)
    seat = powergrid.to_act(powergrid.from_json(game.state_json))[0]
    user = seats[seat].user
    token = make_token(
        game_id=gid, seat=seat, seq=game.seq, user_id=user.pk, expires=int(time.time()) + 3600
    )
    got = mail_receive(_reply(f"turn+{token}@reply.localhost", user.email, "bid 99"), via="pipe")
    assert got.status == "refused"  # no auction now: the player is asked again
    answer = email_build(Notification.objects.filter(kind="reply").latest("id"))
    assert "It is your turn. What you can do:" in answer.body
    assert "One tap (you confirm on the page that opens):" in answer.body
    assert "Buy no resources: http" in answer.body
    html = answer.alternatives[0][0]
    assert html.count('href="http') >= 2  # the taps and "Open the game"
    assert "One tap" in html


def _examples_are_legal(gid: int, seat: int, lang: str) -> list[str]:
    """The examples the turn email for ``seat`` gives now, each checked: read by the parser as
    a reply is, and accepted by the rules in the game's position now."""
    import powergrid
    from games import engine
    from games.inbox.parse import parse_command
    from games.models import Game, Notification, Seat
    from games.notifications.emails import email_build

    game = Game.objects.get(pk=gid)
    state = powergrid.from_json(game.state_json)
    user = Seat.objects.get(game=game, seat=seat).user
    user.profile.language = lang
    user.profile.save(update_fields=["language"])
    body = email_build(Notification(recipient=user, game=game, kind="turn", payload={})).body
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.rstrip().endswith(("example:", "例：")))
    examples = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        examples.append(line.strip())
    assert examples, body
    gmap = engine.map_load(game.map)
    for example in examples:
        cmd = parse_command(example, state, seat, gmap)
        assert cmd.kind == "move", example
        powergrid.apply(state, seat, cmd.body)  # raises when the example is not legal now
    return examples


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_reply_example_is_a_legal_move_now(new_game, lang):
    """Walked through a game's phases: whatever is asked, each example is a move the parser
    reads and the rules accept now."""
    import powergrid
    from games.models import Game
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()
    gid, ps = new_game(players=3)
    kinds: set[str] = set()
    for _ in range(60):
        s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
        seat = powergrid.to_act(s)[0]
        examples = _examples_are_legal(gid, seat, lang)
        kinds.add(s.phase)
        if lang == "en" and s.phase == "auction" and any(e.startswith("choose") for e in examples):
            market = set(s.market)
            chosen = next(e for e in examples if e.startswith("choose"))
            assert int(chosen.split()[1]) in market
        play_default(gid, ps)
    assert {"auction", "resources", "build", "bureaucracy"} <= kinds
