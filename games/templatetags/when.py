"""``{{ deadline|when }}``: a moment as a reader wants it: in their time zone, with the zone named,
and how far away it is ("11/25/2026 10:39 p.m. JST, in 7 hours, 20 minutes").

The zone is the one active for the request (the profile's, UTC for visitors: the middleware
activates it), so a player and a visitor see the same instant, each told which clock it is on.
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext as _

register = template.Library()


def _units(span: str) -> str:
    """Django joins a span's units with the list separator (``gettext(", ")``), which the
    catalogue makes "、" in Japanese for lists of names; a span's units are no list: "23時間59分",
    not "23時間、59分". Two units (``depth=2``) are joined by the catalogue's own pattern."""
    parts = span.split(gettext(", "))
    if len(parts) != 2:
        return span
    return pgettext("two units of a span", "%(a)s, %(b)s") % {"a": parts[0], "b": parts[1]}


@register.filter
def when(value: datetime | None) -> SafeString | str:
    """The moment in the active zone, with its zone and how far it is from now."""
    if not isinstance(value, datetime):
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    zone = local.tzname() or timezone.get_current_timezone_name()
    now = timezone.now()
    # Two units: one alone is rounded down, so a deadline 47 hours away read "in 1 day".
    if value >= now:
        relative = _("in %(time)s") % {"time": _units(timeuntil(value, now, depth=2))}
    else:
        relative = _("%(time)s ago") % {"time": _units(timesince(value, now, depth=2))}
    return format_html(
        '<time datetime="{}">{} <span translate="no">{}</span>, {}</time>',
        value.isoformat(),
        formats.date_format(local, "SHORT_DATETIME_FORMAT"),
        zone,
        relative,
    )


@register.filter
def hours_span(hours: float | None) -> str:
    """A span given in hours as a reader says it: "under a minute", "12 minutes", "2.5 hours"
    (a median reply of 0.0 hours said nothing: a quick player's replies are minutes)."""
    if hours is None:
        return ""
    if hours < 1 / 60:
        return _("under a minute")
    if hours < 1:
        n = max(1, round(hours * 60))
        return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}
    shown = round(hours, 1)
    text = formats.number_format(shown, 0 if shown == int(shown) else 1)
    return ngettext("%(n)s hour", "%(n)s hours", 1 if shown == 1 else 2) % {"n": text}
