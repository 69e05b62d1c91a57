"""Players' names, each isolated from the text around it: a name written right-to-left (Arabic,
Hebrew) or starting with such a letter must not reorder the text around it.

In markup ``<bdi>``: ``{{ name|bdi }}`` for one name, ``{{ names|bdi_join:", " }}`` for a list.
In plain text (emails' text part and subjects, the move log's sentences) Unicode's isolates do
what ``<bdi>`` does: FIRST STRONG ISOLATE (U+2068) before, POP DIRECTIONAL ISOLATE (U+2069) after:
``{{ name|isolate }}``, ``{{ names|isolate_join:", " }}``, ``isolate(name)`` in Python.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

FSI, PDI = "\u2068", "\u2069"


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def bdi_join(names: Iterable[object], sep: str = ", ") -> SafeString:
    return mark_safe(conditional_escape(sep).join(bdi(n) for n in names))


@register.filter(is_safe=True)
def isolate(name: object) -> str:
    """The name between isolates, as plain text (escaped as any text where autoescape is on)."""
    return f"{FSI}{name}{PDI}"


@register.filter(is_safe=True)
def isolate_join(names: Iterable[object], sep: str = ", ") -> str:
    return sep.join(isolate(n) for n in names)


def player_link(name: object, username: str | None) -> SafeString:
    """A player's name as a link to their player page (rating, reliability), isolated as
    ``bdi`` does; just the isolated name when there is no account to link to. The one way every
    page names a player (``{{ person|player }}``, ``{{ people|players:", " }}``)."""
    if not username:
        return bdi(name)
    from django.urls import reverse

    return format_html(
        '<a class="player" href="{}" translate="no"><bdi>{}</bdi></a>',
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
def players(people: Iterable[object], sep: str = ", ") -> SafeString:
    return mark_safe(conditional_escape(sep).join(player(p) for p in people))
