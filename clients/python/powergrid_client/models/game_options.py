from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.bot_level_enum import BotLevelEnum
from ..models.plant_deck_choice import PlantDeckChoice
from ..models.variant_enum import VariantEnum

T = TypeVar("T", bound="GameOptions")


@_attrs_define
class GameOptions:
    """The game's options (docs/API.md; the request's GameOptions gives their bounds).

    Attributes:
        auto_start (bool):
        bot_level (BotLevelEnum):
        chat_public (bool):
        min_on_time (int):
        pause_weekends (bool):
        plant_deck (PlantDeckChoice):
        private (bool):
        sheets (bool): Played by round sheets (one answer a round per player); false: move by move.
        substitutes (bool): A seat left or taken over by the bot is offered to substitutes; false: never.
        takebacks (int): Take-backs each player may make alone.
        takebacks_rated (bool): Take-backs allowed although the game is rated.
        timeouts_before_bot (int):
        turn_hours (int):
        variant (VariantEnum):
    """

    auto_start: bool
    bot_level: BotLevelEnum
    chat_public: bool
    min_on_time: int
    pause_weekends: bool
    plant_deck: PlantDeckChoice
    private: bool
    sheets: bool
    substitutes: bool
    takebacks: int
    takebacks_rated: bool
    timeouts_before_bot: int
    turn_hours: int
    variant: VariantEnum

    def to_dict(self) -> dict[str, Any]:
        auto_start = self.auto_start

        bot_level = self.bot_level.value

        chat_public = self.chat_public

        min_on_time = self.min_on_time

        pause_weekends = self.pause_weekends

        plant_deck = self.plant_deck.value

        private = self.private

        sheets = self.sheets

        substitutes = self.substitutes

        takebacks = self.takebacks

        takebacks_rated = self.takebacks_rated

        timeouts_before_bot = self.timeouts_before_bot

        turn_hours = self.turn_hours

        variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "auto_start": auto_start,
                "bot_level": bot_level,
                "chat_public": chat_public,
                "min_on_time": min_on_time,
                "pause_weekends": pause_weekends,
                "plant_deck": plant_deck,
                "private": private,
                "sheets": sheets,
                "substitutes": substitutes,
                "takebacks": takebacks,
                "takebacks_rated": takebacks_rated,
                "timeouts_before_bot": timeouts_before_bot,
                "turn_hours": turn_hours,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        auto_start = d.pop("auto_start")

        bot_level = BotLevelEnum(d.pop("bot_level"))

        chat_public = d.pop("chat_public")

        min_on_time = d.pop("min_on_time")

        pause_weekends = d.pop("pause_weekends")

        plant_deck = PlantDeckChoice(d.pop("plant_deck"))

        private = d.pop("private")

        sheets = d.pop("sheets")

        substitutes = d.pop("substitutes")

        takebacks = d.pop("takebacks")

        takebacks_rated = d.pop("takebacks_rated")

        timeouts_before_bot = d.pop("timeouts_before_bot")

        turn_hours = d.pop("turn_hours")

        variant = VariantEnum(d.pop("variant"))

        game_options = cls(
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

        return game_options
