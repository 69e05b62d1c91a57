"""The development mailbox shows an email as its reader would see it: a Japanese body (sent as
8-bit UTF-8) is Japanese text, not ``\\u3055`` escapes, in both the text and the HTML part."""

from __future__ import annotations

from django.core.mail import EmailMultiAlternatives

from games.notifications.mailbox import mailbox_get, mailbox_list

TEXT = "Carol さん、\nゲーム #2（ドイツ）が始まりました。"
HTML = "<p>Carol さん、</p><p>ゲーム #2（ドイツ）が始まりました。</p>"


def test_a_japanese_email_reads_as_japanese(settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    msg = EmailMultiAlternatives("【電力会社】始まりました", TEXT, to=["carol@example.com"])
    msg.attach_alternative(HTML, "text/html")
    msg.send()
    EmailMultiAlternatives("second", "Köln · Düsseldorf", to=["bob@example.com"]).send()

    listed = {m.subject: m for m in mailbox_list()}
    assert set(listed) == {"【電力会社】始まりました", "second"}
    shown = mailbox_get(listed["【電力会社】始まりました"].key)
    assert shown.text.strip() == TEXT
    assert shown.html.strip() == HTML
    assert mailbox_get(listed["second"].key).text.strip() == "Köln · Düsseldorf"
