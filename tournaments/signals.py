"""Signals of the tournaments app.

``tournament_finished`` (``tournament``) is sent inside the transaction that ended the
tournament, with the tournament's row locked;
``table_ready`` (``tournament``, ``round``, ``table``: its game just made and started) inside
the transaction that made the table's game, with the table's row locked. A receiver that
does its own work in a transaction of its own defers it with ``transaction.on_commit``
(``tournaments.receivers``: a league's season ends when its divisions' tournaments have).
"""

from __future__ import annotations

from django.dispatch import Signal

table_ready = Signal()
tournament_finished = Signal()
