from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiToken")


@_attrs_define
class ApiToken:
    """One of the caller's API tokens; the token itself is shown only once, when made.

    Attributes:
        created (datetime.datetime):
        current (bool): The token this request was made with.
        expiry (datetime.datetime | None): null: valid until revoked.
        last_used (datetime.datetime | None): When it last authenticated a request, to within minutes (null: not yet).
        name (str): The name its owner gave it (may be empty).
        prefix (str): The token's first characters (to tell it apart; DELETE .../{prefix}/).
    """

    created: datetime.datetime
    current: bool
    expiry: datetime.datetime | None
    last_used: datetime.datetime | None
    name: str
    prefix: str

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        current = self.current

        expiry: None | str
        if isinstance(self.expiry, datetime.datetime):
            expiry = self.expiry.isoformat()
        else:
            expiry = self.expiry

        last_used: None | str
        if isinstance(self.last_used, datetime.datetime):
            last_used = self.last_used.isoformat()
        else:
            last_used = self.last_used

        name = self.name

        prefix = self.prefix

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "current": current,
                "expiry": expiry,
                "last_used": last_used,
                "name": name,
                "prefix": prefix,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        current = d.pop("current")

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

        def _parse_last_used(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used = _parse_last_used(d.pop("last_used"))

        name = d.pop("name")

        prefix = d.pop("prefix")

        api_token = cls(
            created=created,
            current=current,
            expiry=expiry,
            last_used=last_used,
            name=name,
            prefix=prefix,
        )

        return api_token
