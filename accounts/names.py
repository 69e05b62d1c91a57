"""When two usernames are one name to a reader.

A player must not be able to pose as another: "Ｂｏｂ" (full width), "BOB" (case), "straße" and
"strasse" (case folding), and "Воb" (a Cyrillic В and о among Latin letters) all read as "bob".
``username_key`` folds a name to what a reader sees, so a look-alike of an existing name is found
by one indexed lookup (``Profile.username_key``); ``mixes_scripts`` refuses names that mix
alphabets with letters that look alike, which is how such fakes are made (the Unicode confusables
data comes from the ``confusable-homoglyphs`` package).

>>> username_key("Ｂｏｂ") == username_key("BOB") == username_key("Воb") == "bob"
True
>>> mixes_scripts("Воb"), mixes_scripts("Алиса"), mixes_scripts("田中bob")
(True, False, False)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

#: Scripts whose letters are kept as they are; a letter of another script that looks like a
#: Latin one is replaced by it.
_KEPT = ("LATIN", "COMMON")
#: Alphabets with letters that pass for Latin ones ("а", "ο", "ս"); Japanese or Chinese next to
#: Latin letters ("田中bob") is an ordinary name.
_LOOKALIKE_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})


@lru_cache(maxsize=4096)
def _latin_twin(ch: str) -> str:
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"])
    if not found or found[0]["alias"] in _KEPT:
        return ch
    twins = [h["c"] for h in found[0]["homoglyphs"]]
    ascii_twins = [t for t in twins if t.isascii()]
    return (ascii_twins or twins or [ch])[0]


def username_key(username: str) -> str:
    """The name as a reader sees it: NFKC, case-folded, letters of other scripts that look like
    Latin ones replaced by them."""
    normal = unicodedata.normalize("NFKC", username)
    # Twins are looked up before case folding: "В" has the twin "B", its small "в" only "ʙ".
    return "".join(_latin_twin(c) for c in normal).casefold()


def mixes_scripts(username: str) -> bool:
    """True if the name mixes alphabets with look-alike letters ("pаypal" with a Cyrillic а).

    Names wholly in one script ("Алиса", "田中") and a script next to plain digits or Latin
    letters that look like nothing in it ("田中bob") are fine.
    """
    normal = unicodedata.normalize("NFKC", username)
    scripts = {categories.alias(c) for c in normal if c.isalpha()}
    if "LATIN" not in scripts or not scripts & _LOOKALIKE_SCRIPTS:
        return False
    return bool(confusables.is_dangerous(normal))
