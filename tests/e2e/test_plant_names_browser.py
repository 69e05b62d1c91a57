"""A power plant is named to a screen reader, never read out as a bare number (issue 38): every
place the game page's forms and market name a plant says "plant 13" (「発電所13」), as the
accessibility tree gives it, in English and Japanese, checked against the engine's state.

The places walked: the plant market (current and future) and each player's plants (list items),
the auction form's choices (radio buttons), the power form's plants (check boxes, and a hybrid's
"of which coal" box), the round sheet's and the plans' lists of plants (options). The card's
number stays as the eye sees it (the name is for the reader: ``games.describe.plant_name``)."""

from __future__ import annotations

import re

import pytest
from e2ehelpers import game_played_until, users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-plants-123456"
#: A plant's name in each language, the number caught.
NAME = {"en": r"plant (\d+)", "ja": r"発電所(\d+)"}


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


def _items(page, selector: str) -> list[str]:
    """The words of each list item under ``selector``, as the accessibility tree gives them
    (its text, and its images by their names), in order."""
    out: list[str] = []
    for lst in page.locator(selector).all():
        for line in lst.aria_snapshot().splitlines():
            item = line.strip()
            if item.startswith("- listitem"):
                out.append(item.split(":", 1)[1].strip().strip('"'))
            elif m := re.match(r'- (?:text: (.*)|img "(.*)")$', item):
                out[-1] = (out[-1] + " " + (m.group(1) or m.group(2)).strip('"')).strip()
    return out


def _named(names: list[str], lang: str, numbers: set[int], where: str) -> None:
    """Each name starts with a plant's name (not a digit), and they name exactly ``numbers``."""
    found = set()
    for n in names:
        m = re.match(NAME[lang], n)
        assert m is not None, f"{where}: {n!r} does not name its plant"
        found.add(int(m.group(1)))
    assert found == numbers, (where, names, numbers)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_plant_is_named_in_both_languages(live_server, browser, lang):
    import powergrid

    people = users(f"pn{lang}", 2, PASSWORD)
    for u in people:
        u.profile.language = lang
        u.profile.save(update_fields=["language"])
    me = lambda s: 0 in powergrid.to_act(s)  # noqa: E731
    # Round 2's auction, seat 0 to open one: the market, the choices, the players' plants, the
    # sheet's and the plans' lists of one's own plants.
    auction = game_played_until(
        people, lambda s: s.phase == "auction" and s.round >= 2 and me(s) and s.auction is None
    )
    power = game_played_until(people, lambda s: s.phase == "bureaucracy" and me(s))
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, locale="ja-JP" if lang == "ja" else "en-GB"
    )
    page.set_default_timeout(15_000)
    base = live_server.url
    _login(page, base, people[0].username)

    from games import selectors

    state = selectors.game_engine_state(auction)
    view = powergrid.view(state, 0)
    market = view["plant_market"]
    current = {p["number"] for p in market["current"] if "step3" not in p}
    future = {p["number"] for p in market["future"] if "step3" not in p}
    owned = {seat: {p["number"] for p in pl["plants"]} for seat, pl in enumerate(view["players"])}
    assert owned[0], "seat 0 has no plant in round 2"

    page.goto(f"{base}/games/{auction.pk}/")
    _named(_items(page, "ul.plants.market:not(.future)"), lang, current, "current market")
    _named(_items(page, "ul.plants.market.future"), lang, future, "future market")
    for seat, numbers in owned.items():
        _named(
            _items(page, f'.players li[data-seat="{seat}"] ul.plants'),
            lang,
            numbers,
            f"players' plants, seat {seat}",
        )
    offered = {
        p["number"]
        for m in powergrid.legal(state, 0)
        if m["type"] == "choose_plant"
        for p in m["plants"]
    }
    _named(_role_names(page, "radio", 'form[data-action="choose_plant"]'), lang, offered, "choices")
    _named(_options(page, "#sheet-discard"), lang, owned[0], "the sheet's plants to give up")

    page.goto(f"{base}/games/{auction.pk}/plans/")
    _named(_options(page, "#proxy-plant"), lang, current | future, "the plans' plants")
    _named(_options(page, "#proxy-discard"), lang, owned[0], "the plans' plants to give up")

    pstate = selectors.game_engine_state(power)
    mine = powergrid.view(pstate, 0)["players"][0]["plants"]
    page.goto(f"{base}/games/{power.pk}/")
    _named(
        _role_names(page, "checkbox", 'form[data-action="power"]'),
        lang,
        {p["number"] for p in mine},
        "the power form",
    )
    # A hybrid's "of which coal" box says which plant it is for.
    for box in page.locator('form[data-action="power"] input[id^="hy-"]').all():
        assert re.search(NAME[lang], _role_name(box)), _role_name(box)


def _role_names(page, role: str, within: str) -> list[str]:
    """The accessible names of the ``role`` elements inside ``within``, from the tree."""
    out = []
    for line in page.locator(within).aria_snapshot().splitlines():
        m = re.match(rf'\s*- {role} "((?:[^"\\]|\\.)*)"', line)
        if m:
            out.append(m.group(1))
    return out


def _role_name(locator) -> str:
    line = locator.aria_snapshot().strip().splitlines()[0]
    m = re.match(r'- \w+ "((?:[^"\\]|\\.)*)"', line)
    return m.group(1) if m else line


def _options(page, select: str) -> list[str]:
    """A list box's options, by their accessible names, leaving out "ask me then" (no plant)."""
    names = _role_names(page, "option", select)
    return [n for n in names if not re.fullmatch(r"[^\d]*", n)]
