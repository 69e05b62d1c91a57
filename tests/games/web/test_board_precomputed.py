"""The shipped board layout (games/web/board_precomputed.json) is what the plain way computes.

The fast path must equal the plain one for every map and every language a reader can choose;
when it does not (a map, a city's name or the layout code changed), the failure says how to
regenerate the file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.conf import settings

from games.web import board_precomputed, board_svg
from powergrid.maps import available_maps

REGENERATE = "regenerate with: .venv/bin/python tools/gen_board_layout.py"
LANGUAGES = [code for code, _name in settings.LANGUAGES]


@pytest.mark.parametrize("slug", available_maps())
def test_stored_positions_equal_the_computed_ones(slug):
    assert board_precomputed.positions(slug) == board_svg.compute_positions(slug), REGENERATE


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", available_maps())
def test_stored_labels_equal_the_computed_ones(slug, lang):
    assert board_precomputed.labels(slug, lang) == board_svg.compute_name_labels(slug, lang), (
        REGENERATE
    )


def test_the_file_holds_every_map_and_language_and_nothing_else():
    stored = board_precomputed.stored()
    assert set(stored) == set(available_maps()), REGENERATE
    assert all(set(entry["labels"]) == set(LANGUAGES) for entry in stored.values()), REGENERATE


def test_the_generator_writes_what_the_file_holds():
    sys.path.insert(0, str(Path(settings.BASE_DIR) / "tools"))
    try:
        import gen_board_layout
    finally:
        sys.path.pop(0)
    assert gen_board_layout.compute() == board_precomputed.stored(), REGENERATE


def test_a_map_the_file_lacks_is_computed(monkeypatch):
    monkeypatch.setattr(board_precomputed, "stored", lambda: {})
    board_svg.positions.cache_clear()
    board_svg.name_labels.cache_clear()
    try:
        slug = available_maps()[0]
        assert board_precomputed.labels(slug, "en") is None
        assert board_svg.name_labels(slug, "en") == board_svg.compute_name_labels(slug, "en")
        assert board_svg.positions(slug) == board_svg.compute_positions(slug)
    finally:
        board_svg.positions.cache_clear()
        board_svg.name_labels.cache_clear()
