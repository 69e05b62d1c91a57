"""Helpers for the translation tests: the Japanese catalogue and the English left on a page.

``po_entries`` reads a .po file with the standard library (polib is not a dependency);
``english_words`` lists the Latin-script words a reader would see on a rendered page;
``ensure_compiled`` rebuilds ``django.mo`` when ``django.po`` is newer (``make test`` does it
too, but a test run straight from pytest after editing the catalogue should not test a stale file).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0


def _unquote(s: str) -> str:
    body = s.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise ValueError(f"not a quoted .po string: {body}")
    return re.sub(
        r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body[1:-1]
    )


def po_entries(path: Path = PO) -> list[Entry]:
    """Every entry of a .po file (the header included, with msgid "")."""
    entries: list[Entry] = []
    cur: Entry | None = None
    last: str | None = None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            cur, last = None, None
            continue
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        elif line.startswith("#"):
            if line.startswith("#,"):
                if cur is None:
                    cur = Entry(line=n)
                    entries.append(cur)
                cur.flags.update(f.strip() for f in line[2:].split(","))
            continue
        if cur is None:
            cur = Entry(line=n, obsolete=obsolete)
            entries.append(cur)
        cur.obsolete = cur.obsolete or obsolete
        m = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if m:
            key, text = m.group(1), _unquote(m.group(2))
            if key.startswith("msgstr"):
                cur.msgstr.append(text)
            elif key == "msgctxt":
                cur.msgctxt = text
            else:
                setattr(cur, key, text)
            last = key
        elif line.startswith('"') and last:
            text = _unquote(line)
            if last.startswith("msgstr"):
                cur.msgstr[-1] += text
            elif last == "msgctxt":
                cur.msgctxt = (cur.msgctxt or "") + text
            else:
                setattr(cur, last, getattr(cur, last) + text)
    return entries


def catalogue_is_current() -> bool:
    """True when ``django.mo`` exists and is not older than ``django.po``."""
    return MO.exists() and MO.stat().st_mtime >= PO.stat().st_mtime


def compile_catalogue() -> bool:
    """Build ``django.mo`` from ``django.po`` when it is stale; False when msgfmt is missing.

    The file is written beside the target and renamed over it, so a test process reading the
    catalogue at the same moment sees the old file or the new one, never half of one.
    """
    if catalogue_is_current():
        return True
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return False
    partial = MO.with_name(f"{MO.name}.{os.getpid()}.partial")
    subprocess.run([msgfmt, "--check-format", "-o", str(partial), str(PO)], check=True)
    os.replace(partial, MO)
    return True


def ensure_compiled() -> None:
    """Compile the Japanese catalogue when the .mo is missing or older than the .po."""
    if catalogue_is_current():
        return
    if not compile_catalogue():
        import pytest

        pytest.skip("gettext (msgfmt) is not installed")
    from django.utils.translation import trans_real

    trans_real._translations = {}
    trans_real._default = None
    trans_real._active = trans_real.Local()


class _Visible(HTMLParser):
    """Text a reader sees: text nodes outside script/style/code, plus the attributes that are
    read aloud or shown (title, alt, placeholder, aria-label, button values). Elements marked
    ``translate="no"`` (user names, time zone names, the "English" language switch) are left out,
    as are elements whose ``lang`` is not Japanese."""

    SKIP = {"script", "style", "code", "pre", "textarea", "svg", "iframe"}
    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "col"}
    ATTRS = {"title", "alt", "placeholder", "aria-label"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is its content skipped
        self.parts: list[str] = []

    def _skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        skip = (
            self._skipping()
            or tag in self.SKIP
            or a.get("translate") == "no"
            or (a.get("lang") not in (None, "ja") and tag != "html")
        )
        if not skip:
            for k in self.ATTRS:
                if a.get(k):
                    self.parts.append(a[k] or "")
            if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
                self.parts.append(a["value"] or "")
        if tag not in self.VOID:
            self.stack.append(skip)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipping():
            self.parts.append(data)


# Words that stay in Latin script in the Japanese pages: names and technical terms.
ALLOWED = {
    "API",
    "REST",
    "Authorization",
    "Token",
    "URL",
    "HTML",
    "Email",
    "E",
    "ID",
    "UTC",
    "OK",
    "English",  # the language's own name, in the language choices
    "Celery",
    "DEBUG",
}


def english_words(html: str, allowed: set[str] = frozenset()) -> list[str]:
    """The Latin-script words (two letters or more) in the visible text of a page."""
    p = _Visible()
    p.feed(html)
    text = " ".join(p.parts)
    text = re.sub(r"\S+@\S+", " ", text)  # email addresses
    words = re.findall(r"[A-Za-z][A-Za-z'’-]+", text)
    ok = ALLOWED | set(allowed)
    return [w for w in words if w not in ok]
