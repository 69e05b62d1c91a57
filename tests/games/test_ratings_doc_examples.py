"""docs/RATINGS.md's examples, each run through THE rule (``games.rating_rule.rating_plan``, and
``games.ratings.timeouts_excused`` for the 24-hour windows), with the sentence of the document it
checks: a change of the rule or of the document that parts them fails here."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from games.rating_rule import Holder, rating_plan

DOC = (Path(__file__).resolve().parents[2] / "docs" / "RATINGS.md").read_text()
ANN, BOB, CY, DEE, SAM, EVE, TOM = 1, 2, 3, 4, 5, 6, 7


def _order(ranks: dict[int, int]) -> list[list[int]]:
    """The rated players best first, ties together (openskill reads ranks so)."""
    out: dict[int, list[int]] = {}
    for user, rank in ranks.items():
        out.setdefault(rank, []).append(user)
    return [sorted(out[r]) for r in sorted(out)]


def _in_doc(sentence: str) -> None:
    assert " ".join(sentence.split()) in " ".join(DOC.split()), sentence


def test_bob_resigns_and_the_bot_takes_his_seat_to_second_place():
    _in_doc(
        "Ann, Bob, Cy; Bob resigns at move 40 of 100, the bot plays his seat to second place; "
        "Ann wins, Cy is third. Rated: Ann 1st, Cy 2nd, Bob last."
    )
    plan = rating_plan(
        total_moves=100,
        places={0: 1, 1: 2, 2: 3},
        holders=[Holder(0, ANN), Holder(1, BOB, to_seq=40, ended="resigned"), Holder(2, CY)],
    )
    assert plan.rated
    assert _order(plan.ranks) == [[ANN], [CY], [BOB]]


def test_dee_seeks_a_substitute_and_sam_wins_with_her_seat():
    _in_doc(
        "Dee seeks a substitute at move 30 of 100; Sam takes the seat and wins. Rated: Sam 1st "
        "(70 % of the moves), Dee last."
    )
    plan = rating_plan(
        total_moves=100,
        places={0: 1, 1: 2, 2: 3},
        holders=[
            Holder(0, DEE, to_seq=30, ended="replaced"),
            Holder(0, SAM, from_seq=30),
            Holder(1, ANN),
            Holder(2, CY),
        ],
    )
    assert plan.rated
    assert _order(plan.ranks) == [[SAM], [ANN], [CY], [DEE]]
    assert plan.left_out == {}


def test_eve_resigns_late_and_tom_is_not_rated():
    _in_doc(
        "Eve resigns at move 80; Tom takes her seat: Eve last, Tom not rated (20 % of the moves)."
    )
    plan = rating_plan(
        total_moves=100,
        places={0: 1, 1: 2, 2: 3},
        holders=[
            Holder(0, EVE, to_seq=80, ended="resigned"),
            Holder(0, TOM, from_seq=80),
            Holder(1, ANN),
            Holder(2, CY),
        ],
    )
    assert _order(plan.ranks) == [[ANN], [CY], [EVE]]
    assert plan.left_out == {TOM: "short_tenure"}


def test_exactly_half_the_game_is_enough():
    """ "less than half of the game's moves": a substitute from move 50 of 100 is rated."""
    _in_doc("having held the seat for **less than half of the game's moves**")
    plan = rating_plan(
        total_moves=100,
        places={0: 1, 1: 2},
        holders=[
            Holder(0, EVE, to_seq=50, ended="resigned"),
            Holder(0, TOM, from_seq=50),
            Holder(1, ANN),
        ],
    )
    assert TOM in plan.ranks
    plan = rating_plan(
        total_moves=100,
        places={0: 1, 1: 2},
        holders=[
            Holder(0, EVE, to_seq=51, ended="resigned"),
            Holder(0, TOM, from_seq=51),
            Holder(1, ANN),
        ],
    )
    assert plan.left_out == {TOM: "short_tenure"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("hours", "excused"),
    [
        ((0, 5, 30), {1}),  # Vic: 09:00, 14:00 and the next day 15:00
        ((0, 20, 40, 60), {1, 3}),  # every 20 hours: still loses each day
    ],
)
def test_the_24_hour_windows(new_game, hours, excused):
    from django.utils import timezone

    from games import ratings
    from games.models import Game, Tenure

    _in_doc(
        "Vic's seats go to the bot in three games at 09:00, 14:00 and, the next day, 15:00: he is "
        "ranked last in the first and third games and not rated in the second"
    )
    _in_doc("a player who drops out every 20 hours still loses each day")
    start = timezone.now() - timedelta(days=5)
    gids = []
    vic = None
    for h in hours:
        gid, ps = new_game(players=2)
        vic = vic or ps[0].user
        Tenure.objects.create(
            game=Game.objects.get(pk=gid),
            seat=0,
            user=vic,
            from_seq=0,
            timed_out_at=start + timedelta(hours=h),
        )
        gids.append(gid)
    assert ratings.timeouts_excused(vic.pk) == {gids[i] for i in excused}
