"""Fill empty msgstr entries of a .po file from a Python dict (msgid or (msgctxt, msgid) -> text).

Only empty translations are written; existing ones are left alone. Plural entries get the same
text in every msgstr[i] (Japanese has one plural form).

    python tools/po_fill.py locale/ja/LC_MESSAGES/django.po translations.py
"""

from __future__ import annotations

import re
import runpy
import sys


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _unesc(parts: list[str]) -> str:
    return "".join(parts).replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def fill(po_text: str, table: dict) -> tuple[str, int]:
    blocks = po_text.split("\n\n")
    n = 0
    for i, b in enumerate(blocks):
        if "\nmsgid " not in "\n" + b or b.lstrip().startswith('msgid ""\nmsgstr ""\n"'):
            continue
        ctx = re.search(r'^msgctxt "(.*)"$', b, re.M)
        mid = re.search(r'^msgid ((?:".*"\n?)+)', b, re.M)
        if mid is None:
            continue
        msgid = _unesc(re.findall(r'"(.*)"', mid.group(1)))
        key = (ctx.group(1), msgid) if ctx else msgid
        text = table.get(key)
        if text is None:
            continue
        lines = b.split("\n")
        out = []
        j = 0
        changed = False
        while j < len(lines):
            line = lines[j]
            m = re.match(r'^(msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                # collect continuation lines
                k = j + 1
                cont = [m.group(2)]
                while k < len(lines) and lines[k].startswith('"'):
                    cont.append(lines[k][1:-1])
                    k += 1
                if "".join(cont) == "":
                    out.append(f'{m.group(1)} "{_esc(text)}"')
                    changed = True
                else:
                    out.extend(lines[j:k])
                j = k
                continue
            out.append(line)
            j += 1
        if changed:
            out = [ln for ln in out if ln != "#, fuzzy"]
            out = [re.sub(r"^#, fuzzy, ", "#, ", ln) for ln in out]
            blocks[i] = "\n".join(out)
            n += 1
    return "\n\n".join(blocks), n


if __name__ == "__main__":
    po, src = sys.argv[1], sys.argv[2]
    table = runpy.run_path(src)["T"]
    with open(po, encoding="utf-8") as f:
        text = f.read()
    text, n = fill(text, table)
    with open(po, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"filled {n} entries")
