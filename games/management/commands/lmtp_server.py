"""``manage.py lmtp_server [--host H] [--port P]``: the inbound mail service (LMTP), the MTA's
delivery target for the reply and bounce addresses (games/inbox/lmtp.py; deploy/postfix-main.cf).
One long-lived process instead of ``receive_mail``'s process per message."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.inbox.lmtp import serve


class Command(BaseCommand):
    help = "Serves LMTP for the reply and bounce addresses (stores, then the worker handles)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default=settings.LMTP_HOST)
        parser.add_argument("--port", type=int, default=settings.LMTP_PORT)
        parser.add_argument("--threads", type=int, default=4, help="Database threads.")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"lmtp on {options['host']}:{options['port']}")
        self.stdout.flush()
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(options["host"], options["port"], threads=options["threads"]))
