"""Watchers of a private game (``games.models.Watcher``): people without a seat whom what made
the game lets watch it. A tournament grants its director and every entrant each table of a
private tournament as the table's game is made (``tournaments.services.table_make``), so that
they may follow every table of their tournament; a public game needs none (anyone may watch it).

A watcher sees what every watcher of a public game sees
(``games.selectors.visibility.game_visible``: the rule of who may see a game); a seat's hidden
facts stay its holder's, and watching gives no seat, no move, no chat as a player, no deadline,
and no place among the games one plays.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser

from games.models import Watcher


def watchers_grant(*, game_id: int, users: Iterable[AbstractBaseUser | int]) -> int:
    """Let ``users`` (users or their keys) watch game ``game_id``; granting one who watches
    already changes nothing. In the caller's transaction (the one that made the game). How many
    were named."""
    ids = {u if isinstance(u, int) else int(u.pk) for u in users}
    Watcher.objects.bulk_create(
        [Watcher(game_id=game_id, user_id=uid) for uid in sorted(ids)], ignore_conflicts=True
    )
    return len(ids)
