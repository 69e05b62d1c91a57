"""``{{ text|aside }}``: an aside in the active language's brackets (Japanese full-width);
``{{ sentence|one_stop }}``: no doubled full stop after a date ending in "a.m." (``config.words``);
``{{ subject|untagged }}``: an email's subject without its leading "[Power Grid]" tag (the tag in
either language's brackets), as the HTML part's heading;
``{{ n|plant_name }}``: a power plant by name, "plant 13" (``games.describe.plant_name``);
``{{ n|plant_number }}``: the same where the page shows the bare number (a plant card, a form's
choice): the number seen, the name heard.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from config import words
from games.describe import plant_name as _plant_name

register = template.Library()

#: A subject's leading tag: "[Power Grid] " or Japanese "【電力会社】".
_TAG = re.compile(r"^\s*(?:\[[^\]]*\]|【[^】]*】)\s*")


@register.filter(needs_autoescape=True)
def aside(text: str, autoescape: bool = True) -> SafeString:
    """The aside, escaped where the template autoescapes (not in a text email's
    ``{% autoescape off %}``, where "&" must stay "&")."""
    return mark_safe(words.aside(conditional_escape(text) if autoescape else text))


@register.filter
def one_stop(text: str) -> SafeString:
    return mark_safe(words.one_stop(str(conditional_escape(text))))


@register.filter
def untagged(subject: str) -> str:
    """``subject`` without its leading tag.

    >>> untagged("[Power Grid] Your turn in game #3"), untagged("【電力会社】ゲーム #3")
    ('Your turn in game #3', 'ゲーム #3')
    """
    return _TAG.sub("", str(subject), count=1)


@register.filter
def plant_name(number: int | str) -> str:
    """ "plant 13" in the active language (an option's text, a row's heading, a label)."""
    return _plant_name(number)


@register.filter
def plant_number(number: int | str) -> SafeString:
    """The plant's number as the eye reads it, its name as a screen reader says it: the number
    hidden from the reader, "plant 13" hidden from the eye. (The whole name, not words around
    the number: a reader's name for it never runs "plant" and "13" together, in either
    language.)"""
    return format_html(
        '<span aria-hidden="true">{}</span><span class="sr-only">{}</span>',
        number,
        _plant_name(number),
    )
