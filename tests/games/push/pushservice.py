"""A local push service for the Web Push tests: an HTTP server on 127.0.0.1 that takes the
server's posts as a browser vendor's push service would, checks their VAPID signature
(RFC 8292) and DECRYPTS each body (aes128gcm, RFC 8291) with the private key of the browser that
subscribed, so a test reads exactly what the device would show."""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def keys(self) -> dict[str, str]:
        public = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64u(public), "auth": b64u(self.auth)}

    def plain(self, body: bytes) -> bytes:
        """The decrypted bytes, as the device's service worker reads them."""
        return bytes(
            http_ece.decrypt(
                body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"
            )
        )

    def decrypt(self, body: bytes) -> Any:
        return json.loads(self.plain(body))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    #: The status answered per path (default 201).
    status: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{secrets.token_hex(8)}"

    def to(self, endpoint: str) -> list[Received]:
        path = endpoint.split(str(self.server.server_address[1]), 1)[1]
        with self.lock:
            return [r for r in self.received if r.path == path]


def vapid_verified(headers: dict[str, str], public_key: str) -> dict[str, Any]:
    """The claims of the post's VAPID JWT after checking its ES256 signature with the server's
    public key (the ``k=`` the header names must be it)."""
    auth = headers["Authorization"]
    assert auth.startswith("vapid ")
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid ") :].split(","))
    assert parts["k"].rstrip("=") == public_key.rstrip("=")
    head, claims, sig = parts["t"].split(".")
    raw = unb64u(sig)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64u(claims))


def start() -> PushService:
    holder: dict[str, PushService] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            svc = holder["s"]
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with svc.lock:
                svc.received.append(
                    Received(self.path, {k.title(): v for k, v in self.headers.items()}, body)
                )
            self.send_response(svc.status.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["s"] = PushService(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["s"]
