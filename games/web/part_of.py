"""What a game is part of, as the game page's head names it ("Round 2, table 3 of Autumn
cup"): told by the app that made the game (a tournament's table: ``Game.made_for`` holds its
label), which registers a provider here when it is ready. Games imports none of those apps; a
provider answers for the reader (a private tournament's name only to those who may see it) or
says nothing. A game of the lobby (``made_for`` "") asks nobody: its page pays no query."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from games.models import Game
from games.selectors import Reader


class PartOf(TypedDict):
    """A link above the game: its words and where it leads."""

    text: str
    url: str


Provider = Callable[[Game, Reader], PartOf | None]
_PROVIDERS: dict[str, Provider] = {}


def register(label: str, provider: Provider) -> None:
    """``provider`` names the games whose ``made_for`` is ``label`` (an app's ``ready``)."""
    _PROVIDERS[label] = provider


def part_of(game: Game, user: Reader) -> PartOf | None:
    """What ``game`` is part of, for its reader; None for a game of the lobby."""
    provider = _PROVIDERS.get(game.made_for) if game.made_for else None
    return provider(game, user) if provider is not None else None
