"""Small rules of written text that hold in every sentence the site writes, in either language.

``one_stop``: a sentence whose last word ends in a full stop of its own (English dates and times:
"Nov. 28, 2026, 9:36 a.m.") takes no second one ("a.m.." is a typo to a reader).
``aside``: an aside in brackets, the active language's brackets: "(played by a bot)" in English,
"（ボットが指しました）" with Japanese full-width brackets (the catalogue holds the pair).
``cut``: someone's text quoted short, an ellipsis saying it was cut.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def one_stop(text: str) -> str:
    """``text`` with a doubled full stop made one (an ellipsis "..." is left as it is).

    >>> one_stop("Away until Nov. 28, 9:36 a.m.. Back soon...")
    'Away until Nov. 28, 9:36 a.m. Back soon...'
    """
    return _DOUBLE_STOP.sub(".", text)


def aside(text: object) -> str:
    """``text`` in the active language's brackets."""
    return gettext("(%(text)s)") % {"text": text}


def cut(text: str, most: int) -> str:
    """``text`` at most ``most`` characters long, its last one an ellipsis when it was cut: what
    a player wrote, quoted back (an email's refused word, a restore notice's lost message), is
    recognisable and never taken for the whole, and a huge text stays out of what we send.

    >>> cut("Essen", 40)
    'Essen'
    >>> cut("x" * 100, 10)
    'xxxxxxxxx…'
    """
    return text if len(text) <= most else text[: most - 1] + "…"
