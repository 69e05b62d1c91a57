"""The project's map data (powergrid/data/maps/*.json) against the shared reference boards.

The reference lives outside the repository (``<workspace>/shared/reference``, or the directory named
by ``POWERGRID_REFERENCE_DIR``); tests that need it are skipped when it is absent, the others
check the project's own files on their own.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from powergrid.maps import (
    Area,
    City,
    Connection,
    GameMap,
    MapDataError,
    available_maps,
    load_map,
    slugify,
)

# The two boards the project must have; France and Italy are checked too when present.
CORE_MAPS = ["germany", "usa"]
ALL_MAPS = available_maps()
MIN_DISTANCE = 28.0  # board units; the generator keeps 30


def _reference_dir() -> Path | None:
    env = os.environ.get("POWERGRID_REFERENCE_DIR")
    candidates = [Path(env)] if env else []
    candidates.append(Path(__file__).resolve().parents[3] / "shared" / "reference")
    for path in candidates:
        if (path / "map_germany.json").is_file():
            return path
    return None


REFERENCE_DIR = _reference_dir()
needs_reference = pytest.mark.skipif(REFERENCE_DIR is None, reason="shared/reference not found")


def reference(slug: str) -> dict[str, Any]:
    assert REFERENCE_DIR is not None
    path = REFERENCE_DIR / f"map_{slug}.json"
    if not path.is_file():
        pytest.skip(f"no reference for {slug}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def raw(slug: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parents[2] / "powergrid" / "data" / "maps" / f"{slug}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# --- the files exist and load -------------------------------------------------------------


def test_core_maps_available() -> None:
    assert set(CORE_MAPS) <= set(ALL_MAPS)
    assert sorted(ALL_MAPS) == ALL_MAPS


def test_load_map_is_cached() -> None:
    assert load_map("germany") is load_map("germany")
    assert load_map("usa") is not load_map("germany")


@pytest.mark.parametrize("slug", ["atlantis", "", "../reference/map_germany", "Germany"])
def test_load_unknown_map_raises_key_error(slug: str) -> None:
    with pytest.raises(KeyError):
        load_map(slug)


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_map_identity(slug: str) -> None:
    m = load_map(slug)
    assert m.slug == slug
    assert m.name_en
    assert m.name_ja
    assert raw(slug)["slug"] == slug


def test_map_names() -> None:
    assert load_map("germany").name_ja == "ドイツ"
    assert load_map("usa").name_ja == "アメリカ"
    assert load_map("germany").name_en == "Germany"


# --- shape: 42 cities, 6 areas of 7 -------------------------------------------------------


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_six_areas_of_seven_cities(slug: str) -> None:
    m = load_map(slug)
    assert len(m.cities) == 42
    assert len(m.areas) == 6
    for area in m.areas:
        assert len(m.cities_in([area])) == 7, area


@pytest.mark.parametrize(("slug", "count"), [("germany", 83), ("usa", 87)])
def test_connection_count(slug: str, count: int) -> None:
    assert len(load_map(slug).connections) == count


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_area_names(slug: str) -> None:
    names = {"green": "緑", "brown": "茶", "yellow": "黄", "red": "赤", "purple": "紫"}
    for area in load_map(slug).areas.values():
        assert area.name_en == area.slug.capitalize()
        if area.slug in names:
            assert area.name_ja == names[area.slug]
        assert area.name_ja


def test_germany_and_usa_areas() -> None:
    colours = {"green", "brown", "yellow", "red", "cyan", "purple"}
    assert set(load_map("germany").areas) == colours
    assert set(load_map("usa").areas) == colours


# --- slugs and names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Münster", "muenster"),
        ("Düsseldorf", "duesseldorf"),
        ("Köln", "koeln"),
        ("Saarbrücken", "saarbruecken"),
        ("Straße", "strasse"),
        ("St. Louis", "st-louis"),
        ("Frankfurt-M", "frankfurt-m"),
        ("Frankfurt (Oder)", "frankfurt-oder"),
        ("New York", "new-york"),
        ("Salt Lake City", "salt-lake-city"),
        ("Saint-Étienne", "saint-etienne"),
        ("Besançon", "besancon"),
        ("  A -- b. ", "a-b"),
    ],
)
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_slugs_unique_ascii(slug: str) -> None:
    data = raw(slug)
    city_slugs = [c["slug"] for c in data["cities"]]
    area_slugs = [a["slug"] for a in data["areas"]]
    assert len(set(city_slugs)) == len(city_slugs)
    assert len(set(area_slugs)) == len(area_slugs)
    for s in city_slugs + area_slugs:
        assert s == slugify(s), s  # lowercase ASCII, single hyphens, no leading/trailing hyphen
        assert s.isascii()


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_every_city_has_names(slug: str) -> None:
    for city in load_map(slug).cities.values():
        assert city.name_en.strip(), city.slug
        assert city.name_ja.strip(), city.slug
        # Japanese names are written in kana (katakana, with ・ ＝ （ ） and a Latin letter for
        # Paris A/B/C): no Latin-only English name copied over.
        assert any("\u30a0" <= ch <= "\u30ff" for ch in city.name_ja), city.name_ja


def test_proper_spellings() -> None:
    germany = load_map("germany").cities
    assert germany["muenster"].name_en == "Münster"
    assert germany["duesseldorf"].name_en == "Düsseldorf"
    assert germany["koeln"].name_ja == "ケルン"
    assert germany["frankfurt-m"].name_en == "Frankfurt (Main)"
    assert germany["frankfurt-o"].name_en == "Frankfurt (Oder)"
    assert germany["muenster"].name_ja == "ミュンスター"
    usa = load_map("usa").cities
    assert usa["st-louis"].name_en == "St. Louis"
    assert usa["new-york"].name_ja == "ニューヨーク"
    for slug in ("essen", "nuernberg", "wuerzburg", "luebeck", "osnabrueck", "muenchen"):
        assert slug in germany
    assert "salt-lake-city" in usa


# --- against the reference ----------------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("slug", ALL_MAPS)
def test_areas_match_reference(slug: str) -> None:
    ref = reference(slug)
    m = load_map(slug)
    expected = {slugify(n): area for area, names in ref["regions"].items() for n in names}
    actual = {c.slug: c.area for c in m.cities.values()}
    assert actual == expected


@needs_reference
@pytest.mark.parametrize("slug", ALL_MAPS)
def test_connections_match_reference(slug: str) -> None:
    ref = reference(slug)
    expected = {frozenset((slugify(a), slugify(b))): cost for a, b, cost in ref["connections"]}
    assert len(expected) == len(ref["connections"])
    actual = {frozenset((c.a, c.b)): c.cost for c in load_map(slug).connections}
    assert len(actual) == len(load_map(slug).connections)  # no duplicate pair
    missing = {tuple(sorted(k)): v for k, v in expected.items() if k not in actual}
    extra = {tuple(sorted(k)): v for k, v in actual.items() if k not in expected}
    wrong = {
        tuple(sorted(k)): (v, expected[k])
        for k, v in actual.items()
        if k in expected and v != expected[k]
    }
    assert (missing, extra, wrong) == ({}, {}, {})


# --- graph facts ----------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_area_adjacency_connected_and_symmetric(slug: str) -> None:
    m = load_map(slug)
    adj = m.area_adjacency()
    assert set(adj) == set(m.areas)
    for a, neighbours in adj.items():
        assert a not in neighbours
        assert neighbours, a
        for b in neighbours:
            assert a in adj[b]
    assert m.areas_connected(m.areas)


# Italy (low-confidence reference): Livorno's only links are Pisa (yellow) and Roma (purple).
NOT_SELF_CONNECTED = {("italy", "red")}


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_city_graph_connected_within_each_area(slug: str) -> None:
    """Every area's cities are reachable from each other without leaving the area, so a game
    on any connected choice of areas has one connected board (known exceptions listed)."""
    m = load_map(slug)
    for area in m.areas:
        if (slug, area) in NOT_SELF_CONNECTED:
            continue
        cities = m.cities_in([area])
        start = min(cities)
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for c in m.connections_of(here):
                nxt = c.other(here)
                if nxt in cities and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == cities, area


def test_germany_area_adjacency() -> None:
    adj = load_map("germany").area_adjacency()
    # Ruhr (red) touches the south-west (cyan) via Düsseldorf-Köln; the north-west (green)
    # does not touch the south-east (purple).
    assert "cyan" in adj["red"]
    assert "purple" not in adj["green"]
    assert adj["purple"] == frozenset({"yellow", "cyan"})


def test_areas_connected() -> None:
    m = load_map("germany")
    assert m.areas_connected(["green", "brown", "red"])
    assert not m.areas_connected(["green", "purple"])
    assert not m.areas_connected([])
    with pytest.raises(KeyError):
        m.areas_connected(["green", "blue"])


def test_cities_in() -> None:
    m = load_map("germany")
    red = m.cities_in(["red"])
    assert red == frozenset(
        {"osnabrueck", "muenster", "essen", "duisburg", "dortmund", "duesseldorf", "kassel"}
    )
    assert m.cities_in(iter(["red", "cyan"])) == red | m.cities_in(["cyan"])
    assert m.cities_in([]) == frozenset()
    with pytest.raises(KeyError):
        m.cities_in(["mauve"])


def test_connections_of_and_cost() -> None:
    m = load_map("germany")
    essen = {c.other("essen"): c.cost for c in m.connections_of("essen")}
    assert essen == {"muenster": 6, "duisburg": 0, "duesseldorf": 2, "dortmund": 4}
    assert m.connection_cost("duisburg", "essen") == 0
    assert m.connection_cost("essen", "muenchen") is None
    with pytest.raises(KeyError):
        m.connections_of("atlantis")
    with pytest.raises(KeyError):
        m.connection_cost("essen", "atlantis")
    with pytest.raises(ValueError, match="not an end"):
        Connection("a", "b", 1).other("c")


# --- the rulebook's worked examples that are pure map facts -----------------------------


def test_rulebook_germany_examples() -> None:
    m = load_map("germany")
    assert m.connection_cost("essen", "duisburg") == 0
    assert m.connection_cost("muenster", "dortmund") == 2
    # Aachen for 21 via Düsseldorf: 10 + 2 (Essen-Düsseldorf) + 9 (Düsseldorf-Aachen).
    assert m.connection_cost("essen", "duesseldorf") == 2
    assert m.connection_cost("duesseldorf", "aachen") == 9
    # Step 2: Düsseldorf 17 = 15 + 2; then Köln 19 = 15 + 4 (from Düsseldorf).
    assert m.connection_cost("duesseldorf", "koeln") == 4


def test_rulebook_usa_example() -> None:
    # From Memphis, St. Louis costs 10 + 7.
    assert load_map("usa").connection_cost("memphis", "st-louis") == 7


# --- drawing: coordinates ---------------------------------------------------------------


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_coordinates_inside_viewbox(slug: str) -> None:
    m = load_map(slug)
    width, height = m.viewbox
    assert max(width, height) == 1000
    assert min(width, height) >= 400
    for c in m.cities.values():
        assert 0 < c.x < width, c.slug
        assert 0 < c.y < height, c.slug


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_no_two_cities_overlap(slug: str) -> None:
    cities = list(load_map(slug).cities.values())
    close = [
        (a.slug, b.slug, round(math.hypot(a.x - b.x, a.y - b.y), 1))
        for a, b in itertools.combinations(cities, 2)
        if math.hypot(a.x - b.x, a.y - b.y) < MIN_DISTANCE
    ]
    assert close == []


@pytest.mark.parametrize("slug", ALL_MAPS)
def test_coordinates_follow_lat_lon(slug: str) -> None:
    """Board positions are the recorded projection of the real places, give or take a nudge."""
    data = raw(slug)
    proj = data["projection"]
    max_nudge = 25.0 if slug in CORE_MAPS else 40.0
    for c in data["cities"]:
        x = proj["margin"] + (c["lon"] - proj["lon_min"]) * proj["kx"] * proj["scale"]
        y = proj["margin"] + (proj["lat_max"] - c["lat"]) * proj["scale"]
        assert math.hypot(c["x"] - x, c["y"] - y) <= max_nudge, c["slug"]


def test_geography_sanity() -> None:
    """Gross coordinate mistakes (a swapped sign or lat/lon) show up as impossible orders."""
    g = load_map("germany").cities
    assert g["flensburg"].y < g["hamburg"].y < g["hannover"].y < g["frankfurt-m"].y
    assert g["frankfurt-m"].y < g["muenchen"].y
    assert g["aachen"].x < g["koeln"].x < g["berlin"].x < g["frankfurt-o"].x
    for c in g.values():
        assert c.lat is not None
        assert c.lon is not None
        assert 47.2 < c.lat < 55.1, c.slug
        assert 5.8 < c.lon < 15.1, c.slug
    u = load_map("usa").cities
    assert u["seattle"].x < u["denver"].x < u["chicago"].x < u["boston"].x
    assert u["duluth"].y < u["st-louis"].y < u["new-orleans"].y < u["miami"].y
    for c in u.values():
        assert c.lat is not None
        assert c.lon is not None
        assert 24 < c.lat < 49.5, c.slug
        assert -125 < c.lon < -66, c.slug


# --- API shape -------------------------------------------------------------------------------


def test_to_dict_is_json_ready() -> None:
    m = load_map("usa")
    d = m.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["slug"] == "usa"
    assert d["viewbox"] == {"width": m.viewbox[0], "height": m.viewbox[1]}
    assert len(d["cities"]) == 42
    assert len(d["connections"]) == 87
    assert {"a": "memphis", "b": "st-louis", "cost": 7} in d["connections"]
    city = next(c for c in d["cities"] if c["slug"] == "st-louis")
    assert set(city) == {"slug", "name_en", "name_ja", "area", "x", "y"}


def test_map_is_immutable() -> None:
    m = load_map("germany")
    with pytest.raises(TypeError):
        m.cities["essen"] = m.cities["duisburg"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.slug = "x"  # type: ignore[misc]


def test_map_is_hashable_and_comparable() -> None:
    m = load_map("germany")
    assert {m: 1}[m] == 1
    again = GameMap.from_dict(raw("germany"))
    assert again is not m
    assert again == m
    assert hash(again) == hash(m)
    assert m != load_map("usa")


def _tiny(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "slug": "tiny",
        "name_en": "Tiny",
        "name_ja": "タイニー",
        "areas": [{"slug": "red", "name_en": "Red", "name_ja": "赤"}],
        "cities": [
            {"slug": "a", "name_en": "A", "name_ja": "エー", "area": "red", "x": 1, "y": 1},
            {"slug": "b", "name_en": "B", "name_ja": "ビー", "area": "red", "x": 2, "y": 2},
        ],
        "connections": [{"a": "a", "b": "b", "cost": 3}],
    }
    data.update(changes)
    return data


def test_from_dict_minimal() -> None:
    m = GameMap.from_dict(_tiny())
    assert m.cities["a"] == City("a", "A", "エー", "red", 1.0, 1.0)
    assert m.areas["red"] == Area("red", "Red", "赤")
    assert m.connection_cost("b", "a") == 3


@pytest.mark.parametrize(
    "changes",
    [
        {"connections": [{"a": "a", "b": "z", "cost": 3}]},
        {"connections": [{"a": "a", "b": "a", "cost": 3}]},
        {"connections": [{"a": "a", "b": "b", "cost": -1}]},
        {"connections": [{"a": "a", "b": "b", "cost": 1}, {"a": "b", "b": "a", "cost": 2}]},
        {"areas": []},
        {"required_areas": ["blue"]},
        {"cities": [{"slug": "a"}]},
    ],
)
def test_from_dict_rejects_bad_data(changes: dict[str, Any]) -> None:
    with pytest.raises(MapDataError):
        GameMap.from_dict(_tiny(**changes))


# --- optional maps -----------------------------------------------------------------------------


def test_france_paris() -> None:
    if "france" not in ALL_MAPS:
        pytest.skip("no France map")
    m = load_map("france")
    paris = {"paris-a", "paris-b", "paris-c"}
    assert paris <= m.cities_in(["blue"])
    for a, b in itertools.combinations(sorted(paris), 2):
        assert m.connection_cost(a, b) == 0
    assert m.required_areas == frozenset({"blue"})
    assert len(m.connections) == 93


def test_italy_counts() -> None:
    if "italy" not in ALL_MAPS:
        pytest.skip("no Italy map")
    m = load_map("italy")
    assert len(m.connections) == 81
    assert m.connection_cost("venezia", "mestre") == 0


# --- reproducibility ------------------------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("slug", ALL_MAPS)
def test_data_file_is_what_the_generator_writes(slug: str) -> None:
    """The committed file equals tools/gen_maps.py's output: nobody hand-edited one side only."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "tools" / "gen_maps.py"
    spec = importlib.util.spec_from_file_location("gen_maps", path)
    assert spec is not None
    assert spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    built = gen.dump(gen.build(slug, reference(slug)))
    committed = (path.parents[1] / "powergrid" / "data" / "maps" / f"{slug}.json").read_text(
        encoding="utf-8"
    )
    assert built == committed
