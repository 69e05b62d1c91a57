"""The tournaments' pages (included from ``config.urls`` under ``/tournaments/``)."""

from django.urls import path

from tournaments import web

urlpatterns = [
    path("", web.tournament_list, name="tournaments"),
    path("new/", web.tournament_new, name="tournament_new"),
    path("<id:tournament_id>/", web.tournament_page, name="tournament"),
    path("<id:tournament_id>/rounds/<id:number>/", web.tournament_round, name="tournament_round"),
    path("<id:tournament_id>/join/", web.tournament_join, name="tournament_join"),
    path("<id:tournament_id>/leave/", web.tournament_leave, name="tournament_leave"),
    path("<id:tournament_id>/start/", web.tournament_start, name="tournament_start"),
]
