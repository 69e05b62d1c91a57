from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "timezone", "language", "notification_mode"]
    search_fields = ["user__username", "display_name"]
