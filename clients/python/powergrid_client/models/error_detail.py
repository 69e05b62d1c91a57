from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.error_code import ErrorCode

if TYPE_CHECKING:
    from ..models.error_detail_details import ErrorDetailDetails


T = TypeVar("T", bound="ErrorDetail")


@_attrs_define
class ErrorDetail:
    """
    Attributes:
        code (ErrorCode): Machine-readable reason. `not_authenticated` 401: no credentials were sent.
            `authentication_failed` 401: wrong username/password or an invalid token. `permission_denied` 403: not allowed.
            `reauthentication_required` 403: a session must confirm its password first (details.reauthenticate_url) to add a
            webhook or make a bot account; a token need not. `not_a_player` 403: the caller holds no seat in this game.
            `not_creator` 403: only the creator may start the game. `not_found` 404: unknown game, map or URL.
            `method_not_allowed` 405. `not_acceptable` 406: the Accept header asks for something other than JSON.
            `unsupported_media_type` 415: send application/json. `parse_error` 400: the body is not valid JSON.
            `invalid_field` 400: a field is missing, has the wrong type or value, or is one the body does not declare
            (details.field; details.allowed: the keys the body takes). `unknown_map` 400: no map with that slug.
            `idempotency_key_reused` 422: the Idempotency-Key was used before for a different request. `stale_state` 409:
            expected_seq is behind the game's seq; fetch the state and retry. `game_not_started` 409: the game is still
            open. `game_not_finished` 409: the game is not over (its record and seed come at the end).
            `game_already_started` 409: the game has started (join, leave, start refused). `game_full` 409: all seats are
            taken. `already_joined` 409: the caller already holds a seat. `not_enough_players` 409: a game needs at least
            two players to start. `throttled` 429: too many requests; details.retry_after gives the seconds to wait.
            `service_unavailable` 503: the database is briefly unavailable; nothing was changed. Retry after Retry-After
            seconds (with the same Idempotency-Key). `server_error` 500: a bug; reported to the operators.
            `request_too_large` 413: the body is larger than the server accepts (details.max_bytes). `bad_request` 400: the
            request could not be read (a malformed header, say). `trailing_slash_missing` 308: API URLs end with a slash;
            Location (and details.location) is the URL with it, where the same method and body go (a 308 keeps both).
            `invalid_plan` 400: a plan's field is missing or wrong (details.field). `plan_not_found` 404: no such plan of
            yours (one that has acted is gone). `invalid_sheet` 400: a line of a round sheet is wrong (details.line and
            details.field, e.g. open[1].max). `sheet_stale` 409: the sheet is for another round (details.round: the round
            now). `game_not_running` 409: only a game under way has that (plans, a forecast, a build quote).
            `invalid_webhook` 400: a webhook's field is wrong (details.field: url, format, events). `webhook_not_found` 404:
            no such webhook of yours. `invalid_message` 400: a chat message is empty, longer than 1000 characters or holds a
            control character (a text-direction control, U+202A-U+202E or U+2066-U+2069, included). `edit_window_over` 400:
            a chat message can be changed for 10 minutes only. `message_not_found` 404: no such chat message (or not yours
            to change). `bot_upgrade_refused` 409: only an account that has never held a seat can become a bot.
            `not_invited` 403: the game is by invitation; its link or the creator's invitation lets you in.
            `below_reliability` 403: the game asks for players who make more of their turns in time (details.min_on_time,
            details.yours). `takeback_needs_agreement` 409: someone else has moved since, or the move revealed something
            hidden (details.reason: others_moved, plant_drawn, sealed_bids_opened): ask the others with POST
            .../takeback/requests/. `takeback_limit_reached` 409: the player has made the take-backs the game allows alone
            (details.limit, the game's options.takebacks); asking the others is still possible. `takebacks_off` 409: the
            game is rated and its creator did not allow take-backs. `nothing_to_take_back` 409: the player has no move of
            their own that stands. `takeback_too_far` 409: the player's last move is more than details.max_moves moves back.
            `takeback_request_open` 409: another take-back request of this game waits for answers.
            `takeback_request_not_found` 404: no such take-back request in this game. `takeback_request_closed` 409: the
            request was accepted, declined or withdrawn already. `takeback_moved_on` 409: the game moved on after the
            request: it is void. `takeback_expired` 409: the request's deadline passed before everyone agreed. `not_asked`
            403: the player who asked cannot answer their own request. `not_yours` 403: only the player who asked may
            withdraw a request. `no_record` 409: a practice game began from a position, not from a seed: no record.
            `practice_refused` 409: no practice game from there (details.why: the game is open, the move is its end, or the
            caller holds no seat in a running game). `removed_by_creator` 403: the creator removed you from this game; only
            their invitation lets you back in. `invitation_refused` 403: that player does not take invitations from you
            (their `invitations` setting). `token_not_found` 404: no API token of yours starts with that prefix.
            `already_on_vacation` 409: a vacation runs already; end it first (DELETE). `not_on_vacation` 409: there is no
            vacation to end. `seat_left` 409: the caller resigned from this game: the bot plays their seat (they may no
            longer move, resign again or offer it). `seat_timed_out` 409: the bot plays the caller's seat after missed
            deadlines, offered to substitutes until the caller moves again. `seat_not_offered` 409: that seat is not offered
            to substitutes. `no_substitutes` 409: the game was made with `substitutes` false (a tournament's tables are): no
            seat is offered, nor taken; the bot plays a seat its player left. `already_seated` 409: the caller holds or held
            a seat in this game (a player cannot take a second seat, nor come back to the game by another).
            `substitute_is_bot` 409: a bot account cannot take a seat as a substitute. `not_enough_days` 400: fewer vacation
            days are left this year (details.days_left). `invalid_discord_user_id` 400: a Discord user ID is 17 to 20 digits
            (details.field: discord_user_id). `blocked` 403: a block stands between you and that player (one of you blocked
            the other): no joining their game, inviting them or writing in a chat they read. `invalid_block` 400: a block
            names no user, or names yourself, or you have blocked the most players allowed (details.field: user;
            details.max). `user_not_found` 404: no player has that username. `invalid_subscription` 400: a push
            subscription's field is wrong (details.field: endpoint, keys.p256dh, keys.auth, name, turns): an https endpoint
            of a push service, the keys in base64url. `subscription_not_found` 404: no push subscription (device) of yours
            has that id. `push_unavailable` 409: Web Push is not configured on this server (no VAPID key; GET
            /api/v1/push/key/ answers an empty key). `not_director` 403: only the tournament's (or the league's) director
            may start it. `tournament_started` 409: the tournament has started; sign-up is closed. `tournament_finished`
            409: the tournament is over. `already_entered` 409: you have entered this tournament already. `not_entered` 403:
            you have not entered this tournament. `outside_rating_range` 403: your rating is outside the tournament's range
            (details.rating, rating_min, rating_max). `too_few_entrants` 409: fewer entrants than table_min: no table can be
            seated (details.entrants, table_min). `already_member` 409: you are a member of this league already.
            `not_member` 403: you are not a member of this league. `season_running` 409: a season of this league is under
            way; the next starts when it ends. Engine refusals (400): `already_in_city`, `areas_not_connected`,
            `bid_too_low`, `cannot_pass_round_one`, `city_full`, `city_not_in_play`, `city_unreachable`, `game_over`,
            `insufficient_funds`, `invalid_field`, `market_exhausted`, `no_storage`, `not_enough_resources`,
            `not_your_turn`, `plant_not_available`, `plant_not_owned`, `unknown_action`, `unknown_plant`, `wrong_phase`.
        details (ErrorDetailDetails): Code-specific data, e.g. {field} for invalid_field, {seq} for stale_state,
            {retry_after} for throttled.
        message (str): A sentence for humans.
    """

    code: ErrorCode
    details: ErrorDetailDetails
    message: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        details = self.details.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "details": details,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_detail_details import ErrorDetailDetails  # noqa: PLC0415

        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))

        details = ErrorDetailDetails.from_dict(d.pop("details"))

        message = d.pop("message")

        error_detail = cls(
            code=code,
            details=details,
            message=message,
        )

        return error_detail
