"""Errors raised by services; the API turns each into ``{"error": {code, message, details}}``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.shapes import Error


class ServiceError(Exception):
    status = 400
    code = "invalid"
    default_message = "The request cannot be done."

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        details: dict[str, object] | None = None,
        status: int | None = None,
    ) -> None:
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.details = details or {}
        super().__init__(self.message)

    def as_body(self) -> Error:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class GameNotFound(ServiceError):
    status = 404
    code = "not_found"
    default_message = "No such game."


class NotAPlayer(ServiceError):
    status = 403
    code = "not_a_player"
    default_message = "You hold no seat in this game."


class NotCreator(ServiceError):
    status = 403
    code = "not_creator"
    default_message = "Only the game's creator can do that."


class StaleState(ServiceError):
    status = 409
    code = "stale_state"
    default_message = "The game has moved on: fetch the state and try again."


class MoveRejected(ServiceError):
    """The engine refused the action (its code: bid_too_low, not_your_turn, ...)."""

    status = 400


class LobbyError(ServiceError):
    status = 409


class GameNotStarted(LobbyError):
    code = "game_not_started"
    default_message = "The game has not started yet."


class GameNotFinished(LobbyError):
    code = "game_not_finished"
    default_message = "The game is not over: its seed stays secret until the end."


class GameAlreadyStarted(LobbyError):
    code = "game_already_started"
    default_message = "The game has already started."


class GameFull(LobbyError):
    code = "game_full"
    default_message = "The game is full."


class AlreadyJoined(LobbyError):
    code = "already_joined"
    default_message = "You already hold a seat in this game."


class NotEnoughPlayers(LobbyError):
    code = "not_enough_players"
    default_message = "A game needs at least two players."


class InvalidSetup(ServiceError):
    status = 400
    code = "invalid_field"
    default_message = "Invalid game set-up."


class BotUpgradeRefused(LobbyError):
    code = "bot_upgrade_refused"
    default_message = (
        "Only a new account can become a bot account: this one has played or joined games."
    )


class NotInvited(ServiceError):
    status = 403
    code = "not_invited"
    default_message = "This game is by invitation: ask its creator for the link."


class BelowReliability(ServiceError):
    status = 403
    code = "below_reliability"
    default_message = "This game is for players who make their turns in time more often."


class NoRecord(LobbyError):
    code = "no_record"
    default_message = (
        "A practice game began from a position, not from a seed: it has no record to verify."
    )


# -- take-backs (games.takebacks) -----------------------------------------------------------------


class TakebackRefused(ServiceError):
    """A take-back that cannot be made now; ``code`` says why (``games.takebacks``)."""

    status = 409
    code = "takeback_refused"
    default_message = "That cannot be taken back."


class TakebackNeedsAgreement(TakebackRefused):
    code = "takeback_needs_agreement"
    default_message = (
        "This take-back needs the other players' agreement: ask them (POST .../takeback/requests/)."
    )


class TakebackRequestNotFound(ServiceError):
    status = 404
    code = "takeback_request_not_found"
    default_message = "There is no such take-back request in this game."


class PracticeRefused(ServiceError):
    status = 409
    code = "practice_refused"
    default_message = "A practice game cannot be made from there."


class RemovedByCreator(ServiceError):
    status = 403
    code = "removed_by_creator"
    default_message = (
        "The creator removed you from this game: only their invitation lets you back in."
    )


class InvitationRefused(ServiceError):
    status = 403
    code = "invitation_refused"
    default_message = "That player does not take invitations from you."


class InvitationsThrottled(ServiceError):
    status = 429
    code = "throttled"
    default_message = "Too many invitations: wait a while."


class PracticeThrottled(ServiceError):
    status = 429
    code = "throttled"
    default_message = "Too many practice games this hour: wait a while."


class Blocked(ServiceError):
    """A block stands between the caller and a player of the game, or the player they name
    (``accounts.blocks``): whoever made it, the answer is the same (nobody learns who blocked
    whom)."""

    status = 403
    code = "blocked"
    default_message = "A block stands between you and a player there: this cannot be done."
