"""A local SMTP sink in a process of its own (for bench/notify_bench.py --sink-process).

    python bench/smtp_sink.py PORT LOGFILE

Accepts every message and appends one line per message to LOGFILE: the X-PowerGrid-Notification
header and the arrival time (time.time()), tab-separated. Only the headers are parsed.
"""

from __future__ import annotations

import email.parser
import email.policy
import sys
import time
from typing import Any

from aiosmtpd.controller import Controller


class Handler:
    def __init__(self, path: str) -> None:
        self.out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process' life
        self.parser = email.parser.BytesHeaderParser(policy=email.policy.default)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = self.parser.parsebytes(envelope.content)
        self.out.write(f"{msg.get('X-PowerGrid-Notification', '')}\t{time.time()}\n")
        return "250 OK"


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Handler(path), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
