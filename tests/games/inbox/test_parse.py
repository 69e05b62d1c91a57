"""Reading replies: the first line of one's own text, in English or Japanese, whatever the mail
client wrapped around it."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

import pytest

import powergrid
from games import engine
from games.inbox.parse import ParseError, body_text, parse_command, reply_line

GERMANY = engine.map_load("germany")


def _mail(raw: str) -> str:
    msg = BytesParser(policy=policy.default).parsebytes(raw.encode())
    return reply_line(body_text(msg))


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("bid 15\n", "bid 15"),
        ("\n\n  Bid 15  \n\nthanks", "Bid 15"),
        (
            "bid 15\n\nOn Mon, 23 Nov 2026 at 10:00, Power Grid <x@y> wrote:\n> It is your turn",
            "bid 15",
        ),
        # below the quote (bottom-posting), or between quoted lines: read too
        ("> quoted first\nbid 15", "bid 15"),
        (
            "On Mon, 23 Nov 2026 at 10:00, Power Grid <x@y> wrote:\n> It is your turn\n>\n\n"
            "pass\n\n-- \nKen",
            "pass",
        ),
        (  # the header wrapped over lines by the client
            "On Mon, 23 Nov 2026 at 10:00, Power Grid\n<turn+abc@reply.example> wrote:\n"
            "> It is your turn\n\nbuild essen",
            "build essen",
        ),
        (
            "2026年11月25日(水) 10:00 Power Grid <\nnoreply@x>:\n> あなたの番です\n\n購入 石炭2",
            "購入 石炭2",
        ),
        ("> Bid on plant 13?\nbid 15\n> thanks", "bid 15"),
        # nothing of one's own: the quoted turn email's words are never read as a move
        ("On Mon, Power Grid <x@y> wrote:\n> pass\n> bid 15", None),
        ("On Mon, Power Grid <x@y> wrote:\n> Your turn\n\n-- \npass", None),
        ("-----Original Message-----\nFrom: Power Grid\nbid 15", None),
        ("________________________________\nFrom: Power Grid\n\npass", None),
        ("pass\n--\nKen\nSent from my phone", "pass"),
        (
            "build essen duisburg\n-----Original Message-----\nFrom: Power Grid",
            "build essen duisburg",
        ),
        (
            "入札 １５\n\n2026年11月25日(水) 10:00 Power Grid <noreply@x>:\n> あなたの番です",
            "入札 15",
        ),
        ("ｂｉｄ　２０", "bid 20"),
        (
            "buy 2 coal 1 oil\n________________________________\nFrom: Power Grid",
            "buy 2 coal 1 oil",
        ),
    ],
)
def test_the_reply_line_is_the_first_line_of_ones_own_text(body, line):
    raw = f"From: a@example.com\nTo: b@example.com\nSubject: Re: turn\n\n{body}"
    if line is None:
        with pytest.raises(ParseError):
            _mail(raw)
    else:
        assert _mail(raw) == line


def test_an_html_only_reply_is_read_as_its_text():
    raw = (
        "From: a@example.com\nTo: b@example.com\nSubject: Re\nMIME-Version: 1.0\n"
        "Content-Type: text/html; charset=utf-8\n\n"
        "<html><head><style>p{color:red}</style></head><body><div>pass</div>"
        "<blockquote><p>It is your turn</p></blockquote></body></html>"
    )
    assert _mail(raw) == "pass"


def test_a_multipart_reply_prefers_the_plain_text():
    raw = (
        "From: a@example.com\nTo: b@example.com\nSubject: Re\nMIME-Version: 1.0\n"
        'Content-Type: multipart/alternative; boundary="b"\n\n--b\n'
        "Content-Type: text/plain; charset=utf-8\n\nchoose 13 bid 14\n--b\n"
        "Content-Type: text/html; charset=utf-8\n\n<p>nonsense</p>\n--b--\n"
    )
    assert _mail(raw) == "choose 13 bid 14"


def _round1():
    s = powergrid.new_game(map="germany", players=3, seed=1)
    return s, powergrid.to_act(s)[0]


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("choose 3", {"type": "choose_plant", "plant": 3, "bid": 3}),
        ("Choose 4 bid 7", {"type": "choose_plant", "plant": 4, "bid": 7}),
        ("選択 4 6", {"type": "choose_plant", "plant": 4, "bid": 6}),
    ],
)
def test_opening_an_auction(line, action):
    s, seat = _round1()
    assert parse_command(line, s, seat, GERMANY).body == action


def test_pass_means_what_can_be_passed_now():
    s, seat = _round1()
    s = powergrid.apply(s, seat, {"type": "choose_plant", "plant": 3, "bid": 3})
    nxt = powergrid.to_act(s)[0]
    assert parse_command("pass", s, nxt, GERMANY).body == {"type": "pass_bid"}
    assert parse_command("パス", s, nxt, GERMANY).body == {"type": "pass_bid"}
    assert parse_command("bid 9", s, nxt, GERMANY).body == {"type": "bid", "amount": 9}
    assert parse_command("入札 9", s, nxt, GERMANY).body == {"type": "bid", "amount": 9}


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("buy 2 coal 1 oil", {"coal": 2, "oil": 1}),
        ("buy coal 2 oil 1", {"coal": 2, "oil": 1}),
        ("購入 石炭2 石油1", {"coal": 2, "oil": 1}),
        ("buy 3 garbage", {"garbage": 3}),
        ("buy nothing", {}),
    ],
)
def test_buying(line, tokens):
    s, seat = _round1()
    assert parse_command(line, s, seat, GERMANY).body == {"type": "buy_resources", **tokens}


@pytest.mark.parametrize(
    ("line", "cities"),
    [
        ("build essen duisburg", ["essen", "duisburg"]),
        ("build Essen, Duisburg", ["essen", "duisburg"]),
        ("build LUBECK", ["luebeck"]),
        ("build lübeck", ["luebeck"]),
        ("建設 エッセン デュイスブルク", ["essen", "duisburg"]),
        ("build nothing", []),
    ],
)
def test_building_names_cities_any_way(line, cities):
    s, seat = _round1()
    assert parse_command(line, s, seat, GERMANY).body == {"type": "build", "cities": cities}


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("Bid 15.", {"type": "bid", "amount": 15}),
        ("Bid: 15", {"type": "bid", "amount": 15}),
        ("入札15", {"type": "bid", "amount": 15}),
        ("入札：１５", {"type": "bid", "amount": 15}),
        ("bid15", {"type": "bid", "amount": 15}),
        ("選択3", {"type": "choose_plant", "plant": 3, "bid": 3}),
        ("建設エッセン", {"type": "build", "cities": ["essen"]}),
        ("build Frankfurt Main, essen.", {"type": "build", "cities": ["frankfurt-m", "essen"]}),
        ("build Frankfurt (Oder)", {"type": "build", "cities": ["frankfurt-o"]}),
        ("power none", {"type": "power", "plants": []}),
    ],
)
def test_sentence_punctuation_and_a_verb_without_a_space_are_forgiven(line, action):
    s, seat = _round1()
    assert parse_command(line, s, seat, GERMANY).body == action


@pytest.mark.parametrize(
    ("line", "slug"),
    [
        ("build Frankfurt am Main", "frankfurt-m"),
        ("build frankfurt a. M.", "frankfurt-m"),
        ("build Frankfurt/Main", "frankfurt-m"),
        ("build Frankfurt an der Oder", "frankfurt-o"),
        ("build Frankfurt a.d.O.", "frankfurt-o"),
    ],
)
def test_a_town_is_read_in_its_own_local_form(line, slug):
    s, seat = _round1()
    assert parse_command(line, s, seat, GERMANY).body == {"type": "build", "cities": [slug]}


def test_a_pass_ending_a_sentence_is_a_pass():
    s, seat = _round1()
    s = powergrid.apply(s, seat, {"type": "choose_plant", "plant": 3, "bid": 3})
    nxt = powergrid.to_act(s)[0]
    for line in ("Pass.", "pass!", "パス。"):
        assert parse_command(line, s, nxt, GERMANY).body == {"type": "pass_bid"}
    with pytest.raises(ParseError) as exc:
        parse_command("passed", s, nxt, GERMANY)  # not a verb glued to a number
    assert exc.value.code == "unknown_command"


def test_power_discard_and_plans():
    s, seat = _round1()
    assert parse_command("power", s, seat, GERMANY).body == {"type": "power"}
    assert parse_command("power 4 13", s, seat, GERMANY).body == {
        "type": "power",
        "plants": [4, 13],
    }
    assert parse_command("discard 3", s, seat, GERMANY).body == {
        "type": "discard_plant",
        "plant": 3,
    }
    assert parse_command("max 13 20", s, seat, GERMANY) == (
        "plan",
        {"kind": "proxy_bid", "plant": 13, "max": 20},
    )
    assert parse_command("max 13 20 discard 4", s, seat, GERMANY).body == {
        "kind": "proxy_bid",
        "plant": 13,
        "max": 20,
        "discard": 4,
    }
    assert parse_command("上限 13 20 捨てる 4", s, seat, GERMANY).body["discard"] == 4
    assert parse_command("自動パス", s, seat, GERMANY).body == {"kind": "auto_pass"}


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("hello there", "unknown_command"),
        ("bid lots", "bad_number"),
        ("bid", "bad_number"),
        ("build atlantis", "unknown_city"),
        ("buy 2 gold", "unknown_resource"),
        ("max 13 20 discard", "bad_number"),
        ("max 13 20 discard four", "bad_number"),
    ],
)
def test_what_is_not_a_move_says_why(line, code):
    s, seat = _round1()
    with pytest.raises(ParseError) as exc:
        parse_command(line, s, seat, GERMANY)
    assert exc.value.code == code
    assert exc.value.message


def test_quoted_cuts_with_an_ellipsis_and_keeps_a_short_word_whole():
    from games.inbox.parse import QUOTED_MOST, quoted

    assert quoted("Essen") == "Essen"
    assert quoted("x" * QUOTED_MOST) == "x" * QUOTED_MOST
    cut = quoted("x" * (QUOTED_MOST + 1))
    assert len(cut) == QUOTED_MOST
    assert cut.endswith("…")


@pytest.mark.parametrize("charset", ["x-nonexistent", "utf8x", "us-ascii", "utf-8", None])
def test_a_reply_in_a_charset_nobody_knows_is_read_as_utf8(charset):
    """A client's unknown charset label does not hide a plain ``pass``: the part is read as
    UTF-8 (which reads ASCII), as a part with no charset is."""
    from email import policy
    from email.parser import BytesParser

    from games.inbox.parse import body_text

    ctype = "text/plain" + (f"; charset={charset}" if charset else "")
    raw = f"From: a@b.example\r\nContent-Type: {ctype}\r\n\r\npass\r\n".encode()
    for pol in (policy.compat32, policy.default):
        assert body_text(BytesParser(policy=pol).parsebytes(raw)).strip() == "pass"
