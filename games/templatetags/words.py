"""``{{ text|aside }}``: an aside in the active language's brackets (Japanese full-width);
``{{ sentence|one_stop }}``: no doubled full stop after a date ending in "a.m." (``config.words``).
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from config import words

register = template.Library()


@register.filter
def aside(text: str) -> SafeString:
    return mark_safe(words.aside(conditional_escape(text)))


@register.filter
def one_stop(text: str) -> SafeString:
    return mark_safe(words.one_stop(str(conditional_escape(text))))
