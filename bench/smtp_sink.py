"""A local SMTP sink in a process of its own (for bench/notify_bench.py --sink-process).

    python bench/smtp_sink.py PORT LOGFILE [pipelining]

With ``pipelining`` it offers PIPELINING (RFC 2920) in its EHLO reply, as Postfix, Exim and the
big providers do (aiosmtpd reads commands from a buffered stream, so it copes; it just does not
say so by default).

Accepts every message and appends one line per message to LOGFILE: the X-PowerGrid-Notification
header and the arrival time (time.time()), tab-separated. Only that header is looked for, with a
regular expression over the header block: parsing the headers with the email package cost the
sink ~0.4 ms of CPU a message (of ~1.8 ms), CPU taken from the worker it measures on a 2-core
machine.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from aiosmtpd.controller import Controller

HEADER = re.compile(rb"^X-PowerGrid-Notification:[ \t]*([^\r\n]*)", re.MULTILINE | re.IGNORECASE)


class Handler:
    def __init__(self, path: str, pipelining: bool = False) -> None:
        self.out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process' life
        self.pipelining = pipelining

    async def handle_EHLO(
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        session.host_name = hostname
        if self.pipelining:
            responses.insert(-1, "250-PIPELINING")
        return responses

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.content
        end = content.find(b"\r\n\r\n")
        m = HEADER.search(content, 0, len(content) if end < 0 else end + 2)
        n = m.group(1).decode("ascii", "replace").strip() if m else ""
        self.out.write(f"{n}\t{time.time()}\n")
        return "250 OK"


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    pipelining = sys.argv[3:] == ["pipelining"]
    controller = Controller(Handler(path, pipelining), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
