"""Where a webhook may point: in production only ``https`` URLs whose host resolves to public
addresses (no loopback, private, link-local, multicast or reserved ranges: the server must not
be made to call into its own network). Checked when a webhook is saved and again before each
post (a name may resolve elsewhere later). ``WEBHOOK_ALLOW_PRIVATE`` lifts both rules for a
development set-up and the tests' local receiver.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


class UnsafeURL(ValueError):
    """The URL may not be called: ``reason`` says why."""


def check_url(url: str) -> None:
    """Raise ``UnsafeURL`` unless ``url`` may be called now."""
    parts = urlsplit(url)
    allow = bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UnsafeURL("The address must be an https:// URL.")
    if parts.scheme != "https" and not allow:
        raise UnsafeURL("The address must be an https:// URL.")
    if parts.username or parts.password:
        raise UnsafeURL("The address must not carry a user name or password.")
    if allow:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise UnsafeURL(f"The host {parts.hostname!r} does not resolve.") from None
    for info in infos:
        ip = ipaddress.ip_address(info[4][0])
        if not ip.is_global or ip.is_multicast:
            raise UnsafeURL(f"The host {parts.hostname!r} is inside a private network.")
