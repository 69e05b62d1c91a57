"""The engine data version: a fingerprint of the data a game is set up and played with.

The deck, the maps and each map's rules live in ``powergrid/data/``. A game records the version it
started with; when the data changes (a connection cost corrected, a map's rules completed), the
version changes, and ``manage.py check_replays`` before a deploy shows which running games the
change would alter (their replay no longer gives their stored state).

>>> len(data_version()), data_version() == data_version()
(16, True)
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

_DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def data_version() -> str:
    """16 hex digits of SHA-256 over every data file (path and content, in path order)."""
    digest = hashlib.sha256()
    for path in sorted(_DATA.rglob("*.json")):
        digest.update(path.relative_to(_DATA).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
