"""The password hasher: Argon2id with OWASP's recommended parameters for one core.

Django's PBKDF2 default (870,000 rounds of SHA-256) spent 0.3-0.45 s of CPU on every log-in
(bench/walk_pages_bench.py): by design, but it made logging in the slowest page a player meets,
over the site's 300 ms page budget. Argon2id is memory-hard, so a guess costs an attacker memory
as well as time, and is cheaper for us at a strength OWASP rates at least as high ("Password
Storage Cheat Sheet": m=19 MiB, t=2, p=1, equivalent to PBKDF2-SHA256 at 600,000 rounds).

One lane (``parallelism = 1``), not Django's 8: the web workers serve one request per core, and
Argon2's threads would compete with the other requests; on the request's own thread its cost is
also counted in the page's Server-Timing ``cpu`` (``config.middleware.ServerTimingMiddleware``).

Hashes keep Django's ``argon2`` name: a hash made with other parameters (Django's own) or with
another listed hasher (PBKDF2) is accepted and re-hashed with these at its owner's next log-in.
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
