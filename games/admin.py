from django.contrib import admin
from django.http import HttpRequest

from .models import Game, IdempotencyRecord, Move, Notification, Seat


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
