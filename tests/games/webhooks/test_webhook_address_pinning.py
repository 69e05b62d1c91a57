"""Webhook SSRF holes: the post goes to the address that was checked (a name that answers a public
address to the check and 127.0.0.1 to the connection never reaches 127.0.0.1), with TLS still
verified for the original name; IPv6 addresses that wrap a private IPv4 address are refused;
redirects are not followed.

The rebinding tests fake the network at the socket layer: ``socket.getaddrinfo`` answers for
``hook.example`` (a public address the first time, 127.0.0.1 after), and ``socket.socket.connect``
records every address dialled on the webhook's port, sends the public one to a local TLS receiver
(its certificate is for ``hook.example`` only, from a CA made for the test) and refuses the rest.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import ssl
import subprocess
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from receiver import start

pytestmark = pytest.mark.django_db

NAME = "hook.example"
PUBLIC = "93.184.216.34"  # what the name answers to the check
LOOPBACK = "127.0.0.1"  # what it answers afterwards
PUBLIC6 = "2606:2800:220:1:248:1893:25c8:1946"  # a public IPv6 address


# --- certificates and a TLS receiver ---------------------------------------------------------


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _leaf(d: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` (and only that name) signed by the test CA in ``d``."""
    (d / f"{name}.ext").write_text(
        f"subjectAltName=DNS:{name}\nbasicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"
    )
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr",
             "-subj", f"/CN={name}", cwd=d)  # fmt: skip
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "2", "-out", f"{name}.pem",
             "-extfile", f"{name}.ext", cwd=d)  # fmt: skip
    return d / f"{name}.pem", d / f"{name}.key"


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make test certificates")
    d = tmp_path_factory.mktemp("webhook-tls")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
             "-subj", "/CN=PowerGrid webhook test CA",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=d)  # fmt: skip
    return {"ca": d / "ca.pem", NAME: _leaf(d, NAME), "other.example": _leaf(d, "other.example")}


@dataclass
class TLSReceiver:
    server: ThreadingHTTPServer
    sni: list[str | None] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])


def _start_tls(cert: tuple[Path, Path]) -> TLSReceiver:
    holder: dict[str, TLSReceiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            holder["r"].hosts.append(self.headers.get("Host", ""))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(*cert)
    ctx.sni_callback = lambda sslobj, name, c: holder["r"].sni.append(name)
    server = ThreadingHTTPServer((LOOPBACK, 0), Handler)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    holder["r"] = TLSReceiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["r"]


# --- a faked network: a rebinding name and a record of where connections went -----------------


@dataclass
class Network:
    tls_port: int
    port: int = 443  # the webhook's port: connections to it are recorded
    lookups: Counter[str] = field(default_factory=Counter)
    dialled: list[tuple[str, int]] = field(default_factory=list)


@pytest.fixture
def network(monkeypatch, settings, certs):
    """A fresh HTTP session (nothing pooled from another test), production rules, the test CA
    trusted, no proxy, and the faked DNS and connect. Yields a starter for the receiver."""
    from games.webhooks import sending

    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    monkeypatch.delattr(sending._local, "session", raising=False)
    monkeypatch.delattr(sending._local, "adapter", raising=False)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(certs["ca"]))
    for var in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)

    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    servers: list[TLSReceiver] = []
    state: dict[str, Network] = {}

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != NAME:
            return real_getaddrinfo(host, port, *args, **kwargs)
        net = state["net"]
        net.lookups[host] += 1
        address = PUBLIC if net.lookups[host] == 1 else LOOPBACK
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]

    def connect(sock: socket.socket, address: Any) -> None:
        net = state["net"]
        if isinstance(address, tuple) and address[1] == net.port:
            net.dialled.append((address[0], address[1]))
            if address[0] not in (PUBLIC, PUBLIC6):
                raise ConnectionRefusedError(f"the test refuses {address}")
            # An IPv6 socket reaches the IPv4 receiver by its IPv4-mapped address.
            local = LOOPBACK if sock.family == socket.AF_INET else f"::ffff:{LOOPBACK}"
            address = (local, net.tls_port, *address[2:])
        real_connect(sock, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)

    def go(cert_name: str = NAME, port: int = 443) -> tuple[Network, TLSReceiver]:
        tls = _start_tls(certs[cert_name])
        servers.append(tls)
        state["net"] = Network(tls_port=tls.port, port=port)
        return state["net"], tls

    yield go
    for s in servers:
        s.server.shutdown()
        s.server.server_close()


def _delivery(make_player, url: str) -> Any:
    """A webhook and one delivery due now, written directly (no lookup of the name)."""
    from games.models import Webhook, WebhookDelivery

    hook = Webhook.objects.create(
        owner=make_player().user, url=url, format="generic", events=["your_turn"], secret="s" * 64
    )
    return WebhookDelivery.objects.create(
        webhook=hook, event="your_turn", payload={"event": "your_turn"}, dedupe_key="pin-1"
    )


@pytest.mark.parametrize("port", [443, 8443])
def test_a_name_that_rebinds_to_loopback_is_posted_to_the_address_that_was_checked(
    make_player, network, port, settings
):
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send

    settings.WEBHOOK_PORTS = [443, 8443]  # a port the operator allowed besides 443

    net, tls = network(port=port)
    suffix = "" if port == 443 else f":{port}"
    _delivery(make_player, f"https://{NAME}{suffix}/hook")
    result = deliveries_send()
    assert net.dialled == [(PUBLIC, port)]  # never 127.0.0.1
    assert net.lookups[NAME] == 1  # resolved once, by the check
    assert tls.sni == [NAME]  # TLS asked for (and verified) the name, not the address
    assert tls.hosts == [NAME + suffix]
    assert result == {"sent": 1, "failed": 0}
    assert WebhookDelivery.objects.get().status == "sent"


def test_an_unreachable_first_address_falls_back_to_the_next_checked_one(
    make_player, network, monkeypatch
):
    """The name answers two public addresses; the first refuses connections. The post goes to
    the second, still pinned: never a fresh lookup, never an unchecked address."""
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send

    down = "93.184.216.35"
    net, tls = network()

    def two_addresses(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        net.lookups[host] += 1
        found = (down, PUBLIC) if host == NAME else (host,)  # an address is itself
        return [
            (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (a, port)) for a in found
        ]

    monkeypatch.setattr(socket, "getaddrinfo", two_addresses)
    _delivery(make_player, f"https://{NAME}/hook")
    assert deliveries_send() == {"sent": 1, "failed": 0}
    assert net.dialled == [(down, 443), (PUBLIC, 443)]
    assert net.lookups[NAME] == 1
    assert tls.hosts == [NAME]
    assert WebhookDelivery.objects.get().status == "sent"


def test_a_name_with_an_ipv6_address_is_posted_to_that_address(make_player, network, monkeypatch):
    """The name answers a public IPv6 address to the check (and would answer ::1 afterwards):
    the post dials the checked IPv6 address, unbracketed to the socket, with TLS and the Host
    header for the name."""
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send

    net, tls = network()
    fixture_getaddrinfo = socket.getaddrinfo

    def ipv6(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != NAME:
            return fixture_getaddrinfo(host, port, *args, **kwargs)
        net.lookups[host] += 1
        address = PUBLIC6 if net.lookups[host] == 1 else "::1"
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port, 0, 0))
        ]

    monkeypatch.setattr(socket, "getaddrinfo", ipv6)
    _delivery(make_player, f"https://{NAME}/hook")
    assert deliveries_send() == {"sent": 1, "failed": 0}
    assert net.dialled == [(PUBLIC6, 443)]
    assert net.lookups[NAME] == 1
    assert tls.sni == [NAME]
    assert tls.hosts == [NAME]
    assert WebhookDelivery.objects.get().status == "sent"


def test_the_certificate_is_still_verified_for_the_original_name(make_player, network):
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send

    net, tls = network(cert_name="other.example")  # the pinned address serves another name
    _delivery(make_player, f"https://{NAME}/hook")
    assert deliveries_send() == {"sent": 0, "failed": 1}
    assert net.dialled == [(PUBLIC, 443)]
    assert tls.hosts == []
    assert WebhookDelivery.objects.get().last_error == "tls"


def test_the_webhook_form_check_and_the_post_each_resolve_once(make_player, network):
    """Saving checks the name (lookup 1); the post checks it again (lookup 2: now 127.0.0.1)
    and is refused before any connection is opened."""
    from games.models import WebhookDelivery
    from games.webhooks.sending import deliveries_send
    from games.webhooks.services import webhook_create

    net, _tls = network()
    hook = webhook_create(owner=make_player().user, url=f"https://{NAME}/hook")
    WebhookDelivery.objects.create(webhook=hook, event="your_turn", payload={}, dedupe_key="x")
    assert deliveries_send() == {"sent": 0, "failed": 1}
    assert net.lookups[NAME] == 2
    assert net.dialled == []
    assert WebhookDelivery.objects.get().last_error == "address_refused"  # no host, no reason


# --- IPv6 addresses that carry an IPv4 address -------------------------------------------------

WRAPPED_PRIVATE = [
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254 (cloud metadata)
    "64:ff9b::a00:5",  # NAT64 of 10.0.0.5
    "64:ff9b:1::a00:5",  # local-use NAT64 prefix
    "64:ff9b:1:a00:5::",  # ... whatever the position of the IPv4 address in it
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:5::1",  # 6to4 of 10.0.0.5
    "2002:c0a8:101::",  # 6to4 of 192.168.1.1
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.5",
    "::ffff:169.254.169.254",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2001:0:a00:5:0:0:f7f7:f7f7",  # Teredo, server 10.0.0.5
    "::7f00:1",  # IPv4-compatible (deprecated) 127.0.0.1
    "::ffff:0:a00:5",  # IPv4-translated 10.0.0.5
    "64:ff9b::e000:1",  # NAT64 of 224.0.0.1 (multicast)
]

WRAPPED_PUBLIC = ["64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"]


@pytest.mark.parametrize("address", WRAPPED_PRIVATE)
def test_an_ipv6_address_wrapping_a_private_ipv4_address_is_refused(address, settings):
    from games.webhooks.safety import UnsafeURL, check_url

    settings.WEBHOOK_ALLOW_PRIVATE = False
    with pytest.raises(UnsafeURL, match="private network"):
        check_url(f"https://[{address}]/hook")


@pytest.mark.parametrize("address", WRAPPED_PUBLIC)
def test_an_ipv6_address_wrapping_a_public_ipv4_address_is_accepted(address, settings):
    from games.webhooks.safety import safe_addresses

    settings.WEBHOOK_ALLOW_PRIVATE = False
    assert safe_addresses(f"https://[{address}]/hook") == [str(ipaddress.ip_address(address))]


def test_a_name_with_one_wrapped_private_address_among_public_ones_is_refused(
    settings, monkeypatch
):
    from games.webhooks.safety import UnsafeURL, check_url

    settings.WEBHOOK_ALLOW_PRIVATE = False

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        assert host == NAME
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, port)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("64:ff9b::7f00:1", port, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(UnsafeURL, match="private network"):
        check_url(f"https://{NAME}/hook")


def test_the_api_refuses_a_wrapped_private_address(make_player, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    r = make_player().post("/api/v1/webhooks/", {"url": "https://[64:ff9b::7f00:1]/hook"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_webhook"


@pytest.mark.parametrize("allow_private", [False, True])
@pytest.mark.parametrize("url", ["https://hook.example:99999/hook", "https://hook.example:x/hook"])
def test_an_address_with_an_impossible_port_is_refused_not_a_crash(
    make_player, settings, url, allow_private
):
    settings.WEBHOOK_ALLOW_PRIVATE = allow_private
    r = make_player().post("/api/v1/webhooks/", {"url": url})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_webhook"


# --- redirects ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed(make_player, settings, status):
    """The local receivers need WEBHOOK_ALLOW_PRIVATE; the answer is a failure, and the address
    it points to gets nothing (whatever the method a redirect would use)."""
    from games.models import WebhookDelivery
    from games.webhooks import sending

    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    target = start()
    hits: list[str] = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(status)
            self.send_header("Location", target.url)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    class Target(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append("GET")
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET

        def log_message(self, *args: Any) -> None:
            pass

    target.server.RequestHandlerClass = Target
    redirect = ThreadingHTTPServer((LOOPBACK, 0), Redirect)
    threading.Thread(target=redirect.serve_forever, daemon=True).start()
    try:
        _delivery(make_player, f"http://{LOOPBACK}:{redirect.server_address[1]}/hook")
        assert sending.deliveries_send() == {"sent": 0, "failed": 1}
        assert hits == []
        assert WebhookDelivery.objects.get().last_error == f"http_{status}"
    finally:
        redirect.shutdown()
        redirect.server_close()
        target.server.shutdown()
        target.server.server_close()
