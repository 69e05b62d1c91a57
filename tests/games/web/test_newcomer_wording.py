"""Words a newcomer met that said something untrue or unclear: the first calendar address, the
vacation date's range, the home page after the last game ended, the build step with nothing to
pay for, and the create form's silence about practice with bots (issue 23)."""

from __future__ import annotations

import pytest
from webhelpers import actor, advance, fresh

pytestmark = pytest.mark.django_db


def test_the_first_calendar_address_has_no_old_one(make_user, client_for):
    c = client_for(make_user())
    c.post("/accounts/reauthenticate/", {"password": "pw-web-123456"})
    first = c.post("/accounts/profile/calendar/", follow=True).content.decode()
    assert "Your calendar address is ready" in first
    assert "no longer works" not in first
    again = c.post("/accounts/profile/calendar/", follow=True).content.decode()
    assert "the old one no longer works" in again


def test_the_vacation_dates_read_as_a_choice_not_a_booking(make_user, client_for):
    page = client_for(make_user()).get("/accounts/profile/").content.decode()
    assert "Choose any date from" in page
    assert 'id="until-help">From ' not in page


def test_no_game_in_progress_is_not_no_game_yet(started_game, client_for):
    """A player whose only game has ended has played: the home page says nothing is under way."""
    from games.models import Game

    game, users = started_game(3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    page = client_for(users[0]).get("/").content.decode()
    assert "No game in progress" in page
    assert "no game yet" not in page


def test_with_no_city_to_pay_for_the_build_step_offers_build_nothing(started_game, client_for):
    import powergrid
    from games import engine
    from games.models import Game

    game, users = started_game(3)
    game = advance(game, users, "build")
    seat = fresh(game).to_act[0]
    state = powergrid.from_json(fresh(game).state_json)
    players = list(state.players)
    players[seat] = players[seat].replace(money=0)
    Game.objects.filter(pk=game.pk).update(
        state_json=powergrid.to_json(state.replace(players=tuple(players)))
    )
    engine.state_forget(game_id=game.pk)
    card = client_for(actor(game, users)).get(f"/games/{game.pk}/").content.decode()
    form = card[card.index('data-action="build"') :]
    form = form[: form.index("</form>")]
    assert ">Build nothing</button>" in form
    assert "Build the selected cities" not in form
    assert "none selected builds nothing" not in form
    assert 'name="cities"' not in form  # nothing to tick that could be paid for


def test_the_create_form_mentions_practice_with_bots(make_user, client_for):
    page = client_for(make_user()).get("/games/new/").content.decode()
    assert "Practise against bots" in page
    assert "Fill a seat with a bot" in page
