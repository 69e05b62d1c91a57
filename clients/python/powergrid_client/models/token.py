from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Token")


@_attrs_define
class Token:
    """
    Attributes:
        expiry (datetime.datetime | None): null: valid until revoked.
        token (str): Send as `Authorization: Bearer <token>`. Shown once.
    """

    expiry: datetime.datetime | None
    token: str

    def to_dict(self) -> dict[str, Any]:
        expiry: None | str
        if isinstance(self.expiry, datetime.datetime):
            expiry = self.expiry.isoformat()
        else:
            expiry = self.expiry

        token = self.token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expiry": expiry,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_expiry(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiry_type_0 = datetime.datetime.fromisoformat(data)

                return expiry_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expiry = _parse_expiry(d.pop("expiry"))

        token = d.pop("token")

        token = cls(
            expiry=expiry,
            token=token,
        )

        return token
