"""A game's options are declared once (``games.services.lobby.GameOptions``): every option the
server knows (``games.models.DEFAULT_OPTIONS``) is declared there with its type, and
``options_clean`` answers every one of them, of that type."""

from __future__ import annotations

import typing

from games.models import DEFAULT_OPTIONS
from games.services.lobby import GameOptions, options_clean


def test_every_option_is_declared_with_the_type_of_its_default():
    declared = typing.get_type_hints(GameOptions)
    assert set(declared) == set(DEFAULT_OPTIONS)
    for name, default in DEFAULT_OPTIONS.items():
        assert isinstance(default, declared[name]), name


def test_the_cleaned_options_are_every_declared_one_of_its_type():
    declared = typing.get_type_hints(GameOptions)
    clean = options_clean({"turn_hours": 48, "private": True, "bot_level": "heuristic"})
    assert set(clean) == set(declared)
    assert all(isinstance(clean[k], t) for k, t in declared.items())
    assert clean["turn_hours"] == 48
    assert clean["private"] is True
