"""A blind player plays a whole game against a bot: the test reads the page ONLY through its
accessibility tree (Playwright's ARIA snapshots: roles, names, text, as a screen reader gets
them) and acts ONLY with the keyboard (Tab, Shift+Tab, Space, Enter; the reload a reader's F5
is). At 390 and 1280 CSS px, in English and Japanese: a 2-player first-game (ends at 7 cities)
against the heuristic bot, whose moves the worker's task makes in the test's process.

At each of its turns it finds, from the tree alone, and checks against the engine's state: whose
turn it is, its money, the plant market, the resource prices, its cities (the board in words, its
owners), the cost of its next cities (the board in words' table: the engine's quote), and what
just happened (the polite live region: the log's own sentences, then "Your turn")."""

from __future__ import annotations

import contextlib
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from e2ehelpers import users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-blind-123456"
RESOURCES = ("coal", "oil", "garbage", "uranium")


def _game(gid: int):
    from games.models import Game

    return Game.objects.get(pk=gid)


def _bots_play(gid: int, me: int) -> None:
    from games.tasks import game_play_due

    for _i in range(200):
        g = _game(gid)
        if g.status == "finished" or not g.to_act or me in g.to_act:
            return
        game_play_due(gid)
    raise AssertionError("the bot did not hand the turn back")


def _focused(page) -> tuple[str, str]:
    """The focused element's role and name, from its accessibility snapshot."""
    focus = page.locator("*:focus")
    if not focus.count():
        return ("", "")
    snap = focus.aria_snapshot(timeout=2000).strip().splitlines()[0].strip()
    if snap.startswith("- '"):  # YAML quotes a line with ": " in it
        snap = "- " + snap[3:].rstrip(":").rstrip("'").replace("''", "'")
    m = re.match(r'- (\w+)(?: "((?:[^"\\]|\\.)*)")?', snap)
    return (m.group(1), m.group(2) or "") if m else ("", "")


def _tab_to(page, role: str, name: str | re.Pattern, *, back: bool = False, limit: int = 200):
    """Tab (or Shift+Tab) until the focused element has ``role`` and ``name``."""
    key = "Shift+Tab" if back else "Tab"
    for _i in range(limit):
        page.keyboard.press(key)
        r, n = _focused(page)
        if r == role and (name.search(n) if isinstance(name, re.Pattern) else n == name):
            return n
        if not r and back:  # past the page's start: on forwards from there
            return _tab_to(page, role, name, limit=limit * 2)
    raise AssertionError(f"no {role} {name!r} reached by {key}")


def _texts(snapshot: str) -> str:
    return snapshot.replace('\\"', '"')


def _region(page, title: str) -> str:
    return page.get_by_role("region", name=re.compile("^" + re.escape(title))).first.aria_snapshot()


def _pattern(msgid: str, **numbers: str) -> re.Pattern:
    text = re.escape(_(msgid))
    for k in numbers:
        text = text.replace(re.escape(f"%({k})s"), r"(\d+)")
    return re.compile(text)


def _read_and_check(page, gid: int, me: int, lang: str) -> dict:
    """What the tree says, checked against the engine; returns what the player acts on."""
    import powergrid
    from games import selectors
    from powergrid.maps import load_map, name_in

    g = _game(gid)
    state = selectors.game_engine_state(g)
    view = powergrid.view(state, me)
    gmap = load_map(g.map)
    mine = view["players"][me]

    # Whose turn: the players' list marks one seat "to move", and it is ours.
    players = _texts(_region(page, _("Players")))
    # The first part is the region's heading ("プレイヤー 手番順" holds 手番, "to move", too).
    items = re.split(r"\n    - listitem", players)[1:]
    moving = [i for i in items if _("to move") in i]
    awaited = powergrid.to_act(state)
    assert me in awaited
    assert len(moving) == len(awaited), players
    assert any("blind" in i for i in moving)
    # Its money (only a player's own money is shown).
    money = [int(m) for m in _pattern("%(m)s Elektro", m="").findall(players)]
    assert money == [mine["money"]], players

    # The plant market, current and future, each plant by its name ("plant 13", never "13").
    market = _texts(_region(page, _("Power plant market")))
    current_h = market.index(_("Current market"))
    future_at = market.find(_("Future market"))
    plant = _pattern("plant %(n)s", n="").pattern
    current = re.findall(rf'listitem:\n\s+- text: "?{plant}"?\n', market[current_h:future_at])
    want_current = [str(c["number"]) for c in view["plant_market"]["current"] if "number" in c]
    assert current == want_current, market

    # The resource prices: each price space and its tokens, resource by resource.
    res = _texts(_region(page, _("Resource market")))
    # Said in the page's text, with the unit ("price 2: 2 tokens"), not a label on a list item.
    one, more = (
        re.escape(ngettext("price %(p)s: %(n)s token", "price %(p)s: %(n)s tokens", k))
        .replace(re.escape("%(p)s"), r"(\d+)")
        .replace(re.escape("%(n)s"), r"(\d+)")
        for k in (1, 2)
    )
    space = re.compile(rf"- listitem: \"?(?:{more}|{one})")
    blocks = re.split(r"\n  - list:", res)[1:]
    assert len(blocks) == 4, res
    for resource, block in zip(RESOURCES, blocks, strict=True):
        prices = []
        for p2, n2, p1, n1 in space.findall(block):
            prices += [int(p1 or p2)] * int(n1 or n2)
        assert prices == view["resource_market"][resource], (resource, block)

    # Its cities, from the board in words (owners, by name).
    words = _texts(_region(page, _("The board in words")))
    assert _("Cities in play by region") in words  # opened by its skip link
    owned = {
        m.group(1)
        for m in re.finditer(r"- strong: (.+)\n\s+- text: \": ([^\n]*)", words)
        if "blind" in m.group(2).split(";")[0]
    }
    want_owned = {name_in(gmap.cities[c], lang) for c in mine["cities"]}
    assert owned == want_owned, words

    # The cost of its next cities (when it is to build): the engine's quote, cheapest first.
    next_cities: list[tuple[str, int]] = []
    if view["phase"] == "build":
        table = re.findall(
            r'- row "([^"]+?) (\d+) (\d+) ' + _pattern("%(m)s Elektro", m="").pattern + '"', words
        )
        names = {name_in(gmap.cities[c], lang): c for c in gmap.cities}
        for city, space_cost, connection, total in table:
            slug = names[city]
            assert powergrid.quote_build(state, me, [slug]) == int(total)
            assert int(space_cost) + int(connection) == int(total)
            next_cities.append((city, int(total)))
        quotes = []
        for slug in view["cities"]:
            with contextlib.suppress(powergrid.IllegalAction):
                quotes.append(powergrid.quote_build(state, me, [slug]))
        assert [t for _c, t in next_cities] == sorted(quotes)[: len(next_cities)], words
    return {"phase": view["phase"], "money": mine["money"], "next": next_cities,
            "plants": len(mine["plants"]), "legal": {m["type"] for m in view["legal"]}}  # fmt: skip


def _announced(page) -> str:
    """The polite live region's words once they are there."""
    status = page.get_by_role("status", name=_("What just happened"))
    for _i in range(40):
        text = status.aria_snapshot()
        if '": ' in text:
            return text.split('": ', 1)[1].strip().strip('"')
        page.wait_for_timeout(50)
    return ""


def _newest_log(page) -> str:
    """The words of the newest entry of the moves' log, as the tree gives them (its names are
    links, the rest text; the move's number, its time and buttons left out), without spaces."""
    log = _texts(_region(page, _("Moves"))).splitlines()
    start = next(i for i, line in enumerate(log) if line.strip() == "- listitem:")
    indent = len(log[start]) - len(log[start].lstrip())
    words = []
    child = None
    for line in log[start + 1 :]:
        depth = len(line) - len(line.lstrip())
        if depth <= indent:
            break
        child = depth if child is None else child
        if depth > child:  # inside a link: its name says it (the number's: "after move 29")
            continue
        item = line.strip()
        if m := re.match(r'- link "(.*)"', item):
            words.append(m.group(1))
        elif item.startswith("- text: "):
            words.append(item[8:].strip('"'))
    # words[0]: the move's number; an aside after the sentence ("(played by a bot)") is not it.
    return re.sub(r"(\([^()]*\)|（[^（）]*）)+$", "", "".join(words[1:]).replace(" ", ""))


def _heard(text: str) -> str:
    return text.replace(" ", "")


def _act(page, facts: dict) -> None:
    """One move with the keyboard, from the board in words back to the move form."""
    legal = facts["legal"]

    def press(name: str) -> None:
        _tab_to(page, "button", name, back=True)
        with page.expect_navigation():
            page.keyboard.press("Enter")

    if "choose_plant" in legal and (facts["plants"] < 2 or "pass_auction" not in legal):
        _tab_to(page, "button", _("Open the auction"), back=True)
        _tab_to(page, "radio", re.compile(r"\d"), back=True)  # the last plant on offer
        page.keyboard.press("Home")  # the radio group's first: the cheapest
        page.keyboard.press("Space")
        _tab_to(page, "button", _("Open the auction"))
        with page.expect_navigation():
            page.keyboard.press("Enter")
    elif "pass_auction" in legal:
        press(_("Pass: buy no plant this round"))
    elif "pass_bid" in legal:
        press(_("Pass (leave this auction)"))
    elif "discard_plant" in legal:
        _tab_to(page, "button", _("Discard"), back=True)
        _tab_to(page, "radio", re.compile("."), back=True)
        page.keyboard.press("Space")
        _tab_to(page, "button", _("Discard"))
        with page.expect_navigation():
            page.keyboard.press("Enter")
    elif "buy_resources" in legal:
        press(_("Buy"))
    elif "build" in legal:
        affordable = [c for c, total in facts["next"] if total <= facts["money"]]
        if affordable:
            _tab_to(page, "button", _("Build the selected cities"), back=True)
            _tab_to(
                page, "checkbox", re.compile("^" + re.escape(affordable[0]) + r"(\s|$)"), back=True
            )
            page.keyboard.press("Space")
            _tab_to(page, "button", _("Build the selected cities"))
            with page.expect_navigation():
                page.keyboard.press("Enter")
        else:
            press(_("Build nothing"))
    elif "power" in legal:
        press(_("Power"))
    else:
        raise AssertionError(f"no move for {legal}")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_blind_player_plays_a_whole_game(live_server, browser, lang, width):
    from games import services

    (player,) = users(f"blind{lang}{width}x", 1, PASSWORD)
    player.profile.language = lang
    player.profile.save(update_fields=["language"])
    game = services.game_create(
        creator=player, map="germany", max_players=2, options={"variant": "first_game"}
    )
    services.game_bot_add(game_id=game.pk, user=player, kind="heuristic")
    gid = game.pk
    me = 0
    base = live_server.url
    page = browser.new_context(
        viewport={"width": width, "height": 900}, locale="ja-JP" if lang == "ja" else "en-GB"
    ).new_page()
    page.set_default_timeout(15_000)
    # Logging in, by the keyboard: the fields in order, Enter to send.
    page.goto(f"{base}/accounts/login/")
    page.keyboard.press("Tab")
    while _focused(page)[0] != "textbox":
        page.keyboard.press("Tab")
    page.keyboard.type(player.username)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")

    turns = 0
    built = 0
    with translation.override(lang):
        _bots_play(gid, me)
        page.goto(f"{base}/games/{gid}/")  # the link in the turn email
        heard = _announced(page)
        for _i in range(400):
            if _game(gid).status == "finished":
                break
            # Announced once, when the turn came: "Your turn", after what happened before it.
            assert heard.endswith(_("Your turn")), heard
            # To the board in words by its skip link; its summary takes the focus. (After a
            # move the page opens at its focused confirmation, below the link: back to it.)
            _tab_to(page, "link", _("Skip to the board in words"), back=bool(_focused(page)[0]))
            page.keyboard.press("Enter")
            page.wait_for_timeout(30)
            assert _("Cities, owners, prices and connections") in _focused(page)[1] + str(
                page.locator("*:focus").aria_snapshot()
            )
            facts = _read_and_check(page, gid, me, lang)
            if facts["phase"] == "build" and facts["next"]:
                built += 1
            _act(page, facts)
            turns += 1
            # What just happened is read out: the log's own sentence of the move just made.
            heard = _announced(page)
            assert _newest_log(page) in _heard(heard), (heard, _newest_log(page))
            seq = _game(gid).seq
            _bots_play(gid, me)
            if _game(gid).seq != seq:
                page.reload()  # F5 (or the live page following the game): the game now
                heard = _announced(page)
                assert _newest_log(page) in _heard(heard) or _game(gid).status == "finished"
        else:
            raise AssertionError("the game did not end")
    assert _game(gid).status == "finished"
    assert turns >= 8
    assert built >= 1
    # The finished page tells the result in words, in the player's language.
    with translation.override(lang):
        from games import selectors
        from games.describe import winners_describe
        from games.web.common import seat_names

        main = _texts(page.locator("main").aria_snapshot())
        assert _("The game is over") in main
        # And who won (a tie said, and what broke it: shared/RULES.md).
        final = selectors.game_state_for(_game(gid), player)["result"]
        won = winners_describe(final, seat_names(_game(gid)))
        assert won, final
        assert won in main, main
