"""The reference card: the calculator answers without a script, and refuses what is no number."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.reference import reference_card

pytestmark = pytest.mark.django_db


def test_the_calculator_answers_and_refuses_what_is_no_number(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0], query="calc=1&calc_coal=2&calc_cities=22&calc_bid=5")
    card = reference_card(view)
    calc = card["calc"]
    coal = view.state["resource_market"]["coal"]
    assert calc["asked"]
    assert calc.get("res_cost") == coal[0] + coal[1]
    assert calc.get("total") == coal[0] + coal[1] + 27
    assert calc.get("left") == 50 - calc.get("total", 0)
    assert card["income_rows"][0] == ("0", 10)
    html = render_card("reference", view, card)
    assert f"<span data-total>{calc.get('total')}</span>" in html
    bad = reference_card(view_for(game, users[0], query="calc=1&calc_coal=x"))["calc"]
    assert bad.get("problem") == "Please enter whole numbers."
