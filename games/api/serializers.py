"""Request validation and the OpenAPI description of every body. Views return plain dicts built by
``games.selectors``; these serializers describe them for the schema and validate what comes in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import powergrid
from games.api.errors import ENGINE_CODES, ERROR_CODES
from games.models import COLOURS, Game, Move
from games.services import lobby
from powergrid.tables import RESOURCES as TABLE_RESOURCES

RESOURCES = list(TABLE_RESOURCES)
ACTION_TYPES = list(powergrid.ACTION_TYPES)


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
    display_name = serializers.CharField(max_length=40, allow_blank=True, required=False)
    timezone = serializers.CharField(
        max_length=64, required=False, help_text="IANA name, e.g. Asia/Tokyo."
    )
    language = serializers.ChoiceField(choices=["en", "ja"], required=False)
    notification_mode = serializers.ChoiceField(
        choices=["every_turn", "digest", "none"], required=False
    )
    reminder_fraction = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    vacation_days_per_year = serializers.IntegerField(read_only=True)
    vacation_days_used = serializers.IntegerField(read_only=True)

    def validate_timezone(self, value: str) -> str:
        import zoneinfo

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


class MapSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name_en = serializers.CharField()
    name_ja = serializers.CharField()
    areas = MapAreaSerializer(many=True)
    required_areas = serializers.ListField(child=serializers.CharField())


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
        choices=list(lobby.VARIANTS),
        default="standard",
        help_text="`first_game`: step 1 only, the game ends when a player connects 7 cities.",
    )
    pause_weekends = serializers.BooleanField(
        default=False,
        help_text="Deadlines do not run on Saturdays and Sundays, in each player's time zone.",
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


class MoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.DictField(help_text="The action as sent (see MoveRequest.action).")
    time = serializers.DateTimeField()
    # The metaclass moves declared fields out of the class, so this does not shadow Field.source.
    source = serializers.ChoiceField(choices=Move.Source.values)  # type: ignore[assignment]


# ---------------------------------------------------------------- actions (request side)
def _action(name: str, doc: str, **fields: Any) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name])}
    attrs.update(fields)
    attrs["__doc__"] = doc
    return type(
        "".join(p.capitalize() for p in name.split("_")) + "ActionSerializer",
        (serializers.Serializer,),
        attrs,
    )


def _res_counts(required: bool = False) -> dict[str, Any]:
    return {
        r: serializers.IntegerField(min_value=0, required=required, default=0) for r in RESOURCES
    }


ACTION_SERIALIZERS = [
    _action(
        "choose_plant",
        "Phase 2: open an auction for a plant in the current market.",
        plant=serializers.IntegerField(help_text="Plant number."),
        bid=serializers.IntegerField(help_text="At least the plant's number."),
    ),
    _action("pass_auction", "Phase 2: decline to open an auction this round (not in round 1)."),
    _action(
        "bid",
        "Phase 2: raise the current auction's bid.",
        amount=serializers.IntegerField(help_text="More than the current high bid."),
    ),
    _action("pass_bid", "Phase 2: drop out of the current auction."),
    _action(
        "discard_plant",
        "Right after winning a plant over the limit: discard one.",
        plant=serializers.IntegerField(),
        drop=serializers.DictField(
            child=serializers.IntegerField(min_value=0),
            required=False,
            help_text="{resource: n} tokens to drop when they no longer fit.",
        ),
    ),
    _action(
        "buy_resources",
        "Phase 3: buy resources (all zero buys nothing). Omitted resources count 0.",
        **_res_counts(),
    ),
    _action(
        "build",
        "Phase 4: build in cities, charged at the cheapest allowed order.",
        cities=serializers.ListField(child=serializers.CharField(), help_text="City slugs."),
    ),
    _action(
        "power",
        "Phase 5: fire plants. Omitting plants fires the best choice.",
        plants=serializers.ListField(child=serializers.IntegerField(), required=False),
        hybrid=serializers.DictField(
            child=serializers.DictField(child=serializers.IntegerField(min_value=0)),
            required=False,
            help_text='{plant: {"coal": n, "oil": m}} for hybrid plants.',
        ),
    ),
]

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
        choices=["coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion"],
        required=False,
    )
    burns = serializers.IntegerField(required=False)
    powers = serializers.IntegerField(required=False)
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
    type = serializers.ChoiceField(choices=ACTION_TYPES)
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
    phase = serializers.ChoiceField(
        choices=["auction", "resources", "build", "bureaucracy", "finished"]
    )
    order = serializers.ListField(child=serializers.IntegerField())
    to_act = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    players = PlayerSerializer(many=True)
    plant_market = PlantMarketSerializer()
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
