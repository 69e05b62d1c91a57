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

import math
import re
from collections.abc import Mapping
from decimal import Decimal
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

    def __init__(self, field: str, low: int, high: int, *, once: bool = False) -> None:
        # A query string's parameter also says it is read once (``?limit=5&limit=5``).
        super().__init__(
            f"'{field}' must be a whole number from {low} to {high}"
            + (", given once." if once else "."),
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
        raise BadNumber(name, low, high, once=True)
    try:
        return from_text(values[0], field=name, low=low, high=high)
    except BadNumber:
        raise BadNumber(name, low, high, once=True) from None


def id_from_text(raw: object, *, field: str) -> int:
    """An id (1 to 2^63 - 1) written in a form or a query string."""
    return from_text(raw, field=field, low=1, high=ID_MAX)


def id_from_json(value: object, *, field: str) -> int:
    """An id (1 to 2^63 - 1) as a JSON integer."""
    return from_json(value, field=field, low=1, high=ID_MAX)


def text_or_none(raw: object, *, low: int = 0, high: int = INT32_MAX) -> int | None:
    """``from_text``'s number, or None where ``raw`` writes none: for showing back what a
    refused form sent, or where a page answers "not found" rather than naming the field.

    >>> text_or_none("13"), text_or_none("²"), text_or_none("٣"), text_or_none("")
    (13, None, None, None)
    """
    try:
        return from_text(raw, field="", low=low, high=high)
    except BadNumber:
        return None


# -- decimals: the same rules, with a point ------------------------------------------------------
#: At most this many digits after the point (a fraction of a turn needs no more).
DECIMAL_PLACES = 6


def plain(value: float) -> str:
    """A number as a person writes it in a sentence: no exponent (``{:g}`` wrote 10^15 as
    ``1e+15``), no trailing ``.0``.

    >>> plain(1e15), plain(0.0), plain(1.0), plain(0.25), plain(-0.001), plain(1e-7)
    ('1000000000000000', '0', '1', '0.25', '-0.001', '0.0000001')
    """
    if math.isfinite(value) and value == int(value):
        return str(int(value))
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


class BadDecimal(ServiceError):
    """A decimal from outside that is not one, or out of its field's bounds (400)."""

    status = 400
    code = "invalid_field"
    default_message = "A number is not a decimal number in its bounds."

    def __init__(self, field: str, low: float, high: float) -> None:
        super().__init__(
            f"'{field}' must be a number from {plain(low)} to {plain(high)}.",
            details={"field": field, "min": low, "max": high},
        )
        self.field = field
        self.low = low
        self.high = high


def _decimal_bounded(value: float, field: str, low: float, high: float) -> float:
    if not math.isfinite(value) or not low <= value <= high:
        raise BadDecimal(field, low, high)
    return value


def decimal_from_json(value: object, *, field: str, low: float, high: float) -> float:
    """A JSON number (an integer or a finite float: no bool, string, null, list or object, no
    NaN or infinity, which a lenient parser may hand over) between ``low`` and ``high``.

    >>> decimal_from_json(0.5, field="f", low=0.0, high=1.0)
    0.5
    >>> decimal_from_json(1, field="f", low=0.0, high=1.0)
    1.0
    >>> decimal_from_json(True, field="f", low=0.0, high=1.0)
    Traceback (most recent call last):
    ...
    games.numbers.BadDecimal: 'f' must be a number from 0 to 1.
    """
    if type(value) is not int and type(value) is not float:
        raise BadDecimal(field, low, high)
    if type(value) is int and not low <= value <= high:  # before float(), which overflows
        raise BadDecimal(field, low, high)
    return _decimal_bounded(float(value), field, low, high)


_DECIMAL = re.compile(rf"-?[0-9]{{1,18}}(?:\.[0-9]{{1,{DECIMAL_PLACES}}})?")


def decimal_from_text(raw: object, *, field: str, low: float, high: float) -> float:
    """The decimal ``raw`` writes in a form, a query string or an email: ASCII digits, one
    ASCII point, ``-`` first only when ``low`` is below 0; no space, sign, exponent, ``nan``
    or ``inf`` (``float()`` reads all of those, and digits of other scripts); between ``low``
    and ``high``.

    >>> decimal_from_text("0.75", field="f", low=0.0, high=1.0)
    0.75
    >>> decimal_from_text("０.５", field="f", low=0.0, high=1.0)
    Traceback (most recent call last):
    ...
    games.numbers.BadDecimal: 'f' must be a number from 0 to 1.
    """
    if not isinstance(raw, str) or not _DECIMAL.fullmatch(raw):
        raise BadDecimal(field, low, high)
    if raw.startswith("-") and low >= 0:
        raise BadDecimal(field, low, high)
    return _decimal_bounded(float(raw), field, low, high)


class IdConverter:
    """``<id:name>`` in a URL pattern: 1 to 18 ASCII digits (below 2^63, so no id in a path
    overflows a database's integer: a longer one matches no pattern and is a 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)
