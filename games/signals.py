"""Signals the games app sends for apps built on it (they import games; games imports none of
them: ``tests/test_import_graph.py``).

``game_finished`` (``game``: the ``Game`` just finished) is sent inside the transaction of the
move that ended the game, once (as the game is rated once). A receiver that does its own work
in a transaction of its own defers it with ``transaction.on_commit`` (``tournaments.receivers``).
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
