"""Writes games/web/board_precomputed.json: every map's disc positions and name labels in every
language, computed the plain way (games.web.board_svg.compute_*). Run after changing a map, a
city's name or the layout code; tests/games/web/test_board_precomputed.py says when it is due.

    .venv/bin/python tools/gen_board_layout.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.web import board_precomputed, board_svg
from powergrid.maps import available_maps

LANGUAGES = ("en", "ja")


def compute() -> dict[str, board_precomputed.StoredMap]:
    out: dict[str, board_precomputed.StoredMap] = {}
    for slug in available_maps():
        pos = board_svg.compute_positions(slug)
        out[slug] = {
            "positions": {city: [x, y] for city, (x, y) in sorted(pos.items())},
            "labels": {
                lang: {
                    city: {"x": lab.x, "y": lab.y, "anchor": lab.anchor, "box": list(lab.box)}
                    for city, lab in sorted(board_svg.compute_name_labels(slug, lang).items())
                }
                for lang in LANGUAGES
            },
        }
    return out


if __name__ == "__main__":
    text = json.dumps(compute(), ensure_ascii=False, indent=1) + "\n"
    board_precomputed.PATH.write_text(text, encoding="utf-8")
    print(f"wrote {board_precomputed.PATH}")
