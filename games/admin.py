from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    ChatMessage,
    ChatReport,
    Game,
    IdempotencyRecord,
    InboundMail,
    Move,
    Notification,
    Seat,
    Webhook,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "map", "status", "seq", "max_players", "created_at"]
    list_filter = ["status", "map"]
    exclude = ["seed", "state_json"]  # secrets stay out of the admin too
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "seat", "source", "created_at"]
    list_filter = ["source"]

    def has_change_permission(self, request: HttpRequest, obj: Move | None = None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["id", "recipient", "game", "kind", "status", "attempts", "created_at"]
    list_filter = ["status", "kind"]


admin.site.register(IdempotencyRecord)


class ChatReportInline(admin.TabularInline):
    model = ChatReport
    extra = 0
    readonly_fields = ["reporter", "created_at"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Moderation: reported messages first; hide or show them (never edited by staff)."""

    list_display = ["id", "game", "author", "text", "hidden", "created_at"]
    list_filter = ["hidden"]
    search_fields = ["text"]
    readonly_fields = ["game", "author", "text", "created_at", "edited_at"]
    inlines = [ChatReportInline]
    actions = ["hide", "show"]

    @admin.action(description="Hide the selected messages")
    def hide(self, request: HttpRequest, queryset: Any) -> None:
        queryset.update(hidden=True)

    @admin.action(description="Show the selected messages again")
    def show(self, request: HttpRequest, queryset: Any) -> None:
        queryset.update(hidden=False)


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "via", "sender", "status", "code", "game", "line"]
    list_filter = ["status", "via", "code"]

    def has_change_permission(self, request: HttpRequest, obj: InboundMail | None = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "game", "format", "active", "failures_in_row"]
    list_filter = ["active", "format"]
    exclude = ["secret"]
