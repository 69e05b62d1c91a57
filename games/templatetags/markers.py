"""The players' list as the board's legend: ``{{ seat.colour|marker }}`` draws the seat's marker
(its colour and its shape, ``games.web.markers``) for text, hidden from screen readers;
``{{ seat.colour|marker:seat.colour_label }}`` names it for them instead.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.web.markers import marker_icon

register = template.Library()


@register.filter
def marker(colour: object, label: object = "") -> SafeString:
    # marker_icon escapes the colour and the label itself.
    return mark_safe(marker_icon(str(colour), str(label or "")))
