"""``/api/v1/tournaments/...`` (included from ``config.urls``)."""

from django.urls import path

from tournaments import api

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api_tournaments"),
    path("<id:tournament_id>/", api.TournamentDetailView.as_view(), name="api_tournament"),
    path(
        "<id:tournament_id>/players/",
        api.TournamentPlayersView.as_view(),
        name="api_tournament_players",
    ),
    path(
        "<id:tournament_id>/rounds/<id:number>/",
        api.TournamentRoundView.as_view(),
        name="api_tournament_round",
    ),
    path("<id:tournament_id>/join/", api.TournamentJoinView.as_view(), name="api_tournament_join"),
    path(
        "<id:tournament_id>/leave/",
        api.TournamentLeaveView.as_view(),
        name="api_tournament_leave",
    ),
    path(
        "<id:tournament_id>/start/",
        api.TournamentStartView.as_view(),
        name="api_tournament_start",
    ),
    path(
        "<id:tournament_id>/standings/",
        api.TournamentStandingsView.as_view(),
        name="api_tournament_standings",
    ),
]
