"""The declared shapes (powergrid.shapes) name the same values as the engine's tables."""

from __future__ import annotations

import typing

from powergrid import shapes
from powergrid.actions import ACTION_TYPES
from powergrid.plants import FUELS
from powergrid.state import PHASES, PLANT_DECKS, VARIANTS
from powergrid.tables import COLOURS, RESOURCES


def _values(alias: object) -> tuple[object, ...]:
    return typing.get_args(alias)


def test_each_literal_names_the_engines_values_in_order():
    assert _values(shapes.Fuel) == FUELS
    assert _values(shapes.Phase) == tuple(PHASES)
    assert _values(shapes.Variant) == VARIANTS
    assert _values(shapes.PlantDeck) == PLANT_DECKS
    assert _values(shapes.Colour) == COLOURS
    assert _values(shapes.Resource) == RESOURCES
    assert tuple(shapes.Tokens.__annotations__) == RESOURCES
    assert tuple(shapes.ResourcePrices.__annotations__) == RESOURCES


def test_there_is_one_legal_move_shape_per_action_type():
    union = typing.get_args(shapes.LegalMove)[0]
    members = typing.get_args(union)
    kinds = [typing.get_args(typing.get_type_hints(m)["type"])[0] for m in members]
    assert kinds == list(ACTION_TYPES)
