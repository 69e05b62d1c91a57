"""Each entry of the move log (the game page's and the emails') is labelled with who acted: the
move itself with its maker (the player, their plan, the bot in their seat, the deadline's default),
a plant sold to another seat with that seat's own last move, and what the rules did on their own
(a new round, a new step, the end) with nobody: "Round 2 begins." is never "played by a bot"."""

from __future__ import annotations

import re

import pytest
from webhelpers import fresh

from games import log, selectors, services

pytestmark = pytest.mark.django_db


def _play_round(game, users, source_of):
    """Heuristic moves for whoever is awaited, each with its seat's source, into round 2."""
    from powergrid.bots import HeuristicBot

    bot = HeuristicBot()
    while True:
        g = fresh(game)
        state = selectors.game_engine_state(g)
        if state.round >= 2:
            return g
        seat = g.to_act[0]
        services.move_submit(
            game_id=g.pk,
            user=users[seat],
            action=bot.choose(state, seat),
            expected_seq=g.seq,
            source=source_of(seat, state.phase),
        )


def test_each_entry_is_by_who_acted_not_by_the_move_that_led_to_it(started_game, client_for):
    game, users = started_game(3)
    # Seat 0 moves by itself (the API) except in phase 5, whose last answer begins round 2: a bot's.
    game = _play_round(
        game, users, lambda seat, phase: "api" if seat == 0 and phase != "bureaucracy" else "bot"
    )
    entries = log.entries(game)
    own = {}  # seq -> the move's own entry (the first of its seq)
    for e in entries:
        own.setdefault(e["seq"], e)
    last: dict[int, str] = {}
    for e in entries:
        mover = own[e["seq"]]
        last[mover["seat"]] = mover["source"]
        if e["seat"] is None:
            assert e["by"] == "game", e
        elif e is mover:
            assert e["by"] == e["source"]
        else:  # a sale to a seat that did not make this move
            assert e["by"] == last.get(e["seat"]), e
    rounds = [e for e in entries if e["kind"] == "round"]
    assert rounds
    # Discriminating: the move that began round 2 was a bot's.
    assert any(own[e["seq"]]["source"] == "bot" for e in rounds)

    page = client_for(users[0]).get(f"/games/{game.pk}/").content.decode()
    line = re.search(r'<span class="log-text">Round 2 begins\.</span>(.*?)</li>', page, re.S)
    assert line is not None
    assert "played by a bot" not in line.group(1)
    # The player's own moves carry no note; the bots' carry theirs.
    assert "played by a bot" in page


def test_the_emails_label_the_entries_as_the_page_does(started_game):
    from games.notifications import parts

    game, users = started_game(3)
    game = _play_round(game, users, lambda seat, phase: "bot")
    names = {s.seat: s.user.username for s in game.seats.all()}
    lines = [parts.log_line(game, e, names) for e in log.entries(game)]
    assert "Round 2 begins." in lines
    assert any(line.endswith("(played by a bot)") for line in lines)
