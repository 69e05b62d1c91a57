"""Bot levels: the server's computer opponents, weakest first, each deciding from its view.

=========  ===============================================================  ================
level      how it plays                                                     budget/decision
=========  ===============================================================  ================
beginner   legal moves with light preferences (``powergrid.beginner``)      none
heuristic  the heuristic bot (``powergrid.heuristic``), the server's bot    none
advanced   determinised rollouts, few candidates (``powergrid.search``)     24 games, 0.8 s
expert     determinised rollouts, more candidates and draws, keeps accounts     96 games, 1.8 s
=========  ===============================================================  ================

Every level plays through :class:`LevelBot`: ``choose(state, seat)`` takes the seat's
``view`` and decides from it alone (``choose_view``), so a level cannot read what its seat may
not see. The rule-based levels read a state built from the view (``public_state``); the search
levels draw states consistent with it (``powergrid.determinize``). ``tests/engine/test_levels.py``
changes the hidden parts of many real positions and finds every level's move unchanged.

A budget is a count of rollouts (buying resources gets half, ``powergrid.search.PHASE_SHARE``):
the moves depend on the view and the seed, not on how busy the machine is. Its seconds are a
wall-clock safety cap for production only (``expert`` measured 0.09 s p50, 0.23 s p95 of one
core's CPU time a decision: ``bench/bot_strength.py`` reports CPU and wall time).

The expert **keeps accounts**: every payment in Power Grid is made in the open (plants sold at
their price, resources and cities at their cost, the income of each phase 5), so a player who
reads the move log knows every other player's money although the view hides it
(:func:`powergrid.describe.public_money`; the practice positions take it from there too). The
expert is given those figures (``accounts``) and draws its states with them; the advanced level
estimates the others' money from the view. Given no accounts, the expert estimates too.

**A sealed bid is a secret.** In the sealed-bid variant a bid (or a pass) stays hidden until every
bid is in; a deterministic bot's bid would not be: the others know what it sees and could work
its bid out (a practice game from the position would do it in one click). So every level moves
the amount of its sealed bid by a draw of its ``seed`` (:data:`SEAL_SPREAD` each way, within
the legal bounds), and the heuristic level, whose limit is public, bids or passes as its limit
so moved reaches the least bid or not (:func:`sealed_choice`): the server seeds each bot with a
secret of the game, revealed only at its end (``games.deadlines.sweep.bot_seed``), so nothing
public tells the answer. Every other move
is the level's own (the heuristic level's are the heuristic bot's).

``budget_scale`` shrinks or grows the search levels' budgets (the server's ``BOT_BUDGET_SCALE``
setting; the test settings use a small one so a game at the top level is quick).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from powergrid import editions
from powergrid.beginner import BeginnerBot
from powergrid.determinize import ViewLike, public_state
from powergrid.heuristic import HeuristicBot
from powergrid.search import Budget, SearchBot
from powergrid.state import State
from powergrid.text import gettext_noop
from powergrid.view import view

Action = dict[str, Any]


@dataclass(frozen=True)
class Level:
    """One level: its name (the API's and the database's), its label (English message id,
    translated by the server), its place (0 = weakest) and its search budget (None: no
    search)."""

    name: str
    label: str
    bot_label: str
    rank: int
    budget: Budget | None
    wide: bool = True
    #: Reads the others' money from the public log's accounts (see the module) when given.
    accounts: bool = False


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("beginner", gettext_noop("Beginner"), gettext_noop("Beginner bot"), 0, None),
        Level("heuristic", gettext_noop("Heuristic"), gettext_noop("Heuristic bot"), 1, None),
        Level(
            "advanced",
            gettext_noop("Advanced"),
            gettext_noop("Advanced bot"),
            2,
            Budget(24, 0.8),
            wide=False,
        ),
        Level(
            "expert",
            gettext_noop("Expert"),
            gettext_noop("Expert bot"),
            3,
            Budget(96, 1.8),
            accounts=True,
        ),
    )
}
#: The level names, weakest first.
LEVEL_NAMES: tuple[str, ...] = tuple(sorted(LEVELS, key=lambda k: LEVELS[k].rank))
#: The level a creator gets without choosing: the server's bot as it always was.
DEFAULT_LEVEL = "heuristic"
#: The strongest level.
TOP_LEVEL = LEVEL_NAMES[-1]


#: The answers to a sealed auction: a sealed bid, or a pass.
SEALED_ANSWERS = ("seal_bid", "pass_bid")
#: How far, each way, a level's sealed bid is moved from its own amount by its seed's draw.
SEAL_SPREAD = 3


def sealed_amount(v: ViewLike, seat: int, amount: int, seed: int | str) -> int:
    """``amount``, the sealed bid a level chose, moved by a draw of ``seed`` up to
    :data:`SEAL_SPREAD` each way and kept within the bid's legal bounds (more than the opening
    bid, at most the seat's money). The draw depends on the seed and the auction as the view
    shows it, so the same view and seed give the same bid; without the seed it is unknown.

    >>> v = {"round": 2, "auction": {"plant": {"number": 13}, "high_bid": 13},
    ...      "legal": [{"type": "seal_bid", "min": 14, "max": 30}]}
    >>> sealed_amount(v, 1, 20, "a") == sealed_amount(v, 1, 20, "a")
    True
    >>> sorted({sealed_amount(v, 1, 20, s) for s in range(200)})
    [17, 18, 19, 20, 21, 22, 23]
    >>> sorted({sealed_amount(v, 1, 14, s) for s in range(200)})  # never below the least bid
    [14, 15, 16, 17]
    """
    lo, hi = _seal_bounds(v, seat, amount)
    return max(lo, min(hi, amount + _seal_draw(v, seat, seed)))


def sealed_choice(v: ViewLike, seat: int, limit: int, seed: int | str) -> Action:
    """A rule level's sealed answer from the most it would give (``limit``): the limit moved by
    the same draw of ``seed`` as :func:`sealed_amount`, a sealed bid of it (at most the seat's
    money) if it reaches the least bid, else a pass. So whether it bids follows the secret as
    the amount does: near its limit, the same public position gives a bid with one secret and
    a pass with another (a limit compared with the least bid would be public: the heuristic's
    limit is worked out from the view and the public accounts).

    >>> v = {"round": 2, "auction": {"plant": {"number": 13}, "high_bid": 13},
    ...      "legal": [{"type": "seal_bid", "min": 14, "max": 30}]}
    >>> sorted({sealed_choice(v, 1, 15, s)["type"] for s in range(50)})
    ['pass_bid', 'seal_bid']
    >>> sealed_choice(v, 1, 15, "a") == sealed_choice(v, 1, 15, "a")
    True
    """
    lo, hi = _seal_bounds(v, seat, limit)
    moved = limit + _seal_draw(v, seat, seed)
    offered = any(o.get("type") == "seal_bid" for o in v.get("legal") or ())
    if not offered or moved < lo:
        return {"type": "pass_bid"}
    return {"type": "seal_bid", "amount": min(hi, moved)}


def _seal_bounds(v: ViewLike, seat: int, amount: int) -> tuple[int, int]:
    """The least and the most sealed bid the seat may give (from its legal moves)."""
    auction: Mapping[str, Any] = v.get("auction") or {}
    bounds = [o for o in v.get("legal") or () if o.get("type") == "seal_bid"]
    if bounds:
        return int(bounds[0]["min"]), int(bounds[0]["max"])
    return int(auction.get("high_bid", 0)) + 1, max(amount, _own_money(v, seat))


def _seal_draw(v: ViewLike, seat: int, seed: int | str) -> int:
    """The seed's draw for this seat's sealed answer in this auction (-SEAL_SPREAD to
    SEAL_SPREAD): the same view and seed give the same draw."""
    auction: Mapping[str, Any] = v.get("auction") or {}
    plant: Mapping[str, Any] = auction.get("plant") or {}
    key = f"{seed}:seal:{seat}:{v.get('round')}:{plant.get('id', plant.get('number'))}"
    rng = random.Random(f"{key}:{auction.get('high_bid')}:{auction.get('opener')}")
    return rng.randint(-SEAL_SPREAD, SEAL_SPREAD)


def _own_money(v: ViewLike, seat: int) -> int:
    """The seat's own money in its view (0 when the view does not say)."""
    players = v.get("players") or ()
    money = players[seat].get("money") if seat < len(players) else None
    return int(money) if isinstance(money, int) else 0


def below(name: str) -> str | None:
    """The level just under ``name`` (None for the weakest)."""
    rank = LEVELS[name].rank
    return LEVEL_NAMES[rank - 1] if rank > 0 else None


class LevelBot:
    """A bot of one level (see the module); :meth:`choose` fits ``powergrid.bots.Bot``."""

    def __init__(
        self,
        level: str,
        *,
        seed: int | str = 0,
        budget_scale: float = 1.0,
        edition: int = editions.LATEST,
        budget: Budget | None = None,
    ) -> None:
        """``budget`` replaces a search level's own (scaled by ``budget_scale``): tests give
        a count with no wall-clock cap, so the move depends on the view and seed alone."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        self.level = LEVELS[level]
        self.edition = edition
        self.seed = seed
        self._rule: HeuristicBot | BeginnerBot | None = None
        self._search: SearchBot | None = None
        lv = self.level
        if lv.budget is not None:
            self._search = SearchBot(
                budget or lv.budget.scaled(budget_scale), seed=seed, wide=lv.wide, edition=edition
            )
        elif lv.name == "beginner":
            self._rule = BeginnerBot(seed)
        else:
            self._rule = HeuristicBot()

    @property
    def keeps_accounts(self) -> bool:
        """Whether this level reads the public log's accounts (the caller passes them)."""
        return self.level.accounts

    def choose_view(self, v: ViewLike, seat: int, accounts: Sequence[int] | None = None) -> Action:
        """The move for ``seat`` from its view ``v`` and, for a level that keeps accounts, each
        seat's money as the public move log tells it (ignored by the other levels). A sealed
        bid's amount is moved by the seed (:func:`sealed_amount`)."""
        if self._search is not None:
            move = self._search.choose_view(v, seat, accounts if self.level.accounts else None)
        else:
            assert self._rule is not None
            state = public_state(v, seat, edition=self.edition)
            move = self._rule.choose(state, seat)
            if isinstance(self._rule, HeuristicBot) and move.get("type") in SEALED_ANSWERS:
                auction = state.auction
                if auction is not None and auction.sealed is not None and state.discard is None:
                    limit = self._rule.auction_limit(state, seat)
                    return sealed_choice(v, seat, limit, self.seed)
        if move.get("type") == "seal_bid" and type(move.get("amount")) is int:
            move = {**move, "amount": sealed_amount(v, seat, move["amount"], self.seed)}
        return move

    def choose(self, state: State, seat: int, accounts: Sequence[int] | None = None) -> Action:
        """The move for ``seat`` in ``state``: only ``view(state, seat)`` is read (and
        ``accounts``, the public log's, which the caller keeps: never the state's money)."""
        return self.choose_view(view(state, seat), seat, accounts)


def level_bot(
    level: str,
    *,
    seed: int | str = 0,
    budget_scale: float = 1.0,
    edition: int = editions.LATEST,
) -> LevelBot:
    """A bot of ``level`` (a name of :data:`LEVELS`); raises ValueError for another name."""
    return LevelBot(level, seed=seed, budget_scale=budget_scale, edition=edition)
