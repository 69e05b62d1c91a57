"""Tournament errors: ``games.services.errors.ServiceError``s, so the API answers each as the
games' errors are answered (``{"error": {code, message, details}}`` with its status)."""

from __future__ import annotations

from games.services.errors import ServiceError


class TournamentNotFound(ServiceError):
    status = 404
    code = "not_found"
    default_message = "No such tournament."


class NotDirector(ServiceError):
    status = 403
    code = "not_director"
    default_message = "Only the tournament's director can do that."


class TournamentStarted(ServiceError):
    status = 409
    code = "tournament_started"
    default_message = "The tournament has started: sign-up is closed."


class TournamentOver(ServiceError):
    status = 409
    code = "tournament_finished"
    default_message = "The tournament is over."


class AlreadyEntered(ServiceError):
    status = 409
    code = "already_entered"
    default_message = "You have entered this tournament already."


class NotEntered(ServiceError):
    status = 403
    code = "not_entered"
    default_message = "You have not entered this tournament."


class OutsideRatingRange(ServiceError):
    status = 403
    code = "outside_rating_range"
    default_message = "Your rating is outside this tournament's range."


class TooFewEntrants(ServiceError):
    status = 409
    code = "too_few_entrants"
    default_message = "Too few entrants to seat a table."


class InvalidTournament(ServiceError):
    code = "invalid_field"


class LeagueNotFound(ServiceError):
    status = 404
    code = "not_found"
    default_message = "No such league."


class NotLeagueDirector(ServiceError):
    status = 403
    code = "not_director"
    default_message = "Only the league's director can do that."


class AlreadyMember(ServiceError):
    status = 409
    code = "already_member"
    default_message = "You are a member of this league already."


class NotMember(ServiceError):
    status = 403
    code = "not_member"
    default_message = "You are not a member of this league."


class SeasonRunning(ServiceError):
    status = 409
    code = "season_running"
    default_message = "A season of this league is under way: the next starts when it ends."


class TooFewMembers(ServiceError):
    status = 409
    code = "too_few_entrants"
    default_message = "Too few members to seat a table."
