from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from games.stream import views as stream_views

from . import account, docs, players, takeback, views

v1 = [
    path("stream/", stream_views.stream, name="api_stream"),
    path("me/bot/", views.BotUpgradeView.as_view(), name="api_me_bot"),
    path("auth/token/", views.TokenView.as_view(), name="api_token"),
    path("me/", views.MeView.as_view(), name="api_me"),
    path("maps/", views.MapListView.as_view(), name="api_maps"),
    path("maps/<slug:slug>/", views.MapDetailView.as_view(), name="api_map"),
    path("games/", views.GameListView.as_view(), name="api_games"),
    path("games/<id:game_id>/", views.GameDetailView.as_view(), name="api_game"),
    path("games/<id:game_id>/join/", views.GameJoinView.as_view(), name="api_game_join"),
    path(
        "games/<id:game_id>/invitations/",
        views.GameInvitationsView.as_view(),
        name="api_game_invitations",
    ),
    path("games/<id:game_id>/leave/", views.GameLeaveView.as_view(), name="api_game_leave"),
    path("games/<id:game_id>/start/", views.GameStartView.as_view(), name="api_game_start"),
    path("games/<id:game_id>/state/", views.GameStateView.as_view(), name="api_game_state"),
    path("games/<id:game_id>/moves/", views.GameMovesView.as_view(), name="api_game_moves"),
    path("games/<id:game_id>/record/", views.GameRecordView.as_view(), name="api_game_record"),
    path("games/<id:game_id>/result/", views.GameResultView.as_view(), name="api_game_result"),
    path(
        "games/<id:game_id>/states/<id:seq>/",
        views.GameStateAtView.as_view(),
        name="api_game_state_at",
    ),
    path("games/<id:game_id>/quote/", views.GameQuoteView.as_view(), name="api_game_quote"),
    path("players/<str:username>/", players.PlayerView.as_view(), name="api_player"),
    path("me/calendar/", account.CalendarView.as_view(), name="api_me_calendar"),
    path("me/vacation/", account.VacationView.as_view(), name="api_me_vacation"),
    path("me/tokens/", account.TokenListView.as_view(), name="api_me_tokens"),
    path("me/tokens/<str:prefix>/", account.TokenDetailView.as_view(), name="api_me_token"),
    path("games/<id:game_id>/chat/", views.GameChatView.as_view(), name="api_game_chat"),
    path(
        "games/<id:game_id>/chat/<id:message_id>/",
        views.GameChatMessageView.as_view(),
        name="api_game_chat_message",
    ),
    path(
        "games/<id:game_id>/chat/<id:message_id>/report/",
        views.GameChatReportView.as_view(),
        name="api_game_chat_report",
    ),
    path("webhooks/", views.WebhookListView.as_view(), name="api_webhooks"),
    path("webhooks/<id:hook_id>/", views.WebhookDetailView.as_view(), name="api_webhook"),
    path("webhooks/<id:hook_id>/test/", views.WebhookTestView.as_view(), name="api_webhook_test"),
    path("games/<id:game_id>/plans/", views.GamePlansView.as_view(), name="api_game_plans"),
    path(
        "games/<id:game_id>/forecast/", views.GameForecastView.as_view(), name="api_game_forecast"
    ),
    path("games/<id:game_id>/takeback/", takeback.TakebackView.as_view(), name="api_takeback"),
    path(
        "games/<id:game_id>/takeback/requests/",
        takeback.TakebackRequestsView.as_view(),
        name="api_takeback_requests",
    ),
    path(
        "games/<id:game_id>/takeback/requests/<id:request_id>/",
        takeback.TakebackRequestView.as_view(),
        name="api_takeback_request",
    ),
    path(
        "games/<id:game_id>/takeback/requests/<id:request_id>/accept/",
        takeback.TakebackAcceptView.as_view(),
        name="api_takeback_accept",
    ),
    path(
        "games/<id:game_id>/takeback/requests/<id:request_id>/decline/",
        takeback.TakebackDeclineView.as_view(),
        name="api_takeback_decline",
    ),
    path("games/<id:game_id>/practice/", takeback.PracticeView.as_view(), name="api_practice"),
    path(
        "games/<id:game_id>/plans/<slug:kind>/",
        views.GamePlanDetailView.as_view(),
        name="api_game_plan",
    ),
]

urlpatterns = [
    # Every v1 pattern is named; Django takes name=None anyway, the stubs want a str.
    *[path("v1/" + str(p.pattern), p.callback, name=p.name) for p in v1],  # type: ignore[arg-type]
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("docs/", docs.swagger_ui, name="api_docs"),
    path("redoc/", docs.redoc, name="api_redoc"),
    path("bench/insert/", views.BenchInsertView.as_view(), name="api_bench_insert"),
]
