from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from . import deliverability
from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = [
        "user",
        "display_name",
        "timezone",
        "language",
        "notification_mode",
        "email_undeliverable_reason",
    ]
    list_filter = ["email_undeliverable_reason", "notification_mode"]
    search_fields = ["user__username", "display_name", "user__email"]
    actions = ["address_works"]

    @admin.action(description="The address works again (emails to it resume)")
    def address_works(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        """For an operator who knows an undeliverable address works again (the player wrote
        from it): the same as the player's confirmation (``accounts.deliverability``)."""
        cleared = sum(
            deliverability.address_confirmed(user=p.user, address=p.user.email)
            for p in queryset.select_related("user")
        )
        self.message_user(request, f"{cleared} address(es) marked as working.", messages.SUCCESS)
