"""Take-backs in the engine (``powergrid.takeback``): what a move revealed, and replay.

``revealed`` is checked against its definition, not against a list of examples: a move reveals
nothing when changing the hidden parts of the state before it (the deck's order and the plants
removed face down, the seed, the other players' money, the others' sealed bids) changes no
seat's view after it. Every move of games played at random, over the maps' decks and the
variants, is checked that way; and every move it flags is shown to reveal something (some hidden
change shows in some view).

Replay: a take-back entry cancels the latest standing moves, and the state after it is the state
before the first of them, move for move in long random games with take-backs anywhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import powergrid
from powergrid import takeback
from powergrid.errors import IllegalAction
from powergrid.state import Auction, State
from powergrid.verify import commitment, verify
from tests.engine.helpers import random_move

#: (map, players, variant, plant deck, seed): every deck and variant, 2 to 6 players.
GAMES = [
    ("germany", 3, "standard", "base", 1),
    ("usa", 5, "standard", "base", 2),
    ("france", 4, "standard", "new", 3),
    ("italy", 2, "standard", "mixed", 4),
    ("germany", 4, "sealed_bid", "base", 5),
    ("usa", 3, "first_game", "base", 6),
    ("germany", 6, "sealed_bid", "mixed", 7),
]


def _new(map_: str, n: int, variant: str, deck: str, seed: int) -> State:
    return powergrid.new_game(map=map_, players=n, seed=seed, variant=variant, plant_deck=deck)


def hidden_changed(s: State, viewer: int | None, rng: random.Random) -> State:
    """``s`` with every part ``viewer`` cannot see changed at random: the deck and the face-down
    removals rearranged (no view shows them), another seed, more money for each other player,
    and the others' sealed bids (given or passed) changed."""
    pool = [*s.deck, *s.setup_removed]
    rng.shuffle(pool)
    k = len(s.setup_removed)
    players = tuple(
        p if i == viewer else p.replace(money=p.money + rng.randint(1, 40))
        for i, p in enumerate(s.players)
    )
    out = s.replace(
        setup_removed=tuple(pool[:k]),
        deck=tuple(pool[k:]),
        seed=rng.randrange(1 << 40),
        players=players,
    )
    auc = s.auction
    if auc is not None and auc.sealed is not None:
        sealed = list(auc.sealed)
        for i, b in enumerate(sealed):
            if i in (viewer, auc.opener) or b == -1 or i not in auc.bidders:
                continue
            # A pass (0) and a bid look the same to the others until the bids are opened.
            money = players[i].money
            sealed[i] = rng.choice([0, rng.randint(auc.bid + 1, money)]) if money > auc.bid else 0
        out = out.replace(
            auction=Auction(
                auc.plant, auc.bid, auc.high, auc.bidders, auc.turn, auc.opener, tuple(sealed)
            )
        )
    return out


def _viewers(s: State) -> list[int | None]:
    return [None, *range(s.n)]


def _views(s: State) -> list[Any]:
    return [powergrid.view(s, v) for v in _viewers(s)]


def _play(game: tuple[str, int, str, str, int]):
    """Every (before, seat, action, after) of a game played at random to its end."""
    s = _new(*game)
    rng = random.Random(game[-1])
    while s.phase != "finished":
        seat, action = random_move(s, rng)
        after = powergrid.apply(s, seat, action)
        yield s, seat, action, after
        s = after


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_a_move_revealed_nothing_exactly_when_no_hidden_part_shows_after_it(game):
    rng = random.Random(100 + game[-1])
    reasons: dict[str | None, int] = {}
    unconfirmed = []
    for before, seat, action, after in _play(game):
        reason = takeback.revealed(before, after)
        reasons[reason] = reasons.get(reason, 0) + 1
        shown = False
        for viewer in _viewers(before):
            for _ in range(2 if reason is None else 4):
                other = hidden_changed(before, viewer, rng)
                # The change is hidden indeed: the viewer sees the same position before.
                assert powergrid.view(other, viewer) == powergrid.view(before, viewer)
                other_after = powergrid.apply(other, seat, action)
                same = powergrid.view(other_after, viewer) == powergrid.view(after, viewer)
                if reason is None:
                    assert same, (before.round, before.phase, seat, action, viewer)
                shown = shown or not same
        if reason is not None and not shown:
            unconfirmed.append((before.round, before.phase, action, reason, len(before.deck)))
    assert reasons.get(None, 0) > 50
    assert reasons.get(takeback.PLANT_DRAWN, 0) > 5
    assert reasons.get(takeback.GAME_OVER) == 1
    if "sealed" in game[2]:
        assert reasons.get(takeback.SEALED_BIDS_OPENED, 0) > 0
    # Each flagged move did reveal something, but for a draw from a deck holding one card only
    # (nothing to rearrange), which the checks above cannot vary.
    assert [u for u in unconfirmed if u[-1] > 1] == []


def _log_with_takebacks(game: tuple[str, int, str, str, int], rng: random.Random):
    """A random game's log ((seq, seat, action)) with take-backs of 1-3 moves now and then, and
    for each take-back the state the log must then be in (the state before its first move)."""
    initial = s = _new(*game)
    log: list[tuple[int, int, dict[str, Any]]] = []
    stack: list[tuple[int, State]] = []  # standing moves: (seq, state before)
    expected: dict[int, State] = {}
    seq = 0
    while s.phase != "finished" and seq < 1500:
        seq += 1
        if stack and rng.random() < 0.08:
            k = rng.randint(1, min(3, len(stack)))
            cancelled = stack[-k:]
            del stack[-k:]
            log.append((seq, rng.randrange(game[1]), takeback.entry([m[0] for m in cancelled])))
            s = cancelled[0][1]
            expected[seq] = s
            continue
        seat, action = random_move(s, rng)
        stack.append((seq, s))
        log.append((seq, seat, action))
        s = powergrid.apply(s, seat, action)
    return initial, log, expected, s


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{g[2]}-{g[3]}")
def test_the_state_after_a_takeback_is_the_state_before_the_moves_it_cancels(game):
    rng = random.Random(game[-1] * 7)
    initial, log, expected, final = _log_with_takebacks(game, rng)
    assert len(expected) > 5
    r = takeback.Replay(initial)
    for seq, seat, action in log:
        state = r.play(seq, seat, action)
        if seq in expected:
            assert state == expected[seq]
            # The same as replaying the standing moves from the start, cancelled ones skipped.
            assert takeback.replay(initial, [e for e in log if e[0] <= seq]) == state
    assert r.state == final
    assert takeback.replay(initial, log) == final
    assert [m[0] for m in takeback.standing(log)] == r.standing()


def test_a_plant_the_cancelled_move_drew_comes_up_again():
    s = powergrid.new_game(map="germany", players=3, seed=11)
    a, b, c = s.order
    s1 = powergrid.apply(s, a, {"type": "choose_plant", "plant": 4, "bid": 4})
    s2 = powergrid.apply(s1, b, {"type": "pass_bid"})
    s3 = powergrid.apply(s2, c, {"type": "pass_bid"})  # a sells plant 4: the top card is drawn
    drawn = s.deck[0]
    assert drawn in s3.market
    assert takeback.revealed(s2, s3) == takeback.PLANT_DRAWN
    log = [
        (1, a, {"type": "choose_plant", "plant": 4, "bid": 4}),
        (2, b, {"type": "pass_bid"}),
        (3, c, {"type": "pass_bid"}),
        (4, c, takeback.entry([3], accepted_by=[a, b])),
    ]
    back = takeback.replay(s, log)
    assert back == s2
    assert back.deck[0] == drawn
    assert drawn not in back.market
    # Played again, the same card comes up.
    assert powergrid.apply(back, c, {"type": "pass_bid"}) == s3


@pytest.mark.parametrize(
    ("entries", "bad"),
    [
        ([(1, 0, "m"), (2, 1, "m"), (3, 0, {"cancels": [1]})], "not the latest"),
        ([(1, 0, "m"), (2, 1, "m"), (3, 0, {"cancels": [1, 2, 3]})], "more than stand"),
        ([(1, 0, "m"), (2, 0, {"cancels": [1]}), (3, 0, {"cancels": [1]})], "twice"),
        ([(1, 0, "m"), (2, 1, "m"), (3, 0, {"cancels": [2, 1]})], "not in order"),
        ([(1, 0, "m"), (2, 0, {"cancels": []})], "empty"),
        ([(1, 0, "m"), (2, 0, {"cancels": [True]})], "not a number"),
        ([(1, 0, "m"), (2, 0, {"cancels": "1"})], "not a list"),
        ([(1, 0, "m"), (2, 0, {"cancels": [1], "why": "oops"})], "unknown field"),
        ([(1, 0, "m"), (2, 0, {"cancels": [1], "accepted_by": "all"})], "bad seats"),
        ([(1, 0, "m"), (2, 0, {"cancels": [2]})], "itself"),
    ],
)
def test_a_takeback_that_does_not_cancel_the_latest_standing_moves_is_refused(entries, bad):
    s = powergrid.new_game(map="germany", players=2, seed=5)
    first, second = s.order
    moves = [
        {"type": "choose_plant", "plant": 3, "bid": 3},
        {"type": "bid", "amount": 4},
    ]
    log: list[tuple[int, int, dict[str, Any]]] = []
    played = 0
    for seq, _seat, what in entries:
        if what == "m":
            seat = (first, second)[played]
            log.append((seq, seat, moves[played]))
            played += 1
        else:
            log.append((seq, first, {"type": takeback.TAKEBACK, **what}))
    with pytest.raises(IllegalAction) as e1:
        takeback.standing(log)
    with pytest.raises(IllegalAction):
        takeback.replay(s, log)
    r = takeback.Replay(s)
    for seq, seat, action in log[:-1]:
        r.play(seq, seat, action)
    with pytest.raises(IllegalAction) as e2:
        r.play(*log[-1])
    assert e1.value.code == e2.value.code == "invalid_takeback", bad


def test_a_finished_game_with_takebacks_verifies():
    rng = random.Random(3)
    game = ("germany", 3, "standard", "base", 21)
    _initial, log, expected, final = _log_with_takebacks(game, rng)
    assert final.phase == "finished"
    assert expected
    record = {
        "game_id": 9,
        "seed": 21,
        "commitment": commitment(9, 21),
        "map": "germany",
        "players": 3,
        "areas": None,
        "variant": "standard",
        "edition": final.edition,
        "moves": [[seat, action] for _seq, seat, action in log],
        "result": powergrid.view(final)["result"],
    }
    verdict = verify(record)
    assert verdict.ok, verdict.reason
    assert verdict.state == final
    # A take-back that cancels what does not stand makes the record fail, saying where.
    bad = dict(record, moves=[*record["moves"][:3], [0, takeback.entry([2])]])
    assert not verify(bad).ok
