"""``python -m powergrid``: see :mod:`powergrid.cli`."""

from powergrid.cli import main

raise SystemExit(main())
