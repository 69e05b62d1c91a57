"""The development mailbox's page of one email: a text-only email shows no empty HTML frame, and
the text's web addresses are links (escaped first: nothing in an email becomes markup)."""

from __future__ import annotations

import pytest
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.test import Client

from games.notifications.mailbox import linkify, mailbox_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def mailbox(settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    return tmp_path


def test_a_text_only_email_has_no_html_frame_and_its_links_are_links(mailbox):
    EmailMessage(
        "[Power Grid] Confirm",
        "Go to http://127.0.0.1:8300/accounts/confirm-email/abc/.\n<script>x</script>",
        to=["a@example.com"],
    ).send()
    (m,) = mailbox_list()
    html = Client().get(f"/dev/mailbox/{m.key}/").content.decode()
    assert "<iframe" not in html
    assert "text part only" in html
    assert (
        '<a href="http://127.0.0.1:8300/accounts/confirm-email/abc/" rel="noreferrer">'
        "http://127.0.0.1:8300/accounts/confirm-email/abc/</a>." in html
    )
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_an_email_with_html_keeps_its_frame(mailbox):
    msg = EmailMultiAlternatives("[Power Grid] Hi", "hi", to=["a@example.com"])
    msg.attach_alternative("<p>hi</p>", "text/html")
    msg.send()
    (m,) = mailbox_list()
    assert "<iframe" in Client().get(f"/dev/mailbox/{m.key}/").content.decode()


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("see https://a.example/x?y=1&z=2, then", 'see <a href="https://a.example/x?y=1&amp;z=2" '
         'rel="noreferrer">https://a.example/x?y=1&amp;z=2</a>, then'),
        ('"><img src=x>', "&quot;&gt;&lt;img src=x&gt;"),
        ('http://a.example/"onmouseover="x', '<a href="http://a.example/" rel="noreferrer">'
         'http://a.example/</a>&quot;onmouseover=&quot;x'),
        ("javascript:alert(1) ftp://x", "javascript:alert(1) ftp://x"),
        ("(http://a.example/p)", '(<a href="http://a.example/p" rel="noreferrer">'
         "http://a.example/p</a>)"),
    ],
)  # fmt: skip
def test_linkify_escapes_then_links_only_web_addresses(text, html):
    assert str(linkify(text)) == html
