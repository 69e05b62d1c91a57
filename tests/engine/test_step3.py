"""The Step 3 card in phase 2, 4 and 5; step 2 and 3 in one round; an exhausted deck."""

from __future__ import annotations

import powergrid
from powergrid.plants import STEP3
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES
from tests.engine.helpers import at_phase, check_invariants, make_state, with_player

AREAS = ("cyan", "green", "red", "yellow")


def card_next(s, phase, step=2, order=(0, 1, 2, 3)):
    """Put the Step 3 card on top of the deck."""
    s = at_phase(s, phase, order=order, step=step)
    s = s.replace(deck=(STEP3, *[x for x in s.deck if x != STEP3]))
    return s


def test_drawn_in_phase_2_it_waits_at_the_end_of_the_market():
    s = card_next(make_state(4, areas=AREAS), AUCTION)
    s = s.replace(done=(False, True, True, True), bought_any=True)
    s = with_player(s, 1, plants=(20,))
    plant = s.market[0]
    deck_before = sorted(s.deck[1:])
    # Seat 0 buys alone; the card is drawn as the replacement.
    mid = s.replace(done=(False, False, True, True))
    mid = powergrid.apply(mid, 0, {"type": "choose_plant", "plant": plant})
    mid = powergrid.apply(mid, 1, {"type": "pass_bid"})
    assert mid.market[-1] == STEP3
    assert len(mid.market) == 8
    assert powergrid.view(mid, 0)["plant_market"]["future"][-1] == {"step3": True}
    assert sorted(mid.deck) == deck_before  # the rest of the deck was shuffled, not lost
    assert mid.step == 2
    assert mid.phase == AUCTION
    lowest = mid.market[0]
    mid = powergrid.apply(mid, 1, {"type": "pass_auction"})
    # End of phase 2: the card and the lowest plant leave, no replacement; step 3 from phase 3.
    assert mid.phase == RESOURCES
    assert mid.step == 3
    assert STEP3 in mid.removed
    assert lowest in mid.removed
    assert len(mid.market) == 6
    check_invariants(mid)


def test_drawn_in_phase_4_step_3_begins_with_phase_5():
    s = card_next(make_state(4, areas=AREAS), BUILD, step=2)
    s = with_player(s, 3, cities=["essen", "duisburg"], money=100)
    s = s.replace(market=(3, *s.market[1:]))
    # Seat 3 builds its third city: plant 3 falls under the count and the card is drawn.
    s = powergrid.apply(s, 3, {"type": "build", "cities": ["duesseldorf"]})
    assert 3 in s.removed
    assert STEP3 in s.removed
    assert len(s.market) == 6
    assert s.step == 2
    assert s.step3_next
    for seat in (2, 1, 0):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    assert s.phase == BUREAUCRACY
    assert s.step == 3
    check_invariants(s)


def test_drawn_in_phase_5_step_3_begins_at_once():
    s = card_next(make_state(4, areas=AREAS), BUREAUCRACY, step=2)
    highest = s.market[-1]
    for seat in range(4):
        s = powergrid.apply(s, seat, {"type": "power"})
    assert s.step == 3
    assert STEP3 in s.removed
    assert len(s.market) == 6
    assert highest in s.deck  # it went under the deck before the card was drawn (and shuffled)
    check_invariants(s)


def test_step_2_and_step_3_in_the_same_round():
    """A 7th city starts step 2 after phase 4; its replacement draw is the Step 3 card."""
    s = card_next(make_state(4, areas=AREAS), BUILD, step=1, order=(1, 2, 3, 0))
    s = with_player(
        s,
        0,
        cities=["essen", "duisburg", "duesseldorf", "dortmund", "muenster", "koeln"],
        money=100,
    )
    # Keep the market above 7 (so the 7th city removes nothing) and the card on top.
    market = (8, 9, 10, 11, 12, 14, 15, 16)
    s = s.replace(
        removed=(*s.removed, *[x for x in s.market if x not in market]),
        deck=(STEP3, *[x for x in s.deck if x not in (STEP3, *market)]),
        market=market,
    )
    s = powergrid.apply(s, 0, {"type": "build", "cities": ["aachen"]})
    assert s.step == 1
    assert s.deck[0] == STEP3
    for seat in (3, 2, 1):
        s = powergrid.apply(s, seat, {"type": "build", "cities": []})
    assert s.phase == BUREAUCRACY
    assert s.step == 3  # step 2 began, its draw brought the card: step 3 with phase 5
    assert STEP3 in s.removed
    assert len(s.market) == 6
    check_invariants(s)


def test_an_exhausted_deck_in_step_3_only_removes():
    s = at_phase(make_state(4, areas=AREAS), BUREAUCRACY, step=3)
    s = s.replace(removed=(*s.removed, *s.deck, *s.market[6:]), deck=(), market=s.market[:6])
    for seat in range(4):
        s = powergrid.apply(s, seat, {"type": "power"})
    assert len(s.market) == 5
    check_invariants(s)
    # An auction purchase cannot refill either.
    seat = s.order[0]
    s = powergrid.apply(s, seat, {"type": "choose_plant", "plant": s.market[-1]})
    assert len(s.market) == 5 or s.auction is not None
