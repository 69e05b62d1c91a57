"""The fair shuffle's card: the seed's fingerprint published at the start, the seed itself once
the game is over (anyone can then check the deck and every move with the engine alone)."""

from __future__ import annotations

from typing import TypedDict

from games.models import Game
from games.selectors.detail import game_seed_commitment

from .viewing import Viewing


class ShuffleCard(TypedDict):
    """``templates/games/cards/shuffle.html``."""

    seed_commitment: str | None
    seed_revealed: int | None


def shuffle_card(view: Viewing) -> ShuffleCard:
    game = view.game
    return {
        "seed_commitment": game_seed_commitment(game),
        "seed_revealed": game.seed if game.status == Game.Status.FINISHED else None,
    }
