"""Players' names, each isolated from the text around it: a name written right-to-left (Arabic,
Hebrew) or starting with such a letter must not reorder the text around it.

In markup ``<bdi>``: ``{{ name|bdi }}`` for one name, ``{{ names|bdi_join }}`` for a list.
In plain text (emails' text part and subjects, the move log's sentences) Unicode's isolates do
what ``<bdi>`` does: FIRST STRONG ISOLATE (U+2068) before, POP DIRECTIONAL ISOLATE (U+2069) after:
``{{ name|isolate }}``, ``{{ names|isolate_join }}``, ``isolate(name)`` in Python. The isolates
are written only around a name that holds right-to-left text: a left-to-right name cannot
reorder a left-to-right sentence, and several mail clients draw the isolates as boxes.

A list of names is joined with the active language's separator (", " in English, "、" in
Japanese): ``join_names`` in Python, the filters' default (an explicit ", " means the same), and
``{% list_sep %}`` between the items of a list a template writes in a loop.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()

FSI, PDI = "\u2068", "\u2069"
#: Bidirectional classes of right-to-left text: letters (R, AL), Arabic digits (AN) and the
#: explicit right-to-left controls.
_RTL = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI"})


def needs_isolation(name: object) -> bool:
    """Whether ``name`` holds right-to-left text (and so could reorder the words around it).

    >>> needs_isolation("Anna"), needs_isolation("アンナ"), needs_isolation("אבי2")
    (False, False, True)
    """
    return any(unicodedata.bidirectional(ch) in _RTL for ch in str(name))


def list_separator() -> str:
    """The separator of a list in the active language (", ", Japanese "、")."""
    return gettext(", ")


def _sep(sep: str | None) -> str:
    return list_separator() if sep is None or sep == ", " else sep


def join_names(names: Iterable[object], wrap: Any = str, sep: str | None = None) -> str:
    """The names, each through ``wrap`` (``isolate`` for plain text), as a list in the active
    language: the one list-joining rule for every list of names written."""
    return _sep(sep).join(wrap(n) for n in names)


@register.simple_tag
def list_sep() -> str:
    """``{% list_sep %}``: the active language's list separator, between the items of a list a
    template writes in a loop (each item more than a name: a name and its points, ...)."""
    return list_separator()


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def bdi_join(names: Iterable[object], sep: str | None = None) -> SafeString:
    return mark_safe(conditional_escape(_sep(sep)).join(bdi(n) for n in names))


@register.filter(is_safe=True)
def isolate(name: object) -> str:
    """The name between isolates when it holds right-to-left text, else as it is; plain text
    (escaped as any text where autoescape is on)."""
    return f"{FSI}{name}{PDI}" if needs_isolation(name) else str(name)


@register.filter(is_safe=True)
def isolate_join(names: Iterable[object], sep: str | None = None) -> str:
    return join_names(names, isolate, sep)


def player_link(name: object, username: str | None) -> SafeString:
    """A player's name as a link to their player page (rating, reliability), isolated as
    ``bdi`` does; just the isolated name when there is no account to link to. The one way every
    page names a player (``{{ person|player }}``, ``{{ people|players:", " }}``). Its class is
    ``player-link``, not ``player``: ``.player`` is the game page's players' list item, whose
    rules (a top border, padding) and scripts' selectors must not catch the names inside it."""
    if not username:
        return bdi(name)
    from django.urls import reverse

    return format_html(
        '<a class="player-link" href="{}" translate="no"><bdi>{}</bdi></a>',
        reverse("player", args=[username]),
        name,
    )


def _name_and_username(person: object) -> tuple[object, str | None]:
    if isinstance(person, dict):
        return person.get("name", ""), person.get("username")
    return getattr(person, "name", person), getattr(person, "username", None)


@register.filter
def player(person: object) -> SafeString:
    """``{{ person|player }}`` for anything with a ``name`` and a ``username`` (a dict too)."""
    return player_link(*_name_and_username(person))


@register.filter
def players(people: Iterable[object], sep: str | None = None) -> SafeString:
    return mark_safe(conditional_escape(_sep(sep)).join(player(p) for p in people))
