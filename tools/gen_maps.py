"""Generate the project's map data files, ``powergrid/data/maps/<slug>.json``.

Areas and connection costs come from the cross-checked reference files
(``shared/reference/map_<slug>.json``); the project adds its own slugs, English and Japanese
display names, real latitude/longitude and board coordinates. Run from the repository root:

    .venv/bin/python tools/gen_maps.py [--reference DIR] [slug ...]

Board coordinates: an equirectangular projection with the longitude scaled by cos(mid-latitude),
fitted so the longer side of the viewbox is 1000 with a margin. Cities closer than
``MIN_SEPARATION`` are pushed apart (deterministically) and the nudge is written to the notes.
The output is committed; this script only makes it reproducible.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from powergrid.maps import slugify  # noqa: E402

LONG_SIDE = 1000.0
MARGIN = 50.0
MIN_SEPARATION = 30.0

AREA_NAMES: dict[str, tuple[str, str]] = {
    "green": ("Green", "緑"),
    "brown": ("Brown", "茶"),
    "yellow": ("Yellow", "黄"),
    "red": ("Red", "赤"),
    "cyan": ("Cyan", "水色"),
    "purple": ("Purple", "紫"),
    "blue": ("Blue", "青"),
}

# reference name -> (English display name, Japanese name, latitude, longitude)
City = tuple[str, str, float, float]

GERMANY: dict[str, City] = {
    "Flensburg": ("Flensburg", "フレンスブルク", 54.78, 9.44),
    "Kiel": ("Kiel", "キール", 54.32, 10.14),
    "Hamburg": ("Hamburg", "ハンブルク", 53.55, 9.99),
    "Hannover": ("Hannover", "ハノーファー", 52.37, 9.73),
    "Bremen": ("Bremen", "ブレーメン", 53.08, 8.80),
    "Wilhelmshaven": ("Wilhelmshaven", "ヴィルヘルムスハーフェン", 53.53, 8.11),
    "Cuxhaven": ("Cuxhaven", "クックスハーフェン", 53.86, 8.69),
    "Lübeck": ("Lübeck", "リューベック", 53.87, 10.69),
    "Rostock": ("Rostock", "ロストック", 54.09, 12.10),
    "Schwerin": ("Schwerin", "シュヴェリーン", 53.63, 11.41),
    "Torgelow": ("Torgelow", "トルゲロウ", 53.63, 14.01),
    "Magdeburg": ("Magdeburg", "マクデブルク", 52.12, 11.63),
    "Berlin": ("Berlin", "ベルリン", 52.52, 13.40),
    "Frankfurt-O": ("Frankfurt (Oder)", "フランクフルト（オーダー）", 52.35, 14.55),
    "Halle": ("Halle", "ハレ", 51.48, 11.97),
    "Leipzig": ("Leipzig", "ライプツィヒ", 51.34, 12.37),
    "Dresden": ("Dresden", "ドレスデン", 51.05, 13.74),
    "Erfurt": ("Erfurt", "エアフルト", 50.98, 11.03),
    "Fulda": ("Fulda", "フルダ", 50.55, 9.68),
    "Würzburg": ("Würzburg", "ヴュルツブルク", 49.79, 9.95),
    "Nürnberg": ("Nürnberg", "ニュルンベルク", 49.45, 11.08),
    "Osnabrück": ("Osnabrück", "オスナブリュック", 52.28, 8.05),
    "Münster": ("Münster", "ミュンスター", 51.96, 7.63),
    "Essen": ("Essen", "エッセン", 51.46, 7.01),
    "Duisburg": ("Duisburg", "デュイスブルク", 51.43, 6.76),
    "Dortmund": ("Dortmund", "ドルトムント", 51.51, 7.47),
    "Düsseldorf": ("Düsseldorf", "デュッセルドルフ", 51.23, 6.78),
    "Kassel": ("Kassel", "カッセル", 51.31, 9.50),
    "Aachen": ("Aachen", "アーヘン", 50.78, 6.08),
    "Köln": ("Köln", "ケルン", 50.94, 6.96),
    "Trier": ("Trier", "トリーア", 49.75, 6.64),
    "Wiesbaden": ("Wiesbaden", "ヴィースバーデン", 50.08, 8.24),
    "Frankfurt-M": ("Frankfurt (Main)", "フランクフルト（マイン）", 50.11, 8.68),
    "Saarbrücken": ("Saarbrücken", "ザールブリュッケン", 49.24, 6.99),
    "Mannheim": ("Mannheim", "マンハイム", 49.49, 8.47),
    "Freiburg": ("Freiburg", "フライブルク", 47.99, 7.85),
    "Stuttgart": ("Stuttgart", "シュトゥットガルト", 48.78, 9.18),
    "Konstanz": ("Konstanz", "コンスタンツ", 47.66, 9.18),
    "Augsburg": ("Augsburg", "アウクスブルク", 48.37, 10.90),
    "Regensburg": ("Regensburg", "レーゲンスブルク", 49.01, 12.10),
    "München": ("München", "ミュンヘン", 48.14, 11.58),
    "Passau": ("Passau", "パッサウ", 48.57, 13.43),
}

USA: dict[str, City] = {
    "Seattle": ("Seattle", "シアトル", 47.61, -122.33),
    "Portland": ("Portland", "ポートランド", 45.52, -122.68),
    "Boise": ("Boise", "ボイシ", 43.62, -116.20),
    "Billings": ("Billings", "ビリングス", 45.78, -108.50),
    "Cheyenne": ("Cheyenne", "シャイアン", 41.14, -104.82),
    "Denver": ("Denver", "デンバー", 39.74, -104.99),
    "Omaha": ("Omaha", "オマハ", 41.26, -95.94),
    "San Francisco": ("San Francisco", "サンフランシスコ", 37.77, -122.42),
    "Los Angeles": ("Los Angeles", "ロサンゼルス", 34.05, -118.24),
    "San Diego": ("San Diego", "サンディエゴ", 32.72, -117.16),
    "Las Vegas": ("Las Vegas", "ラスベガス", 36.17, -115.14),
    "Salt Lake City": ("Salt Lake City", "ソルトレイクシティ", 40.76, -111.89),
    "Phoenix": ("Phoenix", "フェニックス", 33.45, -112.07),
    "Santa Fe": ("Santa Fe", "サンタフェ", 35.69, -105.94),
    "Kansas City": ("Kansas City", "カンザスシティ", 39.10, -94.58),
    "Oklahoma City": ("Oklahoma City", "オクラホマシティ", 35.47, -97.52),
    "Dallas": ("Dallas", "ダラス", 32.78, -96.80),
    "Houston": ("Houston", "ヒューストン", 29.76, -95.37),
    "Memphis": ("Memphis", "メンフィス", 35.15, -90.05),
    "Birmingham": ("Birmingham", "バーミングハム", 33.52, -86.80),
    "New Orleans": ("New Orleans", "ニューオーリンズ", 29.95, -90.07),
    "Fargo": ("Fargo", "ファーゴ", 46.88, -96.79),
    "Duluth": ("Duluth", "ダルース", 46.79, -92.10),
    "Minneapolis": ("Minneapolis", "ミネアポリス", 44.98, -93.27),
    "Chicago": ("Chicago", "シカゴ", 41.88, -87.63),
    "St. Louis": ("St. Louis", "セントルイス", 38.63, -90.20),
    "Cincinnati": ("Cincinnati", "シンシナティ", 39.10, -84.51),
    "Knoxville": ("Knoxville", "ノックスビル", 35.96, -83.92),
    "Detroit": ("Detroit", "デトロイト", 42.33, -83.05),
    "Buffalo": ("Buffalo", "バッファロー", 42.89, -78.88),
    "Pittsburgh": ("Pittsburgh", "ピッツバーグ", 40.44, -80.00),
    "Boston": ("Boston", "ボストン", 42.36, -71.06),
    "New York": ("New York", "ニューヨーク", 40.71, -74.01),
    "Philadelphia": ("Philadelphia", "フィラデルフィア", 39.95, -75.17),
    "Washington": ("Washington", "ワシントン", 38.91, -77.04),
    "Norfolk": ("Norfolk", "ノーフォーク", 36.85, -76.29),
    "Raleigh": ("Raleigh", "ローリー", 35.78, -78.64),
    "Atlanta": ("Atlanta", "アトランタ", 33.75, -84.39),
    "Savannah": ("Savannah", "サバンナ", 32.08, -81.09),
    "Jacksonville": ("Jacksonville", "ジャクソンビル", 30.33, -81.66),
    "Tampa": ("Tampa", "タンパ", 27.95, -82.46),
    "Miami": ("Miami", "マイアミ", 25.76, -80.19),
}

FRANCE: dict[str, City] = {
    "Calais": ("Calais", "カレー", 50.95, 1.86),
    "Lille": ("Lille", "リール", 50.63, 3.06),
    "Amiens": ("Amiens", "アミアン", 49.89, 2.30),
    "Reims": ("Reims", "ランス", 49.26, 4.03),
    "Metz": ("Metz", "メス", 49.12, 6.18),
    "Nancy": ("Nancy", "ナンシー", 48.69, 6.18),
    "Strasbourg": ("Strasbourg", "ストラスブール", 48.57, 7.75),
    "Le Havre": ("Le Havre", "ル・アーヴル", 49.49, 0.11),
    "Caen": ("Caen", "カーン", 49.18, -0.37),
    "Brest": ("Brest", "ブレスト", 48.39, -4.49),
    "Rennes": ("Rennes", "レンヌ", 48.11, -1.68),
    "Le Mans": ("Le Mans", "ル・マン", 48.00, 0.20),
    "Angers": ("Angers", "アンジェ", 47.47, -0.55),
    "Rouen": ("Rouen", "ルーアン", 49.44, 1.10),
    # The board's three Paris cities sit around Paris on the side of their connections:
    # A to the north (Rouen, Amiens), B to the east (Reims, Nancy, Dijon),
    # C to the south-west (Caen, Le Mans, Orléans).
    "Paris-A": ("Paris A", "パリA", 48.95, 2.30),
    "Paris-B": ("Paris B", "パリB", 48.84, 2.52),
    "Paris-C": ("Paris C", "パリC", 48.76, 2.20),
    "Orleans": ("Orléans", "オルレアン", 47.90, 1.91),
    "Tours": ("Tours", "トゥール", 47.39, 0.69),
    "Limoges": ("Limoges", "リモージュ", 45.83, 1.26),
    "Clermont-Ferrand": ("Clermont-Ferrand", "クレルモン＝フェラン", 45.78, 3.09),
    "Besancon": ("Besançon", "ブザンソン", 47.24, 6.02),
    "Dijon": ("Dijon", "ディジョン", 47.32, 5.04),
    "Lyon": ("Lyon", "リヨン", 45.76, 4.84),
    "Chamonix": ("Chamonix", "シャモニー", 45.92, 6.87),
    "Mulhouse": ("Mulhouse", "ミュルーズ", 47.75, 7.34),
    "Grenoble": ("Grenoble", "グルノーブル", 45.19, 5.72),
    "Saint-Etienne": ("Saint-Étienne", "サン＝テティエンヌ", 45.44, 4.39),
    "Nice": ("Nice", "ニース", 43.70, 7.27),
    "Toulon": ("Toulon", "トゥーロン", 43.12, 5.93),
    "Aix-en-Provence": ("Aix-en-Provence", "エクス＝アン＝プロヴァンス", 43.53, 5.45),
    "Marseille": ("Marseille", "マルセイユ", 43.30, 5.37),
    "Nimes": ("Nîmes", "ニーム", 43.84, 4.36),
    "Montpellier": ("Montpellier", "モンペリエ", 43.61, 3.88),
    "Perpignan": ("Perpignan", "ペルピニャン", 42.70, 2.90),
    "Nantes": ("Nantes", "ナント", 47.22, -1.55),
    "La Rochelle": ("La Rochelle", "ラ・ロシェル", 46.16, -1.15),
    "Bordeaux": ("Bordeaux", "ボルドー", 44.84, -0.58),
    "Biarritz": ("Biarritz", "ビアリッツ", 43.48, -1.56),
    "Toulouse": ("Toulouse", "トゥールーズ", 43.60, 1.44),
    "Carcassonne": ("Carcassonne", "カルカソンヌ", 43.21, 2.35),
    "Lourdes": ("Lourdes", "ルルド", 43.09, -0.05),
}

# Italian names as printed on the board (the reference and the slugs use them too).
ITALY: dict[str, City] = {
    "Siracusa": ("Siracusa", "シラクサ", 37.08, 15.29),
    "Reggio Calabria": ("Reggio Calabria", "レッジョ・カラブリア", 38.11, 15.65),
    "Cosenza": ("Cosenza", "コゼンツァ", 39.30, 16.25),
    "Messina": ("Messina", "メッシーナ", 38.19, 15.55),
    "Palermo": ("Palermo", "パレルモ", 38.12, 13.36),
    "Catania": ("Catania", "カターニア", 37.50, 15.09),
    "Taranto": ("Taranto", "ターラント", 40.47, 17.24),
    "Brindisi": ("Brindisi", "ブリンディジ", 40.63, 17.94),
    "Bari": ("Bari", "バーリ", 41.12, 16.87),
    "Foggia": ("Foggia", "フォッジャ", 41.46, 15.55),
    "Pescara": ("Pescara", "ペスカーラ", 42.46, 14.21),
    "Napoli": ("Napoli", "ナポリ", 40.85, 14.27),
    "Salerno": ("Salerno", "サレルノ", 40.68, 14.77),
    "Roma": ("Roma", "ローマ", 41.90, 12.50),
    "Ancona": ("Ancona", "アンコーナ", 43.62, 13.52),
    "Rimini": ("Rimini", "リミニ", 44.06, 12.57),
    "Ravenna": ("Ravenna", "ラヴェンナ", 44.42, 12.20),
    "San Marino": ("San Marino", "サンマリノ", 43.94, 12.45),
    "Perugia": ("Perugia", "ペルージャ", 43.11, 12.39),
    "Firenze": ("Firenze", "フィレンツェ", 43.77, 11.26),
    "Livorno": ("Livorno", "リヴォルノ", 43.55, 10.31),
    "Udine": ("Udine", "ウーディネ", 46.06, 13.24),
    "Trieste": ("Trieste", "トリエステ", 45.65, 13.78),
    "Bolzano": ("Bolzano", "ボルツァーノ", 46.50, 11.35),
    "Mestre": ("Mestre", "メストレ", 45.49, 12.24),
    "Venezia": ("Venezia", "ヴェネツィア", 45.44, 12.33),
    "Vicenza": ("Vicenza", "ヴィチェンツァ", 45.55, 11.55),
    "Padova": ("Padova", "パドヴァ", 45.41, 11.88),
    "Torino": ("Torino", "トリノ", 45.07, 7.69),
    "Bergamo": ("Bergamo", "ベルガモ", 45.70, 9.67),
    "Milano": ("Milano", "ミラノ", 45.46, 9.19),
    "Brescia": ("Brescia", "ブレシア", 45.54, 10.22),
    "Piacenza": ("Piacenza", "ピアチェンツァ", 45.05, 9.69),
    "Genova": ("Genova", "ジェノヴァ", 44.41, 8.93),
    "Verona": ("Verona", "ヴェローナ", 45.44, 10.99),
    "Ferrara": ("Ferrara", "フェラーラ", 44.84, 11.62),
    "Bologna": ("Bologna", "ボローニャ", 44.49, 11.34),
    "Modena": ("Modena", "モデナ", 44.65, 10.93),
    "Reggio Emilia": ("Reggio Emilia", "レッジョ・エミリア", 44.70, 10.63),
    "Pisa": ("Pisa", "ピサ", 43.72, 10.40),
    "Parma": ("Parma", "パルマ", 44.80, 10.33),
    "La Spezia": ("La Spezia", "ラ・スペツィア", 44.10, 9.82),
}

MAPS: dict[str, dict[str, Any]] = {
    "germany": {
        "name_en": "Germany",
        "name_ja": "ドイツ",
        "cities": GERMANY,
        "required_areas": [],
        "notes": [
            "Original (2004) board. Frankfurt-M: Frankfurt am Main; Frankfurt-O: Frankfurt (Oder).",
            "Area colour names follow the reference; sources disagree on them.",
        ],
    },
    "usa": {
        "name_en": "USA",
        "name_ja": "アメリカ",
        "cities": USA,
        "required_areas": [],
        "notes": [
            "Original board. Boise-Cheyenne costs 24 (3 of 4 sources; one says 21).",
            "Area colour names follow the reference; sources disagree on them.",
        ],
    },
    "france": {
        "name_en": "France",
        "name_ja": "フランス",
        "cities": FRANCE,
        "required_areas": ["blue"],
        "notes": [
            "Reference confidence medium: Biarritz-Bordeaux is 12 in one source, 14 in another.",
            "Paris is three cities (Paris A, B, C) joined by 0-cost connections; their positions "
            "are placed around Paris on the side of their connections, not geographic.",
            "The blue (Paris) area must be in play. Rule changes of this map (uranium market "
            "starting at 5, plant 11 on top of the deck) belong to the engine, not this file.",
        ],
    },
    "italy": {
        "name_en": "Italy",
        "name_ja": "イタリア",
        "cities": ITALY,
        "required_areas": [],
        "notes": [
            "Reference confidence low: one source only.",
            "City names as printed on the board (Italian).",
            "Rule changes of this map (starting resource prices) belong to the engine.",
        ],
    },
}


def _project(lat: float, lon: float, proj: dict[str, float]) -> tuple[float, float]:
    x = proj["margin"] + (lon - proj["lon_min"]) * proj["kx"] * proj["scale"]
    y = proj["margin"] + (proj["lat_max"] - lat) * proj["scale"]
    return x, y


def _separate(
    pos: dict[str, list[float]], width: float, height: float
) -> dict[str, tuple[float, float]]:
    """Push cities closer than MIN_SEPARATION apart, in a fixed order (deterministic)."""
    start = {k: (v[0], v[1]) for k, v in pos.items()}
    target = MIN_SEPARATION + 0.5  # headroom for rounding to one decimal
    for _ in range(2000):
        moved = False
        for a, b in itertools.combinations(sorted(pos), 2):
            pa, pb = pos[a], pos[b]
            dx, dy = pb[0] - pa[0], pb[1] - pa[1]
            d = math.hypot(dx, dy)
            if d >= target:
                continue
            if d < 1e-9:
                dx, dy, d = 1.0, 0.0, 1.0
            push = (target - d) / 2 + 0.01
            ux, uy = dx / d, dy / d
            pa[0] -= ux * push
            pa[1] -= uy * push
            pb[0] += ux * push
            pb[1] += uy * push
            moved = True
        for p in pos.values():
            p[0] = min(max(p[0], MARGIN / 2), width - MARGIN / 2)
            p[1] = min(max(p[1], MARGIN / 2), height - MARGIN / 2)
        if not moved:
            break
    else:  # pragma: no cover - a failure of the data, not of the code
        raise SystemExit("could not separate the cities")
    return {k: (round(pos[k][0] - start[k][0], 1), round(pos[k][1] - start[k][1], 1)) for k in pos}


def build(slug: str, reference: dict[str, Any]) -> dict[str, Any]:
    spec = MAPS[slug]
    table: dict[str, City] = spec["cities"]
    regions: dict[str, list[str]] = reference["regions"]
    ref_names = [n for names in regions.values() for n in names]
    missing = set(ref_names) ^ set(table)
    if missing:
        raise SystemExit(f"{slug}: city tables differ from the reference: {sorted(missing)}")

    lats = [c[2] for c in table.values()]
    lons = [c[3] for c in table.values()]
    lat_min, lat_max, lon_min, lon_max = min(lats), max(lats), min(lons), max(lons)
    kx = math.cos(math.radians((lat_min + lat_max) / 2))
    span_x, span_y = (lon_max - lon_min) * kx, lat_max - lat_min
    scale = (LONG_SIDE - 2 * MARGIN) / max(span_x, span_y)
    width = math.ceil(span_x * scale + 2 * MARGIN)
    height = math.ceil(span_y * scale + 2 * MARGIN)
    proj = {
        "margin": MARGIN,
        "lon_min": lon_min,
        "lat_max": lat_max,
        "kx": round(kx, 6),
        "scale": round(scale, 6),
    }

    area_of = {name: area for area, names in regions.items() for name in names}
    slug_of = {name: slugify(name) for name in table}
    pos = {slug_of[n]: list(_project(c[2], c[3], proj)) for n, c in table.items()}
    nudges = _separate(pos, width, height)

    cities = []
    for name in ref_names:  # reference order: area by area
        en, ja, lat, lon = table[name]
        s = slug_of[name]
        x, y = pos[s]
        cities.append(
            {
                "slug": s,
                "name_en": en,
                "name_ja": ja,
                "area": area_of[name],
                "lat": lat,
                "lon": lon,
                "x": round(x, 1),
                "y": round(y, 1),
            }
        )
    notes = list(spec["notes"])
    moved = {s: d for s, d in nudges.items() if abs(d[0]) >= 0.1 or abs(d[1]) >= 0.1}
    if moved:
        notes.append(
            f"Board positions are the projected lat/lon, except these cities nudged apart to keep "
            f"{MIN_SEPARATION:g} units between cities (dx, dy): "
            + ", ".join(f"{s} ({d[0]:+.1f}, {d[1]:+.1f})" for s, d in sorted(moved.items()))
            + "."
        )
    return {
        "format": 1,
        "slug": slug,
        "name_en": spec["name_en"],
        "name_ja": spec["name_ja"],
        "reference_confidence": reference.get("confidence", ""),
        "notes": notes,
        "viewbox": {"width": width, "height": height},
        "projection": {"type": "equirectangular", **proj},
        "required_areas": spec["required_areas"],
        "areas": [
            {"slug": a, "name_en": AREA_NAMES[a][0], "name_ja": AREA_NAMES[a][1]} for a in regions
        ],
        "cities": cities,
        "connections": [
            {"a": slug_of[a], "b": slug_of[b], "cost": cost}
            for a, b, cost in reference["connections"]
        ],
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one area, city or connection per line: readable diffs, reviewable by eye."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], (dict, str)):
            lines.append(f" {one(key)}: [")
            lines.extend(
                f"  {one(v)}" + ("," if j < len(value) - 1 else "") for j, v in enumerate(value)
            )
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=list(MAPS))
    parser.add_argument("--reference", type=Path, default=ROOT.parent / "shared" / "reference")
    args = parser.parse_args()
    out_dir = ROOT / "powergrid" / "data" / "maps"
    out_dir.mkdir(parents=True, exist_ok=True)
    for slug in args.slugs:
        reference = json.loads((args.reference / f"map_{slug}.json").read_text(encoding="utf-8"))
        data = build(slug, reference)
        path = out_dir / f"{slug}.json"
        path.write_text(dump(data), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: {len(data['cities'])} cities")


if __name__ == "__main__":
    main()
