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
from django.utils.translation import gettext as _

register = template.Library()


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
        relative = _("in %(time)s") % {"time": timeuntil(value, now, depth=2)}
    else:
        relative = _("%(time)s ago") % {"time": timesince(value, now, depth=2)}
    return format_html(
        '<time datetime="{}">{} <span translate="no">{}</span>, {}</time>',
        value.isoformat(),
        formats.date_format(local, "SHORT_DATETIME_FORMAT"),
        zone,
        relative,
    )
