"""The providers' tracking webhooks, with each provider's sample payloads (the shapes of their
documentation): a genuine post is recorded and acted on; a forged, unauthenticated or malformed
one answers 4xx with a JSON error and changes nothing; an unconfigured provider's URL is 404."""

from __future__ import annotations

import base64
import copy
import datetime
import hashlib
import hmac
import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SECRET = "hook-user:hook-password"


def _auth(secret: str = SECRET) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


@pytest.fixture
def player(make_player):
    return make_player()


@pytest.fixture(autouse=True)
def _configured(settings):
    settings.MAIL_WEBHOOK_SECRET = SECRET
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = "key-mailgun-signing"


def _state(user):
    from accounts.models import Profile
    from games.models import MailEvent

    prof = Profile.objects.get(user=user)
    return (
        prof.email_undeliverable_reason,
        prof.notification_mode,
        sorted(MailEvent.objects.values_list("kind", "source")),
    )


NOTHING = ("", "every_turn", [])


def _post(url: str, body: object, **extra) -> object:
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return Client().post(url, data=data, content_type="application/json", **extra)


def _refused(r, status: int, code: str) -> None:
    assert r.status_code == status, r.content
    assert r.json()["error"]["code"] == code
    assert r.json()["error"]["message"]


# -- Mailgun: an HMAC-SHA256 of timestamp + token with the webhook signing key -------------------


def _mailgun(address: str, *, reason: str = "bounce", severity: str = "permanent", key=None):
    timestamp, token = "1764118000", "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0"
    signature = hmac.new(
        (key or "key-mailgun-signing").encode(), f"{timestamp}{token}".encode(), hashlib.sha256
    ).hexdigest()
    return {
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {
            "event": "failed",
            "severity": severity,
            "reason": reason,
            "id": "G9Bn5sl1TC6nu79C8C0bwg",
            "timestamp": 1764117999.375624,
            "log-level": "error",
            "recipient": address,
            "delivery-status": {
                "code": 550,
                "message": "5.1.1 The email account that you tried to reach does not exist.",
                "description": "",
                "attempt-no": 1,
            },
            "message": {"headers": {"message-id": "20261126.1.abc@mg.example.org"}},
        },
    }


def test_mailgun_hard_bounce_marks_the_address(player):
    r = _post("/mail/events/mailgun/", _mailgun(player.user.email))
    assert r.status_code == 200, r.content
    assert r.json() == {"received": 1, "recorded": 1}
    assert _state(player.user) == ("hard_bounce", "every_turn", [("hard_bounce", "mailgun")])
    again = _post("/mail/events/mailgun/", _mailgun(player.user.email))  # Mailgun retries
    assert again.status_code == 200
    assert _state(player.user)[2] == [("hard_bounce", "mailgun")]


def test_mailgun_gave_up_is_a_soft_bounce_and_a_temporary_failure_nothing(player):
    _post("/mail/events/mailgun/", _mailgun(player.user.email, reason="old"))
    assert _state(player.user) == ("", "every_turn", [("soft_bounce", "mailgun")])
    body = _mailgun(player.user.email, severity="temporary")
    body["event-data"]["id"] = "other"
    assert _post("/mail/events/mailgun/", body).json()["recorded"] == 0


def test_mailgun_forged_and_malformed_posts_change_nothing(player, settings):
    _refused(
        _post("/mail/events/mailgun/", _mailgun(player.user.email, key="wrong")), 400, "forged"
    )
    tampered = _mailgun(player.user.email)
    tampered["signature"]["timestamp"] = "1764118001"
    _refused(_post("/mail/events/mailgun/", tampered), 400, "forged")
    _refused(_post("/mail/events/mailgun/", b"{not json"), 400, "forged")
    _refused(_post("/mail/events/mailgun/", {"event-data": {}}), 400, "forged")
    assert _state(player.user) == NOTHING
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = ""
    _refused(_post("/mail/events/mailgun/", _mailgun(player.user.email)), 404, "not_found")


# -- Postmark: basic authentication (Postmark signs nothing) -------------------------------------


def _postmark_bounce(address: str, kind: str = "HardBounce") -> dict:
    return {
        "RecordType": "Bounce",
        "MessageStream": "outbound",
        "ID": 4323372036854775807,
        "Type": kind,
        "TypeCode": 1,
        "Name": "Hard bounce",
        "Tag": "",
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "ServerID": 23,
        "Description": "The server was unable to deliver your message (ex: unknown user).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Email": address,
        "From": "noreply@example.org",
        "BouncedAt": "2026-11-26T01:33:54.9070259Z",
        "DumpAvailable": True,
        "Inactive": True,
        "CanActivate": True,
        "Subject": "[Power Grid] Your turn",
        "Metadata": {},
    }


def _postmark_complaint(address: str) -> dict:
    return {
        "RecordType": "SpamComplaint",
        "MessageStream": "outbound",
        "ID": 42,
        "Type": "SpamComplaint",
        "TypeCode": 512,
        "Name": "Spam complaint",
        "MessageID": "00000000-0000-0000-0000-000000000000",
        "Description": "The subscriber explicitly marked this message as spam.",
        "Email": address,
        "From": "noreply@example.org",
        "BouncedAt": "2026-11-26T01:40:00Z",
        "Subject": "[Power Grid] Your turn",
    }


def test_postmark_hard_bounce_and_complaint(player, make_player):
    r = _post("/mail/events/postmark/", _postmark_bounce(player.user.email), **_auth())
    assert r.status_code == 200, r.content
    assert _state(player.user) == ("hard_bounce", "every_turn", [("hard_bounce", "postmark")])
    other = make_player()
    r = _post("/mail/events/postmark/", _postmark_complaint(other.user.email), **_auth())
    assert r.status_code == 200
    assert _state(other.user)[:2] == ("complaint", "none")  # a complaint turns emails off


def test_postmark_soft_bounce_is_counted_and_an_auto_responder_ignored(player):
    _post("/mail/events/postmark/", _postmark_bounce(player.user.email, "SoftBounce"), **_auth())
    assert _state(player.user) == ("", "every_turn", [("soft_bounce", "postmark")])
    body = _postmark_bounce(player.user.email, "AutoResponder")
    body["ID"] = 7
    assert _post("/mail/events/postmark/", body, **_auth()).json()["recorded"] == 0


def test_postmark_without_or_with_wrong_credentials_changes_nothing(player, settings):
    body = _postmark_bounce(player.user.email)
    _refused(_post("/mail/events/postmark/", body), 400, "forged")
    _refused(_post("/mail/events/postmark/", body, **_auth("hook-user:guess")), 400, "forged")
    _refused(_post("/mail/events/postmark/", b"[1, 2", **_auth()), 400, "bad_payload")
    _refused(_post("/mail/events/postmark/", b"\xff\xfe", **_auth()), 400, "bad_payload")
    assert _state(player.user) == NOTHING
    settings.MAIL_WEBHOOK_SECRET = ""
    _refused(_post("/mail/events/postmark/", body, **_auth()), 404, "not_found")


# -- SendGrid: an ECDSA (P-256, SHA-256) signature of timestamp + body ---------------------------


@pytest.fixture
def sendgrid_key(settings):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    settings.SENDGRID_WEBHOOK_VERIFICATION_KEY = base64.b64encode(public).decode()
    return private


def _sendgrid_post(private, events: list[dict], *, tamper: bool = False):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    body = json.dumps(events).encode()
    timestamp = "1764118000"
    signature = private.sign(timestamp.encode() + body, ec.ECDSA(hashes.SHA256()))
    return _post(
        "/mail/events/sendgrid/",
        body + (b" " if tamper else b""),
        HTTP_X_TWILIO_EMAIL_EVENT_WEBHOOK_SIGNATURE=base64.b64encode(signature).decode(),
        HTTP_X_TWILIO_EMAIL_EVENT_WEBHOOK_TIMESTAMP=timestamp,
    )


def _sendgrid(address: str, event: str = "bounce", **more) -> dict:
    return {
        "email": address,
        "timestamp": 1764117999,
        "smtp-id": "<14c5d75ce93.dfd.64b469@ismtpd-555>",
        "event": event,
        "category": "turn",
        "sg_event_id": f"sg-{event}-{more.get('type', '')}-{more.get('reason', '')}",
        "sg_message_id": "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
        **more,
    }


def test_sendgrid_bounce_blocked_dropped_and_spam_report(sendgrid_key, make_player):
    hard, soft, unsub, spam = (make_player() for _ in range(4))
    r = _sendgrid_post(
        sendgrid_key,
        [
            _sendgrid(hard.user.email, reason="550 5.1.1 unknown recipient", type="bounce"),
            _sendgrid(soft.user.email, reason="550 blocked by policy", type="blocked"),
            _sendgrid(unsub.user.email, "dropped", reason="Unsubscribed Address"),
            _sendgrid(spam.user.email, "spamreport"),
            _sendgrid(hard.user.email, "delivered", response="250 OK"),
        ],
    )
    assert r.status_code == 200, r.content
    assert r.json() == {"received": 5, "recorded": 4}
    assert _state(hard.user)[0] == "hard_bounce"
    assert _state(soft.user)[0] == ""  # one soft bounce: counted
    assert _state(unsub.user)[:2] == ("", "none")  # unsubscribed: emails off, address fine
    assert _state(spam.user)[:2] == ("complaint", "none")


def test_sendgrid_forged_posts_change_nothing(sendgrid_key, player, settings):
    events = [_sendgrid(player.user.email, reason="550 5.1.1", type="bounce")]
    _refused(_sendgrid_post(sendgrid_key, events, tamper=True), 400, "forged")
    from cryptography.hazmat.primitives.asymmetric import ec

    _refused(_sendgrid_post(ec.generate_private_key(ec.SECP256R1()), events), 400, "forged")
    _refused(_post("/mail/events/sendgrid/", events), 400, "forged")  # unsigned
    assert _state(player.user) == NOTHING
    settings.SENDGRID_WEBHOOK_VERIFICATION_KEY = ""
    _refused(_sendgrid_post(sendgrid_key, events), 404, "not_found")


# -- Amazon SES: SNS messages, basic authentication and Amazon's RSA signature -------------------

CERT_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem"
TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-events"


@pytest.fixture
def sns_signer(monkeypatch):
    """A key and certificate standing for Amazon's (the certificate fetch returns it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    from cryptography.x509.oid import NameOID

    from games.mailevents import sns

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sns.amazonaws.com")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    fetched: list[str] = []

    def fetch(url: str) -> bytes:
        fetched.append(url)
        return pem

    monkeypatch.setattr(sns, "certificate_pem", fetch)

    def sign(message: dict, version: str = "1") -> dict:
        message = {**message, "SignatureVersion": version, "SigningCertURL": CERT_URL}
        algorithm = hashes.SHA1() if version == "1" else hashes.SHA256()
        signature = key.sign(sns.string_to_sign(message).encode(), padding.PKCS1v15(), algorithm)
        return {**message, "Signature": base64.b64encode(signature).decode()}

    sign.fetched = fetched  # type: ignore[attr-defined]
    return sign


def _ses(address: str, kind: str = "Bounce", bounce_type: str = "Permanent") -> dict:
    event: dict = {
        "eventType": kind,
        "mail": {
            "timestamp": "2026-11-26T01:40:02.012Z",
            "source": "Power Grid <noreply@example.org>",
            "messageId": "EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000",
            "destination": [address],
            "headersTruncated": False,
            "headers": [],
            "commonHeaders": {"subject": "[Power Grid] Your turn"},
        },
    }
    if kind == "Bounce":
        event["bounce"] = {
            "bounceType": bounce_type,
            "bounceSubType": "General",
            "bouncedRecipients": [
                {
                    "emailAddress": address,
                    "action": "failed",
                    "status": "5.1.1",
                    "diagnosticCode": "smtp; 550 5.1.1 user unknown",
                }
            ],
            "timestamp": "2026-11-26T01:41:02.669Z",
            "feedbackId": "01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000",
        }
    else:
        event["complaint"] = {
            "complainedRecipients": [{"emailAddress": address}],
            "timestamp": "2026-11-26T01:41:02.669Z",
            "feedbackId": "01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000001",
            "complaintFeedbackType": "abuse",
        }
    return {
        "Type": "Notification",
        "MessageId": f"22b80b92-fdea-4c2c-8f9d-bdfb0c7b{kind[:4].lower()}",
        "TopicArn": TOPIC,
        "Message": json.dumps(event),
        "Timestamp": "2026-11-26T01:41:02.800Z",
        "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe",
    }


def _sns_post(message: dict | bytes, **extra):
    fields = message if isinstance(message, dict) else {"Type": "Notification", "MessageId": "x"}
    return _post(
        "/mail/events/amazon_ses/",
        message,
        HTTP_X_AMZ_SNS_MESSAGE_TYPE=fields.get("Type", ""),
        HTTP_X_AMZ_SNS_MESSAGE_ID=fields.get("MessageId", ""),
        **extra,
    )


@pytest.mark.parametrize("version", ["1", "2"])
def test_ses_permanent_bounce_and_complaint(sns_signer, make_player, version):
    hard, angry = make_player(), make_player()
    r = _sns_post(sns_signer(_ses(hard.user.email), version), **_auth())
    assert r.status_code == 200, r.content
    assert _state(hard.user)[0] == "hard_bounce"
    r = _sns_post(sns_signer(_ses(angry.user.email, "Complaint"), version), **_auth())
    assert r.status_code == 200
    assert _state(angry.user)[:2] == ("complaint", "none")
    assert sns_signer.fetched == [CERT_URL, CERT_URL]


def test_ses_transient_bounce_is_soft(sns_signer, player):
    _sns_post(sns_signer(_ses(player.user.email, bounce_type="Transient")), **_auth())
    assert _state(player.user) == ("", "every_turn", [("soft_bounce", "amazon_ses")])


def test_ses_unsigned_forged_or_unauthenticated_messages_change_nothing(
    sns_signer, player, settings
):
    good = sns_signer(_ses(player.user.email))
    r = _sns_post(good)  # SNS first posts without credentials and expects a 401
    assert r.status_code == 401
    assert r["WWW-Authenticate"].startswith("Basic")
    _refused(_sns_post(good, **_auth("hook-user:guess")), 400, "forged")
    altered = copy.deepcopy(good)
    altered["Message"] = altered["Message"].replace("Permanent", "Transient")
    _refused(_sns_post(altered, **_auth()), 400, "forged")
    elsewhere = sns_signer(_ses(player.user.email))
    elsewhere["SigningCertURL"] = "https://evil.example.com/cert.pem"
    _refused(_sns_post(elsewhere, **_auth()), 400, "forged")
    unsigned = {k: v for k, v in good.items() if k != "Signature"}
    _refused(_sns_post(unsigned, **_auth()), 400, "forged")
    _refused(_sns_post({**good, "SignatureVersion": "9"}, **_auth()), 400, "forged")
    _refused(_sns_post(b"{]", **_auth()), 400, "bad_payload")
    settings.AMAZON_SES_TOPIC_ARNS = ["arn:aws:sns:us-east-1:123456789012:other-topic"]
    _refused(_sns_post(good, **_auth()), 400, "forged")
    assert _state(player.user) == NOTHING


def test_ses_subscription_confirmation_is_confirmed_once_verified(sns_signer, monkeypatch):
    from games.mailevents import sns

    confirmed: list[str] = []
    monkeypatch.setattr(
        sns, "subscription_confirm", lambda m: confirmed.append(m["SubscribeURL"]) or True
    )
    message = sns_signer(
        {
            "Type": "SubscriptionConfirmation",
            "MessageId": "165545c9-2a5c-472c-8df2-7ff2be2b3b1b",
            "Token": "2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a",
            "TopicArn": TOPIC,
            "Message": "You have chosen to subscribe to the topic.",
            "SubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription",
            "Timestamp": "2026-11-26T01:00:00.000Z",
        }
    )
    assert _sns_post(message, **_auth()).status_code == 200
    assert confirmed == [message["SubscribeURL"]]
    forged = {**message, "Token": "another"}
    _refused(_sns_post(forged, **_auth()), 400, "forged")
    assert len(confirmed) == 1


# -- Brevo: basic authentication ----------------------------------------------------------------


def _brevo(address: str, event: str = "hard_bounce") -> dict:
    return {
        "event": event,
        "email": address,
        "id": 123456,
        "date": "2026-11-26 02:40:00",
        "ts": 1764121200,
        "message-id": "<202611260140.12345678901@smtp-relay.mailin.fr>",
        "ts_event": 1764121200,
        "subject": "[Power Grid] Your turn",
        "tag": "",
        "sending_ip": "185.41.28.109",
        "ts_epoch": 1764121200123,
        "reason": "550 5.1.1 The email account does not exist",
    }


def test_brevo_hard_bounce_spam_and_unsubscribe(make_player):
    hard, spam, unsub = make_player(), make_player(), make_player()
    for p, event in ((hard, "hard_bounce"), (spam, "spam"), (unsub, "unsubscribe")):
        r = _post("/mail/events/brevo/", _brevo(p.user.email, event), **_auth())
        assert r.status_code == 200, r.content
    assert _state(hard.user)[0] == "hard_bounce"
    assert _state(spam.user)[:2] == ("complaint", "none")
    assert _state(unsub.user)[:2] == ("", "none")


def test_brevo_batched_webhook_posts_an_array_of_events(make_player):
    """A webhook made through Brevo's API with ``"batched": true`` posts up to 500 events as one
    JSON array: each is recorded, together; a batch with anything but events is refused whole."""
    hard, spam = make_player(), make_player()
    batch = [_brevo(hard.user.email), _brevo(spam.user.email, "spam"), _brevo("x@y.z", "opened")]
    batch[1]["id"] = 654321
    r = _post("/mail/events/brevo/", batch, **_auth())
    assert r.status_code == 200, r.content
    assert r.json() == {"received": 3, "recorded": 2}
    assert _state(hard.user)[0] == "hard_bounce"
    assert _state(spam.user)[:2] == ("complaint", "none")
    from games.models import MailEvent

    other, before = make_player(), MailEvent.objects.count()
    odd = [_brevo(other.user.email), 5]
    _refused(_post("/mail/events/brevo/", odd, **_auth()), 400, "bad_payload")
    assert _state(other.user)[:2] == ("", "every_turn")
    assert MailEvent.objects.count() == before


def test_brevo_without_credentials_changes_nothing(player):
    _refused(_post("/mail/events/brevo/", _brevo(player.user.email)), 400, "forged")
    _refused(_post("/mail/events/brevo/", "null", **_auth()), 400, "bad_payload")
    assert _state(player.user) == NOTHING


def test_an_address_nobody_has_is_recorded_and_changes_nothing(make_player):
    from games.models import MailEvent

    p = make_player()
    r = _post("/mail/events/brevo/", _brevo("stranger@example.net"), **_auth())
    assert r.status_code == 200
    assert MailEvent.objects.get().effect == "no_user"
    assert _state(p.user)[:2] == ("", "every_turn")


ODD = [
    b"",
    b"null",
    b'"a string"',
    b"[]",
    b"{}",
    b'{"RecordType": "Bounce", "Type": ["HardBounce"], "Email": {"a": 1}}',
    b'{"RecordType": "Bounce", "Type": "HardBounce", "Email": null, "ID": [1]}',
    b'{"RecordType": "Bounce", "Type": "HardBounce", "Email": "x", "BouncedAt": "not a date"}',
    b'{"RecordType": "SubscriptionChange", "SuppressSending": "yes", "Recipient": 5}',
    b'{"event": 5, "email": null}',
    b'{"event": "hard_bounce", "email": ["a@b.c"], "ts_epoch": "soon"}',
    b'{"event": "hard_bounce", "email": "' + b"a" * 400 + b'@example.com"}',
    b'{"items": []}',
    '{"event": "spam", "email": "\u0000@example.com"}'.encode(),
    b'{"event": "spam", "email": "a\\u0000b@example.com", "reason": "x\\u0000"}',
]


@pytest.mark.parametrize("provider", ["postmark", "brevo"])
@pytest.mark.parametrize("body", ODD)
def test_odd_authenticated_payloads_are_refused_or_ignored_never_a_500(player, provider, body):
    r = Client().post(
        f"/mail/events/{provider}/", data=body, content_type="application/json", **_auth()
    )
    assert r.status_code in (200, 400), (r.status_code, r.content)
    if r.status_code == 400:
        assert r.json()["error"]["code"] == "bad_payload"
    assert _state(player.user)[:2] == ("", "every_turn")


# -- a body over the size limit: the same JSON 413 from every provider's URL ---------------------


@pytest.mark.parametrize("provider", ["mailgun", "postmark", "sendgrid", "amazon_ses", "brevo"])
def test_a_body_over_the_limit_is_413_json_from_every_provider(
    provider, player, settings, sendgrid_key
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    body = {"event-data": {"recipient": player.user.email, "pad": "x" * 4096}}
    r = _post(
        f"/mail/events/{provider}/",
        body,
        HTTP_X_AMZ_SNS_MESSAGE_TYPE="Notification",
        HTTP_X_AMZ_SNS_MESSAGE_ID="x",
        **_auth(),
    )
    _refused(r, 413, "request_too_large")
    assert _state(player.user) == NOTHING


def test_django_refusals_on_machine_paths_are_json(rf):
    """What Django itself refuses (handler400) on a webhook or inbound URL is JSON, as under
    /api/: a provider reads a code, not a page."""
    from django.core.exceptions import RequestDataTooBig

    from games.api.errors import handler400

    for path in ("/mail/events/mailgun/", "/inbound/mailgun/", "/api/v1/me/"):
        r = handler400(rf.post(path), RequestDataTooBig())
        assert r.status_code == 413
        assert json.loads(r.content)["error"]["code"] == "request_too_large"
    assert handler400(rf.get("/games/1/"), RequestDataTooBig())["Content-Type"].startswith(
        "text/html"
    )


def test_a_sendgrid_batch_looks_its_users_up_at_once(sendgrid_key, make_player):
    """A batch of bounces for many players: the accounts are read in one query, not one per
    event (a provider's batch holds thousands; SendGrid waits a few seconds), and each
    event still reaches its player; an address two accounts share, or none, is nobody's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import MailEvent

    players = [make_player() for _ in range(30)]
    events = [
        _sendgrid(p.user.email.upper(), reason=f"550 unknown {i}", type="bounce")
        for i, p in enumerate(players)
    ]
    events.append(_sendgrid("nobody@example.com", reason="550 x", type="bounce"))
    events += [_sendgrid(p.user.email, event="delivered") for p in players[:5]]
    with CaptureQueriesContext(connection) as queries:
        r = _sendgrid_post(sendgrid_key, events)
    assert r.status_code == 200, r.content
    lookups = [q["sql"] for q in queries.captured_queries if 'FROM "auth_user"' in q["sql"]]
    assert len(lookups) <= 2, len(lookups)
    rows = {e.address: e.user_id for e in MailEvent.objects.all()}
    assert rows["nobody@example.com"] is None
    for p in players:
        assert rows[p.user.email.lower()] == p.user.pk


def _every_kind(group: int, tag: str, players, awaited) -> list[dict]:
    """``group`` groups of SendGrid events, each of every kind this site acts on: a hard bounce
    (of a player awaited in a game, whose address allauth had verified), three soft bounces of
    one player (the third marks), an unsubscription, a spam report, a delivery, and a bounce of
    an address nobody has."""
    events = []
    for i in range(group):
        hard, soft, unsub, spam, fine = players[5 * i : 5 * i + 5]
        hard = awaited[i] if i < len(awaited) else hard
        events += [
            _sendgrid(hard.user.email, reason="550 5.1.1", type="bounce", sg_event_id=f"{tag}h{i}"),
            *(
                _sendgrid(
                    soft.user.email, reason="4.2.2", type="blocked", sg_event_id=f"{tag}s{i}{j}"
                )
                for j in range(3)
            ),
            _sendgrid(
                unsub.user.email, "dropped", reason="Unsubscribed Address", sg_event_id=f"{tag}u{i}"
            ),
            _sendgrid(spam.user.email, "spamreport", sg_event_id=f"{tag}c{i}"),
            _sendgrid(fine.user.email, "delivered", sg_event_id=f"{tag}d{i}"),
            _sendgrid(
                f"nobody{tag}{i}@example.com", reason="550", type="bounce", sg_event_id=f"{tag}n{i}"
            ),
        ]
    return events


def test_a_sendgrid_batch_takes_as_many_queries_whatever_its_size(
    sendgrid_key, make_player, new_game
):
    """A provider's batch is read, recorded and acted on in a number of queries that does not
    grow with it (SendGrid posts up to thousands of events and waits a few seconds): a batch of
    every kind of event, eight times larger, takes the same queries; each event still does what
    it does alone, and the same batch posted again (a retry) changes nothing."""
    from allauth.account.models import EmailAddress
    from apihelpers import seat_players
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import powergrid
    from games.models import Game, MailEvent, Seat

    def awaited_players(n: int):
        found = []
        for _ in range(n):
            gid, ps = new_game(players=3)
            seats = seat_players(gid, ps)
            state = powergrid.from_json(Game.objects.get(pk=gid).state_json)
            found.append(seats[powergrid.to_act(state)[0]])
        return found

    def post(group: int, tag: str):
        players = [make_player() for _ in range(5 * group)]
        awaited = awaited_players(2 if group > 1 else 1)
        for p in awaited + players[0::5]:
            EmailAddress.objects.create(user=p.user, email=p.user.email, verified=True)
        deadlines = {p.user.pk: Seat.objects.get(user=p.user).deadline for p in awaited}
        events = _every_kind(group, tag, players, awaited)
        with CaptureQueriesContext(connection) as queries:
            r = _sendgrid_post(sendgrid_key, events)
        assert r.status_code == 200, r.content
        assert r.json() == {"received": len(events), "recorded": 7 * group}
        return players, awaited, deadlines, events, len(queries.captured_queries)

    _p, _a, _d, _e, small = post(1, "a")
    players, awaited, deadlines, events, large = post(8, "b")
    assert large == small, (small, large)
    for i in range(8):
        hard, soft, unsub, spam, fine = players[5 * i : 5 * i + 5]
        hard = awaited[i] if i < len(awaited) else hard
        assert _state(hard.user)[0] == "hard_bounce"
        assert not EmailAddress.objects.get(user=hard.user).verified
        assert _state(soft.user)[0] == "soft_bounces"
        assert _state(unsub.user)[:2] == ("", "none")
        assert _state(spam.user)[:2] == ("complaint", "none")
        assert _state(fine.user)[:2] == ("", "every_turn")
    effects = list(
        MailEvent.objects.filter(event_id__startswith="b")
        .order_by("event_id")
        .values_list("event_id", "effect")
    )
    assert [e for i, e in effects if i.startswith("bs0")] == ["counted", "counted", "marked"]
    assert {e for i, e in effects if i.startswith("bn")} == {"no_user"}
    grace = Seat.objects.get(user=awaited[0].user).deadline - deadlines[awaited[0].user.pk]
    assert grace.total_seconds() == 72 * 3600
    rows = MailEvent.objects.count()
    again = _sendgrid_post(sendgrid_key, events)  # the provider's retry
    assert again.json() == {"received": len(events), "recorded": 0}
    assert MailEvent.objects.count() == rows
    assert Seat.objects.get(user=awaited[0].user).deadline - deadlines[awaited[0].user.pk] == grace
