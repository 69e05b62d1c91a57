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
wall-clock safety cap for production only (``expert`` measured 0.13 s p50, 0.33 s p95 of one
core's CPU time a decision: ``bench/bot_strength.py`` reports CPU and wall time).

The expert **keeps accounts**: every payment in Power Grid is made in the open (plants sold at
their price, resources and cities at their cost, the income of each phase 5), so a player who
reads the move log knows every other player's money although the view hides it
(:func:`powergrid.describe.public_money`; the practice positions take it from there too). The
expert is given those figures (``accounts``) and draws its states with them; the advanced level
estimates the others' money from the view. Given no accounts, the expert estimates too.

``budget_scale`` shrinks or grows the search levels' budgets (the server's ``BOT_BUDGET_SCALE``
setting; the test settings use a small one so a game at the top level is quick).
"""

from __future__ import annotations

from collections.abc import Sequence
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
        seat's money as the public move log tells it (ignored by the other levels)."""
        if self._search is not None:
            return self._search.choose_view(v, seat, accounts if self.level.accounts else None)
        assert self._rule is not None
        return self._rule.choose(public_state(v, seat, edition=self.edition), seat)

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
