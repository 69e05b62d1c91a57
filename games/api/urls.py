from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from . import views

v1 = [
    path("auth/token/", views.TokenView.as_view(), name="api_token"),
    path("me/", views.MeView.as_view(), name="api_me"),
    path("maps/", views.MapListView.as_view(), name="api_maps"),
    path("maps/<slug:slug>/", views.MapDetailView.as_view(), name="api_map"),
    path("games/", views.GameListView.as_view(), name="api_games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="api_game"),
    path("games/<int:game_id>/join/", views.GameJoinView.as_view(), name="api_game_join"),
    path("games/<int:game_id>/leave/", views.GameLeaveView.as_view(), name="api_game_leave"),
    path("games/<int:game_id>/start/", views.GameStartView.as_view(), name="api_game_start"),
    path("games/<int:game_id>/state/", views.GameStateView.as_view(), name="api_game_state"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="api_game_moves"),
]

urlpatterns = [
    # Every v1 pattern is named; Django takes name=None anyway, the stubs want a str.
    *[path("v1/" + str(p.pattern), p.callback, name=p.name) for p in v1],  # type: ignore[arg-type]
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    path("bench/insert/", views.BenchInsertView.as_view(), name="api_bench_insert"),
]
