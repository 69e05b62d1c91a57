"""What the players see: the banner on every page of a player our emails do not reach, until
they confirm a working address with allauth's confirmation (which also lets them log in under
mandatory verification); the note on the game page for the other players; in English and
Japanese."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db

BANNER = 'class="mail-trouble"'


def _mark(user, reason="hard_bounce"):
    from django.utils import timezone

    from accounts import deliverability

    deliverability.address_mark_undeliverable(
        user=user, address=user.email, reason=reason, at=timezone.now()
    )


def _client(user, lang="en"):
    from accounts.models import Profile

    Profile.objects.filter(user=user).update(language=lang)
    c = Client()
    c.force_login(user)
    return c


def _pages(gid: int) -> list[str]:
    return [
        "/",
        "/games/new/",
        f"/games/{gid}/",
        "/accounts/profile/",
        "/accounts/tokens/",
        "/accounts/email/",
        f"/games/{gid}/plans/",
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("reason", ["hard_bounce", "soft_bounces", "rejected", "complaint"])
def test_the_banner_is_on_every_page_until_the_address_works(awaited, lang, reason):
    ensure_compiled()
    gid, p, _n = awaited
    c = _client(p.user, lang)
    assert BANNER not in c.get("/").content.decode()  # nothing while emails arrive
    _mark(p.user, reason)
    expected = {
        "en": "Our emails to",
        "ja": "宛てのメールが届いていません",
    }[lang]
    why = {
        ("en", "complaint"): "marked as spam",
        ("en", "soft_bounces"): "came back undelivered",
        ("en", "hard_bounce"): "does not exist",
        ("en", "rejected"): "does not exist",
        ("ja", "complaint"): "迷惑メール",
        ("ja", "soft_bounces"): "戻ってきました",
        ("ja", "hard_bounce"): "存在しない",
        ("ja", "rejected"): "存在しない",
    }[(lang, reason)]
    for url in _pages(gid):
        r = c.get(url)
        assert r.status_code == 200, url
        html = r.content.decode()
        assert BANNER in html, url
        start = html.rindex("<div", 0, html.index(BANNER))
        banner = html[start : html.index("</div>", start)]
        assert expected in banner, url
        assert why in banner, url
        assert p.user.email in banner, url
        assert 'action="/accounts/email/confirm-again/"' in banner
        if lang == "ja":
            assert english_words(banner) == [], (url, english_words(banner))


def test_the_banner_is_the_players_alone(awaited, make_player):
    _gid, p, _n = awaited
    _mark(p.user)
    other = make_player()
    assert BANNER not in _client(other.user).get("/").content.decode()
    assert BANNER not in Client().get("/").content.decode()


def test_confirming_the_address_with_allauth_ends_the_banner_and_the_withholding(awaited):
    from accounts.models import Profile

    gid, p, _n = awaited
    _mark(p.user)
    c = _client(p.user)
    r = c.post("/accounts/email/confirm-again/", {"next": f"/games/{gid}/"})
    assert r.status_code == 302
    assert r["Location"] == f"/games/{gid}/"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [p.user.email]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    # A second click at once sends nothing more.
    c.post("/accounts/email/confirm-again/")
    assert len(mail.outbox) == 1
    path = link.group(0).split("://", 1)[1].split("/", 1)[1]
    r = c.post("/" + path)
    assert r.status_code in (200, 302)
    prof = Profile.objects.get(user=p.user)
    assert prof.email_undeliverable_at is None
    assert prof.email_confirmed_at is not None
    assert BANNER not in c.get("/").content.decode()


def test_a_new_confirmed_primary_address_ends_the_banner_too(awaited):
    from allauth.account.models import EmailAddress

    from accounts.models import Profile

    _gid, p, _n = awaited
    _mark(p.user)
    EmailAddress.objects.create(user=p.user, email=p.user.email, primary=True, verified=False)
    new = EmailAddress.objects.create(
        user=p.user, email="works@example.net", primary=False, verified=True
    )
    c = _client(p.user)
    from apihelpers import PASSWORD

    assert c.post("/accounts/reauthenticate/", {"password": PASSWORD}).status_code == 302
    r = c.post("/accounts/email/", {"action_primary": "", "email": new.email})
    assert r.status_code in (200, 302)
    p.user.refresh_from_db()
    assert p.user.email == "works@example.net"
    assert Profile.objects.get(user=p.user).email_undeliverable_at is None
    assert BANNER not in c.get("/").content.decode()


def test_a_player_whose_address_bounced_can_still_log_in_under_mandatory_verification(
    make_player, settings
):
    from allauth.account.models import EmailAddress
    from apihelpers import PASSWORD

    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    p = make_player()
    EmailAddress.objects.create(user=p.user, email=p.user.email, primary=True, verified=True)
    _mark(p.user)
    assert not EmailAddress.objects.get(user=p.user).verified
    c = Client()
    r = c.post("/accounts/login/", {"login": p.user.username, "password": PASSWORD})
    assert r.status_code == 302, r.content
    assert "confirm" not in r["Location"], r["Location"]
    assert BANNER in c.get("/").content.decode()
    # An address that was never confirmed is still asked for, as allauth does.
    q = make_player()
    EmailAddress.objects.create(user=q.user, email=q.user.email, primary=True, verified=False)
    r = Client().post("/accounts/login/", {"login": q.user.username, "password": PASSWORD})
    assert r.status_code == 302
    assert "confirm-email" in r["Location"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_other_players_see_on_the_game_page_who_gets_no_emails(awaited, lang):
    from games.models import Seat

    ensure_compiled()
    gid, p, _n = awaited
    _mark(p.user)
    other = Seat.objects.filter(game_id=gid).exclude(user=p.user).select_related("user").first()
    html = _client(other.user, lang).get(f"/games/{gid}/").content.decode()
    badge = {"en": "not receiving emails", "ja": "メール不達"}[lang]
    note = {"en": "72 hours longer", "ja": "72 時間長く待ちます"}[lang]
    assert html.count(badge) == 1
    assert note in html
    row = html[html.index(f'data-seat="{Seat.objects.get(game_id=gid, user=p.user).seat}"') :]
    assert badge in row[: row.index("</li>")]
    if lang == "ja":
        start = html.rindex("<p", 0, html.index("mail-down-note"))
        note_html = html[start : html.index("</p>", start)]
        assert english_words(note_html, {"user"}) == []  # "user12": a username
    # Not for a spectator, nor when every address works.
    assert badge not in Client().get(f"/games/{gid}/").content.decode()
    from accounts import deliverability

    deliverability.address_confirmed(user=p.user, address=p.user.email)
    assert badge not in _client(other.user, lang).get(f"/games/{gid}/").content.decode()
