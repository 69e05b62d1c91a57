"""The client's address, for everything that counts per client: the API's throttles, failed
logins (allauth's limits), the cap on open event streams.

One answer, from ``TRUSTED_PROXIES`` (settings): the number of proxies in front of the server
that we run and that append the address they saw to ``X-Forwarded-For`` (production behind the
documented nginx: 1). With 0 (the embedded set-up, where clients reach the server directly) the
header is ignored: anyone can write it, and trusting it would let a client choose the address it
is counted under (a new one per request escapes every limit). With N, the client is the N-th
address from the right of the header, the one our own outermost proxy saw; anything further
left was written by the client and is ignored.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _clean(text: str) -> str:
    """The address as written, if it is one ("" otherwise)."""
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return ""


def client_address(request: HttpRequest) -> str:
    """The address the request came from ("" when none can be told)."""
    trusted = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if trusted > 0 and forwarded:
        hops = forwarded.split(",")
        if len(hops) >= trusted:
            found = _clean(hops[-trusted])
            if found:
                return found
    return _clean(str(request.META.get("REMOTE_ADDR", "")))
