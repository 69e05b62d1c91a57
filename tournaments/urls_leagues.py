"""The leagues' pages (included from ``config.urls`` under ``/leagues/``)."""

from django.urls import path

from tournaments import league_web

urlpatterns = [
    path("", league_web.league_list, name="leagues"),
    path("new/", league_web.league_new, name="league_new"),
    path("<id:league_id>/", league_web.league_page, name="league"),
    path("<id:league_id>/join/", league_web.league_join, name="league_join"),
    path("<id:league_id>/leave/", league_web.league_leave, name="league_leave"),
    path("<id:league_id>/start/", league_web.league_start, name="league_start"),
]
