"""JSON in and out with orjson: the same bytes DRF's JSONRenderer/JSONParser produce and accept for
this API's data (compact, UTF-8, datetimes as ISO 8601 with ``Z``), several times faster.

Anything orjson does not know natively (lazy translation strings, Decimal, timedelta, ...) goes
through DRF's own encoder, so the output for those is unchanged too. A request for indented output
(``Accept: application/json; indent=4``) is left to DRF's renderer.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_NON_STR_KEYS
_fallback = JSONEncoder().default
_LONG_NUMBER = re.compile(rb"[0-9]{19}")


class ORJSONRenderer(JSONRenderer):
    def render(
        self,
        data: object,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, object] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type or "", renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            return orjson.dumps(data, default=_fallback, option=_OPTIONS)
        except TypeError:
            return super().render(data, accepted_media_type, renderer_context)


def _holds_nul(data: object) -> bool:
    """Whether a NUL character is in any string of a parsed body, keys included (a loop, not
    recursion: a body may nest as deep as the parser allows)."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


class ORJSONParser(JSONParser):
    """orjson for UTF-8 bodies. orjson reads an integer beyond 64 bits as a float, so a body with a
    long run of digits (or another charset) goes to DRF's parser, which keeps Python's ints.

    A body with a NUL character (``\\u0000``) in any string is refused here: no field takes
    one, and PostgreSQL stores none in text or jsonb, so it would otherwise be a 500 wherever a
    view stores what it got (a chat message, an idempotent answer that quotes the input). Only a
    body with the escape in it (or in another charset) is walked."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        body = stream.read()
        charset = (parser_context or {}).get("encoding") or "utf-8"
        utf8 = charset.lower().replace("_", "-") in ("utf-8", "utf8")
        if _LONG_NUMBER.search(body) or not utf8:
            try:
                data = super().parse(io.BytesIO(body), media_type, parser_context)
            except RecursionError:  # Python's json nests as deep as the stack: orjson's limit
                raise ParseError("JSON parse error - nested too deep.") from None
        else:
            try:
                data = orjson.loads(body)
            except orjson.JSONDecodeError as exc:
                raise ParseError(f"JSON parse error - {exc}") from None
        if (not utf8 or b"\\u0000" in body) and _holds_nul(data):
            raise ParseError("JSON parse error - a string holds a NUL character (\\u0000).")
        return data
