"""Where a webhook may point: in production only ``https`` URLs whose host resolves to public
addresses (no loopback, private, link-local, multicast or reserved ranges: the server must not
be made to call into its own network). Checked when a webhook is saved and again before each
post (a name may resolve elsewhere later). ``WEBHOOK_ALLOW_PRIVATE`` lifts both rules for a
development set-up and the tests' local receiver.

Every address a name resolves to is checked, and ``safe_addresses`` returns them so that the
post goes to one of them (``sending.PinnedAdapter``): resolving the name a second time to connect
would let it answer a public address to the check and 127.0.0.1 to the connection.

An IPv6 address that carries an IPv4 address (IPv4-mapped ``::ffff:0:0/96``, NAT64
``64:ff9b::/96``, 6to4 ``2002::/16``, Teredo ``2001::/32``, and the old IPv4-compatible and
IPv4-translated forms) is judged by that IPv4 address too: ``ipaddress`` calls
``64:ff9b::7f00:1`` global although a NAT64 gateway turns it into 127.0.0.1. The local-use NAT64
prefix ``64:ff9b:1::/48`` is refused whole: it is not global, and where the IPv4 address sits in
it depends on the network.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_LOW_32_BITS = (  # prefixes whose last 32 bits are an IPv4 address
    ipaddress.IPv6Network("64:ff9b::/96"),  # NAT64 (RFC 6052)
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (deprecated, RFC 4291)
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # IPv4-translated (RFC 2765)
)
_REFUSED = (ipaddress.IPv6Network("64:ff9b:1::/48"),)  # local-use NAT64 (RFC 8215)


class UnsafeURL(ValueError):
    """The URL may not be called: ``reason`` says why."""


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses ``ip`` carries (none for a plain IPv6 address)."""
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)  # (server, client)
    if any(ip in net for net in _LOW_32_BITS):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def is_public(ip: IPAddress) -> bool:
    """Whether the server may connect to ``ip``: global, not multicast, and (IPv6) carrying
    no IPv4 address that is not."""
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in net for net in _REFUSED):
            return False
        return all(v4.is_global and not v4.is_multicast for v4 in embedded_ipv4(ip))
    return True


def safe_addresses(url: str) -> list[str]:
    """Raise ``UnsafeURL`` unless ``url`` may be called now; else the addresses its host resolves
    to, every one checked, for the connection to use (none with ``WEBHOOK_ALLOW_PRIVATE``:
    nothing is checked then, and the connection resolves the name itself)."""
    try:  # "https://[::1" and other malformed brackets raise ValueError here
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:
        raise UnsafeURL("The address is not a valid URL.") from None
    allow = bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))
    if parts.scheme not in ("https", "http") or not hostname:
        raise UnsafeURL("The address must be an https:// URL.")
    if parts.scheme != "https" and not allow:
        raise UnsafeURL("The address must be an https:// URL.")
    if parts.username or parts.password:
        raise UnsafeURL("The address must not carry a user name or password.")
    try:
        port = parts.port  # "host:99999" or "host:x" raise here
    except ValueError:
        raise UnsafeURL("The address has an invalid port.") from None
    if allow:
        return []
    if (port or (443 if parts.scheme == "https" else 80)) not in allowed_ports():
        shown = ", ".join(str(p) for p in sorted(allowed_ports()))
        raise UnsafeURL(f"The address's port must be one of: {shown}.")
    try:
        infos = socket.getaddrinfo(parts.hostname, port or 443, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise UnsafeURL(f"The host {parts.hostname!r} does not resolve.") from None
    addresses: list[str] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])  # without a zone ("%eth0")
        if not is_public(ip):
            raise UnsafeURL(f"The host {parts.hostname!r} is inside a private network.")
        if str(ip) not in addresses:
            addresses.append(str(ip))
    if not addresses:
        raise UnsafeURL(f"The host {parts.hostname!r} does not resolve.")
    return addresses


def allowed_ports() -> frozenset[int]:
    """The ports a webhook may name (``WEBHOOK_PORTS``; 443 and 80 by default): a public
    address's other ports are other services (mail, databases, admin consoles) that a post
    must not reach."""
    return frozenset(int(p) for p in getattr(settings, "WEBHOOK_PORTS", (443, 80)))


def check_url(url: str) -> None:
    """Raise ``UnsafeURL`` unless ``url`` may be called now."""
    safe_addresses(url)
