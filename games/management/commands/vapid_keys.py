"""``manage.py vapid_keys``: make the site's VAPID key pair for Web Push, ONCE.

Prints the private key as the ``WEBPUSH_VAPID_PRIVATE_KEY`` line for the environment file and
the public key browsers will see; ``--write`` instead saves the private key as a PEM file at
``WEBPUSH_VAPID_KEY_FILE`` (the embedded set-up's ``var/vapid_private.pem``). It refuses when a
key is configured already: a new key orphans every device's subscription (each is bound to the
key it was made with), so a deploy must never run it, and ``--force`` is for a key known to be
lost or leaked (every player then turns notices on again)."""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from py_vapid import Vapid, b64urlencode

from accounts import push


class Command(BaseCommand):
    help = "Make the VAPID key pair for Web Push once (refuses if one is configured)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help="save it to the key file")
        parser.add_argument("--force", action="store_true", help="replace a configured key")

    def handle(self, *args: object, **options: object) -> None:
        if push.vapid() is not None and not options["force"]:
            raise CommandError(
                "A VAPID key is configured already; a new one would orphan every device's "
                "subscription. Use --force only if the key was lost or leaked."
            )
        key = Vapid()
        key.generate_keys()
        raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        if options["write"]:
            path = Path(settings.WEBPUSH_VAPID_KEY_FILE)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(key.private_pem())
            self.stdout.write(f"Wrote {path} (keep it: do not make another).")
        else:
            self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={b64urlencode(raw)}")
        self.stdout.write(f"# public key (applicationServerKey): {b64urlencode(public)}")
        push.forget()
