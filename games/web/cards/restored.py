"""The restored card: what the last failover or point-in-time restore lost of this game and of
the reader's own moves and messages (``games.restore``), shown to its players on the page for
``told.PAGE_DAYS`` days. The email says the same; a player who turned emails off (or has no
address) learns it only here."""

from __future__ import annotations

from typing import TypedDict

from games.restore.told import RestoredNotice, page_notice

from .viewing import Viewing


class RestoredCard(TypedDict):
    """``templates/games/cards/restored.html``."""

    restored: RestoredNotice | None  # None: no card (nothing restored, not seated, a past board)


def restored_card(view: Viewing) -> RestoredCard:
    if view.me is None or view.history_seq is not None:
        return {"restored": None}
    name = view.names.get(view.me.seat, "")
    return {"restored": page_notice(view.own.restored, game=view.game, name=name)}
