from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from games.stream import views as stream_views

from . import (
    account,
    blocks,
    bot_levels,
    chat,
    docs,
    lobby,
    maps,
    me,
    plans,
    play,
    players,
    push,
    results,
    seats,
    sheet,
    takeback,
    tokens,
    waiting,
    webhooks,
)
from .bench import bench_urlpatterns

v1 = [
    path("stream/", stream_views.stream, name="api_stream"),
    path("me/bot/", me.BotUpgradeView.as_view(), name="api_me_bot"),
    path("auth/token/", tokens.TokenView.as_view(), name="api_token"),
    path("me/", me.MeView.as_view(), name="api_me"),
    path("maps/", maps.MapListView.as_view(), name="api_maps"),
    path("maps/<slug:slug>/", maps.MapDetailView.as_view(), name="api_map"),
    path("games/", lobby.GameListView.as_view(), name="api_games"),
    path("games/next/", waiting.NextGameView.as_view(), name="api_games_next"),
    path("games/<id:game_id>/", lobby.GameDetailView.as_view(), name="api_game"),
    path("games/<id:game_id>/join/", lobby.GameJoinView.as_view(), name="api_game_join"),
    path(
        "games/<id:game_id>/invitations/",
        lobby.GameInvitationsView.as_view(),
        name="api_game_invitations",
    ),
    path("games/<id:game_id>/resign/", seats.ResignView.as_view(), name="api_game_resign"),
    path("games/<id:game_id>/seeking/", seats.SeekingView.as_view(), name="api_game_seeking"),
    path(
        "games/<id:game_id>/substitute/",
        seats.SubstituteView.as_view(),
        name="api_game_substitute",
    ),
    path("games/<id:game_id>/leave/", lobby.GameLeaveView.as_view(), name="api_game_leave"),
    path("games/<id:game_id>/start/", lobby.GameStartView.as_view(), name="api_game_start"),
    path("games/<id:game_id>/state/", play.GameStateView.as_view(), name="api_game_state"),
    path("games/<id:game_id>/moves/", play.GameMovesView.as_view(), name="api_game_moves"),
    path("games/<id:game_id>/record/", results.GameRecordView.as_view(), name="api_game_record"),
    path("games/<id:game_id>/result/", results.GameResultView.as_view(), name="api_game_result"),
    path(
        "games/<id:game_id>/states/<id:seq>/",
        play.GameStateAtView.as_view(),
        name="api_game_state_at",
    ),
    path("games/<id:game_id>/quote/", play.GameQuoteView.as_view(), name="api_game_quote"),
    path("players/<str:username>/", players.PlayerView.as_view(), name="api_player"),
    path("bot-levels/", bot_levels.BotLevelListView.as_view(), name="api_bot_levels"),
    path("me/calendar/", account.CalendarView.as_view(), name="api_me_calendar"),
    path("me/vacation/", account.VacationView.as_view(), name="api_me_vacation"),
    path("me/tokens/", account.TokenListView.as_view(), name="api_me_tokens"),
    path("me/tokens/<str:prefix>/", account.TokenDetailView.as_view(), name="api_me_token"),
    path("games/<id:game_id>/chat/", chat.GameChatView.as_view(), name="api_game_chat"),
    path(
        "games/<id:game_id>/chat/<id:message_id>/",
        chat.GameChatMessageView.as_view(),
        name="api_game_chat_message",
    ),
    path(
        "games/<id:game_id>/chat/<id:message_id>/report/",
        chat.GameChatReportView.as_view(),
        name="api_game_chat_report",
    ),
    path("webhooks/", webhooks.WebhookListView.as_view(), name="api_webhooks"),
    path("me/discord/", webhooks.DiscordUserView.as_view(), name="api_me_discord"),
    path("push/key/", push.PushKeyView.as_view(), name="api_push_key"),
    path("me/blocks/", blocks.BlockListView.as_view(), name="api_me_blocks"),
    path("me/blocks/<str:username>/", blocks.BlockDetailView.as_view(), name="api_me_block"),
    path("me/push/", push.PushDeviceListView.as_view(), name="api_me_push"),
    path("me/push/<id:device_id>/", push.PushDeviceDetailView.as_view(), name="api_me_push_device"),
    path("webhooks/<id:hook_id>/", webhooks.WebhookDetailView.as_view(), name="api_webhook"),
    path(
        "webhooks/<id:hook_id>/test/", webhooks.WebhookTestView.as_view(), name="api_webhook_test"
    ),
    path("games/<id:game_id>/plans/", plans.GamePlansView.as_view(), name="api_game_plans"),
    path(
        "games/<id:game_id>/forecast/", results.GameForecastView.as_view(), name="api_game_forecast"
    ),
    path("games/<id:game_id>/takeback/", takeback.TakebackView.as_view(), name="api_takeback"),
    path("games/<id:game_id>/sheet/", sheet.GameSheetView.as_view(), name="api_game_sheet"),
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
        plans.GamePlanDetailView.as_view(),
        name="api_game_plan",
    ),
]

urlpatterns = [
    # Every v1 pattern is named; Django takes name=None anyway, the stubs want a str.
    *[path("v1/" + str(p.pattern), p.callback, name=p.name) for p in v1],  # type: ignore[arg-type]
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The same document under the version's prefix, where docs/API.md and clients look for it.
    path("v1/schema/", SpectacularAPIView.as_view(), name="api_v1_schema"),
    path("docs/", docs.swagger_ui, name="api_docs"),
    path("redoc/", docs.redoc, name="api_redoc"),
    *bench_urlpatterns(),
]
