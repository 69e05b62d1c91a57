"""Request validation and the OpenAPI description of every body. Views return plain dicts built by
``games.selectors``; these serializers describe them for the schema and validate what comes in."""

from __future__ import annotations

import zoneinfo
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from accounts.models import POSES_AS_ANOTHER, Profile, validate_display_name
from games.api.errors import ENGINE_CODES, ERROR_CODES
from games.models import Game, Move
from games.services import lobby
from powergrid.actions import ACTION_TYPES, ACTIONS, ActionType, Field
from powergrid.plants import FUELS
from powergrid.state import PHASES, PLANT_DECKS, VARIANTS
from powergrid.tables import COLOURS


# ---------------------------------------------------------------- errors
class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=sorted(set(ERROR_CODES) | set(ENGINE_CODES)),
        help_text="Machine-readable reason. "
        + " ".join(f"`{c}` {d}" for c, d in ERROR_CODES.items())
        + " Engine refusals (400): "
        + ", ".join(f"`{c}`" for c in ENGINE_CODES)
        + ".",
    )
    message = serializers.CharField(help_text="A sentence for humans.")
    details = serializers.DictField(
        help_text="Code-specific data, e.g. {field} for invalid_field, {seq} for stale_state, "
        "{retry_after} for throttled."
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


# ---------------------------------------------------------------- auth and me
class TokenCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`. Shown once.")
    expiry = serializers.DateTimeField(allow_null=True, help_text="null: valid until revoked.")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    email = serializers.EmailField(read_only=True)
    display_name = serializers.CharField(
        max_length=40, allow_blank=True, required=False, validators=[validate_display_name]
    )
    timezone = serializers.CharField(
        max_length=64, required=False, help_text="IANA name, e.g. Asia/Tokyo."
    )
    language = serializers.ChoiceField(choices=["en", "ja"], required=False)
    notification_mode = serializers.ChoiceField(
        choices=["every_turn", "digest", "none"], required=False
    )
    reminder_fraction = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    invitations = serializers.ChoiceField(
        choices=["anyone", "played_with", "nobody"],
        required=False,
        help_text="Who may invite you to a game by username: anyone, only players you have "
        "played a game with, or nobody (each invitation is an email to you).",
    )
    vacation_days_per_year = serializers.IntegerField(read_only=True)
    vacation_days_used = serializers.IntegerField(read_only=True)
    bot_account = serializers.BooleanField(
        read_only=True, help_text="A third party's bot (POST /api/v1/me/bot/ makes one)."
    )

    def validate_display_name(self, value: str) -> str:
        user = self.context.get("user")
        if value and Profile.name_poses_as_another(value, getattr(user, "pk", None)):
            raise serializers.ValidationError(str(POSES_AS_ANOTHER))
        return value

    def validate_notification_mode(self, value: str) -> str:
        profile = getattr(self.context.get("user"), "profile", None)
        if profile is not None and value not in profile.notification_modes():
            raise serializers.ValidationError("A bot account gets no emails: its mode is none.")
        return value

    def validate_timezone(self, value: str) -> str:
        if value not in zoneinfo.available_timezones():
            raise serializers.ValidationError("Unknown IANA time zone.")
        return value


# ---------------------------------------------------------------- maps
class MapAreaSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name_en = serializers.CharField()
    name_ja = serializers.CharField()


class MapCitySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name_en = serializers.CharField()
    name_ja = serializers.CharField()
    area = serializers.CharField()
    x = serializers.FloatField()
    y = serializers.FloatField()


class MapConnectionSerializer(serializers.Serializer):
    a = serializers.CharField()
    b = serializers.CharField()
    cost = serializers.IntegerField()


class ViewboxSerializer(serializers.Serializer):
    width = serializers.FloatField()
    height = serializers.FloatField()


class MapRulesSerializer(serializers.Serializer):
    """What differs from the base game's set-up on this map (France, Italy: seed 002)."""

    starting_market = serializers.DictField(
        child=serializers.IntegerField(), help_text="Tokens in each resource market at the start."
    )
    cheapest_price = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The price of the cheapest token of each resource at the start.",
    )
    top_plant = serializers.IntegerField(help_text="The plant on top of the deck (13 usually).")
    removed_plants = serializers.ListField(
        child=serializers.IntegerField(), help_text="Plants out of the game on this map."
    )
    required_areas = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField(), help_text="The rules in words.")


class MapSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name_en = serializers.CharField()
    name_ja = serializers.CharField()
    areas = MapAreaSerializer(many=True)
    required_areas = serializers.ListField(child=serializers.CharField())
    rules = MapRulesSerializer()


class MapSerializer(MapSummarySerializer):
    viewbox = ViewboxSerializer(help_text="The drawing area city coordinates live in (y down).")
    cities = MapCitySerializer(many=True)
    connections = MapConnectionSerializer(many=True)


# ---------------------------------------------------------------- games
class GameOptionsSerializer(serializers.Serializer):
    """The bounds come from ``games.services.lobby``, which enforces them for every caller."""

    turn_hours = serializers.IntegerField(
        min_value=lobby.TURN_HOURS_MIN,
        max_value=lobby.TURN_HOURS_MAX,
        default=24,
        help_text="Hours each player has for a move: 12 (half a day) to 168 (7 days).",
    )
    variant = serializers.ChoiceField(
        choices=list(VARIANTS),
        default="standard",
        help_text="`first_game`: step 1 only, the game ends when a player connects 7 cities. "
        "`sealed_bid`: every bidder gives one sealed bid at once for each plant put up.",
    )
    plant_deck = serializers.ChoiceField(
        choices=list(PLANT_DECKS),
        default="base",
        help_text="The power plant deck (New Power Plants expansion). `base`: the base game's. "
        "`new` (variant 1): the new deck alone, plants 1-8 start the market, 11 on top (out of "
        "the game on the France map). `mixed` (variant 2): both decks; of each number only the "
        "second card drawn plays, the first leaves the game face up. A new-deck card has the id "
        "100 + its number: actions name plants by id.",
    )
    pause_weekends = serializers.BooleanField(
        default=False,
        help_text="Deadlines do not run on Saturdays and Sundays, in each player's time zone.",
    )
    auto_start = serializers.BooleanField(
        default=True,
        help_text="Start the game by itself when its last seat fills (false: the creator "
        "starts it). Every player gets the game-started email either way.",
    )
    chat_public = serializers.BooleanField(
        default=False, help_text="Whether people who do not play may read the game's chat."
    )
    private = serializers.BooleanField(
        default=False,
        help_text="By invitation only: not listed; joined with the creator's private link "
        "(`invite_url`, `code` in the join call) or by an invitation "
        "(`POST /api/v1/games/{id}/invitations/`).",
    )
    min_on_time = serializers.IntegerField(
        min_value=0,
        max_value=100,
        default=0,
        help_text="Only players with at least this percentage of their recent turns in time "
        "may join (0: anyone; a player with no record yet may join). 403 `below_reliability`.",
    )
    timeouts_before_bot = serializers.IntegerField(
        min_value=0,
        max_value=lobby.TIMEOUTS_BEFORE_BOT_MAX,
        default=3,
        help_text="Timeouts in a row after which a bot plays the seat (0: never).",
    )

    def to_internal_value(self, data: Any) -> Any:
        # A misspelt option must not be dropped silently: the creator would get a default.
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {unknown[0]: [f"Unknown option; known: {', '.join(self.fields)}."]}
                )
        return super().to_internal_value(data)


class GameCreateSerializer(serializers.Serializer):
    map = serializers.CharField(max_length=32, help_text="A map slug from /api/v1/maps/.")
    areas = serializers.ListField(
        child=serializers.CharField(max_length=32),
        allow_null=True,
        required=False,
        default=None,
        max_length=6,
        help_text="Area slugs in play, or null (default) to draw connected areas at random "
        "when the game starts.",
    )
    max_players = serializers.IntegerField(
        min_value=lobby.PLAYERS_MIN, max_value=lobby.PLAYERS_MAX, default=4
    )
    options = GameOptionsSerializer(required=False)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    colour = serializers.ChoiceField(choices=COLOURS)
    bot_controlled = serializers.BooleanField(help_text="A bot plays this seat after timeouts.")


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    map = serializers.CharField()
    areas = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="null until start when random."
    )
    max_players = serializers.IntegerField()
    options = GameOptionsSerializer()
    creator = serializers.CharField(help_text="Username of the creator (who may start it).")
    seats = SeatSerializer(many=True)
    seq = serializers.IntegerField(help_text="Number of moves made; send it as expected_seq.")
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="Awaited seats.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="Earliest deadline of the awaited seats (UTC)."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seed_commitment = serializers.CharField(
        allow_null=True,
        help_text='SHA-256 (hex) of "<game id>:<seed>", published from the start (null while '
        "open): the deck and first player order follow from the seed, which stays secret.",
    )
    seed = serializers.IntegerField(
        allow_null=True, help_text="The seed, revealed when the game is over (null until then)."
    )
    invite_url = serializers.CharField(
        required=False,
        help_text="The private invitation link: to the creator only, while the game is open.",
    )


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(
        required=False, allow_blank=True, help_text="A private game's code (its invitation link's)."
    )


class InvitationSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="The invited player's username.")


class GameRecordSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    map = serializers.CharField()
    players = serializers.IntegerField()
    areas = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="null: drawn from the seed."
    )
    variant = serializers.ChoiceField(choices=list(VARIANTS))
    plant_deck = serializers.ChoiceField(choices=list(PLANT_DECKS))
    seed = serializers.IntegerField()
    commitment = serializers.CharField()
    moves = serializers.ListField(
        child=serializers.JSONField(), help_text="[seat, action] in the order played."
    )
    result = serializers.JSONField(help_text="The final results, as the state's result.")


class MoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.DictField(help_text="The action as sent (see MoveRequest.action).")
    time = serializers.DateTimeField()
    # The metaclass moves declared fields out of the class, so this does not shadow Field.source.
    source = serializers.ChoiceField(choices=Move.Source.values)  # type: ignore[assignment]


# ---------------------------------------------------------------- actions (request side)
def _field(f: Field) -> serializers.Field:
    """The request schema of one action field, from how the engine says it is written."""
    opt: dict[str, Any] = {"help_text": f.help, "required": f.required}
    if f.kind in ("int", "plant"):
        return serializers.IntegerField(**opt)
    if f.kind == "count":
        return serializers.IntegerField(min_value=0, default=0, **{**opt, "required": False})
    if f.kind == "tokens":
        return serializers.DictField(child=serializers.IntegerField(min_value=0), **opt)
    if f.kind == "cities":
        return serializers.ListField(child=serializers.CharField(), **opt)
    if f.kind == "plants":
        return serializers.ListField(child=serializers.IntegerField(), **opt)
    return serializers.DictField(  # hybrid
        child=serializers.DictField(child=serializers.IntegerField(min_value=0)), **opt
    )


def _action_serializer(spec: ActionType) -> type[serializers.Serializer]:
    """One action type's request body, derived from the engine's registry."""
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[spec.name])}
    attrs.update({f.name: _field(f) for f in spec.fields})
    attrs["__doc__"] = spec.summary
    return type(
        "".join(p.capitalize() for p in spec.name.split("_")) + "ActionSerializer",
        (serializers.Serializer,),
        attrs,
    )


ACTION_SERIALIZERS = [_action_serializer(spec) for spec in ACTIONS.values()]

ACTION_SCHEMA = PolymorphicProxySerializer(
    component_name="Action",
    serializers=dict(zip(ACTION_TYPES, ACTION_SERIALIZERS, strict=True)),
    resource_type_field_name="type",
)


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """Any JSON object; the engine validates it and answers with its error codes."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError("Must be a JSON object with a `type`.")
        return data


class MoveSubmitSerializer(serializers.Serializer):
    action = ActionField(help_text="One action, `type` first (shared/API.md).")
    expected_seq = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The game's seq you based the move on; 409 stale_state if the game moved on.",
    )


# ---------------------------------------------------------------- the state (response side)
class PlantSerializer(serializers.Serializer):
    number = serializers.IntegerField(required=False)
    fuel = serializers.ChoiceField(
        choices=list(FUELS),
        required=False,
    )
    burns = serializers.IntegerField(required=False)
    powers = serializers.IntegerField(required=False)
    id = serializers.IntegerField(
        required=False,
        help_text="New Power Plants cards only: 100 + number, what actions name (a base card's "
        "id is its number).",
    )
    deck = serializers.ChoiceField(
        choices=["new"], required=False, help_text="New Power Plants cards only: `new`."
    )
    stored = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Own plants only."
    )
    step3 = serializers.BooleanField(required=False, help_text="The Step 3 card in the market.")


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="Display name.")
    username = serializers.CharField()
    colour = serializers.CharField()
    money = serializers.IntegerField(allow_null=True, help_text="Yours only; null for others.")
    cities = serializers.JSONField(help_text="The player's cities (count or slugs, see engine).")
    plants = PlantSerializer(many=True)
    resources = serializers.DictField(child=serializers.IntegerField())


class PlantMarketSerializer(serializers.Serializer):
    current = PlantSerializer(many=True)
    future = PlantSerializer(many=True)


class AuctionSerializer(serializers.Serializer):
    plant = PlantSerializer()
    high_bid = serializers.IntegerField()
    high_bidder = serializers.IntegerField()
    bidders = serializers.ListField(child=serializers.IntegerField())


class LegalEntrySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(ACTION_TYPES))
    plants = serializers.JSONField(
        required=False,
        help_text="choose_plant: [{number, min_bid}]; discard_plant/power: plant numbers.",
    )
    max_bid = serializers.IntegerField(required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.JSONField(
        required=False, help_text="bid: int; buy_resources: {resource: max tokens}."
    )
    prices = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False
    )
    cities = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="build: {city: cost alone}."
    )
    max_cities = serializers.IntegerField(required=False)


class StateSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The game id.")
    seq = serializers.IntegerField(help_text="Moves so far: send as expected_seq.")
    seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat, null if none.")
    round = serializers.IntegerField()
    step = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=list(PHASES))
    order = serializers.ListField(child=serializers.IntegerField())
    to_act = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    players = PlayerSerializer(many=True)
    plant_market = PlantMarketSerializer()
    plant_deck = serializers.ChoiceField(
        choices=list(PLANT_DECKS),
        required=False,
        help_text="Only with a New Power Plants deck: `new` or `mixed` (absent: the base deck).",
    )
    deck_size = serializers.IntegerField()
    resource_market = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Per resource, prices of the tokens present, cheapest first.",
    )
    auction = AuctionSerializer(allow_null=True)
    cities = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Every city in play to the seats in it, in build-space order.",
    )
    legal = LegalEntrySerializer(many=True, help_text="What the caller may send now.")
    result = serializers.JSONField(
        required=False, allow_null=True, help_text="At the end: cities powered, money, rank."
    )


class PaginatedGamesSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSerializer(many=True)


# ---------------------------------------------------------------- plans
class PlanSerializer(serializers.Serializer):
    """One of the caller's plans (games.plans). Fields by kind; see docs/API.md, Plans."""

    kind = serializers.ChoiceField(
        choices=["proxy_bid", "auto_pass", "pass_when_nothing", "buy", "build", "power"]
    )
    plant = serializers.IntegerField(required=False, help_text="proxy_bid: a plant of the market.")
    max = serializers.IntegerField(
        required=False, help_text="proxy_bid: the most you will pay (at least the plant's number)."
    )
    discard = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="proxy_bid, optional: one of your plants to give up if winning this one is one "
        "plant too many (its tokens move to the plants you keep where they fit). Absent or null: "
        "you are asked when it happens.",
    )
    round = serializers.IntegerField(
        required=False,
        help_text="In answers, for auto_pass, buy, build and power: the round it is for (set by "
        "the server, ignored in a request: this round while its phase has not passed, else the "
        "next).",
    )
    amounts = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text='buy: tokens wanted per resource, e.g. {"coal": 2, "oil": 1}.',
    )
    max_price = serializers.IntegerField(
        required=False, help_text="buy: buy a token only if it costs at most this."
    )
    cities = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="build: city slugs, built in the cheapest order.",
    )
    max_total = serializers.IntegerField(
        required=False, help_text="build: build only if all of them cost at most this in total."
    )


class PlanListSerializer(serializers.Serializer):
    plans = PlanSerializer(many=True)


class PlanSetSerializer(serializers.Serializer):
    plan = PlanSerializer()
    moves_made = serializers.IntegerField(
        help_text="Moves the plans made at once (0 when it waits for its turn)."
    )
    seq = serializers.IntegerField(help_text="The game's seq after them.")


# ---------------------------------------------------------------- forecast
class SeatPaceSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    median_reply_hours = serializers.FloatField(
        allow_null=True,
        help_text=(
            "Median time from when the game awaited this seat to its own move (in a "
            "simultaneous phase, from when the phase asked everyone)."
        ),
    )
    waited_hours = serializers.FloatField(help_text="Hours the game waited on it, recent moves.")
    replies = serializers.IntegerField(help_text="Moves of its own counted (at most 20).")


class ForecastSerializer(serializers.Serializer):
    rounds_left = serializers.IntegerField()
    waits_left = serializers.IntegerField(help_text="Times the game will wait for a person.")
    hours_per_wait = serializers.FloatField()
    finish = serializers.DateTimeField(help_text="Expected end (a rough guide).")
    bottleneck = serializers.IntegerField(
        allow_null=True, help_text="The seat the game waits on most (null: too early to say)."
    )
    seats = SeatPaceSerializer(many=True)


# ---------------------------------------------------------------- webhooks
class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.CharField(help_text="https:// only (no private addresses).")
    format = serializers.ChoiceField(choices=["generic", "discord", "slack"], default="generic")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=["your_turn", "game_started", "game_over"]),
        required=False,
        help_text="Default: all three.",
    )
    game = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="A game of yours: every turn of that game (for a group's chat). Null: your "
        "own turns and your games' start and end.",
    )
    active = serializers.BooleanField(read_only=True)
    failures_in_row = serializers.IntegerField(read_only=True)
    disabled_reason = serializers.CharField(read_only=True)
    secret = serializers.CharField(
        read_only=True,
        help_text="generic format: verify X-PowerGrid-Signature = sha256=HMAC-SHA256(secret, "
        '"<X-PowerGrid-Timestamp>.<body>").',
    )


# ---------------------------------------------------------------- chat
class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    author = serializers.CharField(read_only=True, help_text="The author's display name.")
    seat = serializers.IntegerField(read_only=True, allow_null=True)
    text = serializers.CharField(max_length=1000, help_text="Plain text (never HTML).")
    time = serializers.DateTimeField(read_only=True)
    edited = serializers.BooleanField(read_only=True)
