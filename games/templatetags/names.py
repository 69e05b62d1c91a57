"""Players' names on pages, each isolated with ``<bdi>``: a name written right-to-left (Arabic,
Hebrew) or starting with such a letter must not reorder the text around it.

``{{ name|bdi }}`` for one name, ``{{ names|bdi_join:", " }}`` for a list.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def bdi_join(names: Iterable[object], sep: str = ", ") -> SafeString:
    return mark_safe(conditional_escape(sep).join(bdi(n) for n in names))
