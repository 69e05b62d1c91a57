"""Every action type, described once: its phase, its fields, its handler, and its sentences.

One :class:`ActionType` holds everything the rest of the product needs about a kind of move (as
18xx.games gives each action its own class): :func:`powergrid.apply` dispatches on it; the server
derives from it the API's request schema, the web forms' parsing and the move log's and emails'
sentences. Adding an action type means: an entry here, its handler in ``powergrid/phases/``, and
the translation of its sentences in the catalogue; nothing else.

Sentences are English message ids (:mod:`powergrid.text`); the server translates and fills them.

>>> ACTIONS["bid"].phase, sorted(ACTIONS["bid"].allowed)
('auction', ['amount', 'type'])
>>> [f.name for f in ACTIONS["buy_resources"].fields]
['coal', 'oil', 'garbage', 'uranium']
>>> ACTIONS["build"].said({"cities": []}).text
'%(name)s built nothing.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from powergrid.phases import auction, build, bureaucracy, resources
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES, State
from powergrid.tables import RESOURCES as RESOURCE_NAMES
from powergrid.text import Sentence, gettext_noop

Handler = Callable[[State, int, dict[str, Any]], State]

#: How a field is written, which fixes its JSON shape, its form inputs and its schema:
#: ``int`` a whole number; ``plant`` a plant number; ``count`` a number of tokens (0 if left out);
#: ``tokens`` ``{resource: n}``; ``cities`` a list of city slugs; ``plants`` a list of plant
#: numbers; ``hybrid`` ``{plant: {"coal": n, "oil": m}}``.
FieldKind = Literal["int", "plant", "count", "tokens", "cities", "plants", "hybrid"]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an action: its name, how it is written, and a line for client authors."""

    name: str
    kind: FieldKind
    help: str
    required: bool = True


@dataclass(frozen=True, slots=True)
class ActionType:
    """Everything about one kind of move.

    ``said`` turns the outcome of a move (:func:`powergrid.describe.move_entries`'s parameters)
    into its line in the move log; ``asked`` turns the entry of :func:`powergrid.legal` into what
    a turn email asks of the player."""

    name: str
    phase: str
    summary: str
    fields: tuple[Field, ...]
    handler: Handler
    said: Callable[[Mapping[str, object]], Sentence]
    asked: Callable[[Mapping[str, object]], Sentence]
    #: Its fields are secret until the auction resolves (a sealed bid): the move log shows that
    #: the move was made, never its fields, and the server withholds them until then.
    secret: bool = False
    #: Given in a sealed auction, the move itself is secret until the bids are opened (a pass
    #: there is a sealed answer of no bid): see :func:`sealed_move`.
    sealed_in_sealed_auction: bool = False
    allowed: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed", frozenset({"type", *(f.name for f in self.fields)}))


def _always(sentence: Sentence) -> Callable[[Mapping[str, object]], Sentence]:
    return lambda _params: sentence


_ = gettext_noop

_REGISTRY: tuple[ActionType, ...] = (
    ActionType(
        name="choose_plant",
        phase=AUCTION,
        summary="Phase 2: open an auction for a plant in the current market.",
        fields=(
            Field(
                "plant",
                "plant",
                "The plant's id: its number (100 + its number for a New Power Plants card).",
            ),
            Field("bid", "int", "At least the plant's number."),
        ),
        handler=auction.choose_plant,
        said=_always(Sentence(_("%(name)s put plant %(plant)s up for auction at %(bid)s."))),
        asked=_always(Sentence(_("Choose a power plant to auction (available: %(plants)s)."))),
    ),
    ActionType(
        name="pass_auction",
        phase=AUCTION,
        summary="Phase 2: decline to open an auction this round (not in round 1).",
        fields=(),
        handler=auction.pass_auction,
        said=_always(Sentence(_("%(name)s passed: no plant this round."))),
        asked=_always(Sentence(_("Or pass: buy no plant this round."))),
    ),
    ActionType(
        name="bid",
        phase=AUCTION,
        summary="Phase 2: raise the current auction's bid.",
        fields=(Field("amount", "int", "More than the current high bid."),),
        handler=auction.bid,
        said=_always(Sentence(_("%(name)s bid %(amount)s for plant %(plant)s."))),
        asked=_always(Sentence(_("Bid at least %(min)s Elektro."))),
    ),
    ActionType(
        name="seal_bid",
        phase=AUCTION,
        summary="Phase 2, sealed-bid variant: give one sealed bid (hidden until all are in).",
        fields=(Field("amount", "int", "More than the opening bid, at most your money."),),
        handler=auction.seal_bid,
        said=_always(
            Sentence(_("%(name)s gave a sealed answer for plant %(plant)s (a bid or a pass)."))
        ),
        asked=_always(Sentence(_("Give one sealed bid of at least %(min)s Elektro."))),
        secret=True,
    ),
    ActionType(
        name="pass_bid",
        phase=AUCTION,
        summary="Phase 2: drop out of the current auction.",
        fields=(),
        handler=auction.pass_bid,
        said=_always(Sentence(_("%(name)s dropped out of the auction for plant %(plant)s."))),
        asked=_always(Sentence(_("Or drop out of this auction."))),
        sealed_in_sealed_auction=True,
    ),
    ActionType(
        name="discard_plant",
        phase=AUCTION,
        summary="Right after winning a plant over the limit: discard one.",
        fields=(
            Field("plant", "plant", "The plant to discard, by its id (as choose_plant's)."),
            Field("drop", "tokens", "{resource: n} tokens to drop when they no longer fit.", False),
        ),
        handler=auction.discard_plant,
        said=lambda p: Sentence(
            _("%(name)s discarded plant %(plant)s and returned %(tokens)s.")
            if p.get("tokens")
            else _("%(name)s discarded plant %(plant)s.")
        ),
        asked=_always(Sentence(_("Discard one of your power plants: you have one too many."))),
    ),
    ActionType(
        name="buy_resources",
        phase=RESOURCES,
        summary="Phase 3: buy resources (all zero buys nothing). Omitted resources count 0.",
        fields=tuple(Field(r, "count", f"Tokens of {r} to buy.", False) for r in RESOURCE_NAMES),
        handler=resources.buy_resources,
        said=lambda p: Sentence(
            _("%(name)s bought %(tokens)s for %(cost)s.")
            if p.get("tokens")
            else _("%(name)s bought no resources.")
        ),
        asked=_always(Sentence(_("Buy resources for your power plants."))),
    ),
    ActionType(
        name="build",
        phase=BUILD,
        summary="Phase 4: build in cities, charged at the cheapest allowed order.",
        fields=(Field("cities", "cities", "City slugs."),),
        handler=build.build,
        said=lambda p: Sentence(
            _("%(name)s built in %(cities)s.") if p.get("cities") else _("%(name)s built nothing.")
        ),
        asked=_always(
            Sentence(
                _("Build in cities (%(n)s city is open to you now)."),
                _("Build in cities (%(n)s cities are open to you now)."),
                "n",
            )
        ),
    ),
    ActionType(
        name="power",
        phase=BUREAUCRACY,
        summary="Phase 5: fire plants. Omitting plants fires the best choice.",
        fields=(
            Field("plants", "plants", "Plant numbers to fire; left out: the best choice.", False),
            Field("hybrid", "hybrid", '{plant: {"coal": n, "oil": m}} for hybrid plants.', False),
        ),
        handler=bureaucracy.power,
        said=lambda p: (
            Sentence(_("%(name)s powered %(n)d city."), _("%(name)s powered %(n)d cities."), "n")
            if p.get("final")
            else Sentence(
                _("%(name)s powered %(n)d city and earned %(income)s."),
                _("%(name)s powered %(n)d cities and earned %(income)s."),
                "n",
            )
        ),
        asked=_always(Sentence(_("Choose which power plants to fire to power your cities."))),
    ),
)

#: Action type -> its description, in the order of a round (API.md's table).
ACTIONS: dict[str, ActionType] = {a.name: a for a in _REGISTRY}

#: Every action type, in the order of a round; clients and forms list these.
ACTION_TYPES: tuple[str, ...] = tuple(ACTIONS)

#: How a sealed move (:func:`sealed_move`) shows until its auction's bids are opened: the same
#: for a bid and a pass, so that nobody can tell them apart.
SEALED_SHOWN = "seal_bid"


def sealed_move(action: Mapping[str, object], sealed_auction: bool) -> bool:
    """Whether a move is a **sealed answer**, hidden until its auction's bids are opened: what
    it is (a bid or a pass) and its fields. The one rule every channel that shows moves follows
    (the moves API, the move log's lines, so the game page and the emails, take-backs): a move
    of a secret action (a sealed bid), or a move of an action secret in a sealed auction (a
    pass) made in one (``sealed_auction``: the auction the move was made in is sealed; in the
    sealed-bid variant every auction is). Until then such a move shows as ``SEALED_SHOWN``.

    >>> sealed_move({"type": "seal_bid", "amount": 20}, True)
    True
    >>> sealed_move({"type": "pass_bid"}, True), sealed_move({"type": "pass_bid"}, False)
    (True, False)
    >>> sealed_move({"type": "bid", "amount": 20}, False)
    False
    """
    spec = ACTIONS.get(str(action.get("type")))
    return spec is not None and (spec.secret or (sealed_auction and spec.sealed_in_sealed_auction))


#: Lines of the move log that no action type owns: what a move led to.
EVENTS: dict[str, Sentence] = {
    "sale": Sentence(_("%(name)s bought plant %(plant)s for %(price)s.")),
    #: When the bids of a sealed auction are opened: each bidder's answer (the opener's is known).
    "sealed_bid_opened": Sentence(_("%(name)s's sealed bid for plant %(plant)s: %(amount)s.")),
    "sealed_pass_opened": Sentence(_("%(name)s had passed on plant %(plant)s (no sealed bid).")),
    "step": Sentence(_("Step %(step)s begins.")),
    "round": Sentence(_("Round %(round)s begins.")),
    "finished": Sentence(_("The game is over.")),
}
