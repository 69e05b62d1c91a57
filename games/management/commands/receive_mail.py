"""``manage.py receive_mail < message.eml``: one email from an MTA's pipe delivery.

For SMALL set-ups only: a Python process per message (~0.8 s of CPU each). A site with traffic
runs the inbound mail service instead (``manage.py lmtp_server``, Postfix delivering by LMTP:
deploy/postfix/), which stores each message and lets the worker handle it.

Postfix, for the reply domain (deploy/OPERATIONS.md, "Moves by email")::

    powergrid unix - n n - - pipe
      flags=Rq user=powergrid argv=/srv/powergrid/.venv/bin/python
      /srv/powergrid/manage.py receive_mail --recipient ${recipient}

(one line in master.cf; see deploy/postfix-master.cf).

Exit status: 0 when the message was handled (taken, refused with an answer, ignored, or failed:
kept for an operator with its bytes and the token's player answered; see the
``InboundMail`` log), 75 (EX_TEMPFAIL) when the database is unavailable, so the MTA keeps the
message and retries, 65 (EX_DATAERR) for a message over the size limit.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import InterfaceError, OperationalError

from games.inbox.receive import mail_receive

MAX_BYTES = 10 * 1024 * 1024
EX_DATAERR = 65
EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Reads one RFC 5322 message on standard input and handles it as a reply by email."
    # No system checks: the MTA starts one process per message, and the checks (every URL module
    # and view imported for the URL checks, the deployment checks) were a third of its CPU (0.4 s
    # of 1.2 s; 4.2 s against 2.5 s of wall time per message while scripts/season ran), and the
    # move itself ~0.1 s: on the loaded season host the pipe took 15 s (p50) up to its 60 s
    # timeout, nearly all of it starting Python. The web and worker processes and
    # `manage.py check --deploy` run them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--recipient", default=None, help="The envelope recipient (MTA).")

    def handle(self, *args: Any, **options: Any) -> None:
        raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            self.stderr.write("message too large")
            sys.exit(EX_DATAERR)
        try:
            result = mail_receive(raw, via="pipe", envelope_recipient=options["recipient"])
        except (OperationalError, InterfaceError):
            self.stderr.write("database unavailable: try again later")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{result.status} {result.code}".strip())
