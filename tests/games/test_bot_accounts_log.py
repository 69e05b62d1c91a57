"""The expert keeps accounts (powergrid.levels): the worker hands it every seat's money as the
public move log tells it (``games.log.public_accounts``), which is each player's money, counted
from the first position of the game (the rules' starting money, or a practice position's
figures); the levels below get none and estimate."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.heuristic import HeuristicBot

pytestmark = pytest.mark.django_db


def _game_with(make_player, level: str):
    from games import services
    from games.models import Game, Seat

    p = make_player()
    game = services.game_create(
        creator=p.user, map="germany", max_players=3, options={"auto_start": False}
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
    services.game_bot_add(game_id=game.pk, user=p.user, kind="heuristic")
    services.game_start(game_id=game.pk, user=p.user)
    return p, Game.objects.get(pk=game.pk), Seat.objects.filter(game=game)


def _play(game_id: int, moves: int, *, stop_at_seat: int | None = None):
    """Moves by the heuristic bot for whoever is awaited (the server's system path), until
    ``moves`` were made or ``stop_at_seat`` is awaited; yields the game after each."""
    from games.models import Game
    from games.services.moves import move_apply_system

    h = HeuristicBot()
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        state = powergrid.from_json(game.state_json)
        if state.phase == "finished" or (stop_at_seat is not None and stop_at_seat in game.to_act):
            return
        seat = game.to_act[0]
        move_apply_system(game=game.pk, seat=seat, action=h.choose(state, seat), source="bot",
                          expected_seq=game.seq)  # fmt: skip
        yield Game.objects.get(pk=game_id)


def test_the_public_accounts_are_every_players_money_move_by_move(make_player):
    from games import log

    _p, game, _seats = _game_with(make_player, "heuristic")
    changed = 0
    for g in _play(game.pk, 80):
        money = [pl.money for pl in powergrid.from_json(g.state_json).players]
        assert log.public_accounts(g) == money, g.seq
        changed += money != [50, 50, 50]
    assert changed > 40  # plants, resources and cities were paid for: the check had teeth


def test_a_practice_games_accounts_start_from_its_position(make_player):
    """A practice game begins with the figures of the position (not the starting 50s): its
    accounts count from there."""
    from games import log
    from games.models import Game
    from games.services.practice import practice_create

    p, game, _seats = _game_with(make_player, "heuristic")
    for _ in _play(game.pk, 40):
        pass
    practice = practice_create(user=p.user, game_id=game.pk, level="heuristic")
    practice = Game.objects.get(pk=practice.pk)
    start = [pl.money for pl in powergrid.from_json(practice.state_json).players]
    assert start != [50, 50, 50]
    assert log.public_accounts(practice) == start
    for g in _play(practice.pk, 30):
        assert log.public_accounts(g) == [
            pl.money for pl in powergrid.from_json(g.state_json).players
        ]


@pytest.mark.parametrize(("level", "keeps"), [("expert", True), ("advanced", False)])
def test_the_worker_hands_the_accounts_to_the_expert_only(make_player, monkeypatch, level, keeps):
    from games.deadlines import sweep
    from games.models import Game, Seat
    from powergrid.levels import LevelBot

    _p, game, _seats = _game_with(make_player, level)
    bot_seat = Seat.objects.get(game=game, user__profile__bot_kind=level)
    for _ in _play(game.pk, 60, stop_at_seat=None):
        pass
    for _ in _play(game.pk, 20, stop_at_seat=bot_seat.seat):
        pass
    game = Game.objects.get(pk=game.pk)
    assert bot_seat.seat in game.to_act
    state = powergrid.from_json(game.state_json)
    seen: list[object] = []

    def choose(self, st, seat, accounts=None):
        seen.append(accounts)
        return HeuristicBot().choose(st, seat)

    monkeypatch.setattr(LevelBot, "choose", choose)
    sweep._bot_action(game, state, bot_seat)
    money = [pl.money for pl in state.players]
    assert seen == [tuple(money) if keeps else None] or seen == [money if keeps else None]
