"""``/api/v1/leagues/...`` (included from ``config.urls``)."""

from django.urls import path

from tournaments import league_api

urlpatterns = [
    path("", league_api.LeagueListView.as_view(), name="api_leagues"),
    path("<id:league_id>/", league_api.LeagueDetailView.as_view(), name="api_league"),
    path(
        "<id:league_id>/players/", league_api.LeaguePlayersView.as_view(), name="api_league_players"
    ),
    path("<id:league_id>/join/", league_api.LeagueJoinView.as_view(), name="api_league_join"),
    path("<id:league_id>/leave/", league_api.LeagueLeaveView.as_view(), name="api_league_leave"),
    path("<id:league_id>/start/", league_api.LeagueStartView.as_view(), name="api_league_start"),
    path(
        "<id:league_id>/seasons/<id:number>/",
        league_api.LeagueSeasonView.as_view(),
        name="api_league_season",
    ),
]
