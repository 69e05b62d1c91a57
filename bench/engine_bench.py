"""Engine benchmark: a thin script over ``powergrid.bench`` (as ``python -m powergrid bench``)."""

from __future__ import annotations

import sys

from powergrid.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["bench", *sys.argv[1:]]))
