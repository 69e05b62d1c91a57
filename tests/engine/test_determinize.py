"""The determinizer builds states a seat could be in from its view alone: every sample shows
the seat exactly the view it was made from, holds every card once, and plays on to an end."""

from __future__ import annotations

import random

from powergrid.determinize import determinize, public_state, unseen_cards
from powergrid.plants import STEP3
from powergrid.search import rollout
from powergrid.state import FINISHED
from powergrid.view import view
from tests.engine.levelhelpers import positions


def test_every_sample_shows_the_seat_its_view():
    checked = 0
    for state, seat in positions(every=9):
        v = view(state, seat)
        for k in range(2):
            sample = determinize(v, seat, random.Random(k))
            assert view(sample, seat) == v
            checked += 1
    assert checked > 300


def test_a_sample_deals_exactly_the_unseen_cards():
    for state, seat in positions(every=23):
        v = view(state, seat)
        sample = determinize(v, seat, random.Random(1))
        dealt = sorted(c for c in (*sample.deck, *sample.setup_removed) if c != STEP3)
        assert dealt == unseen_cards(v)
        # The real game's unseen cards are the same set: nothing else could be there.
        real = sorted(c for c in (*state.deck, *state.setup_removed) if c != STEP3)
        assert dealt == real
        assert len(sample.deck) == len(state.deck)
        assert (STEP3 in sample.deck) == (STEP3 in state.deck)


def test_the_samples_vary_only_in_what_the_seat_cannot_see():
    for state, seat in list(positions(every=31))[:40]:
        v = view(state, seat)
        a = determinize(v, seat, random.Random(1))
        b = determinize(v, seat, random.Random(2))
        assert a.players[seat] == state.players[seat]
        assert a.market == b.market == state.market
        assert a.cities == b.cities == state.cities
        assert a.resources == state.resources


def test_the_public_state_is_a_function_of_the_view():
    for state, seat in list(positions(every=37))[:30]:
        v = view(state, seat)
        assert public_state(v, seat) == public_state(view(state, seat), seat)


def test_samples_play_on_to_the_end():
    for state, seat in list(positions(every=41))[::3]:
        sample = determinize(view(state, seat), seat, random.Random(3))
        assert rollout(sample, {}).phase == FINISHED
