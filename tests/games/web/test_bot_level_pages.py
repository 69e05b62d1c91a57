"""The bot levels' ratings are findable and the bots' pages say what they are, in the reader's
language: the "Bot levels" page (/bots/) lists every level with its rating and the games that
rated it, linked from the practice form and the "Add a bot" form; a seat's bot's page is named
as the game names it (``games.selectors.names.bot_name``: "Expert bot 2", エキスパートボット 2)
and points to its level's rating; a level's page counts the games that rated it; neither shows
a reliability. A tampered level in the add-bot or practice form is refused in Japanese naming
the field and the levels."""

from __future__ import annotations

import pytest

from powergrid.levels import LEVEL_NAMES, LEVELS
from tests.i18n_helpers import ensure_compiled

pytestmark = pytest.mark.django_db

JA_BOT = {
    "beginner": "初級ボット",
    "heuristic": "ヒューリスティックボット",
    "advanced": "上級ボット",
    "expert": "エキスパートボット",
}


def _rated_game_with(make_user, level):
    """A finished game of a person and a bot of ``level`` (seat 2), rated: the level's first."""
    from games import services
    from games.models import Game
    from games.ratings import game_rate

    person = make_user()
    game = services.game_create(creator=person, map="germany", max_players=2)
    seat = services.game_bot_add(game_id=game.pk, user=person, kind=level)
    game = Game.objects.get(pk=game.pk)
    game.status = Game.Status.FINISHED
    game_rate(game, list(game.seats.select_related("user__profile")))
    return person, game, seat.user


def test_the_bot_levels_page_lists_every_level_with_its_rating(make_user, client):
    from games.ratings import level_identity, level_ratings

    _rated_game_with(make_user, "expert")
    html = client.get("/bots/").content.decode()
    expert = level_ratings()["expert"]
    for level in LEVEL_NAMES:
        assert f"{LEVELS[level].bot_label}<" in html, level
    assert f"/players/{level_identity('expert').username}/" in html
    assert f"<td>{expert.display}</td>" in html
    assert html.count("not rated yet") == len(LEVEL_NAMES) - 1


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_seats_bot_page_names_it_and_points_to_its_level(make_user, client, level):
    from games.ratings import level_identity

    person, _game, bot = _rated_game_with(make_user, level)
    for lang, want in (("en", f"{LEVELS[level].bot_label} 2"), ("ja", f"{JA_BOT[level]} 2")):
        ensure_compiled()
        person.profile.language = lang
        person.profile.save()
        client.force_login(person)
        html = client.get(f"/players/{bot.username}/").content.decode()
        assert f"<h1><bdi>{want}</bdi></h1>" in html, html[:2000]
        assert "Bot (" not in html
        assert f"/players/{level_identity(level).username}/" in html
        assert 'id="rel-h"' not in html  # no reliability for a server bot
        assert "/bots/" in html
    api = client.get(f"/api/v1/players/{bot.username}/", HTTP_ACCEPT_LANGUAGE="en")
    assert api.json()["display_name"] in (f"{LEVELS[level].bot_label} 2", f"{JA_BOT[level]} 2")


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_levels_page_counts_the_games_that_rated_it(make_user, client, level):
    from games.ratings import level_identity

    person, _game, _bot = _rated_game_with(make_user, level)
    _rated_game_with(make_user, level)
    identity = level_identity(level)
    html = client.get(f"/players/{identity.username}/").content.decode()
    assert f"<h1><bdi>{LEVELS[level].bot_label}</bdi></h1>" in html
    assert "After 2 rated games." in html
    assert "Rated by 2 finished games of its bots" in html
    assert "No games yet" not in html
    assert "No turns played yet" not in html
    assert 'id="rel-h"' not in html
    ensure_compiled()
    person.profile.language = "ja"
    person.profile.save()
    client.force_login(person)
    html = client.get(f"/players/{identity.username}/").content.decode()
    assert f"<h1><bdi>{JA_BOT[level]}</bdi></h1>" in html
    assert "Bot (" not in html


def test_the_forms_link_to_the_levels_ratings(make_user, client_for, started_game):
    from games import services

    user = make_user()
    game = services.game_create(creator=user, map="germany", max_players=3)
    assert "/bots/" in client_for(user).get(f"/games/{game.pk}/").content.decode()  # Add a bot
    running, users = started_game(3)
    page = client_for(users[0]).get(f"/games/{running.pk}/").content.decode()
    assert 'name="level"' in page
    assert "/bots/" in page  # the practice form


@pytest.mark.parametrize("form", ["bot", "practice"])
def test_a_tampered_level_is_refused_in_japanese_naming_the_levels(
    make_user, client_for, started_game, form
):
    from accounts.models import Profile
    from games import services

    ensure_compiled()
    if form == "bot":
        user = make_user(language="ja")
        game = services.game_create(creator=user, map="germany", max_players=3)
        url, body = f"/games/{game.pk}/bot/", {"kind": "genius"}
    else:
        game, users = started_game(3)
        user = users[0]
        Profile.objects.filter(user=user).update(language="ja")
        url, body = f"/games/{game.pk}/practice/", {"level": ["genius"]}
    html = client_for(user).post(url, body, follow=True).content.decode()
    assert "入力に誤りがあります" not in html
    assert "ボットの強さは次のいずれかにしてください" in html
    for level in LEVEL_NAMES:
        assert {"beginner": "初級", "heuristic": "ヒューリスティック", "advanced": "上級",
                "expert": "エキスパート"}[level] in html  # fmt: skip


def test_the_level_pages_show_no_english_to_a_japanese_reader(make_user, client):
    from games.ratings import level_identity
    from tests.i18n_helpers import english_words

    ensure_compiled()
    person, _game, bot = _rated_game_with(make_user, "expert")
    person.profile.language = "ja"
    person.profile.save()
    client.force_login(person)
    for url in (
        "/bots/",
        f"/players/{bot.username}/",
        f"/players/{level_identity('expert').username}/",
    ):
        html = client.get(url).content.decode()
        assert 'lang="ja"' in html
        assert english_words(html, set()) == [], (url, english_words(html, set()))
