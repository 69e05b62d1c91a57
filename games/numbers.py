"""The one reader of numbers that come from outside: a form field, a query parameter, a JSON
field, a word of an emailed reply, an id in a path.

Why one: ``str.isdigit()`` is true for digits of other scripts (``"፩"``, ``"٣"``), for
superscripts and circled digits, some of which ``int()`` refuses (a 500) and some of which it
reads (a number nobody typed); nothing bounded the length (``int()`` of 5,000 digits raises);
and DRF's and Django's integer fields read ``" 1"``, ``"1.0"``, ``"٣"`` and ``true`` as numbers.
Here a number is written in ASCII digits only, ``-`` first only where the field allows
negatives, no sign, space, point or exponent, at most as many digits as its bound has; a JSON
number is a JSON integer (``true`` is not 1, ``1.0`` and ``"1"`` are not integers); and every
field has its bounds. Anything else raises ``BadNumber``: a ``ServiceError`` (400
``invalid_field``, ``details.field``, ``details.min``, ``details.max``), so the API answers it as
any refusal, a page's form shows it, and ``config.middleware`` answers it with a 400 page where a
view lets it through.

>>> from_text("12", field="n", low=0, high=100)
12
>>> from_text("１２", field="n", low=0, high=100)
Traceback (most recent call last):
...
games.numbers.BadNumber: 'n' must be a whole number from 0 to 100.
>>> from_json(True, field="n", low=0, high=1)
Traceback (most recent call last):
...
games.numbers.BadNumber: 'n' must be a whole number from 0 to 1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.services.errors import ServiceError

#: The largest id a path or a body may name: the databases' signed 64-bit integer.
ID_MAX = 2**63 - 1
#: The largest count, amount or position a client may send where nothing smaller applies.
INT32_MAX = 2**31 - 1

_DIGITS = re.compile(r"[0-9]+")


class BadNumber(ServiceError):
    """A number from outside that is not one, or out of its field's bounds (400)."""

    status = 400
    code = "invalid_field"
    default_message = "A number is not a whole number in its bounds."

    def __init__(self, field: str, low: int, high: int) -> None:
        super().__init__(
            f"'{field}' must be a whole number from {low} to {high}.",
            details={"field": field, "min": low, "max": high},
        )
        self.field = field
        self.low = low
        self.high = high


def _bounded(value: int, field: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise BadNumber(field, low, high)
    return value


def from_text(raw: object, *, field: str, low: int, high: int) -> int:
    """The number ``raw`` writes: ASCII digits only, ``-`` first only when ``low`` is below 0,
    no more digits than the larger bound has; between ``low`` and ``high``."""
    if not isinstance(raw, str):
        raise BadNumber(field, low, high)
    digits = raw[1:] if raw.startswith("-") and low < 0 else raw
    longest = len(str(max(abs(low), abs(high))))
    if not 0 < len(digits) <= longest or not _DIGITS.fullmatch(digits):
        raise BadNumber(field, low, high)
    return _bounded(int(raw), field, low, high)


def from_json(value: object, *, field: str, low: int, high: int) -> int:
    """A JSON integer (``type(value) is int``: no bool, float, string, null, list or object)
    between ``low`` and ``high``."""
    if type(value) is not int:
        raise BadNumber(field, low, high)
    return _bounded(value, field, low, high)


def from_query(
    params: Mapping[str, Any],
    name: str,
    *,
    low: int,
    high: int,
    default: int | None = None,
    empty_is_absent: bool = True,
) -> int | None:
    """Parameter ``name`` of a query string or a form (``request.GET``, ``request.POST``,
    ``request.query_params``): ``default`` when it is absent, else ``from_text``.
    A parameter given twice is refused (which one was meant?).

    Empty (``?limit=``): a page's form sends its empty inputs, so there empty is absent
    (``empty_is_absent``); the API's query parameters pass ``empty_is_absent=False``, where a
    parameter written with no value is a client's bug and refused like any other non-number."""
    getlist = getattr(params, "getlist", None)
    values = getlist(name) if getlist is not None else [params.get(name)]
    values = [v for v in values if v is not None]
    if empty_is_absent:
        values = [v for v in values if v != ""]
    if not values:
        return default
    if len(values) > 1:
        raise BadNumber(name, low, high)
    return from_text(values[0], field=name, low=low, high=high)


def id_from_text(raw: object, *, field: str) -> int:
    """An id (1 to 2^63 - 1) written in a form or a query string."""
    return from_text(raw, field=field, low=1, high=ID_MAX)


def id_from_json(value: object, *, field: str) -> int:
    """An id (1 to 2^63 - 1) as a JSON integer."""
    return from_json(value, field=field, low=1, high=ID_MAX)


class IdConverter:
    """``<id:name>`` in a URL pattern: 1 to 18 ASCII digits (below 2^63, so no id in a path
    overflows a database's integer: a longer one matches no pattern and is a 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)
