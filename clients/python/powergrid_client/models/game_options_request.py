from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.bot_level_enum import BotLevelEnum
from ..models.plant_deck_choice import PlantDeckChoice
from ..models.variant_enum import VariantEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="GameOptionsRequest")


@_attrs_define
class GameOptionsRequest:
    """The bounds come from ``games.services.lobby``, which enforces them for every caller.

    Attributes:
        auto_start (bool | Unset): Start the game by itself when its last seat fills (false: the creator starts it).
            Every player gets the game-started email either way. Default: True.
        bot_level (BotLevelEnum | Unset):  Default: BotLevelEnum.HEURISTIC.
        chat_public (bool | Unset): Whether people who do not play may read the game's chat. Default: False.
        min_on_time (int | Unset): Only players with at least this percentage of their recent turns in time may join (0:
            anyone; a player with no record yet may join). 403 `below_reliability`. Default: 0.
        pause_weekends (bool | Unset): Deadlines do not run on Saturdays and Sundays, in each player's time zone.
            Default: False.
        plant_deck (PlantDeckChoice | Unset):  Default: PlantDeckChoice.BASE.
        private (bool | Unset): By invitation only: not listed; joined with the creator's private link (`invite_url`,
            `code` in the join call) or by an invitation (`POST /api/v1/games/{id}/invitations/`). Default: False.
        sheets (bool | Unset): Play by round sheets (the default): every player answers once a round, all at once, from
            a sheet filled in with a suggestion (docs/API.md, Round sheets). false: move by move. Either way a player may
            answer move by move. Default: True.
        substitutes (bool | Unset): Offer a seat to substitutes when its player leaves it or the bot takes it over after
            missed deadlines (the default). false: nobody may take a seat; the bot plays a seat left to the end (a
            tournament's tables are made so). Default: True.
        takebacks (int | Unset): Take-backs each player may make alone (their own last move, while nobody else has moved
            and it revealed nothing); asking the others is not counted. See docs/API.md, Take-backs. Default: 3.
        takebacks_rated (bool | Unset): Allow take-backs although the game is rated (every seat a person): without it, a
            rated game has none. Default: False.
        timeouts_before_bot (int | Unset): Timeouts in a row after which a bot plays the seat (0: never). Default: 3.
        turn_hours (int | Unset): Hours each player has for a move: 12 (half a day) to 168 (7 days). Default: 24.
        variant (VariantEnum | Unset):  Default: VariantEnum.STANDARD.
    """

    auto_start: bool | Unset = True
    bot_level: BotLevelEnum | Unset = BotLevelEnum.HEURISTIC
    chat_public: bool | Unset = False
    min_on_time: int | Unset = 0
    pause_weekends: bool | Unset = False
    plant_deck: PlantDeckChoice | Unset = PlantDeckChoice.BASE
    private: bool | Unset = False
    sheets: bool | Unset = True
    substitutes: bool | Unset = True
    takebacks: int | Unset = 3
    takebacks_rated: bool | Unset = False
    timeouts_before_bot: int | Unset = 3
    turn_hours: int | Unset = 24
    variant: VariantEnum | Unset = VariantEnum.STANDARD

    def to_dict(self) -> dict[str, Any]:
        auto_start = self.auto_start

        bot_level: str | Unset = UNSET
        if not isinstance(self.bot_level, Unset):
            bot_level = self.bot_level.value

        chat_public = self.chat_public

        min_on_time = self.min_on_time

        pause_weekends = self.pause_weekends

        plant_deck: str | Unset = UNSET
        if not isinstance(self.plant_deck, Unset):
            plant_deck = self.plant_deck.value

        private = self.private

        sheets = self.sheets

        substitutes = self.substitutes

        takebacks = self.takebacks

        takebacks_rated = self.takebacks_rated

        timeouts_before_bot = self.timeouts_before_bot

        turn_hours = self.turn_hours

        variant: str | Unset = UNSET
        if not isinstance(self.variant, Unset):
            variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if auto_start is not UNSET:
            field_dict["auto_start"] = auto_start
        if bot_level is not UNSET:
            field_dict["bot_level"] = bot_level
        if chat_public is not UNSET:
            field_dict["chat_public"] = chat_public
        if min_on_time is not UNSET:
            field_dict["min_on_time"] = min_on_time
        if pause_weekends is not UNSET:
            field_dict["pause_weekends"] = pause_weekends
        if plant_deck is not UNSET:
            field_dict["plant_deck"] = plant_deck
        if private is not UNSET:
            field_dict["private"] = private
        if sheets is not UNSET:
            field_dict["sheets"] = sheets
        if substitutes is not UNSET:
            field_dict["substitutes"] = substitutes
        if takebacks is not UNSET:
            field_dict["takebacks"] = takebacks
        if takebacks_rated is not UNSET:
            field_dict["takebacks_rated"] = takebacks_rated
        if timeouts_before_bot is not UNSET:
            field_dict["timeouts_before_bot"] = timeouts_before_bot
        if turn_hours is not UNSET:
            field_dict["turn_hours"] = turn_hours
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        auto_start = d.pop("auto_start", UNSET)

        _bot_level = d.pop("bot_level", UNSET)
        bot_level: BotLevelEnum | Unset
        if isinstance(_bot_level, Unset):
            bot_level = UNSET
        else:
            bot_level = BotLevelEnum(_bot_level)

        chat_public = d.pop("chat_public", UNSET)

        min_on_time = d.pop("min_on_time", UNSET)

        pause_weekends = d.pop("pause_weekends", UNSET)

        _plant_deck = d.pop("plant_deck", UNSET)
        plant_deck: PlantDeckChoice | Unset
        if isinstance(_plant_deck, Unset):
            plant_deck = UNSET
        else:
            plant_deck = PlantDeckChoice(_plant_deck)

        private = d.pop("private", UNSET)

        sheets = d.pop("sheets", UNSET)

        substitutes = d.pop("substitutes", UNSET)

        takebacks = d.pop("takebacks", UNSET)

        takebacks_rated = d.pop("takebacks_rated", UNSET)

        timeouts_before_bot = d.pop("timeouts_before_bot", UNSET)

        turn_hours = d.pop("turn_hours", UNSET)

        _variant = d.pop("variant", UNSET)
        variant: VariantEnum | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = VariantEnum(_variant)

        game_options_request = cls(
            auto_start=auto_start,
            bot_level=bot_level,
            chat_public=chat_public,
            min_on_time=min_on_time,
            pause_weekends=pause_weekends,
            plant_deck=plant_deck,
            private=private,
            sheets=sheets,
            substitutes=substitutes,
            takebacks=takebacks,
            takebacks_rated=takebacks_rated,
            timeouts_before_bot=timeouts_before_bot,
            turn_hours=turn_hours,
            variant=variant,
        )

        return game_options_request
