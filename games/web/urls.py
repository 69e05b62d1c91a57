from django.urls import path

from . import bots, calendar, chat, plans, players, results, takeback, views, webhooks

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_new, name="game_new"),
    path("games/<id:game_id>/", views.game_page, name="game"),
    path("games/<id:game_id>/move/", views.game_move, name="game_move"),
    path("games/<id:game_id>/history/<id:seq>/", views.game_history, name="game_history"),
    path("games/<id:game_id>/history/", views.game_history_jump, name="game_history_jump"),
    path("games/<id:game_id>/quote/", views.game_quote, name="game_quote"),
    path("games/<id:game_id>/plans/", plans.game_plans, name="game_plans"),
    path("games/<id:game_id>/chat/", chat.game_chat, name="game_chat"),
    path("games/<id:game_id>/result/", results.game_result_page, name="game_result"),
    path("games/<id:game_id>/calendar.ics", calendar.game_calendar, name="game_calendar"),
    path("calendar/<str:token>.ics", calendar.calendar_feed, name="calendar_feed"),
    path("webhooks/", webhooks.webhooks_page, name="webhooks"),
    path("account/bot/", bots.bot_account_page, name="bot_account"),
    path("players/<str:username>/", players.player_page, name="player"),
    path("bots/", players.bot_levels_page, name="bot_levels"),
    path("games/<id:game_id>/takeback/", takeback.game_takeback, name="game_takeback"),
    path(
        "games/<id:game_id>/takeback/<id:request_id>/",
        takeback.game_takeback_answer,
        name="game_takeback_answer",
    ),
    path("games/<id:game_id>/practice/", takeback.game_practice, name="game_practice"),
    path("games/<id:game_id>/invite/<str:code>/", views.game_invite_link, name="game_invite"),
    path("games/<id:game_id>/<str:what>/", views.game_lobby, name="game_lobby"),
    path("language/", views.set_language, name="set_language"),
]
