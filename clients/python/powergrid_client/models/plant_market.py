from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.plant import Plant
    from ..models.step_3_card import Step3Card


T = TypeVar("T", bound="PlantMarket")


@_attrs_define
class PlantMarket:
    """
    Attributes:
        current (list[Plant | Step3Card]): Plants that may be put up now.
        future (list[Plant | Step3Card]): The future market (empty from step 3 on).
    """

    current: list[Plant | Step3Card]
    future: list[Plant | Step3Card]

    def to_dict(self) -> dict[str, Any]:
        from ..models.plant import Plant  # noqa: PLC0415

        current = []
        for current_item_data in self.current:
            current_item: dict[str, Any]
            if isinstance(current_item_data, Plant):
                current_item = current_item_data.to_dict()
            else:
                current_item = current_item_data.to_dict()

            current.append(current_item)

        future = []
        for future_item_data in self.future:
            future_item: dict[str, Any]
            if isinstance(future_item_data, Plant):
                future_item = future_item_data.to_dict()
            else:
                future_item = future_item_data.to_dict()

            future.append(future_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current": current,
                "future": future,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plant import Plant  # noqa: PLC0415
        from ..models.step_3_card import Step3Card  # noqa: PLC0415

        d = dict(src_dict)
        current = []
        _current = d.pop("current")
        for current_item_data in _current:

            def _parse_current_item(data: object) -> Plant | Step3Card:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_market_card_type_0 = Plant.from_dict(data)

                    return componentsschemas_market_card_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_market_card_type_1 = Step3Card.from_dict(data)

                return componentsschemas_market_card_type_1

            current_item = _parse_current_item(current_item_data)

            current.append(current_item)

        future = []
        _future = d.pop("future")
        for future_item_data in _future:

            def _parse_future_item(data: object) -> Plant | Step3Card:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_market_card_type_0 = Plant.from_dict(data)

                    return componentsschemas_market_card_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_market_card_type_1 = Step3Card.from_dict(data)

                return componentsschemas_market_card_type_1

            future_item = _parse_future_item(future_item_data)

            future.append(future_item)

        plant_market = cls(
            current=current,
            future=future,
        )

        return plant_market
