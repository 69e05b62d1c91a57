"""The Japanese catalogue is complete, and pages seen by a Japanese reader show no English.

Proper names (user names, time zones, "English" in the language switch) are marked
``translate="no"`` or ``lang="en"`` in the templates and left out of the check.
"""

from __future__ import annotations

import gettext
import itertools
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.i18n_helpers import MO, PO, english_words, ensure_compiled, po_entries

_n = itertools.count(1)


# -- the catalogue ---------------------------------------------------------------------------


def test_every_japanese_entry_is_translated_and_not_fuzzy():
    entries = [e for e in po_entries() if not e.obsolete and e.msgid]
    assert len(entries) > 300, "the parser found too few entries"
    untranslated = [e.msgid for e in entries if not e.msgstr or not all(e.msgstr)]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert untranslated == [], f"untranslated in {PO.name}: {untranslated}"
    assert fuzzy == [], f"fuzzy in {PO.name}: {fuzzy}"


def test_every_japanese_subject_names_the_product_one_way():
    """An email subject's product name in front is "[Power Grid]" in English and 【電力会社】 in
    Japanese, the same in every kind of email (seat and take-back emails had "[電力会社] ")."""
    subjects = [e for e in po_entries() if e.msgid.startswith("[Power Grid]")]
    assert len(subjects) > 20
    wrong = [e.msgid for e in subjects if not all(m.startswith("【電力会社】") for m in e.msgstr)]
    assert wrong == []


def test_header_is_not_fuzzy_and_declares_one_plural_form():
    header = next(e for e in po_entries() if e.msgid == "" and not e.obsolete)
    assert "fuzzy" not in header.flags
    assert "nplurals=1; plural=0;" in header.msgstr[0]


def test_placeholders_survive_translation():
    """%(name)s and {{ name }} in a msgid come back in its msgstr (msgfmt checks python-format
    only for entries it recognises; blocktranslate variables are %(name)s too)."""
    bad = []
    for e in po_entries():
        if not e.msgid or e.obsolete:
            continue
        # Japanese has one plural form: its msgstr[0] serves every count, so it may carry the
        # plural msgid's placeholders (msgfmt --check-format then requires them).
        wants = [sorted(set(re.findall(r"%\(\w+\)[sd]", m))) for m in (e.msgid, e.msgid_plural)]
        for s in e.msgstr:
            got = sorted(set(re.findall(r"%\(\w+\)[sd]", s)))
            if got not in (wants if e.msgid_plural else wants[:1]):
                bad.append((e.msgid, s))
    assert bad == []


def test_compiled_catalogue_matches_the_po():
    ensure_compiled()
    with MO.open("rb") as f:
        t = gettext.GNUTranslations(f)
    for e in po_entries():
        if not e.msgid or e.obsolete or e.msgid_plural:
            continue
        got = t.pgettext(e.msgctxt, e.msgid) if e.msgctxt else t.gettext(e.msgid)
        assert got == e.msgstr[0], e.msgid


# -- rendered pages --------------------------------------------------------------------------


@pytest.fixture
def ja_user(db):
    ensure_compiled()
    n = next(_n)
    user = get_user_model().objects.create_user(
        username=f"tanaka{n}", email=f"tanaka{n}@example.com", password="pw-tanaka-123456"
    )
    user.profile.language = "ja"
    user.profile.timezone = "Asia/Tokyo"
    user.profile.display_name = "田中"
    user.profile.save()
    return user


@pytest.fixture
def ja_client(ja_user):
    c = Client()
    c.force_login(ja_user)
    return c


@pytest.fixture
def anon_ja(db):
    ensure_compiled()
    return Client(HTTP_ACCEPT_LANGUAGE="ja")


def _check(resp, allowed=(), status=200):
    assert resp.status_code == status, resp.status_code
    html = resp.content.decode()
    assert 'lang="ja"' in html
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", html), "no Japanese on the page"
    words = english_words(html, set(allowed))
    assert words == [], f"English on {resp.request['PATH_INFO']}: {sorted(set(words))}"


SIGNED_IN_PAGES = [
    "/",
    "/games/new/",
    "/accounts/profile/",
    "/accounts/tokens/",
    "/accounts/email/",
    "/accounts/password/change/",
    "/accounts/logout/",
    "/accounts/reauthenticate/",
    "/account/bot/",
]

ANONYMOUS_PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/done/",
    "/accounts/confirm-email/",
    "/accounts/inactive/",
]


@pytest.mark.parametrize("url", SIGNED_IN_PAGES)
def test_signed_in_pages_in_japanese(ja_client, url):
    _check(ja_client.get(url))


@pytest.mark.parametrize("url", ANONYMOUS_PAGES)
def test_anonymous_pages_in_japanese(anon_ja, url):
    _check(anon_ja.get(url))


def test_token_page_with_a_token_in_japanese(ja_client, ja_user):
    # Creating a token asks for the password again (allauth's reauthentication page).
    _check(ja_client.get("/accounts/reauthenticate/"))
    ja_client.post("/accounts/reauthenticate/", {"password": "pw-tanaka-123456"})
    _check(ja_client.post("/accounts/tokens/", {"create": "1"}))
    _check(ja_client.get("/accounts/tokens/"))


def test_login_errors_in_japanese(anon_ja, ja_user):
    r = anon_ja.post("/accounts/login/", {"login": ja_user.username, "password": "wrong"})
    _check(r)


def test_signup_errors_in_japanese(anon_ja):
    r = anon_ja.post(
        "/accounts/signup/",
        {"username": "x", "email": "not-an-email", "password1": "a", "password2": "b"},
    )
    _check(r)


def test_password_reset_flow_in_japanese(anon_ja, ja_user):
    r = anon_ja.post("/accounts/password/reset/", {"email": ja_user.email}, follow=True)
    _check(r)
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    _check(anon_ja.get(link.group(1), follow=True))
    _check(anon_ja.get("/accounts/password/reset/key/1-bad-key/"))


def test_profile_errors_in_japanese(ja_client):
    r = ja_client.post(
        "/accounts/profile/",
        {
            "display_name": "田中",
            "timezone": "Nowhere/Else",
            "language": "ja",
            "notification_mode": "every_turn",
            "reminder_fraction": "2",
        },
    )
    assert r.status_code in (200, 400)
    r.status_code = 200
    _check(r, allowed={"Nowhere", "Else"})  # the rejected value, quoted back


def test_game_pages_in_japanese(ja_user, ja_client):
    from games import services

    others = [
        get_user_model().objects.create_user(username=f"p{next(_n)}", password="pw-123456-x")
        for _ in range(2)
    ]
    open_game = services.game_create(creator=ja_user, map="germany", max_players=3)
    _check(ja_client.get(f"/games/{open_game.pk}/"))
    for u in others:
        services.game_join(game_id=open_game.pk, user=u)
    game = open_game
    game.refresh_from_db()  # the last join started it (auto_start)
    names = {u.username for u in others} | {ja_user.username}
    _check(ja_client.get("/"), allowed=names)
    _check(ja_client.get(f"/games/{game.pk}/"), allowed=names)
    _check(ja_client.get(f"/games/{game.pk}/plans/"), allowed=names)
    # A plan refused: the error in Japanese, the inputs kept.
    r = ja_client.post(f"/games/{game.pk}/plans/", {"kind": "buy", "coal": "1", "max_price": "0"})
    _check(r, allowed=names, status=400)
    # A one-tap link's confirmation page and a refused link.
    from games.inbox import onetap
    from games.models import Seat

    seat = Seat.objects.get(game=game, user=ja_user)
    url = onetap.link(game=game, seat=seat.seat, user_id=ja_user.pk, choice="power", hours=5)
    path = "/" + url.split("://", 1)[1].split("/", 1)[1]
    _check(ja_client.get(path), allowed=names)
    _check(ja_client.get(path[:-4] + "xyz/"), status=410)


def test_webhooks_page_in_japanese(ja_client):
    allowed = {"Discord", "Slack", "JSON", "https", "HTTPS"}  # names of things, not English
    _check(ja_client.get("/webhooks/"), allowed=allowed)
    ja_client.post("/accounts/reauthenticate/", {"password": "pw-tanaka-123456"})  # adding asks
    _check(ja_client.post("/webhooks/", {"url": "ftp://x"}), allowed=allowed, status=400)


def test_reply_by_email_answers_in_japanese(ja_user):
    from games import services
    from games.inbox.receive import mail_receive
    from games.models import Game, Notification, Seat
    from games.notifications.emails import email_build

    others = [
        get_user_model().objects.create_user(
            username=f"q{next(_n)}", email=f"q{next(_n)}@example.com", password="pw-123456-x"
        )
        for _ in range(2)
    ]
    game = services.game_create(creator=ja_user, map="germany", max_players=3)
    for u in others:
        services.game_join(game_id=game.pk, user=u)
    game = Game.objects.get(pk=game.pk)
    seat = Seat.objects.get(game=game, user=ja_user)
    from games.inbox.tokens import reply_address

    to = reply_address(game_id=game.pk, seat=seat.seat, seq=game.seq, user_id=ja_user.pk, hours=5)
    raw = (
        f"From: <{ja_user.email}>\r\nTo: {to}\r\nSubject: Re\r\nMessage-ID: <ja@x>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nこんにちは\r\n"
    ).encode()
    mail_receive(raw, via="pipe")
    mail = email_build(Notification.objects.get(kind="reply", recipient=ja_user))
    assert "受け付けられませんでした" in mail.subject
    assert "1行目が手になっていません" in mail.body


def test_mailbox_in_japanese(ja_client, settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    _check(ja_client.get("/dev/mailbox/"))


def test_mailbox_text_only_email_in_japanese(ja_client, settings, tmp_path):
    from django.core.mail import get_connection, send_mail

    settings.DEBUG = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    backend = "django.core.mail.backends.filebased.EmailBackend"
    send_mail("s", "text only", None, ["a@example.com"], connection=get_connection(backend))
    key = ja_client.get("/dev/mailbox/").context["mails"][0].key
    r = ja_client.get(f"/dev/mailbox/{key}/?part=html")
    assert r.status_code == 200
    assert r.content.decode() == "<p>（HTML 版の本文はありません）</p>"


def test_email_confirmation_pages_in_japanese(anon_ja):
    r = anon_ja.post(
        "/accounts/signup/",
        {
            "username": "suzuki",
            "email": "suzuki@example.com",
            "password1": "a-long-password-3",
            "password2": "a-long-password-3",
        },
        follow=True,
    )
    _check(r, allowed={"suzuki"})
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", mail.outbox[-1].body)
    assert link, mail.outbox[-1].body
    _check(anon_ja.get(link.group(1)), allowed={"suzuki"})
    _check(anon_ja.post(link.group(1), follow=True), allowed={"suzuki"})
    _check(anon_ja.get("/accounts/confirm-email/not-a-key/"))


def test_email_settings_and_bad_link_pages_in_japanese(ja_user):
    from games.notifications.links import settings_token

    c = Client(HTTP_ACCEPT_LANGUAGE="ja")
    url = f"/mail/settings/{settings_token(user=ja_user)}/"
    _check(c.get(url))
    _check(c.post(url, {"mode": "digest"}, follow=True))
    _check(c.get("/mail/settings/not-a-token/"), status=400)
    _check(c.get("/mail/go/not-a-token/"), status=400)


def test_catalogue_holds_every_marked_string(tmp_path):
    """makemessages run on a copy finds no msgid the committed catalogue lacks (a string marked
    for translation since the last ``makemessages -l ja`` fails here, untranslated)."""
    import os
    import shutil
    import subprocess
    import sys

    from tests.i18n_helpers import ROOT

    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.skip("gettext is not installed")
    for name in (
        "accounts",
        "config",
        "games",
        "powergrid",
        "templates",
        "tournaments",
        "manage.py",
    ):
        (tmp_path / name).symlink_to(ROOT / name)
    out = tmp_path / "locale" / "ja" / "LC_MESSAGES"
    out.mkdir(parents=True)
    shutil.copy(PO, out / "django.po")
    (tmp_path / "i18n_settings.py").write_text(
        f"from config.settings import *  # noqa\nLOCALE_PATHS = [{str(tmp_path / 'locale')!r}]\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "ja",
            "--symlinks",
            "-v",
            "0",
            "--settings",
            "i18n_settings",
        ],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    have = {(e.msgctxt, e.msgid) for e in po_entries(PO) if e.msgid and not e.obsolete}
    found = {
        (e.msgctxt, e.msgid)
        for e in po_entries(out / "django.po")
        if e.msgid and not e.obsolete  # what makemessages set aside is no longer marked
    }
    assert sorted(found - have, key=str) == [], (
        "run: python manage.py makemessages -l ja --ignore=.venv --ignore=var, then translate"
    )


def test_every_error_code_reads_in_japanese_without_english():
    """Every code a page can show (the engine's and the server's) has its Japanese sentence, and
    a Japanese reader sees no English engine sentence beside it."""
    from django.utils import translation

    from games.api.errors import ENGINE_CODES, ERROR_CODES
    from games.web.errors import error_text

    english = "The bid must be at least 16 Elektro."
    with translation.override("ja"):
        for code in sorted(set(ENGINE_CODES) | set(ERROR_CODES)):
            text = error_text(code, english)
            assert text, code
            assert "Elektro" not in text, code
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), (code, text)
    with translation.override("en"):
        assert error_text("bid_too_low", english) == english


def test_player_page_in_japanese(ja_client, ja_user):
    _check(ja_client.get(f"/players/{ja_user.username}/"), allowed={ja_user.username})
