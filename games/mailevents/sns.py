"""Amazon SNS message signatures: an SES event arrives as an SNS message signed by Amazon with
the key of a certificate it serves from ``https://sns.<region>.amazonaws.com/...pem``.

django-anymail checks the webhook's shared secret (basic auth) for SES but not this signature
(its code says "Future: verify SNS message signature"); ``verify`` does, as Amazon documents it:
the certificate's address must be Amazon's SNS host over HTTPS, the string signed is the
message's fields named in a fixed order, and SignatureVersion 1 is RSA with SHA-1, 2 with
SHA-256. The certificate is fetched once per address and kept (in the process and the cache).
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from django.core.cache import cache

#: Amazon's SNS hosts (``sns.us-east-1.amazonaws.com``, China's ``.amazonaws.com.cn``).
_HOST = re.compile(r"^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$")

_NOTIFICATION_FIELDS = ("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type")
_SUBSCRIPTION_FIELDS = (
    "Message",
    "MessageId",
    "SubscribeURL",
    "Timestamp",
    "Token",
    "TopicArn",
    "Type",
)

_certificates: dict[str, bytes] = {}


class BadSignature(Exception):
    """The message is not signed by Amazon SNS (or not for one of our topics)."""


def amazon_url(url: str) -> bool:
    """An https address on Amazon's SNS host (a certificate, a subscription confirmation)."""
    parts = urlsplit(url or "")
    return parts.scheme == "https" and bool(_HOST.match(parts.hostname or "")) and not parts.port


def string_to_sign(message: dict[str, Any]) -> str:
    """The fields Amazon signs, ``name\\nvalue\\n`` each, in Amazon's order (a Notification's
    Subject only when it has one)."""
    kind = message.get("Type")
    names = _NOTIFICATION_FIELDS if kind == "Notification" else _SUBSCRIPTION_FIELDS
    out = []
    for name in names:
        value = message.get(name)
        if value is None and name == "Subject":
            continue
        if value is None:
            raise BadSignature(f"missing {name}")
        out.append(f"{name}\n{value}\n")
    return "".join(out)


def certificate_pem(url: str) -> bytes:
    """The signing certificate at ``url`` (an Amazon SNS address; checked by the caller)."""
    pem = _certificates.get(url)
    if pem is None:
        pem = cache.get(f"sns-cert:{url}")
    if pem is None:
        with urllib.request.urlopen(url, timeout=5) as response:
            pem = response.read(64 * 1024)
        cache.set(f"sns-cert:{url}", pem, timeout=24 * 3600)
    _certificates[url] = pem
    return pem


def verify(message: dict[str, Any], *, topics: list[str] | None = None) -> None:
    """Raise ``BadSignature`` unless ``message`` is signed by Amazon SNS (and, when ``topics``
    is given, comes from one of them)."""
    if not isinstance(message, dict):
        raise BadSignature("not an SNS message")
    if topics and message.get("TopicArn") not in topics:
        raise BadSignature("another topic")
    version = str(message.get("SignatureVersion", ""))
    algorithm = {"1": hashes.SHA1(), "2": hashes.SHA256()}.get(version)
    if algorithm is None:
        raise BadSignature("unknown signature version")
    url = str(message.get("SigningCertURL", ""))
    if not amazon_url(url) or not url.endswith(".pem"):
        raise BadSignature("certificate not from Amazon SNS")
    try:
        signature = base64.b64decode(str(message.get("Signature", "")), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadSignature("signature not base64") from exc
    try:
        key = x509.load_pem_x509_certificate(certificate_pem(url)).public_key()
    except (OSError, ValueError) as exc:
        raise BadSignature("certificate unavailable") from exc
    if not isinstance(key, rsa.RSAPublicKey):
        raise BadSignature("not an RSA certificate")
    try:
        key.verify(signature, string_to_sign(message).encode(), padding.PKCS1v15(), algorithm)
    except InvalidSignature as exc:
        raise BadSignature("wrong signature") from exc


def subscription_confirm(message: dict[str, Any]) -> bool:
    """Confirm a subscription of ours (already verified): a GET of its ``SubscribeURL``, which
    Amazon documents for HTTP endpoints. False (and the operator confirms it in the SNS console)
    when that fails."""
    url = str(message.get("SubscribeURL", ""))
    if not amazon_url(url):
        return False
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return 200 <= response.status < 300
    except OSError:
        return False
