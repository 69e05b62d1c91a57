from django.contrib import admin
from django.contrib.admin.views.main import ORDER_VAR, ChangeList
from django.db.models import Count, Expression, QuerySet
from django.http import HttpRequest, HttpResponse

from .mailevents import rates
from .models import (
    ChatMessage,
    ChatReport,
    Game,
    IdempotencyRecord,
    InboundMail,
    MailEvent,
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


@admin.register(MailEvent)
class MailEventAdmin(admin.ModelAdmin):
    """Reports about our emails (``games.mailevents``), with the last day's bounce and
    complaint rates above the list, flagged past the providers' thresholds."""

    list_display = ["created_at", "kind", "address", "user", "source", "effect", "detail"]
    list_filter = ["kind", "source", "effect"]
    search_fields = ["address", "user__username"]
    readonly_fields = [f.name for f in MailEvent._meta.fields]
    change_list_template = "admin/games/mailevent/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, object] | None = None
    ) -> HttpResponse:
        figures = rates.rates(fresh=True)
        context = {
            **(extra_context or {}),
            "rates": {
                **figures,
                "bounce_pct": f"{figures['bounce_rate'] * 100:.2f}",
                "complaint_pct": f"{figures['complaint_rate'] * 100:.3f}",
                "bounce_max_pct": f"{figures['bounce_rate_max'] * 100:g}",
                "complaint_max_pct": f"{figures['complaint_rate_max'] * 100:g}",
            },
        }
        return super().changelist_view(request, extra_context=context)


class ChatReportInline(admin.TabularInline):
    model = ChatReport
    extra = 0
    readonly_fields = ["reporter", "created_at"]


class ReportedFirst(ChangeList):
    """The moderators' list of chat messages: the most reported first, then the newest (unless
    a column header asks for another order)."""

    def get_ordering(
        self, request: HttpRequest, queryset: QuerySet[ChatMessage]
    ) -> list[Expression | str]:
        if ORDER_VAR in self.params:
            return super().get_ordering(request, queryset)
        return ["-n_reports", "-pk"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Moderation: reported messages first; hide or show them (never edited by staff)."""

    list_display = ["id", "game", "author", "text", "reports", "hidden", "created_at"]
    list_filter = ["hidden"]
    search_fields = ["text"]
    readonly_fields = ["game", "author", "text", "created_at", "edited_at"]
    inlines = [ChatReportInline]
    actions = ["hide", "show"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request).annotate(n_reports=Count("reports"))

    def get_changelist(self, request: HttpRequest, **kwargs: object) -> type[ChangeList]:
        return ReportedFirst

    @admin.display(description="reports", ordering="n_reports")
    def reports(self, obj: ChatMessage) -> int:
        return int(getattr(obj, "n_reports", 0))

    @admin.action(description="Hide the selected messages")
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.order_by().update(hidden=True)  # not by the count of reports

    @admin.action(description="Show the selected messages again")
    def show(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.order_by().update(hidden=False)


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "via", "sender", "user", "status", "code", "game", "line"]
    list_filter = ["status", "via", "code"]
    readonly_fields = ["raw_text"]

    @admin.display(description="raw message (failed only)")
    def raw_text(self, obj: InboundMail) -> str:
        """A failed message's bytes, for an operator to read or replay (``receive_mail``)."""
        raw = bytes(obj.raw) if obj.raw is not None else b""
        return raw[:200_000].decode("utf-8", "replace")

    def has_change_permission(self, request: HttpRequest, obj: InboundMail | None = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "game", "format", "active", "failures_in_row"]
    list_filter = ["active", "format"]
    exclude = ["secret"]
