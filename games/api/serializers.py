"""Request validation and the OpenAPI description of every request body. What the API answers is
declared once as TypedDicts in ``games.shapes`` (the schema's response components are generated
from them by ``games.api.openapi``); these serializers validate and describe what comes in."""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from accounts.models import POSES_AS_ANOTHER, Profile, validate_display_name
from games import numbers
from games.services import lobby
from games.services.errors import ServiceError
from games.webhooks.events import EVENTS as WEBHOOK_EVENTS
from powergrid.actions import ACTION_TYPES, ACTIONS, ActionType, Field
from powergrid.fields import MAX_NUMBER, PLANT_MAX, PLANT_MIN
from powergrid.levels import DEFAULT_LEVEL, LEVEL_NAMES
from powergrid.state import PLANT_DECKS, VARIANTS

if TYPE_CHECKING:
    from rest_framework.exceptions import _APIExceptionInput


class WholeNumberField(serializers.IntegerField):
    """An integer field that takes a JSON integer only, through ``games.numbers`` (DRF's own
    reads ``"13"``, ``" 13"``, ``"13.0"``, ``"٣"`` and ``true`` as numbers), bounded by its
    ``min_value``/``max_value`` (else 0 to 2^31 - 1, or from -(2^31 - 1) when ``min_value`` is
    negative)."""

    def __init__(self, **kwargs: Any) -> None:
        if not kwargs.get("read_only"):  # the bounds in the schema too
            kwargs.setdefault("min_value", 0)
            kwargs.setdefault("max_value", numbers.INT32_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data: object) -> int:
        low = self.min_value if self.min_value is not None else 0
        high = self.max_value if self.max_value is not None else numbers.INT32_MAX
        try:
            return numbers.from_json(data, field=self.field_name or "value", low=low, high=high)
        except numbers.BadNumber as exc:
            raise serializers.ValidationError(exc.message, code="invalid") from None


class DecimalNumberField(serializers.FloatField):
    """A number field that takes a JSON number only, through ``games.numbers`` (DRF's own
    ``FloatField`` reads ``true``, ``"0.5"``, ``"０.５"``, digits of other scripts and
    ``"nan"``), bounded by its ``min_value``/``max_value`` (both required: every number has
    its bounds). Every request body's non-integer number is one."""

    def __init__(self, *, min_value: float, max_value: float, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: object) -> float:
        low, high = float(self.min_value or 0.0), float(self.max_value or 0.0)
        try:
            return numbers.decimal_from_json(
                data, field=self.field_name or "value", low=low, high=high
            )
        except numbers.BadDecimal as exc:
            raise serializers.ValidationError(exc.message, code="invalid") from None


class StrictBooleanField(serializers.BooleanField):
    """A boolean field that takes JSON ``true`` or ``false`` only: DRF's own reads ``"yes"``,
    ``"true"``, ``"on"``, ``"1"``, ``1`` (and their opposites) as booleans, which the schema's
    ``type: boolean`` does not promise. Every request body's boolean is one."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if data is None and not self.allow_null:  # not DRF's "may not be null": the same words
            self.to_internal_value(data)
        return super().run_validation(data)

    def to_internal_value(self, data: object) -> bool:
        if isinstance(data, bool):
            return data
        raise serializers.ValidationError(
            f"{self.field_name or 'value'} must be true or false.", code="invalid"
        )


class StrictCharField(serializers.CharField):
    """A string field that takes a JSON string only: DRF's own turns a number into its digits
    (``{"name": 5}`` made a tournament called "5"), which the schema's ``type: string`` does
    not promise. Every request body's string is one (``tests/games/test_strict_strings.py``
    walks them).

    >>> StrictCharField().run_validation("Spring cup")
    'Spring cup'
    """

    def to_internal_value(self, data: object) -> str:
        if isinstance(data, str):
            return str(super().to_internal_value(data))
        parent = getattr(self, "parent", None)  # a list's item is named by its list
        name = self.field_name or getattr(parent, "field_name", "") or "value"
        raise serializers.ValidationError(f"{name} must be a JSON string.", code="invalid")


def choice_refusal(name: str, choices: Mapping[Any, object]) -> str:
    """THE sentence refusing a value that is not one of a field's ``choices``: it names them."""
    return f"{name} must be one of: {', '.join(str(c) for c in choices)}."


class StrictChoiceField(serializers.ChoiceField):
    """A choice field whose refusal names the allowed values (``choices``) and never echoes a
    Python rendering of what was sent (DRF's own says ``"['expert']" is not a valid choice``
    for a list). Only a JSON string can be a choice. Every request body's choice is one."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if data is None and not self.allow_null:  # the allowed values, as for any other refusal
            self.to_internal_value(data)
        return super().run_validation(data)

    def to_internal_value(self, data: object) -> Any:
        if isinstance(data, str) and data in self.choice_strings_to_values:
            return self.choice_strings_to_values[data]
        if data == "" and self.allow_blank:
            return ""
        parent = getattr(self, "parent", None)  # a list's item is named by its list
        name = self.field_name or getattr(parent, "field_name", "") or "value"
        raise serializers.ValidationError(choice_refusal(name, self.choices), code="invalid_choice")


# ---------------------------------------------------------------- the base of every request body
def _json_types(field: serializers.Field) -> tuple[type, ...]:
    """The Python types of the JSON values a field takes (none: any)."""
    if isinstance(field, serializers.BooleanField):
        kinds: tuple[type, ...] = (bool,)
    elif isinstance(field, serializers.IntegerField):
        kinds = (int,)
    elif isinstance(field, serializers.FloatField):
        kinds = (int, float)
    elif isinstance(field, serializers.CharField | serializers.ChoiceField):
        kinds = (str,)
    elif isinstance(field, serializers.ListField):
        kinds = (list,)
    elif isinstance(field, serializers.DictField | serializers.Serializer):
        kinds = (dict,)
    else:
        return ()
    return (*kinds, type(None)) if field.allow_null else kinds


_TYPE_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}


def refuse_undeclared(
    fields: Mapping[str, serializers.Field], data: object, *, path: str = "", types: bool = False
) -> Mapping[str, object]:
    """``data`` if it is a JSON object whose every key is one of ``fields`` (a read-only field is
    no key of a request body) and, with ``types``, each value of that field's JSON type (else
    the field's own validation tells). Otherwise 400
    ``invalid_field`` with ``details.field`` (the key, dotted under ``path``) and
    ``details.allowed`` (the keys the body takes), or ``details.expected`` (the type): a
    misspelt key must not be dropped silently (``max_player`` would leave a 4-seat game), nor a
    wrong type be reported as something else."""
    allowed = sorted(k for k, f in fields.items() if not f.read_only)
    if not isinstance(data, Mapping):
        raise ServiceError(
            f"{path or 'The body'} must be a JSON object.",
            code="invalid_field",
            details={"field": path, "expected": "object", "allowed": allowed},
        )
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        where = f"{path}.{unknown[0]}" if path else unknown[0]
        raise ServiceError(
            f"Unknown field {where!r}; this body takes: {', '.join(allowed) or 'nothing'}.",
            code="invalid_field",
            details={"field": where, "allowed": allowed},
        )
    for key in sorted(data) if types else ():
        where = f"{path}.{key}" if path else key
        kinds, value = _json_types(fields[key]), data[key]
        fits = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        field = fields[key]
        if isinstance(field, WholeNumberField | DecimalNumberField):
            _number_checked(field, value, where)  # its type too: its refusal gives the bounds
            continue
        if kinds and not fits and isinstance(field, serializers.ChoiceField):
            allowed_values = [str(c) for c in field.choices]
            raise ServiceError(
                choice_refusal(where, field.choices),
                code="invalid_field",
                details={"field": where, "expected": "string", "choices": allowed_values},
            )
        if kinds and not fits:  # JSON's true is no integer, though Python's bool is one
            expected = _TYPE_NAMES.get(kinds[0], "object")
            raise ServiceError(
                f"{where} must be a JSON {expected}"
                + (" or null." if type(None) in kinds else "."),
                code="invalid_field",
                details={"field": where, "expected": expected},
            )
    return data


def _number_checked(
    field: WholeNumberField | DecimalNumberField, value: object, where: str
) -> None:
    """A number of a body whose other values a service checks: read by ``games.numbers`` through
    its field (its bounds, as the schema declares them), whoever reads the rest, and even where
    nobody does (a push subscription's ``expirationTime``)."""
    try:
        field.run_validation(value)
    except serializers.ValidationError as exc:
        detail = exc.detail[0] if isinstance(exc.detail, list) and exc.detail else exc.detail
        raise ServiceError(
            str(detail), code="invalid_field", details={"field": where, **field_takes(field)}
        ) from None


def field_takes(field: serializers.Field | None) -> dict[str, object]:
    """What a refused field takes, for the refusal's ``details``: a number's bounds (``min``,
    ``max``), a choice's values (``choices``); nothing for other fields."""
    if isinstance(field, WholeNumberField | DecimalNumberField):
        return {"min": field.min_value, "max": field.max_value}
    if isinstance(field, serializers.ChoiceField):
        return {"choices": [str(c) for c in field.choices]}
    return {}


def _refused_field(root: serializers.Field, detail: object) -> serializers.Field | None:
    """The field a serializer's error ``detail`` names first (the one ``details.field`` names),
    at any depth: a nested body's key, a list's or a map's item."""
    node: serializers.Field | None = root
    while isinstance(detail, dict) and detail and node is not None:
        key, detail = next(iter(detail.items()))
        if isinstance(node, serializers.Serializer):
            node = node.fields.get(str(key))
        elif isinstance(node, serializers.ListField | serializers.DictField):
            node = node.child
        else:
            return None
    return node


class FieldRefused(serializers.ValidationError):
    """A request body's refusal (400 ``invalid_field``) that says what the refused field takes:
    ``takes`` goes into the error's ``details`` (``games.api.errors.exception_handler``)."""

    def __init__(self, detail: _APIExceptionInput, takes: Mapping[str, object]) -> None:
        super().__init__(detail)
        self.takes = dict(takes)


class RequestSerializer(serializers.Serializer):
    """The base of every request body (each one's OpenAPI component is closed:
    ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key it
    does not declare, at any depth, is refused before any value is read (``refuse_undeclared``),
    so a refused body changes nothing."""

    def to_internal_value(self, data: object) -> Any:
        path: list[str] = []
        node: serializers.Field = self
        while node.parent is not None and node.field_name:
            path.append(node.field_name)
            node = node.parent
        refuse_undeclared(self.fields, data, path=".".join(reversed(path)))
        return super().to_internal_value(data)

    def is_valid(self, *, raise_exception: bool = False) -> bool:
        """DRF's, whose refusal also says what the refused field takes (``details.min`` and
        ``max`` of a number, ``details.choices`` of a choice), as docs/API.md promises: DRF's
        error keeps the messages only, and the error handler no longer knows the field."""
        try:
            return super().is_valid(raise_exception=raise_exception)
        except serializers.ValidationError as exc:
            takes = field_takes(_refused_field(self, exc.detail))
            raise FieldRefused(exc.detail, takes) from None


def body_checked(serializer: type[RequestSerializer], data: object) -> Mapping[str, object]:
    """For a view whose service validates the values with its own codes (chat's
    ``invalid_message``, a webhook's ``invalid_webhook``): the body's keys and their JSON types
    only, against the serializer that declares it."""
    return refuse_undeclared(serializer().fields, data, types=True)


# ---------------------------------------------------------------- auth and me
class TokenCreateSerializer(RequestSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=4096, style={"input_type": "password"})
    name = StrictCharField(
        max_length=60,
        required=False,
        allow_blank=True,
        default="",
        help_text="A name to tell the token apart in GET /api/v1/me/tokens/ (e.g. the bot's).",
    )


class MeSerializer(RequestSerializer):
    username = StrictCharField(read_only=True)
    email = serializers.EmailField(read_only=True)
    display_name = StrictCharField(
        max_length=40, allow_blank=True, required=False, validators=[validate_display_name]
    )
    timezone = StrictCharField(
        max_length=64, required=False, help_text="IANA name, e.g. Asia/Tokyo."
    )
    language = StrictChoiceField(choices=["en", "ja"], required=False)
    notification_mode = StrictChoiceField(choices=["every_turn", "digest", "none"], required=False)
    reminder_fraction = DecimalNumberField(
        min_value=0.0,
        max_value=1.0,
        required=False,
        help_text="When the reminder email is sent: the fraction of the turn's time gone "
        "(0.8: when a fifth is left). A JSON number from 0 to 1.",
    )
    invitations = StrictChoiceField(
        choices=["anyone", "played_with", "nobody"],
        required=False,
        help_text="Who may invite you to a game by username: anyone, only players you have "
        "played a game with, or nobody (each invitation is an email to you).",
    )
    vacation_days_per_year = WholeNumberField(read_only=True)
    vacation_days_used = WholeNumberField(read_only=True)
    bot_account = StrictBooleanField(
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


# ---------------------------------------------------------------- games
class GameOptionsSerializer(RequestSerializer):
    """The bounds come from ``games.services.lobby``, which enforces them for every caller."""

    turn_hours = WholeNumberField(
        min_value=lobby.TURN_HOURS_MIN,
        max_value=lobby.TURN_HOURS_MAX,
        default=24,
        help_text="Hours each player has for a move: 12 (half a day) to 168 (7 days).",
    )
    variant = StrictChoiceField(
        choices=list(VARIANTS),
        default="standard",
        help_text="`standard` (the default): the published rules. `first_game`: step 1 only, the "
        "game ends when a player connects 7 cities. `sealed_bid`, a house rule (the published "
        "rules say a bid may not be hidden): every bidder gives one sealed bid at once for each "
        "plant put up; it shortens a game by email.",
    )
    plant_deck = StrictChoiceField(
        choices=list(PLANT_DECKS),
        default="base",
        help_text="The power plant deck (New Power Plants expansion). `base`: the base game's. "
        "`new` (variant 1): the new deck alone, plants 1-8 start the market, 11 on top (out of "
        "the game on the France map). `mixed` (variant 2): both decks; of each number only the "
        "second card drawn plays, the first leaves the game face up. A new-deck card has the id "
        "100 + its number: actions name plants by id.",
    )
    pause_weekends = StrictBooleanField(
        default=False,
        help_text="Deadlines do not run on Saturdays and Sundays, in each player's time zone.",
    )
    auto_start = StrictBooleanField(
        default=True,
        help_text="Start the game by itself when its last seat fills (false: the creator "
        "starts it). Every player gets the game-started email either way.",
    )
    chat_public = StrictBooleanField(
        default=False, help_text="Whether people who do not play may read the game's chat."
    )
    private = StrictBooleanField(
        default=False,
        help_text="By invitation only: not listed; joined with the creator's private link "
        "(`invite_url`, `code` in the join call) or by an invitation "
        "(`POST /api/v1/games/{id}/invitations/`).",
    )
    min_on_time = WholeNumberField(
        min_value=0,
        max_value=100,
        default=0,
        help_text="Only players with at least this percentage of their recent turns in time "
        "may join (0: anyone; a player with no record yet may join). 403 `below_reliability`.",
    )
    timeouts_before_bot = WholeNumberField(
        min_value=0,
        max_value=lobby.TIMEOUTS_BEFORE_BOT_MAX,
        default=3,
        help_text="Timeouts in a row after which a bot plays the seat (0: never).",
    )
    takebacks = WholeNumberField(
        min_value=0,
        max_value=lobby.TAKEBACKS_MAX,
        default=3,
        help_text="Take-backs each player may make alone (their own last move, while nobody "
        "else has moved and it revealed nothing); asking the others is not counted. See "
        "docs/API.md, Take-backs.",
    )
    bot_level = StrictChoiceField(
        choices=list(LEVEL_NAMES),
        default=DEFAULT_LEVEL,
        help_text="The level of the server's bot that plays a seat taken over after "
        "`timeouts_before_bot` missed deadlines, weakest first: `beginner`, `heuristic` (the "
        "default), `advanced`, `expert` (docs/BOTS.md).",
    )
    takebacks_rated = StrictBooleanField(
        default=False,
        help_text="Allow take-backs although the game is rated (every seat a person): without "
        "it, a rated game has none.",
    )
    sheets = StrictBooleanField(
        default=True,
        help_text="Play by round sheets (the default): every player answers once a round, all at "
        "once, from a sheet filled in with a suggestion (docs/API.md, Round sheets). false: move "
        "by move. Either way a player may answer move by move.",
    )
    substitutes = StrictBooleanField(
        default=True,
        help_text="Offer a seat to substitutes when its player leaves it or the bot takes it "
        "over after missed deadlines (the default). false: nobody may take a seat; the bot "
        "plays a seat left to the end (a tournament's tables are made so).",
    )


class GameCreateSerializer(RequestSerializer):
    map = StrictCharField(max_length=32, help_text="A map slug from /api/v1/maps/.")
    areas = serializers.ListField(
        child=StrictCharField(max_length=32),
        allow_null=True,
        required=False,
        default=None,
        max_length=6,
        help_text="Area slugs in play, or null (default) to draw connected areas at random "
        "when the game starts.",
    )
    max_players = WholeNumberField(
        min_value=lobby.PLAYERS_MIN, max_value=lobby.PLAYERS_MAX, default=4
    )
    options = GameOptionsSerializer(required=False)


class JoinSerializer(RequestSerializer):
    code = StrictCharField(
        required=False, allow_blank=True, help_text="A private game's code (its invitation link's)."
    )


class InvitationSerializer(RequestSerializer):
    username = StrictCharField(help_text="The invited player's username.")


# ---------------------------------------------------------------- actions (request side)
def _field(f: Field) -> serializers.Field:
    """The request schema of one action field, from how the engine says it is written."""
    text, required = f.help, f.required
    # The engine's own bounds (powergrid.fields), so a client's validator refuses what it would.
    if f.kind == "plant":
        return WholeNumberField(
            min_value=PLANT_MIN, max_value=PLANT_MAX, help_text=text, required=required
        )
    if f.kind == "int":
        return WholeNumberField(max_value=MAX_NUMBER, help_text=text, required=required)
    if f.kind == "count":
        return WholeNumberField(max_value=MAX_NUMBER, default=0, help_text=text, required=False)
    if f.kind == "tokens":
        return serializers.DictField(
            child=WholeNumberField(max_value=MAX_NUMBER), help_text=text, required=required
        )
    if f.kind == "cities":
        return serializers.ListField(child=StrictCharField(), help_text=text, required=required)
    if f.kind == "plants":
        return serializers.ListField(
            child=WholeNumberField(min_value=PLANT_MIN, max_value=PLANT_MAX),
            help_text=text,
            required=required,
        )
    return serializers.DictField(  # hybrid
        child=serializers.DictField(child=WholeNumberField(max_value=MAX_NUMBER)),
        help_text=text,
        required=required,
    )


def _action_serializer(spec: ActionType) -> type[serializers.Serializer]:
    """One action type's request body, derived from the engine's registry."""
    attrs: dict[str, object] = {"type": StrictChoiceField(choices=[spec.name])}
    attrs.update({f.name: _field(f) for f in spec.fields})
    attrs["__doc__"] = spec.summary
    return type(
        "".join(p.capitalize() for p in spec.name.split("_")) + "ActionSerializer",
        (RequestSerializer,),
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

    def to_internal_value(self, data: object) -> dict[str, object]:
        if not isinstance(data, dict):
            raise serializers.ValidationError("Must be a JSON object with a `type`.")
        return data


class MoveSubmitSerializer(RequestSerializer):
    action = ActionField(help_text="One action, `type` first (shared/API.md).")
    expected_seq = WholeNumberField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The game's seq you based the move on; 409 stale_state if the game moved on.",
    )


# ---------------------------------------------------------------- plans
class PlanSerializer(RequestSerializer):
    """One of the caller's plans (games.plans). Fields by kind; see docs/API.md, Plans."""

    kind = StrictChoiceField(
        choices=["proxy_bid", "auto_pass", "pass_when_nothing", "buy", "build", "power"]
    )
    plant = WholeNumberField(required=False, help_text="proxy_bid: a plant of the market.")
    max = WholeNumberField(
        required=False, help_text="proxy_bid: the most you will pay (at least the plant's number)."
    )
    discard = WholeNumberField(
        required=False,
        allow_null=True,
        help_text="proxy_bid, optional: one of your plants to give up if winning this one is one "
        "plant too many (its tokens move to the plants you keep where they fit). Absent or null: "
        "you are asked when it happens.",
    )
    round = WholeNumberField(
        required=False,
        help_text="In answers, for auto_pass, buy, build and power: the round it is for (set by "
        "the server, ignored in a request: this round while its phase has not passed, else the "
        "next).",
    )
    amounts = serializers.DictField(
        child=WholeNumberField(min_value=0),
        required=False,
        help_text='buy: tokens wanted per resource, e.g. {"coal": 2, "oil": 1}.',
    )
    max_price = WholeNumberField(
        required=False, help_text="buy: buy a token only if it costs at most this."
    )
    cities = serializers.ListField(
        child=StrictCharField(),
        required=False,
        help_text="build: city slugs, built in the cheapest order.",
    )
    max_total = WholeNumberField(
        required=False, help_text="build: build only if all of them cost at most this in total."
    )


# ---------------------------------------------------------------- webhooks
class WebhookSerializer(RequestSerializer):
    """A webhook to add (the answer is ``games.shapes.Webhook``)."""

    url = StrictCharField(help_text="https:// only (no private addresses).")
    format = StrictChoiceField(choices=["generic", "discord", "slack"], default="generic")
    events = serializers.ListField(
        child=StrictChoiceField(choices=list(WEBHOOK_EVENTS)),
        required=False,
        help_text="Default: all of them.",
    )
    game = WholeNumberField(
        allow_null=True,
        required=False,
        help_text="A game of yours: every turn of that game (for a group's chat). Null: your "
        "own turns and your games' start and end.",
    )


# ---------------------------------------------------------------- chat
class ChatTextSerializer(RequestSerializer):
    """A chat message to post, or a message's new text (the answer is
    ``games.shapes.ChatMessage``)."""

    text = StrictCharField(max_length=1000, help_text="Plain text (never HTML).")


class ChatEditSerializer(ChatTextSerializer):
    """A message's new text (required: the edit replaces the text)."""

    # Never partial, although the method is PATCH: drf-spectacular would mark the field optional.
    @property
    def partial(self) -> bool:
        return False

    @partial.setter
    def partial(self, value: bool) -> None:
        pass


class DiscordUserSerializer(RequestSerializer):
    """Your Discord user ID (the answer is ``games.shapes.DiscordUser``)."""

    discord_user_id = StrictCharField(
        allow_blank=True, help_text="17 to 20 digits (Discord: Copy User ID); empty: none."
    )


class PushKeysSerializer(RequestSerializer):
    p256dh = StrictCharField(help_text="The browser's P-256 public key, base64url.")
    auth = StrictCharField(help_text="The browser's auth secret (16 bytes), base64url.")


#: The latest ``expirationTime`` a subscription may give: 10^15 ms after 1970 (the year 33658).
PUSH_EXPIRATION_MAX = 10**15


class PushSubscribeSerializer(RequestSerializer):
    """A browser's push subscription (``PushSubscription.toJSON()``) and your choices."""

    endpoint = StrictCharField(help_text="The push service's URL for this browser.")
    # The browser's own key name (PushSubscription.toJSON()): milliseconds since 1970, or null.
    # An EpochTimeStamp (the Push API): a whole number of milliseconds, so a JSON integer.
    expirationTime = WholeNumberField(
        min_value=0,
        max_value=PUSH_EXPIRATION_MAX,
        allow_null=True,
        required=False,
        help_text="As the browser gives it: whole milliseconds since 1970 (a JSON integer), or "
        "null; ignored.",
    )
    keys = PushKeysSerializer()
    name = StrictCharField(
        required=False, allow_blank=True, help_text="Your name for the device (at most 80)."
    )
    turns = StrictBooleanField(
        required=False, help_text="Turn notices on it (a new device: true; a known one: kept)."
    )


class PushDeviceSerializer(RequestSerializer):
    turns = StrictBooleanField(help_text="Turn notices on this device.")


class BlockSerializer(RequestSerializer):
    username = StrictCharField(help_text="The player to block.")
