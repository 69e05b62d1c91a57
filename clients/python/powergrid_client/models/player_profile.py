from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.player_game import PlayerGame
    from ..models.player_game_page import PlayerGamePage
    from ..models.player_rating import PlayerRating
    from ..models.player_reliability import PlayerReliability


T = TypeVar("T", bound="PlayerProfile")


@_attrs_define
class PlayerProfile:
    """What the site says about a player (their page, /players/{username}/), from public facts.

    Attributes:
        bot_account (bool): A third party's bot account.
        current_games (list[PlayerGame]): Open games and games under way, newest first (at most 30).
        display_name (str): The name games show (display name, else username).
        finished_games (PlayerGamePage): One page of the player's finished games, newest first (20 a page).
        rating (None | PlayerRating): null: not rated yet.
        reliability (None | PlayerReliability): null: one of the server's bots (`server_bot`), which has no turns of its
            own to count (a level's rating account, or a seat's bot).
        server_bot (bool): One of the server's own bots.
        username (str):
    """

    bot_account: bool
    current_games: list[PlayerGame]
    display_name: str
    finished_games: PlayerGamePage
    rating: None | PlayerRating
    reliability: None | PlayerReliability
    server_bot: bool
    username: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.player_rating import PlayerRating  # noqa: PLC0415
        from ..models.player_reliability import PlayerReliability  # noqa: PLC0415

        bot_account = self.bot_account

        current_games = []
        for current_games_item_data in self.current_games:
            current_games_item = current_games_item_data.to_dict()
            current_games.append(current_games_item)

        display_name = self.display_name

        finished_games = self.finished_games.to_dict()

        rating: dict[str, Any] | None
        if isinstance(self.rating, PlayerRating):
            rating = self.rating.to_dict()
        else:
            rating = self.rating

        reliability: dict[str, Any] | None
        if isinstance(self.reliability, PlayerReliability):
            reliability = self.reliability.to_dict()
        else:
            reliability = self.reliability

        server_bot = self.server_bot

        username = self.username

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bot_account": bot_account,
                "current_games": current_games,
                "display_name": display_name,
                "finished_games": finished_games,
                "rating": rating,
                "reliability": reliability,
                "server_bot": server_bot,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_game import PlayerGame  # noqa: PLC0415
        from ..models.player_game_page import PlayerGamePage  # noqa: PLC0415
        from ..models.player_rating import PlayerRating  # noqa: PLC0415
        from ..models.player_reliability import PlayerReliability  # noqa: PLC0415

        d = dict(src_dict)
        bot_account = d.pop("bot_account")

        current_games = []
        _current_games = d.pop("current_games")
        for current_games_item_data in _current_games:
            current_games_item = PlayerGame.from_dict(current_games_item_data)

            current_games.append(current_games_item)

        display_name = d.pop("display_name")

        finished_games = PlayerGamePage.from_dict(d.pop("finished_games"))

        def _parse_rating(data: object) -> None | PlayerRating:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rating_type_0 = PlayerRating.from_dict(data)

                return rating_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerRating, data)

        rating = _parse_rating(d.pop("rating"))

        def _parse_reliability(data: object) -> None | PlayerReliability:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reliability_type_0 = PlayerReliability.from_dict(data)

                return reliability_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerReliability, data)

        reliability = _parse_reliability(d.pop("reliability"))

        server_bot = d.pop("server_bot")

        username = d.pop("username")

        player_profile = cls(
            bot_account=bot_account,
            current_games=current_games,
            display_name=display_name,
            finished_games=finished_games,
            rating=rating,
            reliability=reliability,
            server_bot=server_bot,
            username=username,
        )

        return player_profile
