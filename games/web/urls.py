from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_new, name="game_new"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/move/", views.game_move, name="game_move"),
    path("games/<int:game_id>/history/<int:seq>/", views.game_history, name="game_history"),
    path("games/<int:game_id>/history/", views.game_history_jump, name="game_history_jump"),
    path("games/<int:game_id>/quote/", views.game_quote, name="game_quote"),
    path("games/<int:game_id>/<str:what>/", views.game_lobby, name="game_lobby"),
    path("language/", views.set_language, name="set_language"),
]
