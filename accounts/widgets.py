"""A ``<select>`` for long lists, written in one pass instead of a template per option.

Django renders a Select through ``select.html``, which includes ``select_option.html`` once per
option: the profile's time-zone list (about 500 zones) took ~50 ms of the page's ~65 ms
(``bench/walk_pages_bench.py --profile /accounts/profile/``). The same markup, built here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

SELECTED = mark_safe(" selected")


class LongSelect(forms.Select):
    """A flat (no groups) single-choice ``<select>`` with the markup of Django's: the same
    attributes (``required``, ``id``, the widget's own), the chosen option ``selected``."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = set(self.format_value(value))
        options = format_html_join(
            "\n",
            '  <option value="{}"{}>{}</option>',
            ((key, SELECTED if str(key) in chosen else "", label) for key, label in self.choices),
        )
        return format_html(
            '<select name="{}"{}>\n{}\n</select>',
            name,
            flatatt(self.build_attrs(self.attrs, attrs)),
            options,
        )
