"""Fill translations of a .po file from a Python dict (msgid or (msgctxt, msgid) -> text).

Written: entries whose translation is empty, and fuzzy entries (their guessed translation is
replaced and the ``fuzzy`` flag and ``#|`` previous-msgid lines are dropped). With ``--force``,
existing translations of the listed msgids are replaced too. Plural entries get the same text in
every ``msgstr[i]`` (Japanese has one plural form). The table file defines ``T``.

    python tools/po_fill.py locale/ja/LC_MESSAGES/django.po translations.py [--force]
    python tools/po_fill.py --missing locale/ja/LC_MESSAGES/django.po   # list what is left

Run ``msgfmt --check`` (or ``manage.py compilemessages``) afterwards.
"""

from __future__ import annotations

import re
import runpy
import sys

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def _unesc(parts: list[str]) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), "".join(parts))


def _field(lines: list[str], name: str) -> str | None:
    """The value of ``msgid``/``msgctxt``/... in an entry's lines (continuations joined)."""
    for j, line in enumerate(lines):
        if line.startswith(name + " "):
            parts = [line[len(name) + 2 : -1]]
            k = j + 1
            while k < len(lines) and lines[k].startswith('"'):
                parts.append(lines[k][1:-1])
                k += 1
            return _unesc(parts)
    return None


def _msgstrs(lines: list[str]) -> list[str]:
    out = []
    for j, line in enumerate(lines):
        m = re.match(r'^msgstr(?:\[\d+\])? "(.*)"$', line)
        if m:
            parts = [m.group(1)]
            k = j + 1
            while k < len(lines) and lines[k].startswith('"'):
                parts.append(lines[k][1:-1])
                k += 1
            out.append(_unesc(parts))
    return out


def _entries(po_text: str) -> list[list[str]]:
    return [b.split("\n") for b in po_text.split("\n\n")]


def _is_fuzzy(lines: list[str]) -> bool:
    return any(ln.startswith("#,") and "fuzzy" in ln for ln in lines)


def fill(po_text: str, table: dict, *, force: bool = False) -> tuple[str, int]:
    blocks = _entries(po_text)
    n = 0
    for i, lines in enumerate(blocks):
        msgid = _field(lines, "msgid")
        if not msgid or any(ln.startswith("#~") for ln in lines):
            continue  # the header, or an obsolete entry
        ctx = _field(lines, "msgctxt")
        key = (ctx, msgid) if ctx is not None else msgid
        text = table.get(key)
        if text is None:
            continue
        strs = _msgstrs(lines)
        if not (force or _is_fuzzy(lines) or not all(strs)):
            continue
        out: list[str] = []
        j = 0
        while j < len(lines):
            line = lines[j]
            if line.startswith("#|"):
                j += 1
                continue
            if line.startswith("#,"):
                flags = [f.strip() for f in line[2:].split(",") if f.strip() != "fuzzy"]
                if flags:
                    out.append("#, " + ", ".join(flags))
                j += 1
                continue
            m = re.match(r'^(msgstr(?:\[\d+\])?) "', line)
            if m:
                out.append(f'{m.group(1)} "{_esc(text)}"')
                j += 1
                while j < len(lines) and lines[j].startswith('"'):
                    j += 1
                continue
            out.append(line)
            j += 1
        blocks[i] = out
        n += 1
    return "\n\n".join("\n".join(b) for b in blocks), n


def missing(po_text: str) -> list[str]:
    """msgids still untranslated or fuzzy."""
    out = []
    for lines in _entries(po_text):
        msgid = _field(lines, "msgid")
        if not msgid or any(ln.startswith("#~") for ln in lines):
            continue
        if _is_fuzzy(lines) or not all(_msgstrs(lines)):
            out.append(msgid)
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--missing" in sys.argv:
        with open(args[0], encoding="utf-8") as f:
            left = missing(f.read())
        print("\n".join(left))
        print(f"{len(left)} entries untranslated or fuzzy", file=sys.stderr)
        sys.exit(1 if left else 0)
    po, src = args[0], args[1]
    table = runpy.run_path(src)["T"]
    with open(po, encoding="utf-8") as f:
        text = f.read()
    text, n = fill(text, table, force="--force" in sys.argv)
    with open(po, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"filled {n} entries")
