"""Sentences the engine hands to the server untranslated.

The engine speaks English message ids; the server translates them with its catalogue (Django's
``makemessages`` collects every string marked with :func:`gettext_noop`, by that name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Marks an English sentence for the translation catalogue; translated by the server."""
    return message


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence to show, as English message ids: ``text``, or ``plural`` when the parameter
    named ``count`` is not 1. Parameters are filled by the server (``%(name)s`` and the rest).

    >>> s = Sentence("%(n)d city", "%(n)d cities", "n")
    >>> s.choose({"n": 1}), s.choose({"n": 3})
    ('%(n)d city', '%(n)d cities')
    """

    text: str
    plural: str | None = None
    count: str | None = None

    def choose(self, params: Mapping[str, object]) -> str:
        """The message id to translate for these parameters."""
        if self.plural is not None and self.count is not None and params.get(self.count) != 1:
            return self.plural
        return self.text
