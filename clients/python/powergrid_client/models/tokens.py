from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Tokens")


@_attrs_define
class Tokens:
    """A count of each resource's tokens (all four always given).

    Attributes:
        coal (int):
        garbage (int):
        oil (int):
        uranium (int):
    """

    coal: int
    garbage: int
    oil: int
    uranium: int

    def to_dict(self) -> dict[str, Any]:
        coal = self.coal

        garbage = self.garbage

        oil = self.oil

        uranium = self.uranium

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "coal": coal,
                "garbage": garbage,
                "oil": oil,
                "uranium": uranium,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        coal = d.pop("coal")

        garbage = d.pop("garbage")

        oil = d.pop("oil")

        uranium = d.pop("uranium")

        tokens = cls(
            coal=coal,
            garbage=garbage,
            oil=oil,
            uranium=uranium,
        )

        return tokens
