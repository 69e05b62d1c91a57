"""A sheet reply is read entirely or refused whole: every line kind (``games.sheets.mailtext``)
refuses words left over, negative numbers, numbers where words belong, a field or line written
twice and unknown words; the refusal saves nothing, plays nothing, and its answer names the line,
the word and the line's right form. What the sheet's email and the docs promise (spacing, case,
commas, full-width digits, the Japanese words) is still read, as the canonical line is."""

from __future__ import annotations

import time

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db

#: (line kind, the reply's text, the line the answer names, the word it names; "" = missing).
#: ``{a}``, ``{b}``: two cities of the game's areas. A reply whose first line is not a sheet
#: line (``pass``, ``max``, ...) is read as a move: those are sent after an ``ok`` line.
BAD = [
    ("ok", "ok thanks", "ok thanks", "thanks"),
    ("ok", "了解 はい", "了解 はい", "はい"),
    ("open", "open 13", "open 13", ""),
    ("open", "open max 25", "open max 25", ""),
    ("open", "open 13 max", "open 13 max", ""),
    ("open", "open 13 max 25 7", "open 13 max 25 7", "7"),
    ("open", "open 13 max -3", "open 13 max -3", "-3"),
    ("open", "open coal max 25", "open coal max 25", "coal"),
    ("open", "open 13 max 25 max 30", "open 13 max 25 max 30", "max"),
    ("open", "open 13 max 25\nopen 13 max 30", "open 13 max 30", "13"),
    ("max", "ok\nmax 20", "max 20", ""),
    ("max", "ok\nmax 20 -1", "max 20 -1", "-1"),
    ("max", "ok\nmax 20 23 5", "max 20 23 5", "5"),
    ("max", "ok\nmax twenty 23", "max twenty 23", "twenty"),
    ("max", "ok\nmax 20 23\nmax 20 30", "max 20 30", "20"),
    ("pass", "ok\npass", "pass", ""),
    ("pass", "ok\npass 3", "pass 3", "3"),
    ("pass", "ok\npass yes no", "pass yes no", "yes"),
    ("pass", "ok\npass yes\npass no", "pass no", "pass"),
    ("discard", "ok\ndiscard", "discard", ""),
    ("discard", "ok\ndiscard coal", "discard coal", "coal"),
    ("discard", "ok\ndiscard 4 5", "discard 4 5", "5"),
    ("discard", "ok\ndiscard -4", "discard -4", "-4"),
    ("fuel", "fuel", "fuel", ""),
    ("fuel", "fuel 6", "fuel 6", ""),
    ("fuel", "fuel max", "fuel max", ""),
    ("fuel", "fuel max 6 7", "fuel max 6 7", "7"),
    ("fuel", "fuel max -6", "fuel max -6", "-6"),
    ("fuel", "fuel coal max 6", "fuel coal max 6", "coal"),
    ("fuel", "fuel max 6\nbuy coal 1 max 5", "buy coal 1 max 5", "buy"),
    ("buy", "buy max 5 coal -3", "buy max 5 coal -3", "-3"),
    ("buy", "buy coal max 5", "buy coal max 5", ""),
    ("buy", "buy coal 2 coal 3 max 5", "buy coal 2 coal 3 max 5", "coal"),
    ("buy", "buy gold 2 max 5", "buy gold 2 max 5", "gold"),
    ("buy", "buy coal 2 max 5 max 6", "buy coal 2 max 5 max 6", "max"),
    ("buy", "ok\nbuy coal 2", "buy coal 2", ""),
    ("buy", "buy nothing coal 2 max 5", "buy nothing coal 2 max 5", "nothing"),
    ("buy", "buy coal 2 max 5 oil", "buy coal 2 max 5 oil", ""),
    ("buy", "buy 2 max 5", "buy 2 max 5", "2"),
    ("buy", "buy coal 2 max lots", "buy coal 2 max lots", "lots"),
    ("build", "build max 30", "build max 30", ""),
    ("build", "ok\nbuild auto", "build auto", ""),
    ("build", "build auto max 30 40", "build auto max 30 40", "auto"),
    ("build", "build 12 max 30", "build 12 max 30", "12"),
    ("build", "build nowhere max 30", "build nowhere max 30", "nowhere"),
    ("build", "build {a} {a} max 30", "build {a} {a} max 30", "{a}"),
    ("build", "build auto max -5", "build auto max -5", "-5"),
    ("build", "build auto max 30\nbuild auto max 40", "build auto max 40", "build"),
    ("power", "ok\npower 4 13", "power 4 13", "4"),
    ("power", "ok\npower maybe", "power maybe", "maybe"),
    ("power", "ok\npower yes no", "power yes no", "yes"),
    ("power", "ok\npower\npower no", "power no", "power"),
    (None, "open 13 max 25\nhello there", "hello there", "hello"),
]

#: (a line as a player may write it, the line as the sheet's email writes it): each read alike.
GOOD = [
    ("OK", "ok"),
    ("Okay.", "ok"),
    ("了解", "ok"),
    ("Open 13 Max 25", "open 13 max 25"),
    ("open １３ max ２５", "open 13 max 25"),
    ("開く 13 上限 25", "open 13 max 25"),
    ("open 13,  max 25.", "open 13 max 25"),
    ("MAX 20 23", "max 20 23"),
    ("上限 ２０ ２３", "max 20 23"),
    ("pass YES", "pass yes"),
    ("パス はい", "pass yes"),
    ("pass いいえ", "pass no"),
    ("捨てる 4", "discard 4"),
    ("discard なし", "discard none"),
    ("燃料 上限 ６", "fuel max 6"),
    ("Fuel Max 6", "fuel max 6"),
    ("buy 2 coal max 5", "buy coal 2 max 5"),
    ("buy coal2 max 5", "buy coal 2 max 5"),
    ("購入 石炭2 上限 5", "buy coal 2 max 5"),
    ("buy max 5 coal 2", "buy coal 2 max 5"),
    ("Buy COAL 2, max 5", "buy coal 2 max 5"),
    ("buy oil 1 coal 2 max 5", "buy coal 2 oil 1 max 5"),
    ("buy none max 5", "buy nothing max 5"),
    ("購入 なし 上限 5", "buy nothing max 5"),
    ("建設 自動 上限 40", "build auto max 40"),
    ("Build Auto Max 40", "build auto max 40"),
    ("build {a_en} {b_ja} max 30", "build {a}, {b} max 30"),
    ("建設 {a_ja}、{b_ja} 上限 30", "build {a}, {b} max 30"),
    ("build none max 30", "build nothing max 30"),
    ("Power.", "power"),
    ("power yes", "power"),
    ("発電", "power"),
    ("発電 しない", "power no"),
]


def _reply(to: str, sender: str, body: str, n: int) -> bytes:
    return (
        f"From: P <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <strict{n}.{time.time_ns()}@c.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def _cities(gid):
    import powergrid
    from games import engine
    from games.models import Game

    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    gmap = engine.map_load(s.map)
    slugs = sorted(gmap.cities_in(s.areas))
    a, b = gmap.cities[slugs[0]], gmap.cities[slugs[1]]
    return {"a": a.slug, "b": b.slug, "a_en": a.name_en, "a_ja": a.name_ja, "b_ja": b.name_ja}


def test_every_line_kind_is_walked():
    from games.sheets.mailtext import EXAMPLES

    assert {kind for kind, *_ in BAD} - {None} == set(EXAMPLES)
    assert {canonical.split()[0] for _v, canonical in GOOD} == set(EXAMPLES)


def test_a_sheet_reply_read_in_part_is_refused_whole_and_variants_are_read(new_game, settings):
    from games import engine
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import reply_address
    from games.models import Game, Notification, Plan, Seat, SheetAnswer
    from games.notifications.emails import email_build
    from games.sheets.mailtext import apply_reply
    from games.sheets.services import sheet_document

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 10**6  # every refusal answered, and read
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    game = Game.objects.get(pk=gid)
    waiting = next(s for s in seats if s not in game.to_act)
    player = seats[waiting]
    seat = Seat.objects.get(game=game, seat=waiting)
    to = reply_address(game_id=gid, seat=waiting, seq=game.seq, user_id=player.user.pk, hours=24)
    names = _cities(gid)
    for n, (kind, body, line, word) in enumerate(BAD):
        body, line, word = (x.format(**names) for x in (body, line, word))
        where = (kind, body)
        got = mail_receive(_reply(to, player.user.email, body, n), via="pipe")
        assert (got.status, got.code, got.answered) == ("refused", "sheet_line", True), where
        assert Game.objects.get(pk=gid).seq == game.seq, where
        assert not SheetAnswer.objects.exists(), where
        assert not Plan.objects.filter(game_id=gid, seat=waiting).exists(), where
        answer = email_build(Notification.objects.filter(game_id=gid, kind="reply").last())
        assert f"“{line}”" in answer.body, (where, answer.body)
        said = f"“{word}” in that line was not understood" if word else "Something is missing"
        assert said in answer.body, (where, answer.body)
        assert "Write the line like this:" in answer.body, where
    # The good variants: each read as the line the sheet's email writes.
    state = engine.state_load(game_id=gid, seed=game.seed, seq=game.seq, state_json=game.state_json)
    doc = sheet_document(game, seat.seat, state)
    gmap = engine.map_load(game.map)
    for variant, canonical in GOOD:
        variant, canonical = variant.format(**names), canonical.format(**names)
        want = apply_reply(f"ok\n{canonical}", doc, gmap)[0]
        assert apply_reply(f"ok\n{variant}", doc, gmap)[0] == want, variant
    # The sheet as its email writes it is read back as itself, and accepted by email.
    from games.sheets.mailtext import what_will_happen

    written = what_will_happen(doc, gmap, "en")
    assert what_will_happen(apply_reply("\n".join(written), doc, gmap)[0], gmap, "en") == written
    written = "\n".join(written)
    got = mail_receive(_reply(to, player.user.email, f"ok\n{written}", 999), via="pipe")
    assert got.status == "applied", got
    assert SheetAnswer.objects.filter(game_id=gid, seat=waiting).count() == 1


def test_a_refused_lines_answer_quotes_the_line_and_word_cut_never_whole():
    """A line of 100,000 characters is named by its start (twice ``QUOTED_MOST``) and the word
    by ``QUOTED_MOST``, each cut with an ellipsis: the answer is an answer's size."""
    from games.inbox.parse import QUOTED_MOST
    from games.sheets.mailtext import SheetLineError

    word = "w" * 100_000
    exc = SheetLineError("buy max 5 coal " + word, word, "buy")
    assert len(exc.word) == QUOTED_MOST
    assert exc.word.endswith("…")
    assert len(exc.message) < 4 * QUOTED_MOST + 200
    assert "buy max 5 coal w" in exc.message
    short = SheetLineError("buy max 5 coal -3", "-3", "buy")
    assert "“buy max 5 coal -3”" in short.message
    assert short.word == "-3"
