"""``python -m powergrid``: see :mod:`powergrid.cli`."""

import os
import sys

from powergrid.cli import main

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:
    # Output piped into a reader that stopped early (``| head``): quiet, as the docs advise.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 1
raise SystemExit(code)
